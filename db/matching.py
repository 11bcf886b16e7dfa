"""Re-import identity: which paper in the library (or earlier in the same file) a record is.

A record is the same paper as an existing one when (in this order)
1. its DOI (case-insensitive), arXiv id (without version) or OpenReview id equals the paper's;
2. else its normalized title (NFC, case-folded, punctuation dropped) and year equal the paper's; when neither
   has a year, the same title alone is not enough: their abstracts must also agree (identical or near-identical
   as in 3, or one of them missing), since two papers sharing a title is common enough;
3. else its abstract is identical or near-identical: Jaccard similarity of word 3-shingle sets ≥ 0.9
   (only for abstracts of at least `MIN_WORDS` words, so "Part of" or "withdrawn" never match).
A candidate is never taken when both carry a DOI, arXiv id or OpenReview id and these differ, so papers that
only share a title stay separate.

Near-duplicate lookup is exact and fast (prefix filtering, Chaudhuri et al. 2006 / Bayardo et al. 2007):
shingles are ordered rarest first (document frequency over the library and the incoming records); two sets with
Jaccard ≥ t must share a shingle among the first |S| − ⌈t·|S|⌉ + 1 of each, so only papers sharing one of those
few rare shingles are compared. The index is built the first time step 3 is needed.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence

from db.paper import PaperRecord, normalize_text

THRESHOLD = 0.9
MIN_WORDS = 12
_WORD = re.compile(r"\w+")
_NON_WORD = re.compile(r"[\W_]+")


def title_key(title: str | None) -> str | None:
    """The title as compared: NFC, case-folded, every run of punctuation/space one space; None if empty."""
    if not title:
        return None
    key = _NON_WORD.sub(" ", unicodedata.normalize("NFC", title).casefold()).strip()
    return key or None


def shingles(abstract: str | None) -> frozenset[int] | None:
    """Hashed word 3-shingles of the abstract, or None when it has fewer than MIN_WORDS words."""
    words = _WORD.findall((abstract or "").casefold())
    if len(words) < MIN_WORDS:
        return None
    return frozenset(hash(s) for s in zip(words, words[1:], words[2:], strict=False))


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    common = len(a & b)
    return common / (len(a) + len(b) - common)


class Matcher:
    """In-memory lookup of the library's papers by identifiers, title+year and abstract.

    `rows` are (id, title, year, abstract, doi, arxiv_id, openreview_id) of the papers already stored;
    `incoming` the records about to be imported (their abstracts count for shingle rarity).
    """

    def __init__(self, rows: Sequence[tuple], incoming: Sequence[PaperRecord]):
        self._ids: dict[str, tuple] = {}
        self._by_doi: dict[str, str] = {}
        self._by_arxiv: dict[str, str] = {}
        self._by_openreview: dict[str, str] = {}
        self._by_title: dict[tuple[str, int | None], list[str]] = {}
        self._abstracts: dict[str, str] = {}
        self._titles: dict[str, str | None] = {}
        self._incoming = incoming
        self._sets: dict[str, frozenset[int]] | None = None
        self._prefix_index: dict[int, list[str]] = {}
        self._frequency: Counter[int] = Counter()
        self._cache: dict[str, frozenset[int] | None] = {}
        self._prefixes: dict[frozenset[int], list[int]] = {}
        for row in rows:
            self.add(*row)

    # ------------------------------------------------------------------ adding
    def add(self, paper_id: str, title: str | None, year: int | None, abstract: str | None, doi: str | None,
            arxiv_id: str | None, openreview_id: str | None) -> None:
        """Make a stored (or just inserted/updated) paper findable under its current values."""
        ident = ((doi or "").lower() or None, (arxiv_id or "").lower() or None, openreview_id or None)
        self._ids[paper_id] = ident
        for table, value in zip((self._by_doi, self._by_arxiv, self._by_openreview), ident, strict=True):
            if value:
                table.setdefault(value, paper_id)
        key = title_key(title)
        if key:
            bucket = self._by_title.setdefault((key, year), [])
            if paper_id not in bucket:
                bucket.append(paper_id)
        self._abstracts[paper_id] = abstract or ""
        self._titles[paper_id] = key
        if self._sets is not None:
            self._index_abstract(paper_id, abstract)

    def __contains__(self, paper_id: str) -> bool:
        return paper_id in self._ids

    # ------------------------------------------------------------------ matching
    def match(self, record: PaperRecord, record_id: str | None = None) -> str | None:
        """The id of the paper this record is, or None for a new paper. `record_id` is `record.id` if known."""
        ident = ((record.doi or "").lower() or None, (record.arxiv_id or "").lower() or None,
                 record.openreview_id or None)
        for table, value in zip((self._by_doi, self._by_arxiv, self._by_openreview), ident, strict=True):
            if value and value in table:
                return table[value]
        key = title_key(record.title)
        if key:
            for paper_id in self._by_title.get((key, record.year), ()):
                if not self._conflict(ident, paper_id) and (
                        record.year is not None or self._abstracts_agree(record.abstract, paper_id)):
                    return paper_id
        return self._match_abstract(record, ident, record_id)

    def _abstracts_agree(self, abstract: str | None, paper_id: str) -> bool:
        """True when the abstracts do not tell two papers apart: one is missing, they are the same text
        (whitespace and case aside), or near-identical (Jaccard of 3-shingles ≥ THRESHOLD)."""
        stored = self._abstracts[paper_id]
        mine, theirs = (" ".join(text.casefold().split()) for text in (abstract or "", stored))
        if not mine or not theirs or mine == theirs:
            return True
        a, b = self._shingles(abstract), self._shingles(stored)
        return a is not None and b is not None and jaccard(a, b) >= THRESHOLD

    def _conflict(self, ident: tuple, paper_id: str) -> bool:
        return any(a and b and a != b for a, b in zip(ident, self._ids[paper_id], strict=True))

    def _match_abstract(self, record: PaperRecord, ident: tuple, same: str | None) -> str | None:
        wanted = self._shingles(record.abstract)
        try:
            same = same or record.id
        except ValueError:
            return None
        if same in self._ids and not self._conflict(ident, same) and (
                wanted is not None or self._titles[same] == title_key(record.title)):
            return same
        if wanted is None:
            return None
        if self._sets is None:
            self._build()
        best, best_score = None, THRESHOLD
        for paper_id in {p for s in self._prefix(wanted) for p in self._prefix_index.get(s, ())}:
            other = self._sets[paper_id]
            if not (THRESHOLD * len(wanted) <= len(other) <= len(wanted) / THRESHOLD):
                continue
            score = jaccard(wanted, other)
            if score >= best_score and not self._conflict(ident, paper_id):
                best, best_score = paper_id, score
        return best

    # ------------------------------------------------------------------ the shingle index
    def _build(self) -> None:
        self._sets = {}
        incoming = [self._shingles(r.abstract, keep=True) for r in self._incoming]
        stored = {paper_id: shingles(text) for paper_id, text in self._abstracts.items()}
        frequency: Counter[int] = Counter()
        for group in (incoming, stored.values()):
            for item in group:
                if item:
                    frequency.update(item)
        self._frequency = frequency
        for paper_id, item in stored.items():
            if item:
                self._sets[paper_id] = item
                for s in self._prefix(item):
                    self._prefix_index.setdefault(s, []).append(paper_id)

    def _shingles(self, abstract: str | None, keep: bool = False) -> frozenset[int] | None:
        """shingles(abstract), cached for the incoming records' abstracts while the import runs."""
        text = abstract or ""
        if text in self._cache:
            return self._cache[text]
        item = shingles(text)
        if keep:
            self._cache[text] = item
        return item

    def _prefix(self, item: frozenset[int]) -> list[int]:
        """The first |S| − ⌈t·|S|⌉ + 1 shingles in the global order (rarest first, ties by value); cached."""
        cached = self._prefixes.get(item)
        if cached is None:
            length = len(item) - math.ceil(THRESHOLD * len(item)) + 1
            cached = self._prefixes[item] = sorted(sorted(item), key=self._frequency.__getitem__)[:length]
        return cached

    def _index_abstract(self, paper_id: str, abstract: str | None) -> None:
        item = self._shingles(abstract)
        if item and self._sets is not None:
            self._sets[paper_id] = item
            for s in self._prefix(item):
                self._prefix_index.setdefault(s, []).append(paper_id)


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
