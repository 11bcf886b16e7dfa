"""The library's copy of the tags and notes shared in its joined projects (issue 27), as the last project sync
(db.sync.project_sync) received them: every member's the server let this member read — the others' only while the
project is unblinded and its owner shares that kind; this member's own always, which is what the server held of
them, the base the next sync compares the library's tags and notes with (only what changed since is sent).

Table (schema 15) `project_annotations`: (project, paper_id, reviewer, tags as a JSON array or NULL, note as its
Markdown source or NULL, tags_at, note_at: ISO times the server received them). NULL is "not readable here" (or
never sent). The member's own tags and notes are the library's (db.library.tags, db.library.annotations): nothing
here ever writes them. Changes are `shared` (db.changes.SHARED) of the library's papers whose copied rows changed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from db.changes import NOTHING, SHARED, Changes
from db.library.store import Store
from db.text.cleaning import strip_controls

_COLUMNS = "paper_id, reviewer, tags, note, tags_at, note_at"


def _row(row: tuple) -> tuple:
    paper_id, reviewer, tags, note, tags_at, note_at = row
    return paper_id, reviewer, None if tags is None else list(json.loads(tags)), note, tags_at, note_at


def set_annotations(store: Store, name: str, rows: Iterable[tuple]) -> Changes:
    """Replace the copy of project `name`'s shared tags and notes with the server's: `rows` (paper, reviewer, tag
    names or None, note or None, tags_at, note_at); tags and notes are kept without control and bidirectional
    characters (db.text.cleaning.strip_controls: another member's text reads in the order it is stored). Returns
    a `shared` change of the library's papers whose rows changed (NOTHING when none did)."""
    after = [(paper, reviewer, None if tags is None else json.dumps([strip_controls(t) for t in tags],
                                                                     ensure_ascii=False),
              None if note is None else strip_controls(note), tags_at or "", note_at or "")
             for paper, reviewer, tags, note, tags_at, note_at in rows]
    select = f"SELECT {_COLUMNS} FROM project_annotations WHERE project = ?"
    if sorted(store.read(select, (name,))) == sorted(after):  # as it was (most syncs): nothing written
        return NOTHING
    with store.transaction() as conn:
        before = {tuple(r[:4]) for r in conn.execute(select, (name,))}
        conn.execute("DELETE FROM project_annotations WHERE project = ?", (name,))
        conn.executemany(f"INSERT INTO project_annotations (project, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(name, *row) for row in after])
        touched = {r[0] for r in before ^ {tuple(r[:4]) for r in after}}
        present = sorted(i for i in touched if conn.execute("SELECT 1 FROM papers WHERE id = ?", (i,)).fetchone())
        return store.log(conn, present, SHARED) if present else NOTHING


def annotations(store: Store, name: str) -> list[tuple[str, str, list[str] | None, str | None, str, str]]:
    """The copied rows of project `name`: (paper, reviewer, tag names or None, note or None, tags_at, note_at), by
    paper then reviewer (this member's own included: what the server held at the last sync)."""
    return [_row(row) for row in store.read(f"SELECT {_COLUMNS} FROM project_annotations WHERE project = ?"
                                            " ORDER BY paper_id, reviewer", (name,))]


def shared_on(store: Store, paper_id: str) -> list[dict]:
    """What the other members of every joined project shared on paper `paper_id` and this member may read, by
    project then reviewer: {"project", "reviewer", "tags" [str] (empty: none readable), "note" (str, "" for
    none), "tags_at", "note_at"}; rows with neither left out. This member's own rows are not among them."""
    found = []
    for project, *row in store.read(
            f"SELECT a.project, {', '.join('a.' + c for c in _COLUMNS.split(', '))} FROM project_annotations a"
            " JOIN projects x ON x.name = a.project WHERE a.paper_id = ? AND a.reviewer <> x.role"
            " ORDER BY a.project, a.reviewer", (paper_id,)):
        _paper, reviewer, tags, note, tags_at, note_at = _row(tuple(row))
        if tags or (note or "").strip():
            found.append({"project": project, "reviewer": reviewer, "tags": tags or [], "note": note or "",
                          "tags_at": tags_at, "note_at": note_at})
    return found

