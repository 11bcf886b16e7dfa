"""The papers one import has added so far, as db.library.matching looks them up (issue 28): per paper its
identifiers, title key, abstract, venue and shingles, and an index of its abstract's prefix keys (in the
import's own order), so that a record later in the list finds the earlier papers it is a duplicate of.

Two stores with one interface: `MemoryScratch` (dicts: no SQL per record; for a list the import holds in
memory, up to db.library.import_plan.IN_MEMORY records, ~2 KB a paper) and `DiskScratch` (for longer lists: a
cold import of 100k papers would hold 1.7 million keys and every abstract again; the abstracts and shingle keys
go to a private temporary SQLite database, what finding a paper needs stays in memory, ~0.5 KB a paper: with
all of it in the database, its lookups cost a 100k import ~60 s). Both keep every identifier and title a paper
was added under in the order added, and only its latest abstract's keys.
"""

from __future__ import annotations

import math
import sqlite3
from array import array
from collections.abc import Iterator, Sequence

import numpy as np

from db.library.match_keys import ascending, shingles

# (doi, arxiv, openreview, title key, venue) of a paper, as `mine` gives it
Mine = tuple


def _year(year: int | None) -> int | str:
    """A year as the scratch keeps it ('' for none: a UNIQUE column treats NULLs as distinct)."""
    return "" if year is None else year


class MemoryScratch:
    """The import's papers in dicts (see the module docstring); `keep_sets`: each one's shingle keys are kept
    (int64s, ~1.3 KB a paper: what comparing needs, not made again from its abstract)."""

    def __init__(self, keep_sets: bool) -> None:
        self._keep_sets = keep_sets
        self._papers: dict[str, tuple] = {}  # id → (size, prefix keys, doi, arxiv, openreview, title, venue,
        # abstract, sorted shingle keys as an int64 array or None)
        self._idents: dict[tuple[int, str], list[str]] = {}
        self._titles: dict[tuple[str, int | str], list[str]] = {}
        # prefix key → the paper holding it, or a list of the papers (most keys have one: a dict each was ~100 MB
        # at 20,000 papers)
        self._keys: dict[int, str | list[str]] = {}

    def close(self) -> None:
        self._papers = {}
        self._keys = {}

    def matched(self) -> None:
        """Matching is over (what `ascending` needs stays)."""

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
        self._papers[paper_id] = (size, keys, *ident, title, venue, abstract, ordered)
        for key in keys:
            held = self._keys.setdefault(key, paper_id)
            if held != paper_id:
                if isinstance(held, list):
                    held.append(paper_id)
                else:
                    self._keys[key] = [held, paper_id]

    def mine(self, paper_id: str) -> Mine | None:
        paper = self._papers.get(paper_id)
        return None if paper is None else paper[2:7]

    def abstract(self, paper_id: str) -> str:
        return self._papers[paper_id][7]

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
        return shingles(paper[7]) if paper[8] is None else frozenset(paper[8].tolist())

    def ascending(self, paper_id: str) -> list[int]:
        """The paper's shingle keys ascending ([] for an abstract too short to have any)."""
        paper = self._papers[paper_id]
        if paper[8] is not None:
            return paper[8].tolist()
        keys = shingles(paper[7])
        return [] if keys is None else ascending(keys)


class DiskScratch:
    """The import's papers with their abstracts and shingle keys in a private temporary SQLite database (on disk
    when large: ~3 KB a paper), and what finding them needs in memory (~0.5 KB a paper): per paper its
    identifiers, title key, venue, size and prefix keys, the identifier and title lookups, and the prefix keys'
    index (`_KeyIndex`: ~12 bytes a key). `keep_sets`: the shingle keys are kept as int64s (what comparing
    needs, not made again from the abstract)."""

    def __init__(self, keep_sets: bool) -> None:
        self._keep_sets = keep_sets
        self._db = sqlite3.connect("")
        self._db.execute("PRAGMA cache_size = -16384")  # up to 16 MB before it spills to its file
        self._db.execute("CREATE TABLE texts (number INTEGER PRIMARY KEY, abstract TEXT, shingles BLOB)")
        self._numbers: dict[str, int] = {}  # paper id → its number (the order it was first added in)
        self._ids: list[str] = []  # number → paper id
        self._papers: list[tuple] = []  # number → (size, prefix keys as an int64 array, doi, arxiv, openreview,
        # title, venue)
        self._idents: dict[tuple[int, str], list[str]] = {}
        self._titles: dict[tuple[str, int | str], list[str]] = {}
        self._venues: dict[str, str] = {}  # (one string per venue: 100,000 papers name a few hundred)
        self._keys = _KeyIndex()

    def close(self) -> None:
        self._db.close()
        self.matched()

    def matched(self) -> None:
        """Matching is over: let what finding papers needs go (~130 MB at 100,000 papers); `ascending` stays."""
        self._papers = []
        self._idents, self._titles = {}, {}
        self._keys = _KeyIndex()

    def add(self, paper_id: str, size: int, keys: list[int], ident: tuple, title: str | None, year: int | None,
            abstract: str, venue: str | None, shingle_keys: frozenset[int] | None) -> None:
        """Add or replace the paper (its earlier identifiers and titles stay findable)."""
        number = self._numbers.get(paper_id)
        if number is None:
            number = self._numbers[paper_id] = len(self._ids)
            self._ids.append(paper_id)
            self._papers.append(())
        else:
            self._keys.remove(number, self._papers[number][1])
        for kind, value in enumerate(ident):
            if value:
                found = self._idents.setdefault((kind, value), [])
                if paper_id not in found:
                    found.append(paper_id)
        if title:
            found = self._titles.setdefault((title, _year(year)), [])
            if paper_id not in found:
                found.append(paper_id)
        if venue is not None:
            venue = self._venues.setdefault(venue, venue)
        self._papers[number] = (size, array("q", keys), *ident, title, venue)
        self._keys.add(number, keys)
        self._db.execute("INSERT OR REPLACE INTO texts VALUES (?, ?, ?)", (  # (the keys ascending: `ascending`)
            number, abstract, array("q", ascending(shingle_keys)).tobytes() if shingle_keys and self._keep_sets
            else None))

    def mine(self, paper_id: str) -> Mine | None:
        number = self._numbers.get(paper_id)
        return None if number is None else self._papers[number][2:]

    def abstract(self, paper_id: str) -> str:
        return self._db.execute("SELECT abstract FROM texts WHERE number = ?",
                                (self._numbers[paper_id],)).fetchone()[0]

    def by_ident(self, kind: int, value: str) -> list[str]:
        return list(self._idents.get((kind, value), ()))

    def by_title(self, title: str, year: int | None) -> list[str]:
        return list(self._titles.get((title, _year(year)), ()))

    def candidates(self, keys: Sequence[int], low: int, high: int) -> Iterator[tuple[str, int, array]]:
        """(paper id, size, prefix keys) of the papers holding one of `keys` with a size in [low, high]."""
        papers = self._papers
        for key, number in self._keys.holders(keys):
            paper = papers[number]
            if low <= paper[0] <= high and (number not in self._keys.replaced or key in paper[1]):
                yield self._ids[number], paper[0], paper[1]

    def shingle_set(self, paper_id: str) -> frozenset[int] | None:
        kept, abstract = self._db.execute("SELECT shingles, abstract FROM texts WHERE number = ?",
                                          (self._numbers[paper_id],)).fetchone()
        # (kept as added by a large import: made again from the abstract ~0.15 ms a candidate)
        return frozenset(array("q", kept)) if kept is not None else shingles(abstract)

    def ascending(self, paper_id: str) -> list[int]:
        """The paper's shingle keys ascending ([] for an abstract too short to have any)."""
        kept, abstract = self._db.execute("SELECT shingles, abstract FROM texts WHERE number = ?",
                                          (self._numbers[paper_id],)).fetchone()
        if kept is not None:
            return array("q", kept).tolist()
        keys = shingles(abstract)
        return [] if keys is None else ascending(keys)


PENDING_KEYS = 1 << 17  # (key, paper) pairs a _KeyIndex holds in its dict before they are merged into its arrays


class _KeyIndex:
    """Prefix key → the numbers of the papers holding it, for DiskScratch: the keys added lately in a dict, the
    others in two sorted numpy arrays (key, paper number: 12 bytes a key) that the dict is merged into once it
    holds `PENDING_KEYS` keys. A paper's keys are removed when it is added again: from the dict at once; in the
    arrays they stay, and the paper's number is `replaced` (a key found there is checked against its prefix)."""

    def __init__(self) -> None:
        self._pending: dict[int, int | list[int]] = {}
        self._count = 0  # (key, paper) pairs in the dict
        self._keys = np.empty(0, dtype=np.int64)
        self._numbers = np.empty(0, dtype=np.int32)
        self.replaced: set[int] = set()

    def add(self, number: int, keys: Sequence[int]) -> None:
        pending = self._pending
        for key in keys:
            held = pending.setdefault(key, number)
            if held != number:
                if isinstance(held, list):
                    held.append(number)  # (a paper's keys are distinct, and removed before it is added again)
                else:
                    pending[key] = [held, number]
        self._count += len(keys)
        if self._count >= PENDING_KEYS:
            self._merge()

    def remove(self, number: int, keys: Sequence[int]) -> None:
        self.replaced.add(number)
        pending = self._pending
        for key in keys:
            held = pending.get(key)
            if held == number:
                del pending[key]
            elif isinstance(held, list) and number in held:
                held.remove(number)

    def holders(self, keys: Sequence[int]) -> Iterator[tuple[int, int]]:
        """(key, paper number) of each paper holding one of `keys` (a paper twice when it was added again)."""
        pending = self._pending
        for key in keys:
            held = pending.get(key)
            if held is not None:
                for number in (held,) if isinstance(held, int) else held:
                    yield key, number
        if len(self._keys) and keys:
            wanted = np.array(keys, dtype=np.int64)
            first = self._keys.searchsorted(wanted, "left")  # (the method: np.searchsorted's wrapper cost as much)
            last = self._keys.searchsorted(wanted, "right")
            for place in np.flatnonzero(last > first).tolist():
                key = keys[place]
                for number in self._numbers[first[place] : last[place]].tolist():
                    yield key, number

    def _merge(self) -> None:
        keys: list[int] = []
        numbers: list[int] = []
        for key, held in self._pending.items():
            if isinstance(held, int):
                keys.append(key)
                numbers.append(held)
            else:
                keys += [key] * len(held)
                numbers += held
        new_keys = np.array(keys, dtype=np.int64)
        order = np.argsort(new_keys, kind="stable")
        new_keys, new_numbers = new_keys[order], np.array(numbers, dtype=np.int32)[order]
        places = np.searchsorted(self._keys, new_keys, "right")
        self._keys = np.insert(self._keys, places, new_keys)
        self._numbers = np.insert(self._numbers, places, new_numbers)
        self._pending = {}
        self._count = 0


def bounds(size: int, threshold: float) -> tuple[int, int]:
    """The sizes a set of `size` shingles can reach Jaccard ≥ threshold with, as whole numbers [low, high]."""
    return math.floor(threshold * size), math.ceil(size / threshold)
