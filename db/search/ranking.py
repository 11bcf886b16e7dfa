"""Ranking a query straight from the index's posting lists (BM25), the first page first.

whoosh's collector scores one posting at a time through several layers of matchers. Here each posting list
is read whole into arrays (db/search/postings.py) and combined with vectorised set operations, so that every
match is scored at the cost of a few array operations, and the order is (score descending, index order).

A phrase or a part (`title:`) needs positions, read only for the documents that decide the page: a phrase's
score is the sum of its words' scores, so the candidates (the documents holding every word) are ranked by
that sum and checked for adjacency best first until the page is full (the principle of MaxScore, Turtle &
Flood 1995: a document is looked at closely only when its score bound can still put it on the page). The rows
shown are identical to the exhaustive ranking's (tests/system/test_search_first_page.py checks it against the
exhaustive ranker).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from whoosh import query

from db.search.analysis import PART_SPAN, TEXT_FIELD
from db.search.language import InPart
from db.search.packing import Codes, decode
from db.search.postings import _EMPTY_DOCS, _EMPTY_SCORES, POSITIONS_FIELD, SegmentCache


@dataclass
class Ranking:
    """Docnums best first; `total` the number of matches (None when only the first page was worked out)."""

    docnums: list[int]
    total: int | None = None


@dataclass
class _Candidates:
    """A phrase's candidates (docs holding every word) with their scores per word, and how to check them."""

    docs: np.ndarray
    parts: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)  # per word: (weights, norms)
    check: object = None  # docs → bool mask: the words follow each other (in the part) there


class Ranker:
    """Runs a parsed query over one searcher's posting lists and ranks its matches by BM25 (B=0.75, K1=1.2),
    best first, ties in index order.

    `ranked(query, limit)` works out the first `limit` as the full ranking's; a lone phrase (or `title:word`)
    is then checked for adjacency only in the candidates that decide the page, taken in the order of their
    score without the phrase's factor (the same order, up to rounding in the last bit of two scores). A phrase's words
    are scored with the phrase's own document frequency (the number of documents holding the phrase). Query
    types it does not know are run by whoosh (unscored). Built per searcher: it caches the live documents and
    length norms.
    """

    K1, B = 1.2, 0.75

    def __init__(self, searcher, cache: SegmentCache | None = None):
        self.searcher = searcher
        self.reader = searcher.reader()
        self.leaves = searcher.leaf_searchers()
        self.offsets = [offset for _sub, offset in self.leaves]
        self.count = searcher.doc_count()
        self.total = self.reader.doc_count_all()
        self.cache = cache if cache is not None else SegmentCache()
        self.cache.keep(self.leaves)
        self.live: np.ndarray | None = None  # docnum → not deleted; None when nothing is deleted
        for sub, offset in self.leaves:
            if sub.reader().has_deletions():
                if self.live is None:
                    self.live = np.ones(self.total, dtype=bool)
                deleted = np.fromiter(sub.reader().segment().deleted_docs(), dtype=np.int64)
                self.live[deleted + offset] = False
        self._norms: dict[str, np.ndarray] = {}
        self._matchers: dict[tuple, object] = {}  # (segment, field, term) → its matcher, for position blocks
        self._last: tuple | None = None  # (query, docs, scores) of the last query scored, for its rest

    # ------------------------------------------------------------------------------------------ ranking
    def ranked(self, parsed: query.Query, limit: int | None = None) -> Ranking:
        """Docnums matching `parsed`, best first (ties in index order); the first `limit` only when given.
        The scores of the last query are kept: the whole ranking after its first page sorts them again
        instead of scoring every match twice."""
        if limit and self._lone_phrase(parsed):
            return self._first_page_of_phrase(parsed, limit)
        if self._last is None or self._last[0] != parsed:
            self._last = (parsed, *self.scored_matches(parsed))
        _query, docs, scores = self._last
        return Ranking(_best_first(docs, scores, limit), len(docs))

    def scored_matches(self, parsed: query.Query) -> tuple[np.ndarray, np.ndarray]:
        """(docnums ascending, BM25 scores) of the live documents matching `parsed`: the work of one ranking."""
        docs, scores = self.run(parsed)
        if self.live is not None:
            keep = self.live[docs]
            docs, scores = docs[keep], scores[keep]
        return docs, scores

    @staticmethod
    def _lone_phrase(node) -> bool:
        inner = node.child if isinstance(node, InPart) else node
        return isinstance(inner, query.Phrase) or (isinstance(node, InPart) and isinstance(inner, query.Term))

    def _first_page_of_phrase(self, node, limit: int) -> Ranking:
        """The first `limit` matches of a lone phrase: its candidates in the order of their score (the same
        order as the phrase's final scores: those only multiply every candidate's by one factor), checked best
        first until the page is full."""
        if isinstance(node, InPart):
            inner, start = node.child, node.part * PART_SPAN
        else:
            inner, start = node, None
        words = inner.words if isinstance(inner, query.Phrase) else [inner.text]
        found = self._candidates(inner.fieldname, words, start)
        docs = found.docs
        bound = np.zeros(len(docs))
        for weights, norms in found.parts:
            bound = bound + weights / (weights + norms)
        if self.live is not None:
            keep = self.live[docs]
            docs, bound = docs[keep], bound[keep]
        page: list[int] = []
        unchecked = np.ones(len(docs), dtype=bool)
        step = limit + 16  # most candidates of a phrase hold it: one chunk usually fills the page
        if len(docs) <= 2 * step:
            step = len(docs)  # few: checked at once
        while unchecked.any():
            chunk = _best_of(np.flatnonzero(unchecked), bound, step)  # the next best, ascending
            unchecked[chunk] = False
            held = chunk[found.check(docs[chunk])]
            page += docs[held[np.lexsort((docs[held], -bound[held]))]].tolist()  # best first
            if len(page) >= limit:
                return Ranking(page[:limit], None)
            # the next chunk: twice as many, or as many as this one's share of matches says the page needs,
            # so that a phrase most candidates do not hold (a stop-word phrase) is checked in a few steps; no
            # candidate is checked twice and none is sorted but the matches, so the first page costs about
            # what checking every candidate at once does
            needed = (limit - len(page)) * len(chunk) // max(len(held), 1)
            step = max(2 * step, needed + needed // 2)
        return Ranking(page, len(page))

    # ------------------------------------------------------------------------------------------ matching
    def run(self, node: query.Query) -> tuple[np.ndarray, np.ndarray]:
        """(docnums ascending, scores) of every document matching `node` (deleted ones included)."""
        if isinstance(node, query.Term):
            return self.term(node.fieldname, node.text, node.boost)
        if isinstance(node, query.And):
            positive = [self.run(n) for n in node.subqueries if not isinstance(n, query.Not)]
            negative = [self.run(n.query)[0] for n in node.subqueries if isinstance(n, query.Not)]
            positive.sort(key=lambda hits: len(hits[0]))
            docs, scores = positive[0] if positive else self.everything()
            for other_docs, other_scores in positive[1:]:
                _common, mine, theirs = np.intersect1d(docs, other_docs, assume_unique=True, return_indices=True)
                docs, scores = docs[mine], scores[mine] + other_scores[theirs]
            for excluded in negative:
                keep = ~np.isin(docs, excluded, assume_unique=True)
                docs, scores = docs[keep], scores[keep]
            return docs, scores
        if isinstance(node, query.Or):
            return _summed([self.run(sub) for sub in node.subqueries])
        if isinstance(node, query.Not):
            excluded = self.run(node.query)[0]
            docs, scores = self.everything()
            keep = ~np.isin(docs, excluded, assume_unique=True)
            return docs[keep], scores[keep]
        if isinstance(node, query.Phrase):
            return self.phrase(node.fieldname, node.words, node.boost)
        if isinstance(node, InPart):
            return self.in_part(node.child, node.part * PART_SPAN)
        if isinstance(node, (query.Prefix, query.Wildcard, query.TermRange)):
            # the terms the pattern or range expands to
            return _summed([self.term(node.fieldname, text, node.boost) for text in node._btexts(self.reader)])
        if node is query.NullQuery:
            return _EMPTY_DOCS, _EMPTY_SCORES
        docs = np.unique(np.fromiter(node.docs(self.searcher), dtype=np.int64))
        return docs, np.zeros(len(docs))

    def everything(self) -> tuple[np.ndarray, np.ndarray]:
        docs = np.arange(self.total, dtype=np.int64)
        if self.live is not None:
            docs = docs[self.live]
        return docs, np.zeros(len(docs))

    def postings(self, field: str, text) -> tuple[np.ndarray, np.ndarray]:
        """(docnums ascending, weights) of one term across the segments."""
        parts = [(self.cache.postings(sub, field, text), offset) for sub, offset in self.leaves]
        parts = [(p, offset) for p, offset in parts if len(p.docs)]
        if not parts:
            return _EMPTY_DOCS, _EMPTY_SCORES
        if len(parts) == 1:  # kept as int32 and float32 (8 bytes a posting); scored in float64
            return parts[0][0].docs + parts[0][1], parts[0][0].weights.astype(np.float64)
        return (np.concatenate([p.docs + offset for p, offset in parts]),
                np.concatenate([p.weights for p, _offset in parts]).astype(np.float64))

    def term(self, field: str, text, boost: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        docs, weights = self.postings(field, text)
        return docs, self.scored(field, docs, weights, boost, len(docs))

    def norms(self, field: str) -> np.ndarray:
        """BM25's length normalization per docnum, once per searcher."""
        if field not in self._norms:
            average = self.searcher.avg_field_length(field) or 1.0
            base, per_length = self.K1 * (1 - self.B), self.K1 * self.B / average
            self._norms[field] = base + per_length * self.cache.lengths(self.leaves, field)
        return self._norms[field]

    def scorable(self, field: str) -> bool:
        return field in self.searcher.schema and self.searcher.schema[field].scorable

    def scored(self, field: str, docs: np.ndarray, weights: np.ndarray, boost: float, df: int) -> np.ndarray:
        if not self.scorable(field):
            return np.zeros(len(docs))
        factor = math.log(1 + (self.count - df + 0.5) / (df + 0.5)) * boost * (self.K1 + 1)
        return factor * weights / (weights + self.norms(field)[docs])

    def in_part(self, node: query.Query, start: int) -> tuple[np.ndarray, np.ndarray]:
        """`node` on the text field, matched only at positions start … start + PART_SPAN - 1."""
        if isinstance(node, query.Term):
            return self.phrase(node.fieldname, [node.text], node.boost, start)
        if isinstance(node, query.Phrase):
            return self.phrase(node.fieldname, node.words, node.boost, start)
        if isinstance(node, (query.Prefix, query.Wildcard)):
            node = query.Or([query.Term(node.fieldname, text) for text in node._btexts(self.reader)])
        if isinstance(node, query.Or):
            return _summed([self.in_part(sub, start) for sub in node.subqueries])
        return self.run(node)

    def phrase(self, field: str, words: list, boost: float = 1.0, start: int | None = None):
        """Documents where `words` follow each other (starting inside the part at `start` when given), each
        word scored with the phrase's document frequency."""
        found = self._candidates(field, words, start)
        keep = found.check(found.docs)
        docs = found.docs[keep]
        if not self.scorable(field) or not len(docs):
            return docs, np.zeros(len(docs))
        df = len(docs)
        factor = math.log(1 + (self.count - df + 0.5) / (df + 0.5)) * boost * (self.K1 + 1)
        scores = np.zeros(len(docs))
        for weights, norms in found.parts:  # as a term's scores, added in word order
            scores = scores + factor * weights[keep] / (weights[keep] + norms[keep])
        return docs, scores

    def _candidates(self, field: str, words: list, start: int | None) -> _Candidates:
        """The documents holding every word of a phrase, each word's `w / (w + norm)` there (so that a score
        is `factor * that`, summed in word order), and the adjacency check."""
        postings = [self.postings(field, word) for word in words]
        docs = min((found[0] for found in postings), key=len)
        for other, _weights in postings:  # the rarest word's documents looked up in the others'
            if len(docs) and other is not docs:
                at = np.minimum(np.searchsorted(other, docs), len(other) - 1)
                docs = docs[other[at] == docs] if len(other) else other
        parts = []
        if self.scorable(field) and len(docs):
            norms = self.norms(field)[docs]
            for word_docs, weights in postings:
                parts.append((weights[np.searchsorted(word_docs, docs)], norms))
        where = POSITIONS_FIELD if field == TEXT_FIELD else field
        frequency = {word: len(found[0]) for word, found in zip(words, postings, strict=True)}
        return _Candidates(docs, parts, lambda wanted: self._adjacent(where, words, start, wanted, frequency.get))

    def _adjacent(self, field: str, words: list, start: int | None, docs: np.ndarray, rarity=None) -> np.ndarray:
        """Bool per doc of `docs` (ascending): whether `words` follow each other there (from a position in the
        part at `start` when given). Vectorised: the (doc, position - i) keys of the i-th word are intersected,
        the rarest word first (`rarity(word)`: its document frequency), each later word's positions read only
        in the documents still left (a stop word's in few)."""
        keys = None
        wanted = docs
        order = sorted(enumerate(words), key=lambda item: rarity(item[1])) if rarity else enumerate(words)
        for offset, word in order:
            owner, positions = self._positions(field, word, wanted)
            positions = positions - offset  # where the phrase would start
            valid = positions >= 0 if start is None else (positions >= start) & (positions < start + PART_SPAN)
            found = (np.searchsorted(docs, owner[valid]) << 32) | positions[valid]  # ascending
            if keys is None:
                keys = found
            elif len(found):
                at = np.minimum(np.searchsorted(found, keys), len(found) - 1)
                keys = keys[found[at] == keys]
            else:
                keys = found
            if not len(keys):
                break
            wanted = docs[_distinct(keys >> 32)]
        keep = np.zeros(len(docs), dtype=bool)
        if keys is not None and len(keys):
            keep[keys >> 32] = True
        return keep

    def _positions(self, field: str, word, docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(docnum, position) of every occurrence of `word` in the docnums `docs` (ascending), reading only
        the posting blocks that hold them; ascending by docnum, then position. The wanted postings of packed
        blocks are gathered first and decoded together (db.search.packing.Codes)."""
        owners, places, codes, owning = [], [], [], []
        bounds = np.searchsorted(np.array(self.offsets, dtype=np.int64), docs, side="right") - 1
        for leaf in np.unique(bounds).tolist():
            sub, offset = self.leaves[leaf]
            local = docs[bounds == leaf] - offset
            whole = self.cache.term_codes(sub, field, word)
            if whole is not None:  # packed: the wanted postings in one step
                picked, picked_docs = whole.pick(local)
                codes.append(picked)
                owning.append(picked_docs + offset)
                continue
            last = self.cache.position_directory(sub, field, word)[1]
            if not last:
                continue
            numbers = np.searchsorted(np.array(last, dtype=np.int64), local)  # ascending, as `local`
            present, starts = np.unique(numbers, return_index=True)
            ends = np.append(starts[1:], len(numbers))
            for number, first, end in zip(present.tolist(), starts.tolist(), ends.tolist(), strict=True):
                if number >= len(last):
                    continue
                block = self.cache.position_block(sub, field, word, number, self._matchers)
                if isinstance(block.values, Codes):
                    picked, picked_docs = block.values.pick(local[first:end])
                    codes.append(picked)
                    owning.append(picked_docs + offset)
                else:
                    owner, positions = block.positions_of(local[first:end])
                    owners.append(owner + offset)
                    places.append(positions)
        if codes:
            owner, positions = decode(np.concatenate(codes), np.concatenate(owning))
            owners.append(owner)
            places.append(positions)
        if not owners:
            return _EMPTY_DOCS, _EMPTY_DOCS
        if len(owners) == 1:
            return owners[0], places[0].astype(np.int64)
        owner, positions = np.concatenate(owners), np.concatenate(places).astype(np.int64)
        order = np.lexsort((positions, owner))  # packed and whoosh-written segments mixed
        return owner[order], positions[order]


def _best_of(positions: np.ndarray, bound: np.ndarray, count: int) -> np.ndarray:
    """The `count` of `positions` (ascending) with the highest `bound`, ties to the lower position (the order
    of a sort by bound descending, then docnum), ascending; without sorting them all."""
    if count >= len(positions):
        return positions
    values = bound[positions]
    threshold = -np.partition(-values, count - 1)[count - 1]
    above = positions[values > threshold]
    tied = positions[values == threshold][: count - len(above)]
    return np.sort(np.concatenate([above, tied]))


def _distinct(ascending: np.ndarray) -> np.ndarray:
    """The distinct values of an ascending array."""
    if len(ascending) < 2:
        return ascending
    return ascending[np.concatenate(([True], ascending[1:] != ascending[:-1]))]


def _summed(hits: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The union of several (docs, scores), a document's scores added in the order given."""
    hits = [h for h in hits if len(h[0])]
    if not hits:
        return _EMPTY_DOCS, _EMPTY_SCORES
    if len(hits) == 1:
        return hits[0]
    docs, inverse = np.unique(np.concatenate([h[0] for h in hits]), return_inverse=True)
    return docs, np.bincount(inverse, weights=np.concatenate([h[1] for h in hits]), minlength=len(docs))


def _best_first(docs: np.ndarray, scores: np.ndarray, limit: int | None) -> list[int]:
    """`docs` by score descending, ties by docnum (docs ascending); only the first `limit` when given."""
    if limit and len(docs) > limit:
        threshold = -np.partition(-scores, limit - 1)[limit - 1]  # the limit-th best score
        above = scores > threshold
        tied = np.flatnonzero(scores == threshold)[: limit - int(above.sum())]
        chosen = np.concatenate([np.flatnonzero(above), tied])
        docs, scores = docs[chosen], scores[chosen]
    return docs[np.lexsort((docs, -scores))].tolist()
