"""The search worker: owns the whoosh index on its own thread, with its own library connection.

Searching, catching the index up after an edit, and rebuilding a broken index all happen here, never on the
GUI thread. Requests are handled in the order sent, so a search sent after an edit sees that edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThread, Signal, Slot

from db.errors import IndexBusy, MarginError
from db.library import facets
from db.library.library import Library
from db.query_kind import PLAIN
from desktop.list.list_rows import ListOrder, arrange

if TYPE_CHECKING:  # (db.query and db.search, with whoosh and numpy, are imported when the index opens: after the
    # list's first paint, on this worker's thread)
    from db.query import Query
    from db.search import SearchIndex


def run_query(library: Library, query, index, recommender):
    """db.query.run_query (imported when first asked: db.query is not needed to open the window)."""
    from db.query import run_query as run

    return run(library, query, index, recommender)


SEARCH_LOCK_WAIT = 0.5  # seconds a search waits for the index's lock before it searches the index as it stands
PAGE = 100  # the first page a search answers before the rest of its ranking: more rows than a screen shows


class SearchWorker(QObject):
    """Lives on a QThread. Send requests through the `request_*` signals of SearchService."""

    # request number, the db.query.Query searched, db.query.QueryResult, its ids as the list's rows
    # (desktop.list.list_rows.Arranged: sorted and one row per work here, off the GUI thread)
    results = Signal(int, object, object, object)
    page = Signal(int, object, object, object)  # the same for the first PAGE results, sent before `results`
    # request number, every paper id in library order as the list's rows (desktop.list.list_rows.Arranged)
    library_ids = Signal(int, object)
    facets_counted = Signal(int, object)  # request number, db.library.facets.Facets (the sidebar's counts)
    ids_found = Signal(int, str, object)  # request number, query text, paper ids (None on failure); for views
    status = Signal(str)  # a message for the status bar
    ready = Signal()  # the index is open and current
    failed = Signal(str)

    def __init__(self, folder: Path):
        super().__init__()
        self._folder = folder
        self._library: Library | None = None
        self._index: SearchIndex | None = None
        self._recommender = None  # db.recommend.recommender.Recommender, made on the first recommendation query
        self.latest_request = 0  # written from the GUI thread: lets an outdated search be skipped
        self.quiet_first_build = False  # set for a library created just now: its first index build is no news
        self.is_ready = False  # True once `ready` was emitted (for a caller that connects late)

    @Slot()
    def open(self) -> None:
        from db.query import parse_query  # noqa: F401 - loaded here, off the window's thread, before a search needs it
        from db.search import SearchIndex

        try:
            self._library = Library.open(self._folder, seed=False, read_pages=False)  # the window reads them
            self._index = SearchIndex.for_library(self._library)
            if self._index.needs_rebuild():
                first = self.quiet_first_build and not self._index.folder.exists()  # a new library: no news
                if not first:
                    self.status.emit(self.tr("Rebuilding the search index…"))
                self._index.rebuild(self._library, None if first else self._progress)
                if not first:
                    self.status.emit(self.tr("Search index rebuilt"))
            else:
                self._index.open(self._library)
            self.is_ready = True
            self.ready.emit()
        except Exception as error:  # noqa: BLE001 - shown to the user, the app stays usable without search
            self.failed.emit(str(error))
            return
        from db.text.math_markup import warm_up

        try:
            warm_up()  # here, not on the window's thread at the first formula the reader shows
        except Exception:  # noqa: BLE001, S110 - only a head start: the reader imports it itself when it needs it
            pass

    def _progress(self, done: int, total: int) -> None:
        self.status.emit(self.tr("Rebuilding the search index: %1 of %2 papers").replace("%1", f"{done:,}")
                         .replace("%2", f"{total:,}"))

    @Slot(int, object, object)
    def search(self, request: int, query: Query, order: ListOrder | None = None) -> None:
        """Answer a search for `query` (parsed by the sender: nothing here parses it again): a ranked query's
        first PAGE results first (`page`), then, unless a newer search was sent meanwhile, the whole ranking
        (`results`; its first rows are the page, and its scores are the page's: ranked once). The ids are
        arranged here as the list shows them (`order`: sorted by a column, one row per work). An empty query is
        answered only when the list is sorted (every paper in that order): else the window shows the library's
        own order itself (a request for it only makes the searches before it stale)."""
        from db.query import QueryResult

        order = order or ListOrder()
        if request < self.latest_request or (query.empty and not order.sort_key):
            return  # a newer keystroke is already queued
        if query.empty and self._library is not None:  # every paper, sorted (the index is not needed)
            try:
                self.results.emit(request, query, QueryResult([]), arrange(self._library, None, order))
            except Exception as error:  # noqa: BLE001 - shown in the status bar; the window stays usable
                self.failed.emit(str(error))
            return
        if self._index is None:
            return
        busy = ""
        result = None
        try:
            try:  # a search waits half a second at most for another process that is writing the index
                self._index.sync(self._library, wait=SEARCH_LOCK_WAIT)
            except IndexBusy as error:  # … then searches it as it stands, and says so
                busy = str(error)
            if query.kind.kind != PLAIN and self._recommender is None:  # recommendations, and ~ (issue 32)
                from db.recommend.recommender import Recommender

                self.status.emit(self.tr("Preparing recommendations…"))
                self._recommender = Recommender(self._library)
            if query.ranked:  # ranked by the index (not filters only, whose papers come in library order)
                first = self._index.find(query.words, limit=PAGE)
                page = QueryResult(first.ids, hint=first.hint, terms=first.terms)
                if len(first.ids) < PAGE:
                    result = page  # fewer: that is the whole answer, sent once below
                else:
                    self.page.emit(request, query, page, arrange(self._library, page.ids, ListOrder(
                        works=order.works)))  # shown only unsorted
                    if request < self.latest_request:
                        return  # a newer keystroke: the rest of this ranking is not wanted
            if result is None:
                result = run_query(self._library, query, self._index, self._recommender)
        except MarginError as error:  # e.g. no paper rated 4–5 yet: say so instead of an empty list
            result = QueryResult([], hint=str(error))
        except Exception as error:  # noqa: BLE001 - shown in the status bar; the window stays usable
            self.failed.emit(str(error))
            result = QueryResult([])
        if busy:
            result.stale = True  # the session asks again once the other process has written the index
            result.hint = result.hint or busy
        if request < self.latest_request:
            return  # a newer keystroke: not arranged for nothing
        try:
            arranged = arrange(self._library, result.ids, order)
        except Exception as error:  # noqa: BLE001 - as above
            self.failed.emit(str(error))
            arranged = arrange(self._library, result.ids, ListOrder(works=order.works))
        self.results.emit(request, query, result, arranged)

    @Slot(int, object)
    def all_ids(self, request: int, works: dict[str, str]) -> None:
        """Every paper id in library order and its rows (one per work of `works`), read and made here rather than
        on the GUI thread (50 + 32 ms at 100k papers)."""
        if self._library is not None:
            try:
                self.library_ids.emit(request, arrange(self._library, None, ListOrder(works=works)))
            except Exception as error:  # noqa: BLE001
                self.failed.emit(str(error))

    @Slot(int)
    def count_facets(self, request: int) -> None:
        """The sidebar's and the status bar's counts (db.library.facets.facets: GROUP BY venue over every paper,
        50 ms at 100k), counted here after papers were added or removed rather than on the GUI thread."""
        if self._library is not None:
            try:
                self.facets_counted.emit(request, facets.facets(self._library))
            except Exception as error:  # noqa: BLE001
                self.failed.emit(str(error))

    @Slot(int, str)
    def find_ids(self, request: int, text: str) -> None:
        """The ids a query finds, for a part of the window other than the list (the progress view); never
        skipped by the list's newer searches."""
        ids = None
        if self._index is not None:
            try:
                self._index.sync(self._library)
                ids = run_query(self._library, text, self._index, self._recommender).ids
            except Exception:  # noqa: BLE001 - the view says it has no figures; the list's search says why
                ids = None
        self.ids_found.emit(request, text, ids)

    @Slot()
    def sync(self) -> None:
        """Apply the library's new changes to the index (another process's too: the index's stamp says how far
        it has got, so an index another process brought up to date is read afresh, not written again)."""
        if self._index is not None:
            try:
                self._index.sync(self._library)
            except Exception as error:  # noqa: BLE001
                self.failed.emit(str(error))

    @Slot()
    def close(self) -> None:
        if self._library is not None:
            self._library.close()
            self._library = None


class SearchService(QObject):
    """The GUI side: starts the worker thread and sends it requests by queued signals."""

    request_open = Signal()
    request_search = Signal(int, object, object)  # request number, db.query.Query, list_rows.ListOrder
    request_sync = Signal()
    request_ids = Signal(int, str)
    request_library_ids = Signal(int, object)  # request number, the list's works
    request_facets = Signal(int)
    request_close = Signal()

    def __init__(self, folder: Path, parent=None, new_library: bool = False):
        super().__init__(parent)
        self._thread = QThread(self)
        self._thread.setObjectName("margin-search")
        self.worker = SearchWorker(folder)
        self.worker.quiet_first_build = new_library
        self.worker.moveToThread(self._thread)
        self.request_open.connect(self.worker.open)
        self.request_search.connect(self.worker.search)
        self.request_sync.connect(self.worker.sync)
        self.request_ids.connect(self.worker.find_ids)
        self.request_library_ids.connect(self.worker.all_ids)
        self.request_facets.connect(self.worker.count_facets)
        self.request_close.connect(self.worker.close)
        self._counter = 0
        self._opened = False
        self._thread.start()

    def open(self) -> None:
        """Have the worker open the index (and rebuild it when it must), once: the window asks after its list's
        first paint, so that opening the index (a second of the interpreter's time at 100k papers) does not
        hold up that paint; any request sent before then asks first."""
        if not self._opened:
            self._opened = True
            self.request_open.emit()

    def search(self, query: Query, order: ListOrder | None = None) -> int:
        """Queue a search for `query` (db.query.parse_query's), its ids to be arranged as `order` says; returns
        its request number (results for older numbers are stale)."""
        self.open()
        self._counter += 1
        self.worker.latest_request = self._counter
        self.request_search.emit(self._counter, query, order or ListOrder())
        return self._counter

    def find_ids(self, text: str) -> int:
        """Queue a look-up of the ids `text` finds (answered by worker.ids_found); returns its number."""
        self.open()
        self._ids_counter = getattr(self, "_ids_counter", 0) + 1
        self.request_ids.emit(self._ids_counter, text)
        return self._ids_counter

    def library_ids(self, works: dict[str, str] | None = None) -> int:
        """Queue a reading of every paper id in library order, made the list's rows with `works` (answered by
        worker.library_ids); returns its number. Queued after the searches sent before it, like them."""
        self.open()
        self._library_ids_counter = getattr(self, "_library_ids_counter", 0) + 1
        self.request_library_ids.emit(self._library_ids_counter, works or {})
        return self._library_ids_counter

    def count_facets(self) -> int:
        """Queue a count of the sidebar's facets (answered by worker.facets_counted); returns its number."""
        self.open()
        self._facets_counter = getattr(self, "_facets_counter", 0) + 1
        self.request_facets.emit(self._facets_counter)
        return self._facets_counter

    @property
    def latest_request(self) -> int:
        return self._counter

    def sync(self) -> None:
        self.open()
        self.request_sync.emit()

    def stop(self) -> None:
        """Let queued work finish, close the worker's library connection and end the thread."""
        if self._thread.isRunning():
            self.request_close.emit()
            self._thread.quit()
            self._thread.wait(30000)
