"""The exhaustive ranker as it was before the first page was ranked first (db/search/ranking.py at 5be1ff5,
dict-based; positions read from the positions field): the reference the pruned ranker is tested against."""

from __future__ import annotations

import heapq
import math
from array import array
from itertools import accumulate

from whoosh import query
from whoosh.reading import TermNotFound

from db.search.language import PART_SPAN, TEXT_FIELD, InPart
from db.search.postings import POSITION_TYPE, POSITIONS_FIELD


def _positions(value: bytes) -> array:
    positions = array(POSITION_TYPE)
    positions.frombytes(value[4:])
    return positions


class ReferenceRanker:
    """Runs a parsed query over one searcher's posting lists and ranks every match by BM25 (B=0.75, K1=1.2).

    A phrase is checked for adjacency only in the documents holding all its words. Query types it does not
    know are run by whoosh (unscored). Built per searcher: it caches the live documents and length norms.
    """

    K1, B = 1.2, 0.75

    def __init__(self, searcher, lengths):
        self.searcher = searcher
        self.reader = searcher.reader()
        self.leaves = searcher.leaf_searchers()
        self.count = searcher.doc_count()
        self.lengths = lengths  # field → per-docnum lengths
        self.deleted = {offset + d for sub, offset in self.leaves if sub.reader().has_deletions()
                        for d in sub.reader().segment().deleted_docs()}
        self._norms: dict[str, list[float]] = {}

    def ranked(self, parsed: query.Query, limit: int | None) -> list[int]:
        """Docnums matching `parsed`, best first (ties in index order)."""
        scores = self.run(parsed)
        if self.deleted:
            scores = {d: s for d, s in scores.items() if d not in self.deleted}
        if limit:
            return heapq.nlargest(limit, scores, key=scores.__getitem__)
        return sorted(scores, key=scores.__getitem__, reverse=True)  # stable: ties stay in index order

    def run(self, node: query.Query) -> dict[int, float]:
        if isinstance(node, query.Term):
            return self.term(node.fieldname, node.text, node.boost)
        if isinstance(node, query.And):
            positive = [self.run(n) for n in node.subqueries if not isinstance(n, query.Not)]
            negative = [self.run(n.query) for n in node.subqueries if isinstance(n, query.Not)]
            positive.sort(key=len)
            result = positive[0] if positive else self.everything()
            for other in positive[1:]:
                result = {d: s + other[d] for d, s in result.items() if d in other}
            for other in negative:
                result = {d: s for d, s in result.items() if d not in other}
            return result
        if isinstance(node, query.Or):
            result: dict[int, float] = {}
            for sub in node.subqueries:
                for d, s in self.run(sub).items():
                    result[d] = result.get(d, 0.0) + s
            return result
        if isinstance(node, query.Not):
            excluded = self.run(node.query)
            return {d: s for d, s in self.everything().items() if d not in excluded}
        if isinstance(node, query.Phrase):
            return self.phrase(node.fieldname, node.words, node.boost)
        if isinstance(node, InPart):
            return self.in_part(node.child, node.part * PART_SPAN)
        if isinstance(node, (query.Prefix, query.Wildcard, query.TermRange)):
            result = {}
            for text in node._btexts(self.reader):  # the terms the pattern or range expands to
                for d, s in self.term(node.fieldname, text, node.boost).items():
                    result[d] = result.get(d, 0.0) + s
            return result
        if node is query.NullQuery:
            return {}
        return dict.fromkeys(node.docs(self.searcher), 0.0)

    def everything(self) -> dict[int, float]:
        return {d: 0.0 for d in range(self.reader.doc_count_all()) if d not in self.deleted}

    def postings(self, field: str, text, values: bool = False) -> dict:
        """docnum → weight (or (weight, value)) for one term, read block by block."""
        out: dict = {}
        for sub, offset in self.leaves:
            try:
                matcher = sub.reader().postings(field, text)
            except TermNotFound:
                continue
            if hasattr(matcher, "_next_block") and not getattr(matcher, "_byteids", True):
                while matcher.is_active():  # whoosh3 leaf matcher: whole blocks at a time
                    matcher._read_weights()  # loads the block
                    ids = accumulate(matcher._data[0], initial=offset)  # docnums are stored as deltas
                    next(ids)
                    if values:
                        matcher._read_values()
                        out.update(zip(ids, zip(matcher._weights, matcher._values, strict=True), strict=True))
                    else:
                        out.update(zip(ids, matcher._weights, strict=True))
                    matcher._next_block()
            else:  # postings stored inline with the term
                while matcher.is_active():
                    out[matcher.id() + offset] = (matcher.weight(), matcher.value()) if values else matcher.weight()
                    matcher.next()
        return out

    def term(self, field: str, text, boost: float = 1.0) -> dict[int, float]:
        return self.scored(field, text, self.postings(field, text), boost)

    def scored(self, field: str, text, weights: dict, boost: float = 1.0) -> dict[int, float]:
        if field not in self.searcher.schema or not self.searcher.schema[field].scorable:
            return dict.fromkeys(weights, 0.0)
        if field not in self._norms:  # BM25's length normalization per document, once per searcher
            average = self.searcher.avg_field_length(field) or 1.0
            base, per_length = self.K1 * (1 - self.B), self.K1 * self.B / average
            self._norms[field] = [base + per_length * length for length in self.lengths(field)]
        norms = self._norms[field]
        df = len(weights)
        factor = math.log(1 + (self.count - df + 0.5) / (df + 0.5)) * boost * (self.K1 + 1)
        return {d: factor * w / (w + norms[d]) for d, w in weights.items()}

    def in_part(self, node: query.Query, start: int) -> dict[int, float]:
        """`node` on the text field, matched only at positions start … start + PART_SPAN - 1."""
        if isinstance(node, query.Term):
            return self.phrase(node.fieldname, [node.text], node.boost, start)
        if isinstance(node, query.Phrase):
            return self.phrase(node.fieldname, node.words, node.boost, start)
        if isinstance(node, (query.Prefix, query.Wildcard)):
            node = query.Or([query.Term(node.fieldname, text) for text in node._btexts(self.reader)])
        if isinstance(node, query.Or):
            result: dict[int, float] = {}
            for sub in node.subqueries:
                for d, s in self.in_part(sub, start).items():
                    result[d] = result.get(d, 0.0) + s
            return result
        return self.run(node)

    def phrase(self, field: str, words: list, boost: float = 1.0, start: int | None = None) -> dict[int, float]:
        """Documents where `words` follow each other (starting inside the part at `start` when given)."""
        where = POSITIONS_FIELD if field == TEXT_FIELD else field
        postings = [self.postings(where, word, values=True) for word in words]
        if where != field:
            weights = [self.postings(field, word) for word in words]
            postings = [{d: (w[d], v[1]) for d, v in p.items()} for p, w in zip(postings, weights, strict=True)]
        candidates = set(min(postings, key=len))
        for other in postings:
            candidates.intersection_update(other)
        end = start + PART_SPAN if start is not None else None
        found = []
        for d in candidates:
            starts = set(_positions(postings[0][d][1]))
            if start is not None:
                starts = {p for p in starts if start <= p < end}
            for i, posting in enumerate(postings[1:], 1):
                if not starts:
                    break
                starts.intersection_update(p - i for p in _positions(posting[d][1]))
            if starts:
                found.append(d)
        result = dict.fromkeys(found, 0.0)
        for word, posting in zip(words, postings, strict=True):
            for d, s in self.scored(field, word, {d: posting[d][0] for d in found}, boost).items():
                result[d] += s
        return result
