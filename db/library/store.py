"""Small pieces of the library store shared by its modules: timestamps, the bibliographic columns of `papers`,
and the change log every mutation writes to
(read by the search index to catch up, and by the window to see what another process changed)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

BIBLIOGRAPHIC_COLUMNS = ("title", "abstract", "authors", "venue", "year", "url", "doi", "arxiv_id",
                         "openreview_id", "keywords", "extra", "source")
CHANGE_LOG_KEEP = 200_000  # changes kept in `change_log` (one row per paper and change; an import adds one per paper)


def now() -> str:
    """The current UTC time as an ISO 8601 string with seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def log_change(conn: sqlite3.Connection, writer: str, kinds: Iterable[str], ids: Iterable[str] = (),
               select: str | None = None, params: Sequence = ()) -> None:
    """Record in the caller's transaction that papers changed in `kinds` (db.changes): `ids`, or the ids a
    `select` statement returns. Each row gets the next change number (`seq`); `writer` names the Library
    connection that made the change, so a window can tell its own changes from another process's."""
    text = ",".join(sorted(set(kinds)))
    if select is not None:
        conn.execute(f"INSERT INTO change_log (paper_id, kinds, writer) SELECT chosen.*, ?, ?"
                     f" FROM ({select}) AS chosen", (text, writer, *params))
    conn.executemany("INSERT INTO change_log (paper_id, kinds, writer) VALUES (?, ?, ?)",
                     [(paper_id, text, writer) for paper_id in ids])


def prune_change_log(conn: sqlite3.Connection, keep: int = CHANGE_LOG_KEEP) -> None:
    """Forget all but the newest `keep` changes (in the caller's transaction). A search index further behind
    than that is rebuilt (db.search.index), as after any gap in the log."""
    conn.execute("DELETE FROM change_log WHERE seq <= (SELECT seq FROM sqlite_sequence WHERE name = 'change_log') - ?",
                 (keep,))
