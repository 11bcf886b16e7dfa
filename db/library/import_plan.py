"""What an import has planned so far, kept on disk (issue 28): the papers it will insert or update, each with the
record as it will be written, the stored row it was matched to and its new match keys (db.library.importing).

An import of 100,000 records used to hold every record and every planned row in memory until its one write
(649 MB at the write); here they are rows of a private temporary SQLite database (in SQLite's page cache up to
`CACHE_KB`, then in its file), read back in `CHUNK`s when the plan is written, so the import's memory is
bounded by the chunk, not the file. Records and stored rows are kept pickled (exactly as matched: a merge
later in the file needs the record as it was, `line` and implied `type` included).
"""

from __future__ import annotations

import contextlib
import json
import pickle
import sqlite3
from collections.abc import Iterator

from db.paper import PaperRecord

CHUNK = 2000  # planned papers read back at a time when written
CACHE_KB = 16384  # the temporary database's page cache before it spills to its file


class PlannedPapers:
    """The papers one import adds or updates, in the order it first met them (`ordered`).

    Per paper id: its `position` (a new paper's place in the list), the `stored` row it was matched to (None for
    a new paper), the `record` as it will be written, the `from_file` records of a stored paper merged so far,
    and the new `match_keys` row (None: its stored keys stay)."""

    def __init__(self) -> None:
        self._db = sqlite3.connect("")
        self._db.execute(f"PRAGMA cache_size = -{CACHE_KB}")
        self._db.execute("CREATE TABLE plan (seq INTEGER PRIMARY KEY, paper_id TEXT UNIQUE NOT NULL, position INTEGER,"
                         " new INTEGER NOT NULL, stored BLOB, record BLOB, from_file BLOB, keys TEXT)")

    def close(self) -> None:
        self._db.close()

    def __contains__(self, paper_id: str) -> bool:
        return self._db.execute("SELECT 1 FROM plan WHERE paper_id = ?", (paper_id,)).fetchone() is not None

    def is_new(self, paper_id: str) -> bool:
        """True for a paper this import adds (False for a stored one, or one not planned)."""
        row = self._db.execute("SELECT new FROM plan WHERE paper_id = ?", (paper_id,)).fetchone()
        return bool(row and row[0])

    def add_new(self, paper_id: str, position: int, record: PaperRecord, keys: tuple) -> None:
        self._db.execute("INSERT INTO plan (paper_id, position, new, record, keys) VALUES (?, ?, 1, ?, ?)",
                         (paper_id, position, _dump(record), json.dumps(keys)))

    def add_stored(self, paper_id: str, stored: tuple) -> None:
        """A stored paper met for the first time (its record and keys are `set` next)."""
        self._db.execute("INSERT INTO plan (paper_id, new, stored) VALUES (?, 0, ?)", (paper_id, _dump(stored)))

    def set(self, paper_id: str, record: PaperRecord, keys: tuple | None = None,
            from_file: PaperRecord | None = None) -> None:
        """The paper's record as it will be written now; `keys` its new match_keys row (None: unchanged);
        `from_file` (a stored paper): its records in the files merged so far."""
        self._db.execute("UPDATE plan SET record = ?, keys = COALESCE(?, keys), from_file = COALESCE(?, from_file)"
                         " WHERE paper_id = ?", (_dump(record), None if keys is None else json.dumps(keys),
                                                 None if from_file is None else _dump(from_file), paper_id))

    def record(self, paper_id: str) -> PaperRecord:
        return _load(self._value("record", paper_id))

    def stored(self, paper_id: str) -> tuple:
        return _load(self._value("stored", paper_id))

    def from_file(self, paper_id: str) -> PaperRecord:
        return _load(self._value("from_file", paper_id))

    def _value(self, column: str, paper_id: str):
        return self._db.execute(f"SELECT {column} FROM plan WHERE paper_id = ?", (paper_id,)).fetchone()[0]

    def ordered(self) -> Iterator[list[tuple[str, int | None, tuple | None, PaperRecord, tuple | None]]]:
        """Chunks of (paper id, position, stored row or None, record, match_keys row or None), in the order
        the import first met the papers."""
        last = 0
        while rows := self._db.execute("SELECT seq, paper_id, position, stored, record, keys FROM plan"
                                       " WHERE seq > ? ORDER BY seq LIMIT ?", (last, CHUNK)).fetchall():
            last = rows[-1][0]
            yield [(paper_id, position, None if stored is None else _load(stored), _load(record),
                    None if keys is None else tuple(json.loads(keys)))
                   for _seq, paper_id, position, stored, record, keys in rows]


LARGE = 10_000  # records from which an import writes with a larger page cache


@contextlib.contextmanager
def larger_page_cache(conn: sqlite3.Connection, records: int, kilobytes: int = 65536):
    """A larger SQLite page cache while an import of at least LARGE records writes (the match keys' B-trees are
    written in hash order: with the default 2 MB, most of a large import's writes went through the file), then
    the one it had. A smaller import keeps the default (a re-import of 1,000 papers stays within ~20 MB)."""
    if records < LARGE:
        yield
        return
    before = conn.execute("PRAGMA cache_size").fetchone()[0]
    conn.execute(f"PRAGMA cache_size = -{kilobytes}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA cache_size = {before}")


def _dump(value: object) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _load(data: bytes) -> object:
    return pickle.loads(data)
