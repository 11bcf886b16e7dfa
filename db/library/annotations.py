"""A paper's annotations: rating, read state, the user's title, and the Markdown note with its history.

Each mutation is one write transaction of the store (db.library.store) and returns what it changed
(db.changes.Changes; empty when nothing did), logged in the change log in the same transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from db.changes import NOTE, NOTHING, Changes
from db.library.store import Store, now
from db.library.works import versions_in
from db.text.cleaning import clean_note, clean_title


def annotate(store: Store, conn: sqlite3.Connection, paper_id: str, **values) -> Changes:
    """Set annotation columns of one paper (inside `conn`'s transaction) where they differ, and log the change
    (kinds: the columns changed). The rating, read mark and note are the work's: they are set on every version
    of it (db.library.works); the user's title stays the version's. With no values, only makes sure the paper
    has an annotations row. Raises KeyError for an unknown paper."""
    if not conn.execute("SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone():
        raise KeyError(paper_id)
    changes = _annotate_one(store, conn, paper_id, values)
    if values and "title" not in values:
        for other in versions_in(conn, paper_id):
            if other != paper_id:
                changes |= _annotate_one(store, conn, other, values)
    return changes


def _annotate_one(store: Store, conn: sqlite3.Connection, paper_id: str, values: dict) -> Changes:
    conn.execute("INSERT OR IGNORE INTO annotations (paper_id, updated_at) VALUES (?, ?)", (paper_id, now()))
    if not values:
        return NOTHING
    row = conn.execute(f"SELECT {', '.join(values)} FROM annotations WHERE paper_id = ?", (paper_id,)).fetchone()
    changed = {column: value for (column, value), old in zip(values.items(), row, strict=True) if value != old}
    if not changed:
        return NOTHING
    assignments = ", ".join(f"{column} = ?" for column in changed)
    conn.execute(f"UPDATE annotations SET {assignments}, updated_at = ? WHERE paper_id = ?",
                 (*changed.values(), now(), paper_id))
    return store.log(conn, [paper_id], *changed)


def set_rating(store: Store, paper_id: str, rating: int | None) -> Changes:
    """Set the rating to 1..5, or clear it with None or 0. Raises ValueError for other values, KeyError
    for an unknown paper."""
    if rating == 0:
        rating = None
    if rating is not None and not (isinstance(rating, int) and 1 <= rating <= 5):
        raise ValueError("a rating is a whole number from 1 to 5 (0 clears it)")
    with store.transaction() as conn:
        return annotate(store, conn, paper_id, rating=rating)


def set_read(store: Store, paper_id: str, read: bool) -> Changes:
    """Mark the paper read or unread. Raises KeyError for an unknown paper."""
    with store.transaction() as conn:
        return annotate(store, conn, paper_id, read=int(bool(read)))


def set_title(store: Store, paper_id: str, title: str | None) -> Changes:
    """Set the user's title for a paper (wins over the file's title and the derived label); None or "" clears.

    Stored as `clean_title` gives it (C0 control characters other than tab/LF/CR removed, whitespace
    collapsed). Raises ValueError, changing nothing, for a title longer than MAX_TITLE (1,000) characters."""
    title = clean_title(title)
    with store.transaction() as conn:
        return annotate(store, conn, paper_id, title=title)


def set_note(store: Store, paper_id: str, note: str, keep_version: bool = True) -> Changes:
    """Save the Markdown note; the version it replaces goes to the note history, unless `keep_version` is
    false (the window's saves while the user keeps typing, which would otherwise add one version a second).
    The note is stored as written except for C0 control characters other than tab, LF and CR (NUL, escape,
    …), which are removed (`clean_note`). Returns NOTHING when the note was already this text."""
    note = clean_note(note)
    with store.transaction() as conn:
        row = conn.execute("SELECT note FROM annotations WHERE paper_id = ?", (paper_id,)).fetchone()
        previous = row[0] if row else ""
        changes = annotate(store, conn, paper_id, note=note)
        if changes and previous and keep_version:
            conn.execute("INSERT INTO note_history (paper_id, note, saved_at) VALUES (?, ?, ?)",
                         (paper_id, previous, now()))
    return changes


def add_note_history(store: Store, paper_id: str, entries: Iterable[tuple[str, str]]) -> Changes:
    """Add earlier versions of a paper's note, as (saved_at ISO time, text), that the history lacks (same
    time and text), in the order given. Returns a `note` change when any was added."""
    with store.transaction() as conn:
        have = set(conn.execute("SELECT saved_at, note FROM note_history WHERE paper_id = ?", (paper_id,)))
        new = [(paper_id, clean_note(text), saved_at) for saved_at, text in entries
               if (saved_at, clean_note(text)) not in have]
        if not new:
            return NOTHING
        annotate(store, conn, paper_id)
        conn.executemany("INSERT INTO note_history (paper_id, note, saved_at) VALUES (?, ?, ?)", new)
        return store.log(conn, [paper_id], NOTE)


def note_history(store: Store, paper_id: str) -> list[tuple[str, str]]:
    """Earlier saved versions of a paper's note as (saved_at, text), oldest first."""
    return store.read("SELECT saved_at, note FROM note_history WHERE paper_id = ? ORDER BY id", (paper_id,))
