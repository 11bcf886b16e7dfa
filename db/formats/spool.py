"""A list of paper records kept on disk while an import reads and matches them (issue 28).

A list of 100,000 papers read into PaperRecords holds ~260 MB; `RecordSpool` keeps them pickled in a private
temporary SQLite database (its page cache `CACHE_KB`, the rest in its file) and gives them back in order, so an
import's memory is bounded by a chunk, not by the file. A list of up to `HOLD` records stays in memory as it is
(~50 MB: pickling every record to the file and back cost a 20,000-paper import ~2 s of CPU); from its first
record beyond, all of them go to the file and at most `BUFFER` records stay in memory. Each record passes
`prepare(record)` once, as it is added (what happens to a record after that is not kept once spooled:
iteration gives fresh copies; a held list gives the records themselves).
"""

from __future__ import annotations

import pickle
import sqlite3
from collections.abc import Callable, Iterable, Iterator

from db.paper import PaperRecord

BUFFER = 1000  # records held in memory before they are written to the spool's file (once it has one)
HOLD = 20_000  # records a list may have and stay in memory, never written to the file
CACHE_KB = 4096


class RecordSpool:
    """An append-only sequence of PaperRecords on disk: `append`, `+=`, `len`, `[index]`, iteration in order.
    `fitted`: every record passed `prepare` (db.library.importing then leaves them as they are)."""

    fitted = True

    def __init__(self, records: Iterable[PaperRecord] = (), prepare: Callable[[PaperRecord], None] | None = None):
        self.prepare = prepare
        self._db: sqlite3.Connection | None = None
        self._stored = 0  # records in the file
        self._buffer: list[PaperRecord] = []
        self += records

    def append(self, record: PaperRecord) -> None:
        if self.prepare is not None:
            self.prepare(record)
        self._buffer.append(record)
        if len(self._buffer) >= BUFFER and (self._db is not None or len(self._buffer) > HOLD):
            self._flush()

    def __iadd__(self, records: Iterable[PaperRecord]) -> RecordSpool:
        for record in records:
            self.append(record)
        return self

    extend = __iadd__

    def __len__(self) -> int:
        return self._stored + len(self._buffer)

    def __getitem__(self, index: int) -> PaperRecord:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index >= self._stored:
            return self._buffer[index - self._stored]
        return pickle.loads(self._db.execute("SELECT record FROM records WHERE n = ?", (index,)).fetchone()[0])

    def __iter__(self) -> Iterator[PaperRecord]:
        stored, buffer = self._stored, list(self._buffer)  # (as it is now)
        for start in range(0, stored, BUFFER):
            rows = self._db.execute("SELECT record FROM records WHERE n >= ? AND n < ? ORDER BY n",
                                    (start, min(start + BUFFER, stored))).fetchall()
            for (data,) in rows:
                yield pickle.loads(data)
        yield from buffer

    def close(self) -> None:
        """Drop the file (also when the spool is collected)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def _flush(self) -> None:
        if self._db is None:
            self._db = sqlite3.connect("", check_same_thread=False)
            self._db.execute(f"PRAGMA cache_size = -{CACHE_KB}")
            self._db.execute("CREATE TABLE records (n INTEGER PRIMARY KEY, record BLOB NOT NULL)")
        self._db.executemany("INSERT INTO records VALUES (?, ?)", [
            (self._stored + offset, pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
            for offset, record in enumerate(self._buffer)])
        self._stored += len(self._buffer)
        self._buffer = []
