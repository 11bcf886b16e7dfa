"""Re-import identity: which paper in the library (or earlier in the same file) a record is.

A record is the same paper as an existing one when (in this order)
0. it carries the paper's id (`margin_id`: Margin's own BibTeX export writes it as `x-margin-id`);
1. its DOI (case-insensitive), arXiv id (without version) or OpenReview id equals the paper's;
2. else its normalized title (NFC, case-folded, punctuation dropped) and year equal the paper's; when neither
   has a year, the same title alone is not enough: their abstracts must also agree (identical or near-identical
   as in 3, or one of them missing), since two papers sharing a title is common enough;
3. else its abstract is identical or near-identical: Jaccard similarity of word 3-shingle sets ≥ 0.9
   (only for abstracts of at least `MIN_WORDS` words, so "Part of" or "withdrawn" never match).
A candidate is never taken when both carry a DOI, arXiv id or OpenReview id and these differ, so papers that
only share a title stay separate; nor, in 2 and 3, when both name a venue and the venues clearly differ (ICLR
2018 and NIPS 2018, arXiv and ICCV): those are versions of one work, kept as papers of their own and grouped
(db.library.works). A shared DOI or arXiv id is no match when the titles are clearly different
(db.library.merging.titles_clash: a wrong DOI copied onto another paper, a book and a review of it); the
matcher lists such clashes of the last record in `clashes`, and the import names them.

How a candidate is found without holding the library in memory (prefix filtering over the stored match keys)
is db.library.match_keys. Among candidates equally similar, the one with the smallest id is taken (the old
in-memory index took whichever it met last in an unordered set).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sqlite3
from collections.abc import Callable, Sequence

from db.library import import_plan
from db.library.import_plan import LARGE

# the key functions are re-exported: importing them from here is how matching was used before the split
from db.library.match_keys import (  # noqa: F401
    CHUNK,
    FREQUENT,
    MIN_WORDS,
    THRESHOLD,
    abstract_keys,
    could_reach,
    frequent_keys,
    identifiers,
    jaccard,
    keys_missing,
    match_row,
    ordered_prefix,
    prefix,
    prefix_length,
    shingle_key,
    shingles,
    store_match_keys,
    title_key,
    write_match_rows,
)
from db.library.match_scratch import DiskScratch, MemoryScratch
from db.library.merging import different_venues, titles_clash, version_venue
from db.paper import PaperRecord, normalize_text

_KIND = {"doi": "DOI", "arxiv": "arXiv id", "openreview": "OpenReview id"}

_CACHED_SETS = 4096  # shingle sets of stored papers kept while an import runs (candidates met again)


def _frequent_keys(records: Sequence[PaperRecord], sample: int = 300) -> frozenset[int]:
    """Shingle keys found in at least 3 of (a spread sample of up to `sample` of) these records' abstracts
    (the sample bounds the count: 300 abstracts are ~60,000 keys, ~7 MB while counted)."""
    chosen = sorted(random.Random(len(records)).sample(range(len(records)), min(sample, len(records))))
    counts: dict[int, int] = {}  # (drawn at random, not every n-th: a list's pattern can repeat with any stride)
    for record in (records[index] for index in chosen):
        for key in shingles(record.abstract) or ():
            counts[key] = counts.get(key, 0) + 1
    return frozenset(key for key, count in counts.items() if count >= 3)


class Matcher:
    """Lookup of the library's papers by identifiers, title+year and abstract, for one import.

    The stored papers are read from `conn` as needed (match_keys, abstract_keys, papers; by index); only the
    papers this import adds or updates (`add`) are held in memory, since they are written after the matching.
    """

    def __init__(self, conn: sqlite3.Connection, incoming: Sequence[PaperRecord] = ()):
        self._conn = conn
        self._frequent = _frequent_keys(incoming)  # this import's order (its scratch index)
        self._stored_frequent = frequent_keys(conn)  # the library's order (abstract_keys)
        self._empty = conn.execute("SELECT 1 FROM papers LIMIT 1").fetchone() is None  # (a cold import)
        self.clashes: list[tuple[str, str, str]] = []  # of the last record matched: (key kind, value, paper id)
        self.candidates = self.compared = 0  # papers the abstract search met, and whose abstracts it compared
        self._stored_sets: dict[str, frozenset[int] | None] = {}
        self._keep_sets = len(incoming) >= LARGE  # (a small import keeps its memory small: ~1.2 KB a paper)
        self._venue: str | None = None  # the venue of the record being matched
        self._last_set: frozenset[int] | None = None  # the last shingle set whose import prefix was made, and it
        self._last_prefix: list[int] = []
        # this import's own papers, under their new values (the stored ones stay findable under their old), and
        # their prefix keys, as abstract_keys holds the stored papers' (db.library.match_scratch: in memory for a
        # list the import holds in memory, else in a temporary database); in this import's own order: the keys
        # frequent among its records last (a generated list of 6,000 abstracts sharing most of their words would
        # otherwise make every earlier record a candidate of each)
        self._scratch = (MemoryScratch(keep_sets=self._keep_sets) if len(incoming) <= import_plan.IN_MEMORY
                         else DiskScratch(keep_sets=self._keep_sets))

    @property
    def stored_frequent(self) -> frozenset[int]:
        """The library's frequent keys when the matcher was made (the order of the match_keys rows `add` makes)."""
        return self._stored_frequent

    @property
    def cold(self) -> bool:
        """True when the library held no papers (a cold import: its frequent keys are settled at once from this
        import's own, db.library.importing)."""
        return self._empty

    def ascending(self, paper_id: str) -> list[int]:
        """The shingle keys (ascending) of the abstract this import's paper was last added with (a cold import)."""
        return self._scratch.ascending(paper_id)

    def matched(self) -> None:
        """No more records to match: the scratch lets go what finding papers needs (only `ascending` is asked
        for now)."""
        self._scratch.matched()

    def close(self) -> None:
        """Drop the temporary database (also when the matcher is collected)."""
        self._scratch.close()

    # ------------------------------------------------------------------ adding
    def add(self, paper_id: str, title: str | None, year: int | None, abstract: str | None, doi: str | None,
            arxiv_id: str | None, openreview_id: str | None, authors: Sequence[str] = (),
            venue: str | None = None) -> tuple:
        """Make a just inserted/updated paper findable under its new values; returns its `match_row`."""
        keys_of = shingles(abstract)
        size, stored_prefix = (len(keys_of), prefix(keys_of, self._stored_frequent)) if keys_of else (0, [])
        ident = identifiers(doi, arxiv_id, openreview_id)
        key = title_key(title)
        row = (paper_id, *ident, key, year, size, json.dumps(stored_prefix, separators=(",", ":")))
        self._stored_sets.pop(paper_id, None)
        self._scratch.add(paper_id, size, self._import_prefix(keys_of), ident, key, year, abstract or "",
                          version_venue(venue, arxiv_id), keys_of)
        return row

    def _import_prefix(self, keys: frozenset[int] | None) -> list[int]:
        """The prefix of a shingle set in this import's order (frequent keys last, then by value). The last one's
        is kept: a new paper's is asked for when it is matched and again when it is added (the same set)."""
        if not keys:
            return []
        if keys is not self._last_set:
            self._last_set, self._last_prefix = keys, ordered_prefix(keys, self._frequent)
        return self._last_prefix

    def _mine(self, paper_id: str) -> tuple | None:
        """(doi, arxiv, openreview, title key, venue) of a paper this import added, else None."""
        return self._scratch.mine(paper_id)

    def __contains__(self, paper_id: str) -> bool:
        return self._mine(paper_id) is not None or (not self._empty and self._conn.execute(
            "SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone() is not None)

    # ------------------------------------------------------------------ the stored papers
    def _current(self, paper_id: str) -> tuple[tuple, str | None]:
        """(identifiers, title key) of a paper as the import sees it now."""
        mine = self._mine(paper_id)
        if mine is not None:
            return mine[:3], mine[3]
        title, doi, arxiv_id, openreview_id = self._conn.execute(
            "SELECT title, doi, arxiv_id, openreview_id FROM papers WHERE id = ?", (paper_id,)).fetchone()
        return identifiers(doi, arxiv_id, openreview_id), title_key(title)

    def _current_abstract(self, paper_id: str) -> str:
        """The abstract of a paper as the import sees it now ('' for none)."""
        if self._mine(paper_id) is not None:
            return self._scratch.abstract(paper_id)
        return self._conn.execute("SELECT abstract FROM papers WHERE id = ?", (paper_id,)).fetchone()[0] or ""

    def _stored(self, sql: str, params: Sequence) -> list[str]:
        return [] if self._empty else [row[0] for row in self._conn.execute(sql, params)]

    # ------------------------------------------------------------------ matching
    def match(self, record: PaperRecord, record_id: str | None = None) -> str | None:
        """The id of the paper this record is, or None for a new paper. `record_id` is `record.id` if known."""
        ident = identifiers(record.doi, record.arxiv_id, record.openreview_id)
        self.clashes = []
        self._venue = version_venue(record.venue, record.arxiv_id)
        if record.margin_id and record.margin_id in self:  # Margin's own export coming back
            return record.margin_id
        for kind, (column, value) in enumerate(zip(("doi", "arxiv", "openreview"), ident, strict=True)):
            if value:
                found = self._stored(f"SELECT m.paper_id FROM match_keys m JOIN papers p ON p.id = m.paper_id"
                                     f" WHERE m.{column} = ? ORDER BY p.rowid", (value,))
                found += [paper_id for paper_id in self._scratch.by_ident(kind, value) if paper_id not in found]
                for paper_id in found:
                    if column == "openreview" or not self._different_papers(record, paper_id):
                        return paper_id
                    self.clashes.append((_KIND[column], value, paper_id))
        key = title_key(record.title)
        if key:
            bucket = self._stored("SELECT m.paper_id FROM match_keys m JOIN papers p ON p.id = m.paper_id"
                                  " WHERE m.title = ? AND m.year IS ? ORDER BY p.rowid", (key, record.year))
            bucket += [paper_id for paper_id in self._scratch.by_title(key, record.year) if paper_id not in bucket]
            for paper_id in bucket:
                if not self._conflict(ident, paper_id) and (
                        record.year is not None or self._abstracts_agree(record.abstract, paper_id)):
                    return paper_id
        return self._match_abstract(record, ident, record_id)

    def _different_papers(self, record: PaperRecord, paper_id: str) -> bool:
        """True when a record sharing an identifier with the paper is clearly another paper: the titles clash
        (db.library.merging.titles_clash)."""
        return titles_clash(record.title, self._current(paper_id)[1])

    def _abstracts_agree(self, abstract: str | None, paper_id: str) -> bool:
        """True when the abstracts do not tell two papers apart: one is missing, they are the same text
        (whitespace and case aside), or near-identical (Jaccard of 3-shingles ≥ THRESHOLD)."""
        stored = self._current_abstract(paper_id)
        mine, theirs = (" ".join(text.casefold().split()) for text in (abstract or "", stored))
        if not mine or not theirs or mine == theirs:
            return True
        a, b = shingles(abstract), shingles(stored)
        return a is not None and b is not None and jaccard(a, b) >= THRESHOLD

    def _conflict(self, ident: tuple, paper_id: str) -> bool:
        """True when the paper cannot be the record's: an identifier differs, or (for a match by title or
        abstract) the venues are clearly different (another version of the work: db.library.works groups it)."""
        if any(a and b and a != b for a, b in zip(ident, self._current(paper_id)[0], strict=True)):
            return True
        if not self._venue:
            return False
        mine = self._mine(paper_id)
        if mine is None:
            row = self._conn.execute("SELECT venue, arxiv_id FROM papers WHERE id = ?", (paper_id,)).fetchone()
            return bool(row) and different_venues(self._venue, version_venue(*row))
        return different_venues(self._venue, mine[4])

    def _match_abstract(self, record: PaperRecord, ident: tuple, same: str | None) -> str | None:
        wanted = shingles(record.abstract)
        try:
            same = same or record.id
        except ValueError:
            return None
        if same in self and not self._conflict(ident, same) and (
                wanted is not None or self._current(same)[1] == title_key(record.title)):
            return same
        if wanted is None:
            return None
        low, high = THRESHOLD * len(wanted), len(wanted) / THRESHOLD
        candidates: dict[str, tuple[int, list[int] | str]] = {}
        # this import's papers (under their new abstracts; its order), then the stored ones (as before this
        # import; the library's order)
        smallest, largest = math.floor(low), math.ceil(high)
        for paper_id, size, keys_of in self._scratch.candidates(self._import_prefix(wanted), smallest, largest):
            candidates.setdefault(paper_id, (size, keys_of))
        if not self._empty:
            keys = prefix(wanted, self._stored_frequent)
            for start in range(0, len(keys), CHUNK):
                chunk = keys[start : start + CHUNK]
                sql = ("SELECT paper_id, size, keys FROM match_keys WHERE paper_id IN (SELECT paper_id"
                       f" FROM abstract_keys WHERE key IN ({','.join('?' * len(chunk))}) AND size BETWEEN ? AND ?)")
                for paper_id, size, keys_of in self._conn.execute(sql, (*chunk, smallest, largest)):
                    candidates.setdefault(paper_id, (size, keys_of))
        best, best_score = None, THRESHOLD
        self.candidates += len(candidates)
        for paper_id in sorted(candidates):
            size, keys_of = candidates[paper_id]
            if not could_reach(wanted, size, json.loads(keys_of) if isinstance(keys_of, str) else keys_of):
                continue
            other = self._set_of(paper_id)
            if other is None or not (low <= len(other) <= high):
                continue
            self.compared += 1
            score = jaccard(wanted, other)
            if score >= best_score and (best is None or score > best_score) and not self._conflict(ident, paper_id):
                best, best_score = paper_id, score
        return best

    def _set_of(self, paper_id: str) -> frozenset[int] | None:
        """The shingles of a paper's current abstract (kept for the stored papers met, up to _CACHED_SETS)."""
        if self._scratch.mine(paper_id) is not None:
            return self._scratch.shingle_set(paper_id)
        if paper_id not in self._stored_sets:
            if len(self._stored_sets) >= _CACHED_SETS:
                self._stored_sets.clear()
            row = self._conn.execute("SELECT abstract FROM papers WHERE id = ?", (paper_id,)).fetchone()
            self._stored_sets[paper_id] = shingles(row[0]) if row else None
        return self._stored_sets[paper_id]


def fresh_id(record: PaperRecord, taken: Callable[[str], bool], paper_id: str | None = None) -> str:
    """The record's id (ARCHITECTURE.md), or, when another paper already holds it (two different papers with
    one abstract, such as a placeholder text), a deterministic variant hashed with the title and DOI."""
    paper_id = paper_id or record.id
    if not taken(paper_id):
        return paper_id
    basis = normalize_text(record.abstract or "") or normalize_text(record.title or "")
    extra = f"{normalize_text(record.title or '')}\x1f{record.doi or ''}\x1f{record.arxiv_id or ''}"
    number = 0
    while taken(paper_id):
        number += 1
        paper_id = hashlib.sha256(f"{basis}\x1f{extra}\x1f{number}".encode()).hexdigest()[:12]
    return paper_id
