"""The papers one import has added so far, as db.library.matching looks them up (issue 28): per paper its
identifiers, title key, abstract, venue and shingles, and an index of its abstract's prefix keys (in the
import's own order), so that a record later in the list finds the earlier papers it is a duplicate of.

Two stores with one interface: `MemoryScratch` (dicts: no SQL per record; for a list the import holds in
memory, up to db.library.import_plan.IN_MEMORY records, ~2 KB a paper) and `DiskScratch` (a private temporary
SQLite database: a cold import of 100k papers would hold 1.7 million keys and every abstract again). Both keep
every identifier and title a paper was added under in the order added, and only its latest abstract's keys.
"""

from __future__ import annotations

import json
import math
import sqlite3
from array import array
from collections.abc import Iterator, Sequence

import numpy as np

from db.library.match_keys import CHUNK, ascending, shingles

# (doi, arxiv, openreview, title key, abstract, venue) of a paper, as `mine` gives it
Mine = tuple


def _year(year: int | None) -> int | str:
    """A year as the scratch keeps it ('' for none: a UNIQUE column treats NULLs as distinct)."""
    return "" if year is None else year


class MemoryScratch:
    """The import's papers in dicts (see the module docstring); `keep_sets`: each one's shingle keys are kept
    (int64s, ~1.3 KB a paper: what comparing needs, not made again from its abstract)."""

    def __init__(self, keep_sets: bool) -> None:
        self._keep_sets = keep_sets
        self._papers: dict[str, tuple] = {}  # id → (size, prefix keys, doi, arxiv, openreview, title, abstract,
        # venue, sorted shingle keys as an int64 array or None)
        self._idents: dict[tuple[int, str], list[str]] = {}
        self._titles: dict[tuple[str, int | str], list[str]] = {}
        # prefix key → the paper holding it, or a list of the papers (most keys have one: a dict each was ~100 MB
        # at 20,000 papers)
        self._keys: dict[int, str | list[str]] = {}

    def close(self) -> None:
        self._papers = {}
        self._keys = {}

    def add(self, paper_id: str, size: int, keys: list[int], ident: tuple, title: str | None, year: int | None,
            abstract: str, venue: str | None, shingle_keys: frozenset[int] | None) -> None:
        """Add or replace the paper (its earlier identifiers and titles stay findable)."""
        before = self._papers.get(paper_id)
        if before is not None:
            for key in before[1]:
                held = self._keys[key]
                if held == paper_id:
                    del self._keys[key]
                elif isinstance(held, list) and paper_id in held:
                    held.remove(paper_id)
        for kind, value in enumerate(ident):
            if value:
                found = self._idents.setdefault((kind, value), [])
                if paper_id not in found:
                    found.append(paper_id)
        if title:
            found = self._titles.setdefault((title, _year(year)), [])
            if paper_id not in found:
                found.append(paper_id)
        ordered = None
        if shingle_keys is not None and self._keep_sets:
            ordered = np.array(ascending(shingle_keys), dtype=np.int64)
        self._papers[paper_id] = (size, keys, *ident, title, abstract, venue, ordered)
        for key in keys:
            held = self._keys.setdefault(key, paper_id)
            if held != paper_id:
                if isinstance(held, list):
                    held.append(paper_id)
                else:
                    self._keys[key] = [held, paper_id]

    def mine(self, paper_id: str) -> Mine | None:
        paper = self._papers.get(paper_id)
        return None if paper is None else paper[2:8]

    def by_ident(self, kind: int, value: str) -> list[str]:
        return list(self._idents.get((kind, value), ()))

    def by_title(self, title: str, year: int | None) -> list[str]:
        return list(self._titles.get((title, _year(year)), ()))

    def candidates(self, keys: Sequence[int], low: int, high: int) -> Iterator[tuple[str, int, list[int]]]:
        """(paper id, size, prefix keys) of the papers holding one of `keys` with a size in [low, high]."""
        for key in keys:
            held = self._keys.get(key, ())
            for paper_id in (held,) if isinstance(held, str) else held:
                paper = self._papers[paper_id]
                if low <= paper[0] <= high:
                    yield paper_id, paper[0], paper[1]

    def shingle_set(self, paper_id: str) -> frozenset[int] | None:
        paper = self._papers[paper_id]
        return shingles(paper[6]) if paper[8] is None else frozenset(paper[8].tolist())

    def ascending(self, paper_id: str) -> list[int]:
        """The paper's shingle keys ascending ([] for an abstract too short to have any)."""
        paper = self._papers[paper_id]
        if paper[8] is not None:
            return paper[8].tolist()
        keys = shingles(paper[6])
        return [] if keys is None else ascending(keys)


class DiskScratch:
    """The import's papers in a private temporary SQLite database (on disk when large); `keep_sets`: the shingle
    keys are kept as int64s (what comparing needs, not made again from the abstract)."""

    def __init__(self, keep_sets: bool) -> None:
        self._keep_sets = keep_sets
        self._db = sqlite3.connect("")
        self._db.execute("PRAGMA cache_size = -16384")  # up to 16 MB before it spills to its file
        self._db.executescript("""
            CREATE TABLE keys (key INTEGER NOT NULL, size INTEGER NOT NULL, paper_id TEXT NOT NULL,
                               PRIMARY KEY (key, size, paper_id)) WITHOUT ROWID;
            CREATE TABLE papers (paper_id TEXT PRIMARY KEY, size INTEGER, keys TEXT, doi TEXT, arxiv TEXT,
                                 openreview TEXT, title TEXT, abstract TEXT, venue TEXT, shingles BLOB);
            CREATE TABLE idents (kind INTEGER, value TEXT, paper_id TEXT, UNIQUE (kind, value, paper_id));
            CREATE TABLE titles (title TEXT, year, paper_id TEXT, UNIQUE (title, year, paper_id));
        """)

    def close(self) -> None:
        self._db.close()

    def add(self, paper_id: str, size: int, keys: list[int], ident: tuple, title: str | None, year: int | None,
            abstract: str, venue: str | None, shingle_keys: frozenset[int] | None) -> None:
        db = self._db
        if self.mine(paper_id):
            db.execute("DELETE FROM keys WHERE paper_id = ?", (paper_id,))
        db.executemany("INSERT OR IGNORE INTO idents VALUES (?, ?, ?)",
                       [(kind, value, paper_id) for kind, value in enumerate(ident) if value])
        if title:
            db.execute("INSERT OR IGNORE INTO titles VALUES (?, ?, ?)", (title, _year(year), paper_id))
        db.execute("INSERT OR REPLACE INTO papers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (paper_id, size, json.dumps(keys), *ident, title, abstract, venue,
                    array("q", shingle_keys).tobytes() if shingle_keys and self._keep_sets else None))
        db.executemany("INSERT OR IGNORE INTO keys VALUES (?, ?, ?)", [(key, size, paper_id) for key in keys])

    def mine(self, paper_id: str) -> Mine | None:
        return self._db.execute("SELECT doi, arxiv, openreview, title, abstract, venue FROM papers"
                                " WHERE paper_id = ?", (paper_id,)).fetchone()

    def by_ident(self, kind: int, value: str) -> list[str]:
        return [paper_id for (paper_id,) in self._db.execute(
            "SELECT paper_id FROM idents WHERE kind = ? AND value = ? ORDER BY rowid", (kind, value))]

    def by_title(self, title: str, year: int | None) -> list[str]:
        return [paper_id for (paper_id,) in self._db.execute(
            "SELECT paper_id FROM titles WHERE title = ? AND year = ? ORDER BY rowid", (title, _year(year)))]

    def candidates(self, keys: Sequence[int], low: int, high: int) -> Iterator[tuple[str, int, list[int]]]:
        for start in range(0, len(keys), CHUNK):
            chunk = keys[start : start + CHUNK]
            sql = ("SELECT paper_id, size, keys FROM papers WHERE paper_id IN (SELECT paper_id FROM keys"
                   f" WHERE key IN ({','.join('?' * len(chunk))}) AND size BETWEEN ? AND ?)")
            for paper_id, size, keys_of in self._db.execute(sql, (*chunk, low, high)):
                yield paper_id, size, json.loads(keys_of)

    def shingle_set(self, paper_id: str) -> frozenset[int] | None:
        kept, abstract = self._db.execute("SELECT shingles, abstract FROM papers WHERE paper_id = ?",
                                          (paper_id,)).fetchone()
        # (kept as added by a large import: made again from the abstract ~0.15 ms a candidate)
        return frozenset(array("q", kept)) if kept is not None else shingles(abstract)


def bounds(size: int, threshold: float) -> tuple[int, int]:
    """The sizes a set of `size` shingles can reach Jaccard ≥ threshold with, as whole numbers [low, high]."""
    return math.floor(threshold * size), math.ceil(size / threshold)
