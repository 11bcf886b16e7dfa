"""Small pieces of the library store shared by its modules: timestamps, the bibliographic columns of `papers`,
and queueing papers for the search index."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

BIBLIOGRAPHIC_COLUMNS = ("title", "abstract", "authors", "venue", "year", "url", "doi", "arxiv_id",
                         "openreview_id", "keywords", "source")


def now() -> str:
    """The current UTC time as an ISO 8601 string with seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def queue_for_index(conn: sqlite3.Connection, ids: Iterable[str] = (), select: str | None = None,
                    params: Sequence = ()) -> None:
    """Queue papers for the search index inside the caller's transaction: `ids`, or the ids a `select`
    statement returns. Each gets a sequence number newer than any in the queue."""
    upsert = ("INSERT INTO index_queue (paper_id, seq) {} ON CONFLICT(paper_id) DO UPDATE SET seq = excluded.seq")
    next_seq = "(SELECT COALESCE(MAX(seq), 0) + 1 FROM index_queue)"
    if select is not None:
        conn.execute(upsert.format(f"SELECT chosen.*, {next_seq} FROM ({select}) AS chosen WHERE true"),
                     params)
    for paper_id in ids:
        conn.execute(upsert.format(f"VALUES (?, {next_seq})"), (paper_id,))
