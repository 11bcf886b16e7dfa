"""Taking back a tag's rename, merge or delete (the window's Ctrl+Z, desktop.edits.undo): `tag_state` reads what
some tags own before the edit — the papers carrying them, whether each is an interest, the papers dismissed from
its suggestions (with when) — and `restore_tags` puts exactly that back in one transaction.

A rename writes a `tag_renames` row that a sync replays on other devices (db.sync). Taking the rename back deletes
that row while it is not sent yet; once sent, a plain rename is followed by its reverse rename, so the other
devices follow the undo too. (A merge sent already has no reverse: the papers' own tag changes carry the undo.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from db.changes import NOTHING, TAGS, TRIAGE, Changes
from db.library.reading import CHUNK
from db.library.store import Store, wall_ms
from db.text.cleaning import clean_tag, tag_key


@dataclass(frozen=True)
class TagRecord:
    """One tag as it was: `key` (db.text.cleaning.tag_key), `name` (None: no such tag then), the ids of the papers
    carrying it, whether it was an interest, and its dismissals as (paper id, dismissed_at ISO time)."""

    key: str
    name: str | None
    carriers: tuple[str, ...] = ()
    interest: bool = False
    dismissals: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class TagState:
    """Tags as they were before an edit (`tags`), and the newest `tag_renames` row then (`renames_before`)."""

    tags: tuple[TagRecord, ...]
    renames_before: int


def tag_state(store: Store, names: Iterable[str]) -> TagState:
    """What the tags `names` (matched case-insensitively in NFC; a name no tag has is kept as absent) own now.
    Read inside the edit's transaction (`with library.transaction():`) so that it is what the edit changes."""
    records = []
    with store.lock:
        for key in dict.fromkeys(tag_key(clean_tag(name)) for name in names):
            row = store.read("SELECT id, name FROM tags WHERE key = ?", (key,))
            if not row:
                records.append(TagRecord(key, None))
                continue
            tag_id, name = row[0]
            records.append(TagRecord(
                key, name,
                tuple(store.column("SELECT paper_id FROM paper_tags WHERE tag_id = ? ORDER BY paper_id", (tag_id,))),
                bool(store.read("SELECT 1 FROM interests WHERE tag_id = ?", (tag_id,))),
                tuple(store.read("SELECT paper_id, dismissed_at FROM dismissals WHERE tag_id = ? ORDER BY rowid",
                                 (tag_id,)))))
        newest = store.column("SELECT COALESCE(MAX(id), 0) FROM tag_renames")[0]
    return TagState(tuple(records), newest)


def restore_tags(store: Store, state: TagState) -> Changes:
    """Make the tags of `state` own exactly what they owned then: a tag absent then is deleted, the others get
    their spelling, carriers (papers deleted since are passed over), interest and dismissals back, and a rename
    of them made since is taken back for syncing (module docstring). Returns `tags` changes of the papers whose
    tags changed and `triage` changes of those whose dismissals or interest changed; nothing when all was as it
    was."""
    tags_changed: set[str] = set()
    triage_changed: set[str] = set()
    with store.transaction() as conn:
        for record in sorted(state.tags, key=lambda record: record.name is not None):  # the absent ones first
            row = conn.execute("SELECT id, name FROM tags WHERE key = ?", (record.key,)).fetchone()
            if record.name is None:
                if row is not None:
                    tags_changed.update(_ids(conn, "SELECT paper_id FROM paper_tags WHERE tag_id = ?", row[0]))
                    triage_changed.update(_ids(conn, "SELECT paper_id FROM dismissals WHERE tag_id = ?", row[0]))
                    conn.execute("DELETE FROM tags WHERE id = ?", (row[0],))
                continue
            if row is None:
                tag_id = conn.execute("INSERT INTO tags (name, key) VALUES (?, ?)", (record.name, record.key)).lastrowid
            else:
                tag_id = row[0]
                if row[1] != record.name:  # the spelling shows on every carrier
                    conn.execute("UPDATE tags SET name = ? WHERE id = ?", (record.name, tag_id))
                    tags_changed.update(_ids(conn, "SELECT paper_id FROM paper_tags WHERE tag_id = ?", tag_id))
            tags_changed.update(_make_exactly(conn, "paper_tags", tag_id, {pid: None for pid in record.carriers}))
            triage_changed.update(_make_exactly(conn, "dismissals", tag_id, dict(record.dismissals)))
            interest = conn.execute("SELECT 1 FROM interests WHERE tag_id = ?", (tag_id,)).fetchone() is not None
            if interest != record.interest:
                conn.execute("INSERT INTO interests VALUES (?)" if record.interest
                             else "DELETE FROM interests WHERE tag_id = ?", (tag_id,))
                triage_changed.update(_ids(conn, "SELECT paper_id FROM paper_tags WHERE tag_id = ?", tag_id))
        _take_back_renames(conn, state)
        changes = store.log(conn, sorted(tags_changed), TAGS) if tags_changed else NOTHING
        return changes | (store.log(conn, sorted(triage_changed), TRIAGE) if triage_changed else NOTHING)


def _ids(conn, sql: str, tag_id: int) -> list[str]:
    return [row[0] for row in conn.execute(sql, (tag_id,))]


def _make_exactly(conn, table: str, tag_id: int, wanted: dict[str, str | None]) -> set[str]:
    """Make the rows of `table` (paper_tags, or dismissals with their times) for the tag exactly `wanted`
    ({paper id: dismissed_at}) among the papers the library has; returns the papers whose row came or went."""
    have = set(_ids(conn, f"SELECT paper_id FROM {table} WHERE tag_id = ?", tag_id))
    gone = sorted(have - set(wanted))
    conn.executemany(f"DELETE FROM {table} WHERE paper_id = ? AND tag_id = ?", [(pid, tag_id) for pid in gone])
    missing = sorted(set(wanted) - have)
    came = [paper_id for start in range(0, len(missing), CHUNK)
            for paper_id in _ids_in(conn, missing[start:start + CHUNK])]
    if table == "paper_tags":
        conn.executemany("INSERT INTO paper_tags VALUES (?, ?)", [(paper_id, tag_id) for paper_id in came])
    else:
        conn.executemany("INSERT INTO dismissals VALUES (?, ?, ?)",
                         [(paper_id, tag_id, wanted[paper_id]) for paper_id in came])
    return set(gone) | set(came)


def _ids_in(conn, ids: list[str]) -> list[str]:
    """The ids of `ids` the library has (papers deleted since are passed over)."""
    return [row[0] for row in conn.execute(f"SELECT id FROM papers WHERE id IN ({','.join('?' * len(ids))})", ids)]


def _take_back_renames(conn, state: TagState) -> None:
    """The renames of the state's tags made since it was read (the edit's own): deleted while unsent; once sent,
    a plain rename (onto a name no tag had, or the same tag respelled) gets its reverse."""
    before = {record.key: record for record in state.tags}
    marks = ",".join("?" * len(before))
    for rename_id, old_key, new_name, hlc in conn.execute(
            f"SELECT id, old_key, new_name, hlc FROM tag_renames WHERE id > ? AND old_key IN ({marks})"
            f" ORDER BY id DESC", (state.renames_before, *before)).fetchall():
        if hlc is None:  # not sent: as if it never was
            conn.execute("DELETE FROM tag_renames WHERE id = ?", (rename_id,))
            continue
        new_key = tag_key(new_name)
        onto = before.get(new_key)
        if before[old_key].name is not None and (new_key == old_key or onto is None or onto.name is None):
            conn.execute("INSERT INTO tag_renames (old_key, new_name, at) VALUES (?, ?, ?)",
                         (new_key, before[old_key].name, wall_ms()))
