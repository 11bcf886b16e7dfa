"""What an import has planned so far, kept on disk (issue 28): the papers it will insert or update, each with the
record as it will be written, the stored row it was matched to and its new match keys (db.library.importing).

An import of 100,000 records used to hold every record and every planned row in memory until its one write
(649 MB at the write); here they are rows of a private temporary SQLite database (in SQLite's page cache up to
`CACHE_KB`, then in its file), read back in `CHUNK`s when the plan is written, so the import's memory is
bounded by the chunk, not the file. Records and stored rows are kept pickled (exactly as matched: a merge
later in the file needs the record as it was, `line` and implied `type` included). A list held in memory
(up to `IN_MEMORY`) is planned in memory. When an import goes into an empty library, its frequent match keys
are settled before the write (`settle_frequent`; a longer list's over flat arrays, not dicts of Python ints).
Also here: a planned record's values as the papers table stores them (`record_values`, `label_for`).
"""

from __future__ import annotations

import contextlib
import json
import pickle
import sqlite3
from array import array
from collections.abc import Callable, Iterator

import numpy as np

from db.library.match_keys import settled_frequent, settled_frequent_arrays
from db.paper import PaperRecord, implied_type, normalize_text
from db.text.labels import derive_label

CHUNK = 2000  # planned papers read back at a time when written
CACHE_KB = 16384  # the temporary database's page cache before it spills to its file
IN_MEMORY = 20_000  # planned papers kept as objects before all of them go to the temporary database (as
# db.formats.spool.HOLD: a list the spool holds in memory is planned in memory; its records are the same objects)


class PlannedPapers:
    """The papers one import adds or updates, in the order it first met them (`ordered`).

    Per paper id: its `position` (a new paper's place in the list), the `stored` row it was matched to (None for
    a new paper), the `record` as it will be written, the `from_file` records of a stored paper merged so far,
    and the new `match_keys` row (None: its stored keys stay). Up to `IN_MEMORY` papers are kept as they are
    (a small import pickles nothing); beyond, all of them go to the temporary database."""

    def __init__(self) -> None:
        self._db: sqlite3.Connection | None = None
        self._memory: dict[str, list] = {}  # id → [position, new, stored, record, from_file, keys]

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
        self._memory = {}

    def _spill(self) -> None:
        self._db = sqlite3.connect("")
        self._db.execute(f"PRAGMA cache_size = -{CACHE_KB}")
        self._db.execute("CREATE TABLE plan (seq INTEGER PRIMARY KEY, paper_id TEXT UNIQUE NOT NULL, position INTEGER,"
                         " new INTEGER NOT NULL, stored BLOB, record BLOB, from_file BLOB, keys TEXT)")
        self._db.executemany("INSERT INTO plan (paper_id, position, new, stored, record, from_file, keys)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?)", [
                                 (paper_id, position, new, _dump(stored), _dump(record), _dump(from_file),
                                  None if keys is None else json.dumps(keys))
                                 for paper_id, (position, new, stored, record, from_file, keys)
                                 in self._memory.items()])
        self._memory = {}

    def _add(self, paper_id: str, position: int | None, new: bool, stored: tuple | None, record, keys) -> None:
        if self._db is None and len(self._memory) >= IN_MEMORY:
            self._spill()
        if self._db is None:
            self._memory[paper_id] = [position, new, stored, record, None, keys]
        else:
            self._db.execute("INSERT INTO plan (paper_id, position, new, stored, record, keys)"
                             " VALUES (?, ?, ?, ?, ?, ?)", (paper_id, position, new, _dump(stored), _dump(record),
                              None if keys is None else json.dumps(keys)))

    def __contains__(self, paper_id: str) -> bool:
        if self._db is None:
            return paper_id in self._memory
        return self._db.execute("SELECT 1 FROM plan WHERE paper_id = ?", (paper_id,)).fetchone() is not None

    def is_new(self, paper_id: str) -> bool:
        """True for a paper this import adds (False for a stored one, or one not planned)."""
        if self._db is None:
            return paper_id in self._memory and self._memory[paper_id][1]
        row = self._db.execute("SELECT new FROM plan WHERE paper_id = ?", (paper_id,)).fetchone()
        return bool(row and row[0])

    def add_new(self, paper_id: str, position: int, record: PaperRecord, keys: tuple) -> None:
        self._add(paper_id, position, True, None, record, keys)

    def add_stored(self, paper_id: str, stored: tuple) -> None:
        """A stored paper met for the first time (its record and keys are `set` next)."""
        self._add(paper_id, None, False, stored, None, None)

    def set(self, paper_id: str, record: PaperRecord, keys: tuple | None = None,
            from_file: PaperRecord | None = None) -> None:
        """The paper's record as it will be written now; `keys` its new match_keys row (None: unchanged);
        `from_file` (a stored paper): its records in the files merged so far."""
        if self._db is None:
            entry = self._memory[paper_id]
            entry[3] = record
            entry[4] = entry[4] if from_file is None else from_file
            entry[5] = entry[5] if keys is None else keys
            return
        self._db.execute("UPDATE plan SET record = ?, keys = COALESCE(?, keys), from_file = COALESCE(?, from_file)"
                         " WHERE paper_id = ?", (_dump(record), None if keys is None else json.dumps(keys),
                                                 None if from_file is None else _dump(from_file), paper_id))

    def settle_frequent(self, ascending: Callable[[str], list[int]]) -> frozenset[int]:
        """A cold import (the library held no papers: every planned paper is new): the library's frequent keys
        once they are written (db.library.match_keys.settled_frequent; `ascending(paper id)`: its shingle keys
        ascending), their match_keys rows made again in that order. Returns the frequent keys."""
        if self._db is not None:
            return self._settle_spilled(ascending)
        rows = {paper_id: entry[5] for paper_id, entry in self._memory.items() if entry[5] is not None}
        prefixes = {paper_id: json.loads(row[7]) for paper_id, row in rows.items() if row[7] != "[]"}
        frequent, changed = settled_frequent(prefixes, ascending)
        for paper_id, keys in changed.items():
            self._memory[paper_id][5] = (*rows[paper_id][:7], json.dumps(keys, separators=(",", ":")))
        return frequent

    def _settle_spilled(self, ascending: Callable[[str], list[int]]) -> frozenset[int]:
        """settle_frequent for the planned papers in the temporary database: their prefixes read as flat arrays
        (match_keys.settled_frequent_arrays), the rows that change written back."""
        keys, owners, ids = array("q"), array("i"), []
        for paper_id, row in self._db.execute("SELECT paper_id, keys FROM plan WHERE keys IS NOT NULL ORDER BY seq"):
            prefix = json.loads(json.loads(row)[7])
            if prefix:
                keys.extend(prefix)
                owners.extend([len(ids)] * len(prefix))
                ids.append(paper_id)
        frequent, changed = settled_frequent_arrays(np.frombuffer(keys, dtype=np.int64),
                                                    np.frombuffer(owners, dtype=np.int32),
                                                    lambda number: ascending(ids[number]))
        for number, prefix in changed:
            paper_id = ids[number]
            row = json.loads(self._db.execute("SELECT keys FROM plan WHERE paper_id = ?", (paper_id,)).fetchone()[0])
            self._db.execute("UPDATE plan SET keys = ? WHERE paper_id = ?",
                             (json.dumps([*row[:7], json.dumps(prefix, separators=(",", ":"))]), paper_id))
        return frequent

    def record(self, paper_id: str) -> PaperRecord:
        return self._value("record", 3, paper_id)

    def stored(self, paper_id: str) -> tuple:
        return self._value("stored", 2, paper_id)

    def from_file(self, paper_id: str) -> PaperRecord:
        return self._value("from_file", 4, paper_id)

    def _value(self, column: str, place: int, paper_id: str):
        if self._db is None:
            return self._memory[paper_id][place]
        return _load(self._db.execute(f"SELECT {column} FROM plan WHERE paper_id = ?", (paper_id,)).fetchone()[0])

    def ordered(self) -> Iterator[list[tuple[str, int | None, tuple | None, PaperRecord, tuple | None]]]:
        """Chunks of (paper id, position, stored row or None, record, match_keys row or None), in the order
        the import first met the papers."""
        if self._db is None:
            entries = [(paper_id, position, stored, record, keys)
                       for paper_id, (position, _new, stored, record, _from_file, keys) in self._memory.items()]
            for start in range(0, len(entries), CHUNK):
                yield entries[start : start + CHUNK]
            return
        last = 0
        while rows := self._db.execute("SELECT seq, paper_id, position, stored, record, keys FROM plan"
                                       " WHERE seq > ? ORDER BY seq LIMIT ?", (last, CHUNK)).fetchall():
            last = rows[-1][0]
            yield [(paper_id, position, _load(stored), _load(record), None if keys is None else tuple(json.loads(keys)))
                   for _seq, paper_id, position, stored, record, keys in rows]


def record_values(record: PaperRecord) -> tuple:
    """The record's values as the papers table stores them: (title, abstract, authors JSON, venue, year, url,
    doi, arxiv_id, openreview_id, keywords JSON, extra JSON, source)."""
    return (record.title, record.abstract, json.dumps(record.authors, ensure_ascii=False), record.venue,
            record.year, record.url, record.doi, record.arxiv_id, record.openreview_id,
            json.dumps(record.keywords, ensure_ascii=False),
            json.dumps(stored_extra(record), ensure_ascii=False, sort_keys=True), record.source)


def label_for(record: PaperRecord) -> str:
    """The list row's label of a paper written from this record: its title, else one derived from its abstract."""
    if record.title and record.title.strip():
        return normalize_text(record.title)
    return derive_label(record.abstract)


def stored_extra(record: PaperRecord) -> dict:
    """The record's extra fields as stored: without a `type` that the venue and decision imply anyway (so that
    re-importing an export, which writes the implied type, changes nothing)."""
    extra = {key: value for key, value in record.extra.items() if value not in (None, "", [])}
    if extra.get("type") == implied_type(record.venue, extra):
        del extra["type"]
    return extra


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


def _load(data: bytes | None) -> object:
    return None if data is None else pickle.loads(data)
