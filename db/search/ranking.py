"""Ranking every match of a query straight from whoosh's posting lists (BM25), for the search index.

whoosh's collector scores one posting at a time through several layers of matchers, which takes 40-200 ms
for common words in 20,000 abstracts. The window needs every match, best first; reading each posting list
whole, block by block, and combining plain dicts is several times faster. Positions are stored as plain
uint32 arrays (`ArrayPositions`) so that phrase candidates are checked quickly.
"""

from __future__ import annotations

import heapq
import math
import mmap
import os
from array import array
from itertools import accumulate

from whoosh import query
from whoosh.analysis import StemFilter
from whoosh.fields import TEXT
from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import StructFile
from whoosh.formats import Positions
from whoosh.lang.porter import stem as porter_stem
from whoosh.reading import TermNotFound
from whoosh.system import pack_uint

from db.search.language import PART_SPAN, InPart, TextTokenizer, term_positions

POSITION_TYPE = "I"  # positions as unsigned 32-bit integers: parts start at multiples of PART_SPAN (2**28)


class ArrayPositions(Positions):
    """whoosh's Positions format storing the positions as a plain uint32 array instead of pickled deltas:
    the ranker decodes positions of every phrase candidate, and this is several times faster to read."""

    def word_values(self, value, analyzer, **kwargs):
        stem = fast_analysis(analyzer)
        if stem is None or kwargs.get("start_pos"):
            yield from super().word_values(value, analyzer, **kwargs)
            return
        boost = self.field_boost
        for term, (poslist, weight) in term_positions(value, stem).items():
            yield term, len(poslist), weight * boost, pack_uint(len(poslist)) + array(POSITION_TYPE, poslist).tobytes()

    def encode(self, poslist):
        return pack_uint(len(poslist)) + array(POSITION_TYPE, poslist).tobytes()

    def decode_positions(self, valuestring):
        return _positions(valuestring).tolist()


class MappedStorage(FileStorage):
    """whoosh's FileStorage, reading files through a read-only memory map without copying them.

    whoosh maps a compound segment file and then wraps each file in it in a BytesIO, which copies the whole
    postings into memory (about 150 MB of resident memory at 20,000 papers, for the life of the searcher).
    Here each file is one map and its sub-files read from it: only the pages searched are resident, and they
    belong to the page cache (shared, reclaimable), not to the process's heap."""

    supports_mmap = False  # CompoundStorage: sub-files come from `subset` of the file opened below

    def open_file(self, name, **kwargs):
        with open(self._fpath(name), "rb") as file:
            if not os.fstat(file.fileno()).st_size:
                return super().open_file(name, **kwargs)
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        return _MappedFile(_MappedRange(mapped, 0, len(mapped)), name=name, **kwargs)


class _MappedFile(StructFile):
    def subset(self, offset, length, name=None):
        whole = self.file
        return _MappedFile(_MappedRange(whole.source, whole.start + offset, length), name=name or self._name)


class _MappedRange:
    """A read-only file over bytes start … start + length of a memory map. It has `peek`, so that pickle
    reads a block's tuple from a buffer rather than calling `read` for each item."""

    def __init__(self, source: mmap.mmap, start: int, length: int):
        self.source, self.start, self.end = source, start, start + length
        self.pos = start
        self.closed = False

    def read(self, size: int | None = -1) -> bytes:
        end = self.end if size is None or size < 0 else min(self.pos + size, self.end)
        data = self.source[self.pos : end]
        self.pos = max(end, self.pos)
        return data

    def peek(self, size: int = 0) -> bytes:
        return self.source[self.pos : min(self.pos + 16384, self.end)]  # may be less than asked, as a peek may

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readline(self, size: int = -1) -> bytes:
        newline = self.source.find(b"\n", self.pos, self.end)
        end = self.end if newline < 0 else newline + 1
        return self.read(end - self.pos if size is None or size < 0 else min(size, end - self.pos))

    def seek(self, position: int, whence: int = 0) -> int:
        base = {0: self.start, 1: self.pos, 2: self.end}[whence]
        self.pos = min(max(base + position, self.start), self.end)
        return self.pos - self.start

    def tell(self) -> int:
        return self.pos - self.start

    def close(self) -> None:
        self.closed = True  # the map itself stays open for the other sub-files; it goes with the last one


def open_index(folder):
    """The whoosh index in `folder`, read through MappedStorage."""
    return MappedStorage(str(folder)).open_index()


def fast_analysis(analyzer) -> bool | None:
    """For our own text analyzers (TextTokenizer, optionally | a plain Porter StemFilter): whether it stems;
    None for any other analyzer (then whoosh's token stream is used)."""
    items = getattr(analyzer, "items", [analyzer])
    if not items or type(items[0]) is not TextTokenizer:
        return None
    if len(items) == 1:
        return False
    stemmer = items[1]
    if (len(items) == 2 and type(stemmer) is StemFilter and getattr(stemmer, "stemfn", None) is porter_stem
            and not getattr(stemmer, "lang", None) and not getattr(stemmer, "ignore", None)):
        return True
    return None


def positional(analyzer) -> TEXT:
    """A TEXT field type with ArrayPositions."""
    field_type = TEXT(analyzer=analyzer)
    field_type.format = ArrayPositions()
    return field_type


def _positions(value: bytes) -> array:
    positions = array(POSITION_TYPE)
    positions.frombytes(value[4:])
    return positions


class SegmentCache:
    """What the ranker and the index read once per segment, kept across searchers: segments never change
    after they are written (only their deletions do), so after a small write only the new segment is read.
    `ids` is docnum → paper id; `lengths` the document lengths of a field (as whoosh stores them)."""

    def __init__(self):
        self._segments: dict[str, dict] = {}

    def keep(self, leaves) -> None:
        """Forget segments that are no longer among `leaves` (merged away or rebuilt)."""
        current = {self._key(sub) for sub, _offset in leaves}
        for key in [key for key in self._segments if key not in current]:
            del self._segments[key]

    def ids(self, leaves) -> list[str]:
        out: list[str] = []
        for sub, _offset in leaves:
            entry = self._segments.setdefault(self._key(sub), {})
            if "id" not in entry:
                entry["id"] = list(sub.reader().column_reader("id"))
            out += entry["id"]
        return out

    def lengths(self, leaves, field: str) -> list[int]:
        out: list[int] = []
        for sub, _offset in leaves:
            entry = self._segments.setdefault(self._key(sub), {})
            name = "length:" + field
            if name not in entry:
                reader = sub.reader()
                entry[name] = array("I", (reader.doc_field_length(d, field, 0) or 0
                                          for d in range(reader.doc_count_all())))
            out += entry[name]
        return out

    @staticmethod
    def _key(sub) -> str:
        return sub.reader().segment().segment_id()


class Ranker:
    """Runs a parsed query over one searcher's posting lists and ranks every match by BM25 (B=0.75, K1=1.2).

    A phrase is checked for adjacency only in the documents holding all its words. Query types it does not
    know are run by whoosh (unscored). Built per searcher: it caches the live documents and length norms.
    """

    K1, B = 1.2, 0.75

    def __init__(self, searcher, cache: SegmentCache | None = None):
        self.searcher = searcher
        self.reader = searcher.reader()
        self.leaves = searcher.leaf_searchers()
        self.count = searcher.doc_count()
        self.cache = cache if cache is not None else SegmentCache()
        self.cache.keep(self.leaves)
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
            self._norms[field] = [base + per_length * length for length in self.cache.lengths(self.leaves, field)]
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
        postings = [self.postings(field, word, values=True) for word in words]
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
