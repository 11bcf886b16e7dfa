"""The library's side of a sync through a server (db.sync is the engine; schema 9, db.library.schema).

What it keeps in library.db: `sync_state` (this device's id, its hybrid logical clock, the change number stamped
up to, the server change pulled up to, counters), `sync_fields` (per synced field — entity, field — the digest of
the value last sent or applied and its clock), `sync_outbox` (changes stamped and not yet acknowledged by the
server, numbered: the server keeps each (device, number) once), `sync_conflicts` (what the clock decided) and
`tag_renames` (renames made here, stamped when sent; renames received, to replay on late changes).

It also holds the writes a sync applies that the other modules have no function for: a paper put with a given
id and exact bibliographic fields (`put_paper`), a note merged with its history (`merge_note`, `add_history`).
Every write is one transaction of the store (joining the caller's, so a sync applies a batch in one) and is
logged in the change log like any other, by the writer SYNC_WRITER, whose changes are never sent back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence

from db.changes import ADDED, BIBLIOGRAPHIC, NOTE, NOTHING, Changes
from db.library.annotations import annotate
from db.library.deleting import delete_papers
from db.library.match_keys import store_match_keys
from db.library.reading import CHUNK
from db.library.store import BIBLIOGRAPHIC_COLUMNS, Store, now
from db.paper import normalize_text
from db.text.labels import derive_label

SYNC_WRITER = "sync"  # the change-log writer of a sync's own connection (db.sync): its changes are not sent back
_JSON_COLUMNS = ("authors", "keywords", "extra")


def _marks(values: Sequence) -> str:
    return ",".join("?" * len(values))


# ----------------------------------------------------------------- state
def sync_state(store: Store) -> dict[str, str]:
    """The sync bookkeeping as text by key (`device`, `clock`, `stamped`, `pulled`, `server`, …; empty when
    this library never synced)."""
    return dict(store.read("SELECT key, value FROM sync_state"))


def set_sync_state(store: Store, values: dict[str, object]) -> None:
    """Set sync bookkeeping keys (values stored as text; None removes the key). Changes no paper."""
    with store.transaction() as conn:
        for key, value in values.items():
            if value is None:
                conn.execute("DELETE FROM sync_state WHERE key = ?", (key,))
            else:
                conn.execute("INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)", (key, str(value)))


# ----------------------------------------------------------------- what changed here
def changed_papers(store: Store, after: int) -> tuple[dict[str, dict[str, int]], int] | None:
    """Papers changed after change number `after` by anyone but a sync: {id: {kind of change (db.changes):
    time of its latest change of that kind, ms since the epoch (0 when logged before schema 9)}}, and the newest
    change number. None when the change log no longer reaches back that far (the caller then compares every
    paper)."""
    with store.lock:
        newest = store.last_change()
        oldest = store.read("SELECT MIN(seq) FROM change_log")[0][0]
        if (oldest or 1) > after + 1 and newest > after:
            return None
        rows = store.read("SELECT paper_id, kinds, MAX(at) FROM change_log WHERE seq > ? AND seq <= ?"
                          " AND writer != ? GROUP BY paper_id, kinds", (after, newest, SYNC_WRITER))
    found: dict[str, dict[str, int]] = {}
    for paper_id, kinds, at in rows:
        times = found.setdefault(paper_id, {})
        for kind in kinds.split(","):
            times[kind] = max(times.get(kind, 0), at)
    return found, newest


def paper_states(store: Store, ids: Iterable[str]) -> dict[str, dict]:
    """What a sync sends of papers `ids`: {id: {"paper": {column: value} of BIBLIOGRAPHIC_COLUMNS (JSON columns
    decoded) or None when the paper is not in the library, "rating": int | None, "read": bool, "title": str |
    None, "note": str, "history": sorted note texts of its history, "tags": {tag key: name}, "dismissed":
    {tag key: name}, "decision": [decision, reason or None] of its screening decision, or None}}."""
    wanted = list(dict.fromkeys(ids))
    states = {paper_id: {"paper": None} for paper_id in wanted}
    columns = ", ".join(f"p.{column}" for column in BIBLIOGRAPHIC_COLUMNS)
    with store.lock:
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start: start + CHUNK]
            for row in store.read(f"SELECT p.id, {columns}, a.rating, COALESCE(a.read, 0), COALESCE(a.note, ''),"
                                  f" a.title FROM papers p LEFT JOIN annotations a ON a.paper_id = p.id"
                                  f" WHERE p.id IN ({_marks(chunk)})", chunk):
                fields = dict(zip(BIBLIOGRAPHIC_COLUMNS, row[1:-4], strict=True))
                for column in _JSON_COLUMNS:
                    fields[column] = json.loads(fields[column])
                rating, read, note, title = row[-4:]
                states[row[0]] = {"paper": fields, "rating": rating, "read": bool(read), "title": title,
                                  "note": note, "history": [], "tags": {}, "dismissed": {}, "decision": None}
            for paper_id, text in store.read(f"SELECT DISTINCT paper_id, note FROM note_history"
                                             f" WHERE paper_id IN ({_marks(chunk)})", chunk):
                if states[paper_id]["paper"] is not None:
                    states[paper_id]["history"].append(text)
            for paper_id, decision, reason in store.read(f"SELECT paper_id, decision, reason FROM decisions"
                                                         f" WHERE paper_id IN ({_marks(chunk)})", chunk):
                if states[paper_id]["paper"] is not None:
                    states[paper_id]["decision"] = [decision, reason]
            for table in ("paper_tags", "dismissals"):
                for paper_id, key, name in store.read(
                        f"SELECT x.paper_id, t.key, t.name FROM {table} x JOIN tags t ON t.id = x.tag_id"
                        f" WHERE x.paper_id IN ({_marks(chunk)})", chunk):
                    states[paper_id]["tags" if table == "paper_tags" else "dismissed"][key] = name
    for state in states.values():
        if state["paper"] is not None:
            state["history"].sort()
    return states


def unstamped_renames(store: Store) -> list[tuple[int, str, str, int]]:
    """Tag renames made here and not yet stamped for sending: (id, old tag key, new name, time in ms), in order."""
    return store.read("SELECT id, old_key, new_name, at FROM tag_renames WHERE hlc IS NULL ORDER BY id")


# ----------------------------------------------------------------- the fields' clocks
def field_clocks(store: Store, entities: Iterable[str]) -> dict[tuple[str, str], tuple[str, str]]:
    """{(entity, field): (digest, clock)} of the synced fields of `entities` ("" for the library's own fields)."""
    wanted = list(dict.fromkeys(entities))
    found = {}
    with store.lock:
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start: start + CHUNK]
            for entity, field, digest, hlc in store.read(
                    f"SELECT entity, field, digest, hlc FROM sync_fields WHERE entity IN ({_marks(chunk)})", chunk):
                found[entity, field] = (digest, hlc)
    return found


def field_entities(store: Store) -> list[str]:
    """Every entity with a synced field (papers deleted here since are among them)."""
    return store.column("SELECT DISTINCT entity FROM sync_fields")


def set_field_clocks(store: Store, entries: Iterable[tuple[str, str, str, str]]) -> None:
    """Record (entity, field, digest, clock) of fields just stamped or applied. Changes no paper."""
    with store.transaction() as conn:
        conn.executemany("INSERT OR REPLACE INTO sync_fields (entity, field, digest, hlc) VALUES (?, ?, ?, ?)",
                         list(entries))


# ----------------------------------------------------------------- the outbox
def add_to_outbox(store: Store, records: Iterable[tuple[str, str, str, str, str]],
                  renames: Iterable[tuple[int, str]] = ()) -> None:
    """Queue stamped changes (entity, field, clock, value as JSON, the clock of the value it replaced or "") for
    the server, and note the clocks given to renames made here ((rename id, clock)). Changes no paper."""
    with store.transaction() as conn:
        conn.executemany("INSERT INTO sync_outbox (entity, field, hlc, value, parent) VALUES (?, ?, ?, ?, ?)",
                         list(records))
        conn.executemany("UPDATE tag_renames SET hlc = ? WHERE id = ?", [(hlc, id_) for id_, hlc in renames])


def outbox(store: Store, limit: int) -> list[tuple[int, str, str, str, str, str]]:
    """The oldest `limit` queued changes: (number, entity, field, clock, value as JSON, clock it replaced)."""
    return store.read("SELECT seq, entity, field, hlc, value, parent FROM sync_outbox ORDER BY seq LIMIT ?", (limit,))


def outbox_size(store: Store) -> int:
    """How many stamped changes wait for the server."""
    return store.read("SELECT COUNT(*) FROM sync_outbox")[0][0]


def drop_from_outbox(store: Store, upto: int) -> None:
    """Forget queued changes numbered up to `upto` (the server acknowledged them). Changes no paper."""
    with store.transaction() as conn:
        conn.execute("DELETE FROM sync_outbox WHERE seq <= ?", (upto,))


def last_number(store: Store) -> int:
    """The highest change number this library ever gave (0: none); numbers are never given twice."""
    rows = store.read("SELECT seq FROM sqlite_sequence WHERE name = 'sync_outbox'")
    return int(rows[0][0]) if rows else 0


def take_device(store: Store, old: str, new: str) -> None:
    """Sync as device `new` from now on, no longer as `old` (which a copy of this library's folder uses too): the
    stamps of changes not yet sent (in the outbox, the fields' kept stamps, renames) name `new`. Changes no paper."""
    with store.transaction() as conn:
        renamed = {hlc: hlc[: -len(old)] + new for (hlc,) in conn.execute("SELECT hlc FROM sync_outbox")
                   if hlc.endswith("." + old)}
        pairs = list(renamed.items())
        for table, column in (("sync_outbox", "hlc"), ("sync_outbox", "parent"), ("sync_fields", "hlc"),
                              ("tag_renames", "hlc")):
            conn.executemany(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", [(b, a) for a, b in pairs])
        conn.executemany("INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)",
                         [("device", new), ("copied_from", old)])


# ----------------------------------------------------------------- applying
def put_papers(store: Store, items: Sequence[tuple[str, dict | None]]) -> Changes:
    """Make each paper of `items` ((id, fields)) have exactly these bibliographic `fields` (paper_states' shape):
    added (at the end of the library) when missing, updated when different, deleted (as db.library.deleting
    does) when None. One transaction; returns what changed (added / bibliographic / removed)."""
    added, updated, deleted = [], [], []
    with store.transaction() as conn:
        current = paper_states(store, [paper_id for paper_id, _fields in items])
        position = conn.execute("SELECT COALESCE(MAX(position), 0) FROM papers").fetchone()[0]
        stamp = now()
        for paper_id, fields in items:
            exists = current[paper_id]["paper"] is not None
            if fields is None:
                if exists:
                    deleted.append(paper_id)
                continue
            if exists and current[paper_id]["paper"] == fields:
                continue
            values = [json.dumps(fields.get(column), ensure_ascii=False, sort_keys=column == "extra")
                      if column in _JSON_COLUMNS else fields.get(column) for column in BIBLIOGRAPHIC_COLUMNS]
            title = fields.get("title")
            label = normalize_text(title) if title and title.strip() else derive_label(fields.get("abstract") or "")
            if exists:
                assignments = ", ".join(f"{column} = ?" for column in BIBLIOGRAPHIC_COLUMNS)
                conn.execute(f"UPDATE papers SET {assignments}, label = ?, updated_at = ? WHERE id = ?",
                             (*values, label, stamp, paper_id))
                updated.append(paper_id)
            else:
                position += 1
                conn.execute(f"INSERT INTO papers (id, position, label, added_at, updated_at,"
                             f" {', '.join(BIBLIOGRAPHIC_COLUMNS)}) VALUES (?, ?, ?, ?, ?, {_marks(values)})",
                             (paper_id, position, label, stamp, stamp, *values))
                added.append(paper_id)
            current[paper_id] = {"paper": fields}
        store_match_keys(conn, added + updated)  # what re-import matching looks up (db.library.matching)
        changes = (store.log(conn, added, ADDED) if added else NOTHING) | (
            store.log(conn, updated, BIBLIOGRAPHIC) if updated else NOTHING)
        return changes | (delete_papers(store, deleted) if deleted else NOTHING)


def merge_note(store: Store, paper_id: str, text: str, wins: bool) -> Changes:
    """A note written elsewhere: when it `wins` (its clock is later), it becomes the note and the note it
    replaces goes into the history; else it goes into the history. A text already in the history is not added
    again. Raises KeyError for an unknown paper."""
    with store.transaction() as conn:
        annotate(store, conn, paper_id)
        current = conn.execute("SELECT note FROM annotations WHERE paper_id = ?", (paper_id,)).fetchone()[0]
        if text == current:
            return NOTHING
        changes = add_history(store, paper_id, [current if wins else text])
        return (annotate(store, conn, paper_id, note=text) if wins else NOTHING) | changes


def add_history(store: Store, paper_id: str, texts: Iterable[str]) -> Changes:
    """Add note texts to a paper's history that it lacks (empty texts are not kept). Raises KeyError for an
    unknown paper."""
    with store.transaction() as conn:
        annotate(store, conn, paper_id)
        have = {row[0] for row in conn.execute("SELECT note FROM note_history WHERE paper_id = ?", (paper_id,))}
        new = [text for text in dict.fromkeys(texts) if text and text not in have]
        if not new:
            return NOTHING
        conn.executemany("INSERT INTO note_history (paper_id, note, saved_at) VALUES (?, ?, ?)",
                         [(paper_id, text, now()) for text in new])
        return store.log(conn, [paper_id], NOTE)


def tag_carriers(store: Store, key: str) -> list[str]:
    """Ids of the papers carrying the tag with key `key` (db.text.cleaning.tag_key)."""
    return store.column("SELECT pt.paper_id FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id WHERE t.key = ?",
                        (key,))


def dismissal_pairs(store: Store) -> list[tuple[str, str, str]]:
    """Every dismissal as (paper id, tag key, tag name)."""
    return store.read("SELECT d.paper_id, t.key, t.name FROM dismissals d JOIN tags t ON t.id = d.tag_id")


def add_rename(store: Store, old_key: str, new_name: str, hlc: str) -> bool:
    """Keep a tag rename received from another device (to replay on changes that arrive later); False when it
    was kept already. Changes no paper."""
    with store.transaction() as conn:
        if conn.execute("SELECT 1 FROM tag_renames WHERE old_key = ? AND hlc = ?", (old_key, hlc)).fetchone():
            return False
        conn.execute("INSERT INTO tag_renames (old_key, new_name, at, hlc) VALUES (?, ?, 0, ?)",
                     (old_key, new_name, hlc))
        return True


def renames_of(store: Store, old_key: str) -> list[tuple[str, str]]:
    """The stamped renames of the tag with key `old_key`: (new name, clock), earliest first."""
    return store.read("SELECT new_name, hlc FROM tag_renames WHERE old_key = ? AND hlc IS NOT NULL ORDER BY hlc",
                      (old_key,))


# ----------------------------------------------------------------- conflicts
def add_conflict(store: Store, entity: str, field: str, kept: str, kept_hlc: str, dropped: str,
                 dropped_hlc: str, since: str | None = None) -> None:
    """Note a conflict the clock decided: the value kept and the one dropped (short texts), with their clocks.
    With `since` (when this sync began receiving, as `decided_at` is written): one line per field, value kept
    and other device in a sync — the latest value of that device dropped (a note received in its four versions
    lost four times to the one written here: one conflict)."""
    with store.transaction() as conn:
        if since is not None:
            earlier = conn.execute("SELECT id, dropped_hlc FROM sync_conflicts WHERE entity = ? AND field = ? AND"
                                   " kept_hlc = ? AND decided_at >= ? AND dropped_hlc LIKE ?",
                                   (entity, field, kept_hlc, since, "%." + dropped_hlc.rsplit(".", 1)[-1])).fetchall()
            if any(other >= dropped_hlc for _id, other in earlier):
                return
            conn.executemany("DELETE FROM sync_conflicts WHERE id = ?", [(id_,) for id_, _other in earlier])
        conn.execute("INSERT INTO sync_conflicts (decided_at, entity, field, kept, kept_hlc, dropped, dropped_hlc)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)", (now(), entity, field, kept, kept_hlc, dropped, dropped_hlc))


def conflicts(store: Store, limit: int = 100) -> list[tuple[str, str, str, str, str, str, str]]:
    """The latest `limit` conflicts, newest first: (decided at, entity, field, kept, kept clock, dropped,
    dropped clock)."""
    return store.read("SELECT decided_at, entity, field, kept, kept_hlc, dropped, dropped_hlc FROM sync_conflicts"
                      " ORDER BY id DESC LIMIT ?", (limit,))


class SyncBook:
    """The sync bookkeeping of one library's store, as `Library.sync_book`: each method is the module function of
    the same name with the store bound (sync_state, set_sync_state, changed_papers, paper_states, field_clocks,
    set_field_clocks, field_entities, unstamped_renames, add_to_outbox, outbox, outbox_size, drop_from_outbox,
    last_number, take_device, put_papers, merge_note, add_history, tag_carriers, dismissal_pairs, add_rename,
    renames_of, add_conflict, conflicts)."""

    def __init__(self, store: Store):
        self._store = store


def _bound(function: Callable) -> Callable:
    def method(self: SyncBook, *args, **kwargs):
        return function(self._store, *args, **kwargs)
    method.__name__, method.__doc__ = function.__name__, function.__doc__
    return method


for _function in (sync_state, set_sync_state, changed_papers, paper_states, field_clocks, set_field_clocks,
                  field_entities, unstamped_renames, add_to_outbox, outbox, outbox_size, drop_from_outbox, last_number,
                  take_device, put_papers, merge_note, add_history, tag_carriers, dismissal_pairs, add_rename,
                  renames_of, add_conflict, conflicts):
    setattr(SyncBook, _function.__name__, _bound(_function))
