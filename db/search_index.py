"""The whoosh search index in the library's `index/` folder: derived data, rebuilt from SQLite at will.

Fields: `text` (title, authors, abstract, note and tags in one field, title tokens weighted 2×, so that a
free-text word is one posting list), title, abstract, authors, note (for `field:` queries), tag (whole tags),
venue, year, rating (0 = none), read. Text is folded (NFC, case, accents), CJK runs become character
bigrams, words are stemmed (English); stop words are kept so that "chain of thought" matches as a phrase.
The query language lives in db/query.py.
"""

from __future__ import annotations

import heapq
import json
import math
import shutil
import threading
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate
from operator import itemgetter
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh import query, scoring
from whoosh.codec.whoosh3 import W3Codec
from whoosh.fields import ID, KEYWORD, TEXT, Schema
from whoosh.formats import Positions
from whoosh.index import LockError
from whoosh.reading import TermNotFound
from whoosh.system import pack_uint

from db.library import Library
from db.paper import Paper
from db.query import (
    BOOST_MARK,
    PART_SPAN,
    PARTS,
    SEGMENT,
    TEXT_FIELD,
    InPart,
    ParsedQuery,
    number_value,
    parse,
    query_analyzers,
    tag_analyzer,
    tag_value,
)
from db.query import highlight_terms as highlight_terms  # the window imports it from here

INDEX_SCHEMA_VERSION = 5
_STAMP = "margin-index.json"
TITLE_BOOST = 2.0
_WRITER_TIMEOUT = 5.0


def make_schema() -> Schema:
    analyzers = query_analyzers()
    return Schema(
        id=ID(stored=True, unique=True, sortable=True),
        text=_positional(analyzers[TEXT_FIELD]),  # the PARTS, each in its own positions range
        tag=KEYWORD(analyzer=tag_analyzer()),
        venue=_positional(analyzers["venue"]),
        year=ID(),  # four digits, "0000" for none (whoosh's NumericRange misses bounded ranges)
        rating=ID(),  # "0" for none, else "1".."5"
        read=ID(),
    )


class ArrayPositions(Positions):
    """whoosh's Positions format storing the positions as a plain uint16 array instead of pickled deltas:
    the ranker decodes positions of every phrase candidate, and this is several times faster to read."""

    def encode(self, poslist):
        return pack_uint(len(poslist)) + array("H", poslist).tobytes()

    def decode_positions(self, valuestring):
        return _positions(valuestring).tolist()


def _positional(analyzer) -> TEXT:
    field_type = TEXT(analyzer=analyzer)
    field_type.format = ArrayPositions()
    return field_type


def _positions(value: bytes) -> array:
    positions = array("H")
    positions.frombytes(value[4:])
    return positions


def _codec() -> W3Codec:
    # big posting blocks, quick to inflate: the ranker reads whole posting lists, block by block
    return W3Codec(blocklimit=1024, compression=0)


def document(paper: Paper) -> dict:
    """The whoosh document for a paper. Tags are kept whole, one per line (a comma stays inside its tag)."""
    parts = {"title": f"{TITLE_BOOST}{BOOST_MARK}{_clean(paper.label)}", "authors": " ; ".join(paper.authors),
             "abstract": paper.abstract, "note": paper.note, "tags": " ; ".join(paper.tags)}
    return {
        "id": paper.id,
        "text": SEGMENT.join(parts[name] if name == "title" else _clean(parts[name]) for name in PARTS),
        "tag": "\n".join(tag_value(tag) for tag in paper.tags),
        "venue": _clean(paper.venue or ""),
        "year": number_value("year", paper.year),
        "rating": number_value("rating", paper.rating),
        "read": "yes" if paper.read else "no",
    }


def _clean(text: str) -> str:
    return (text or "").replace(SEGMENT, " ").replace(BOOST_MARK, " ")


@dataclass
class SearchResult:
    """Paper ids best first; `hint` is a short message for the status bar ("" when all went as typed);
    `terms` are the words to highlight."""

    ids: list[str]
    hint: str = ""
    terms: list[str] = field(default_factory=list)


class _Ranker:
    """Runs a parsed query over one searcher's posting lists and ranks every match by BM25 (B=0.75, K1=1.2).

    whoosh's own collector scores one posting at a time through several layers of matchers; reading each
    posting list whole, block by block, and combining plain dicts is several times faster for the
    "every match, best first" result the window needs. A phrase is checked for adjacency only in the
    documents holding all its words. Query types it does not know are run by whoosh (unscored).
    """

    K1, B = 1.2, 0.75

    def __init__(self, searcher):
        self.searcher = searcher
        self.reader = searcher.reader()
        self.leaves = searcher.leaf_searchers()
        self.count = searcher.doc_count()
        self.live = set(self.reader.all_doc_ids()) if self.reader.has_deletions() else None
        self._norms: dict[str, list[float]] = {}

    def ranked(self, parsed: query.Query, limit: int | None) -> list[int]:
        """Docnums matching `parsed`, best first (ties in index order)."""
        scores = self.run(parsed)
        if self.live is not None:
            scores = {d: s for d, s in scores.items() if d in self.live}
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
        return dict.fromkeys(self.reader.all_doc_ids(), 0.0)

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
            self._norms[field] = [base + per_length * self.reader.doc_field_length(d, field, 0)
                                  for d in range(self.reader.doc_count_all())]
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



class SearchIndex:
    """The library's search index. One writer at a time per process (an internal lock); one searcher kept
    open between queries and refreshed after each write.

    `open()` rebuilds the index when it is missing, from another schema, unreadable, locked by a writer that
    never finished, or out of step with SQLite, and catches up with papers queued in SQLite.
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._index = None
        self._searcher = None
        self._ids: list[str] | None = None  # docnum → paper id for the current searcher
        self._ranker: _Ranker | None = None
        self._library: Library | None = None
        self._lock = threading.RLock()

    @classmethod
    def for_library(cls, library: Library) -> SearchIndex:
        return cls(library.folder / "index")

    # ----------------------------------------------------------------- keeping it current
    def needs_rebuild(self) -> bool:
        """True when the index is missing, from another schema version, or cannot be opened."""
        with self._lock:
            self._drop_searcher()
            try:
                stamp = json.loads((self.folder / _STAMP).read_text())
                if stamp.get("schema") != INDEX_SCHEMA_VERSION:
                    return True
                self._index = whoosh_index.open_dir(str(self.folder))
                self._current_searcher().doc_count()
            except Exception:  # a missing, truncated or garbage index: whoosh raises many kinds
                self._drop_searcher()
                self._index = None
                return True
            return False

    def open(self, library: Library, progress: Callable[[int, int], None] | None = None) -> bool:
        """Make the index usable and current with `library`. Returns True when it had to be rebuilt."""
        with self._lock:
            self._library = library
            if self.needs_rebuild():
                self.rebuild(library, progress)
                return True
            try:
                self.sync(library)
                in_step = self._current_searcher().doc_count() == library.count()
            except Exception:  # noqa: BLE001 - unreadable postings, a lock that never goes: start afresh
                in_step = False
            if not in_step:
                self.rebuild(library, progress)
                return True
            return False

    def rebuild(self, library: Library, progress: Callable[[int, int], None] | None = None) -> None:
        """Build the index anew from every paper in the library, as one optimized segment."""
        with self._lock:
            self._library = library
            self._drop_searcher()
            self._index = None
            if self.folder.exists():
                shutil.rmtree(self.folder, ignore_errors=True)
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / _STAMP).unlink(missing_ok=True)
            index = whoosh_index.create_in(str(self.folder), make_schema())
            queued = library.index_queue()
            ids = library.ids()
            writer = index.writer(limitmb=256, codec=_codec())
            try:
                for start in range(0, len(ids), 1000):
                    for paper in library.papers(ids[start : start + 1000]):
                        writer.add_document(**document(paper))
                    if progress:
                        progress(min(start + 1000, len(ids)), len(ids))
            except BaseException:
                writer.cancel()
                raise
            writer.commit(optimize=True)
            (self.folder / _STAMP).write_text(json.dumps({"schema": INDEX_SCHEMA_VERSION}))
            self._index = index
            library.clear_index_queue(queued)

    def sync(self, library: Library) -> int:
        """Bring queued papers up to date in the index (at once searchable). Returns how many were updated.

        A writer lock that is not released within a few seconds (a writer that never finished) or an
        unreadable index leads to a rebuild."""
        with self._lock:
            self._library = library
            queued = library.index_queue()
            if not queued:
                return 0
            if self._index is None and self.needs_rebuild():
                self.rebuild(library)
                return len(queued)
            papers = {paper.id: paper for paper in library.papers(queued)}
            try:
                writer = self._index.writer(timeout=_WRITER_TIMEOUT, codec=_codec())
            except LockError:
                self.rebuild(library)
                return len(queued)
            try:
                for paper_id in queued:
                    if paper_id in papers:
                        writer.update_document(**document(papers[paper_id]))
                    else:
                        writer.delete_by_term("id", paper_id)
            except BaseException:
                writer.cancel()
                raise
            writer.commit()
            self._drop_searcher()
            library.clear_index_queue(queued)
            return len(queued)

    def _current_searcher(self):
        if self._searcher is None:
            self._searcher = self._index.searcher(weighting=scoring.BM25F())
            self._ids = list(self._searcher.reader().column_reader("id"))  # docnum → paper id
            self._ranker = _Ranker(self._searcher)
        return self._searcher

    def _drop_searcher(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
        self._searcher = None
        self._ids = None
        self._ranker = None

    def close(self) -> None:
        """Close the open searcher (the index stays on disk)."""
        with self._lock:
            self._drop_searcher()
            self._index = None

    # ----------------------------------------------------------------- searching
    def search(self, text: str, limit: int | None = None) -> list[str]:
        """Paper ids matching query `text`, best match first (BM25F, title weighted 2×); all matches unless
        `limit`. An empty query matches nothing here: callers show the library in its own order instead.
        Never raises for any text; see `find` for the hint that says why a query was taken differently."""
        return self.find(text, limit).ids

    def find(self, text: str, limit: int | None = None) -> SearchResult:
        """Like `search`, with a hint for the status bar and the words to highlight."""
        with self._lock:
            parsed = parse_query_text(text)
            if parsed.query is None or self._index is None:
                return SearchResult([], parsed.hint, parsed.terms)
            try:
                ids = self._run(parsed.query, limit)
            except Exception:  # noqa: BLE001 - a query whoosh cannot run: search its plain words instead
                plain = parse_query_text(" ".join(parsed.terms) or "")
                ids = self._run(plain.query, limit) if plain.query is not None else []
                parsed.hints.append("searched the plain words")
            return SearchResult(ids, parsed.hint, parsed.terms)

    def _run(self, parsed: query.Query, limit: int | None) -> list[str]:
        self._current_searcher()
        docnums = self._ranker.ranked(parsed, limit)
        if len(docnums) < 2:
            return [self._ids[docnum] for docnum in docnums]
        return list(itemgetter(*docnums)(self._ids))

    def similar(self, paper_id: str, limit: int = 20) -> list[str]:
        """Up to `limit` ids of papers most like `paper_id` (its key terms, Bo1 model), best first; [] for an
        unknown paper or before the index is opened with a library."""
        with self._lock:
            if self._index is None or self._library is None:
                return []
            try:
                paper = self._library.paper(paper_id)
            except KeyError:
                return []
            searcher = self._current_searcher()
            text = " ".join([paper.label, paper.abstract, " ".join(paper.tags), paper.note])
            terms = searcher.key_terms_from_text(TEXT_FIELD, text, numterms=15)
            if not terms:
                return []
            like = query.Or([query.Term(TEXT_FIELD, term, boost=weight) for term, weight in terms])
            results = searcher.search(like, limit=limit, mask=query.Term("id", paper_id))
            return [self._ids[docnum] for _score, docnum in results.top_n]


def parse_query_text(text: str) -> ParsedQuery:
    """The user's query parsed for this index's fields (db/query.py). Never raises."""
    return parse(text, query_analyzers())


def parse_query(text: str, schema: Schema | None = None) -> query.Query | None:
    """The whoosh query for `text`, or None when it holds nothing searchable (kept for older callers)."""
    return parse_query_text(text).query


def ensure_index(library: Library) -> SearchIndex:
    """Open (and rebuild or catch up as needed) the library's index; for headless commands."""
    index = SearchIndex.for_library(library)
    index.open(library)
    return index
