"""Deleting papers from the library, and taking a deletion back (functions of the store; the Library hands
them out).

`delete_papers(ids)` removes papers with everything of theirs (annotations, tags on them, note history,
dismissals, check draws) in one transaction, logged as `removed`. What was removed is kept in the
`deleted_papers` table (schema 7, db.library.schema): the rows themselves, so `undelete_papers(ids)` (the
window's undo) puts the papers back exactly, in their old places; and the paper as a Margin JSON item when it
carried anything of the user's, so the next automatic backup (db.library.backup.write_backup) still holds its
annotations and restoring that backup brings them back. Kept deletions older than KEEP_DAYS are forgotten at
the next deletion.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from functools import partial

from db.changes import ADDED, NOTHING, REMOVED, Changes
from db.library.annotations import note_history
from db.library.match_keys import store_match_keys
from db.library.reading import papers
from db.library.store import Store, now

KEEP_DAYS = 30

# the tables holding a paper's own rows, with the column naming the paper; the order is the order of insertion
_OWN_ROWS = (("papers", "id"), ("annotations", "paper_id"), ("paper_tags", "paper_id"),
             ("note_history", "paper_id"), ("dismissals", "paper_id"), ("check_papers", "paper_id"),
             ("decisions", "paper_id"), ("works", "paper_id"))  # (a version put back rejoins its work)
# what a row refers to besides its paper: it is put back only when that still exists
_REFERS = {"paper_tags": ("tags", "tag_id"), "dismissals": ("tags", "tag_id"),
           "check_papers": ("check_samples", "sample_id")}


def delete_papers(store: Store, ids: Iterable[str]) -> Changes:
    """Delete the papers `ids` (full ids) and everything of theirs, in one transaction.

    Returns Changes of kind `removed` for them. Raises KeyError naming the first id that is not in the
    library; nothing is deleted then."""
    from db.exporters.margin_json import paper_item

    ids = list(dict.fromkeys(ids))
    if not ids:
        return NOTHING
    with store.transaction() as conn:
        marks = ", ".join("?" * len(ids))
        present = {row[0] for row in conn.execute(f"SELECT id FROM papers WHERE id IN ({marks})", ids)}
        for paper_id in ids:
            if paper_id not in present:
                raise KeyError(paper_id)
        stamp = now()
        kept = []
        history = partial(note_history, store)
        for paper in papers(store, ids):
            annotated = paper.is_annotated or paper.read or history(paper.id)
            item = json.dumps(paper_item(paper, history), ensure_ascii=False) if annotated else None
            kept.append((paper.id, stamp, json.dumps(_own_rows(conn, paper.id), ensure_ascii=False), item))
        conn.executemany("INSERT INTO deleted_papers (paper_id, deleted_at, rows, item) VALUES (?, ?, ?, ?)",
                         kept)
        conn.execute(f"DELETE FROM papers WHERE id IN ({marks})", ids)  # the rest goes by ON DELETE CASCADE
        old = (datetime.now(UTC) - timedelta(days=KEEP_DAYS)).isoformat(timespec="seconds")
        conn.execute("DELETE FROM deleted_papers WHERE deleted_at < ?", (old,))
        return store.log(conn, ids, REMOVED)


def undelete_papers(store: Store, ids: Iterable[str]) -> Changes:
    """Put papers deleted by `delete_papers` back as they were (the latest deletion of each). Papers that
    are in the library again, or of which no deletion is kept, are left as they are. Returns Changes of
    kind `added` for those put back."""
    ids = list(dict.fromkeys(ids))
    back = []
    with store.transaction() as conn:
        for paper_id in ids:
            if conn.execute("SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone():
                continue
            row = conn.execute("SELECT rowid, rows FROM deleted_papers WHERE paper_id = ?"
                               " ORDER BY deleted_at DESC, rowid DESC LIMIT 1", (paper_id,)).fetchone()
            if row is None:
                continue
            _put_back(conn, json.loads(row[1]))
            conn.execute("DELETE FROM deleted_papers WHERE rowid = ?", (row[0],))
            back.append(paper_id)
        store_match_keys(conn, back)  # what re-import matching looks up (db.library.matching)
        return store.log(conn, back, ADDED) if back else NOTHING


def deleted_items(store: Store, since: str | None = None) -> list[dict]:
    """The Margin JSON items (db.exporters.margin_json) of annotated papers deleted after the ISO UTC time
    `since` or at it (all kept ones when None) and not in the library again, oldest deletion first."""
    return [json.loads(item) for item in store.column(
        "SELECT d.item FROM deleted_papers d WHERE d.item IS NOT NULL AND d.deleted_at >= ?"
        " AND NOT EXISTS (SELECT 1 FROM papers p WHERE p.id = d.paper_id) ORDER BY d.deleted_at, d.rowid",
        (since or "",))]


def _own_rows(conn: sqlite3.Connection, paper_id: str) -> dict[str, list[dict]]:
    rows = {}
    for table, column in _OWN_ROWS:
        cursor = conn.execute(f"SELECT * FROM {table} WHERE {column} = ?", (paper_id,))
        names = [description[0] for description in cursor.description]
        rows[table] = [dict(zip(names, row, strict=True)) for row in cursor]
    return rows


def _put_back(conn: sqlite3.Connection, rows: dict[str, list[dict]]) -> None:
    for table, _column in _OWN_ROWS:
        for row in rows.get(table, []):
            refers = _REFERS.get(table)
            if refers and not conn.execute(f"SELECT 1 FROM {refers[0]} WHERE id = ?", (row[refers[1]],)).fetchone():
                continue  # its tag or check sample was deleted meanwhile
            if table == "note_history":
                row = {name: value for name, value in row.items() if name != "id"}  # its id may be taken now
            columns = ", ".join(row)
            conn.execute(f"INSERT OR IGNORE INTO {table} ({columns}) VALUES ({', '.join('?' * len(row))})",
                         tuple(row.values()))
