"""The whoosh search index in the library's `index/` folder: derived data, rebuilt from SQLite at will.

What it holds for a paper (the schema, the documents) is db/search/documents.py; how text is analyzed,
db/search/analysis.py (stop words are kept so that "chain of thought" matches as a phrase); the query language,
db/search/language.py; the ranking, db/search/ranking.py.
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh import query, scoring
from whoosh.index import LockError

from db.library.library import Library
from db.search.analysis import TEXT_FIELD
from db.search.documents import codec, document, documents_of, make_schema
from db.search.engine import check_whoosh
from db.search.folder import IndexLock, fresh_folder, swap_in
from db.search.language import ParsedQuery, parse_query_text
from db.search.language import highlight_terms as highlight_terms  # tests import it from here, as the window did
from db.search.postings import SegmentCache, open_index
from db.search.ranking import Ranker
from db.search.writer import Helper, SegmentBuilder, write_segments
from db.system.fileio import write_atomically
from db.system.memory import release_memory

INDEX_SCHEMA_VERSION = 11  # 7: the stamp holds the last change applied (library change log); 8: 32-bit
# positions in their own field (textpos), the text field holds weights only; 9: the text analyzer moved to
# db.search.analysis (the pickled schema names it by module path); 10: the screening decision and reason
# (issue 29), the venue's decision words in venue_decision (issue 34); 11: positions blocks packed (db.search.packing),
# weights pickled as whole numbers (issue 28)
_STAMP = "margin-index.json"
_WRITER_TIMEOUT = 5.0
_BULK_SYNC = 100  # a queue this long is written as a new segment (SegmentBuilder) instead of doc by doc
_HELPER_MIN = 4000  # a rebuild of this many papers is shared with a second process
_REBUILD_MIN = 2000  # a queue this long and at least half the library: rebuilt from scratch


def _start_helper(folder: Path, library: Library, ids: list[str]) -> Helper | None:
    """A helper process (db/search/writer.py) indexing the papers `ids` into a segment of the index in
    `folder`: it reads them from the library's file itself when there is one. None if it cannot start."""
    try:
        helper = Helper(folder, codec())
        if isinstance(library, Library):
            helper.send_library(library.folder, ids)
        else:
            for start in range(0, len(ids), 1000):
                helper.send([document(paper) for paper in library.papers(ids[start : start + 1000])])
    except Exception:  # noqa: BLE001 - e.g. no interpreter to start: the caller indexes them itself
        return None
    return helper


@dataclass
class SearchResult:
    """Paper ids best first; `hint` is a short message for the status bar ("" when all went as typed);
    `terms` are the words to highlight; `total` the number of matches when known."""

    ids: list[str]
    hint: str = ""
    terms: list[str] = field(default_factory=list)
    total: int | None = None  # how many papers match; None when only the first page was worked out


class SearchIndex:
    """The library's search index. One writer at a time per process (an internal lock); one searcher kept
    open between queries and refreshed after each write.

    `open()` rebuilds the index when it is missing, from another schema, unreadable, locked by a writer that
    never finished, or out of step with SQLite, and catches up with papers queued in SQLite.
    """

    def __init__(self, folder: Path):
        check_whoosh()
        self.folder = Path(folder)
        self._index = None
        self._searcher = None
        self._ids: list[str] | None = None  # docnum → paper id for the current searcher
        self._ranker: Ranker | None = None
        self._segments = SegmentCache()  # per segment: ids and lengths, read once
        self._library: Library | None = None
        self._stamp: dict = {}  # the stamp as this object last read or wrote it (see _read_stamp)
        self._lock = threading.RLock()
        self.waiting: Callable[[], None] | None = None  # called when another process is writing the index
        self._folder_lock = IndexLock(self.folder, waiting=lambda: self.waiting and self.waiting())

    @classmethod
    def for_library(cls, library: Library) -> SearchIndex:
        return cls(library.derived_folder / "index")

    # ----------------------------------------------------------------- keeping it current
    def ever_built(self) -> bool:
        """False for a library whose index was never written: the index's lock file beside the folder
        (db.search.folder.IndexLock) is made by the first build and outlives any damage to the folder."""
        return self._folder_lock.path.exists()

    def needs_rebuild(self) -> bool:
        """True when the index is missing, from another schema version, or cannot be opened."""
        with self._lock:
            self._drop_searcher()
            try:
                stamp = self._read_stamp()
                if stamp.get("schema") != INDEX_SCHEMA_VERSION or not isinstance(stamp.get("applied"), int):
                    return True
                self._index = open_index(self.folder)
                self._stamp = stamp
                self._current_searcher().doc_count()
            except Exception:  # a missing, truncated or garbage index: whoosh raises many kinds
                self._drop_searcher()
                self._index = None
                return True
            return False

    def open(self, library: Library, progress: Callable[[int, int], None] | None = None) -> bool:
        """Make the index usable and current with `library`. Returns True when it had to be rebuilt. Takes
        the index's lock only when there is something to write (IndexBusy when another process keeps it)."""
        with self._lock:
            self._library = library
            if not self.needs_rebuild() and self._current(library):
                return False
        with self._lock, self._folder_lock:
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
        """Build the index anew from every paper in the library, as one optimized segment (in a fresh folder
        that then takes the place of the old one, which other processes may still be reading)."""
        with self._lock, self._folder_lock:
            self._library = library
            self._drop_searcher()
            self._index = None
            fresh = fresh_folder(self.folder)
            index = whoosh_index.create_in(str(fresh), make_schema())
            applied = library.last_change()  # read before the papers: a later change is applied by sync()
            ids = library.ids()
            builder = SegmentBuilder(index.writer(codec=codec()))  # holds the fresh index's lock
            helper, own = None, len(ids)
            try:
                if len(ids) >= _HELPER_MIN and (os.cpu_count() or 1) > 1:
                    own = len(ids) * 11 // 20  # the helper starts about half a second later
                    helper = _start_helper(fresh, library, ids[own:])
                    own = own if helper is not None else len(ids)
                segments = write_segments(index, documents_of(library, ids, 0, own, progress, len(ids)),
                                          codec())
                if helper is not None:
                    try:
                        segments += helper.finish()
                    except Exception:  # noqa: BLE001 - the second process failed: index its part here
                        helper.stop()
                        segments += write_segments(index, documents_of(library, ids, own, len(ids)), codec())
                builder.commit(tuple(segments))
            except BaseException:
                if helper is not None:
                    helper.stop()
                builder.cancel()
                raise
            self._write_stamp(fresh, applied, build=uuid.uuid4().hex)
            swap_in(fresh, self.folder)  # when another process's index is in place instead, its stamp says
            self._index = open_index(self.folder)  # how far that one has got
            self._stamp = self._read_stamp()
            release_memory()  # the build's postings (the window's search worker builds too)

    def _holds_last_change(self, library: Library) -> bool:
        """Whether the open index, as this object last read or wrote its stamp, holds the library's last change
        (read without the lock: nothing is written)."""
        return (self._index is not None and self._read_stamp() == self._stamp
                and self._stamp.get("applied") == library.last_change())

    def _current(self, library: Library) -> bool:
        """_holds_last_change, and the index holds every paper."""
        try:
            return self._holds_last_change(library) and self._current_searcher().doc_count() == library.count()
        except Exception:  # noqa: BLE001 - unreadable: the locked path finds out what to do
            return False

    def sync(self, library: Library, wait: float | None = None) -> int:
        """Apply the changes in the library's change log since the last one this index holds (at once
        searchable), and note the newest in the index's stamp. Returns how many papers were updated.
        Never writes to the library. Takes the index's lock only when there is something to apply, waiting
        at most `wait` seconds for it (default: IndexLock's two minutes), else raises IndexBusy.

        A writer lock that is not released within a few seconds (a writer that never finished), an unreadable
        index, or a change log that no longer reaches back to the index's last change leads to a rebuild."""
        with self._lock:
            if self._holds_last_change(library):
                self._library = library
                return 0
        with self._lock, self._folder_lock.waiting_at_most(wait), self._folder_lock:
            self._library = library
            if self._index is None and self.needs_rebuild():
                self.rebuild(library)
                return library.count()
            stamp = self._read_stamp()
            if stamp.get("build") != self._stamp.get("build"):  # another process rebuilt the index
                self._drop_searcher()
                self._index = open_index(self.folder)
            elif stamp.get("applied") != self._stamp.get("applied"):  # … or brought it up to date
                self._drop_searcher()
            self._stamp = stamp
            found = library.changes_since(int(stamp.get("applied", 0)))
            if found is None:
                self.rebuild(library)
                return library.count()
            changes, newest = found
            if not changes:
                return 0
            queued = sorted(changes.papers)
            if len(queued) >= _REBUILD_MIN and len(queued) * 2 >= library.count():
                self.rebuild(library)  # most of the library changed (a big import): one fresh segment
                return len(queued)
            papers = {paper.id: paper for paper in library.papers(queued)}
            try:
                writer = self._index.writer(timeout=_WRITER_TIMEOUT, codec=codec())
            except LockError:
                self.rebuild(library)
                return len(queued)
            try:
                if len(queued) < _BULK_SYNC:
                    for paper_id in queued:
                        if paper_id in papers:
                            writer.update_document(**document(papers[paper_id]))
                        else:
                            writer.delete_by_term("id", paper_id)
                    writer.commit()
                else:  # many papers (an import): old versions deleted, new ones written as one new segment
                    for paper_id in queued:
                        writer.delete_by_term("id", paper_id)
                    builder = SegmentBuilder(writer)
                    for paper_id in queued:
                        if paper_id in papers:
                            builder.add(document(papers[paper_id]))
                    builder.commit()
                    del builder, papers
                    release_memory()
            except BaseException:
                if not writer.is_closed:
                    writer.cancel()
                raise
            self._drop_searcher()
            self._write_stamp(self.folder, newest)  # a crash before this applies the changes again: harmless
            return len(queued)

    def pending(self, library: Library) -> list[str] | None:
        """Ids of papers changed since the index's last applied change (sorted); None when the index must
        be rebuilt (no stamp, or the change log no longer reaches back to it)."""
        stamp = self._read_stamp()
        if "applied" not in stamp:
            return None
        found = library.changes_since(int(stamp["applied"]))
        return None if found is None else sorted(found[0].papers)

    def _read_stamp(self) -> dict:
        """The index's stamp: {"schema": version, "applied": last change number applied, "build": id}."""
        try:
            stamp = json.loads((self.folder / _STAMP).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return stamp if isinstance(stamp, dict) else {}

    def _write_stamp(self, folder: Path, applied: int, build: str | None = None) -> None:
        stamp = {"schema": INDEX_SCHEMA_VERSION, "applied": applied,
                 "build": build or self._stamp.get("build") or uuid.uuid4().hex}
        write_atomically(folder / _STAMP, json.dumps(stamp))
        if folder == self.folder:
            self._stamp = stamp

    def _current_searcher(self):
        if self._searcher is None:
            self._searcher = self._index.searcher(weighting=scoring.BM25F())
            self._ranker = Ranker(self._searcher, self._segments)
            self._ids = self._segments.ids(self._ranker.leaves)  # docnum → paper id
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

    def find(self, text: str | ParsedQuery, limit: int | None = None) -> SearchResult:
        """Like `search`, with a hint for the status bar, the words to highlight and the number of matches.
        `text` is the query's text, or the query parsed already (db.search.language.ParsedQuery: not parsed
        again, and not changed). With `limit`, the first `limit` ids of the full ranking, worked out first
        (db/search/ranking.py): a window shows them at once and asks for the rest after (which the ranker then
        takes from the same scores)."""
        with self._lock:
            parsed = text if isinstance(text, ParsedQuery) else parse_query_text(text)
            hints = list(parsed.hints)
            if parsed.query is not None and self._index is None:
                hints.append("the search index is not ready yet")
            if parsed.query is None or self._index is None:
                return SearchResult([], _hint(hints), list(parsed.terms))
            total = None
            try:
                ids, total = self._run(parsed.query, limit)
            except Exception:  # noqa: BLE001 - a query whoosh cannot run: search its plain words instead
                try:
                    plain = parse_query_text(" ".join(parsed.terms) or "")
                    ids, total = self._run(plain.query, limit) if plain.query is not None else ([], 0)
                    hints.append("searched the plain words")
                except Exception:  # noqa: BLE001 - the index cannot be read: the next sync() reopens or rebuilds it
                    self._drop_searcher()
                    self._index = None
                    ids = []
                    hints.append("the search index could not be read; it is being rebuilt")
            return SearchResult(ids, _hint(hints), list(parsed.terms), total)

    def _run(self, parsed: query.Query, limit: int | None) -> tuple[list[str], int | None]:
        self._current_searcher()
        ranking = self._ranker.ranked(parsed, limit)
        docnums = ranking.docnums
        if len(docnums) < 2:
            return [self._ids[docnum] for docnum in docnums], ranking.total
        return list(itemgetter(*docnums)(self._ids)), ranking.total

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


def _hint(hints: list[str]) -> str:
    return "; ".join(dict.fromkeys(hints))  # as ParsedQuery.hint


def ensure_index(library: Library) -> SearchIndex:
    """Open (and rebuild or catch up as needed) the library's index; for headless commands."""
    index = SearchIndex.for_library(library)
    index.open(library)
    return index
