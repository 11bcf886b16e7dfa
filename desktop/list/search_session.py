"""The search the list shows: the query in the search box, its sort order, and the results from the worker.

Queries go to the SearchService's worker thread; results come back as `resultsReady(ids, keep_place)`. A ranked
query's first page comes first (`complete` False), then the rest of its ranking, whose first rows are that
page: the list then only grows, so the selection and the scroll place stay; a newer search drops the rest.
The list is re-ordered only when the query or the sort order changes, when papers are added or removed, or when
the user asks (View → Refresh list): an edit to a paper never re-runs the search, so a view keeps its order,
and a paper that no longer matches (read in "Unread", rated in "Recommended") stays until the user moves on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLineEdit

from db.changes import ADDED, BIBLIOGRAPHIC, MEMBERSHIP, REMOVED, TITLE, Changes
from db.library import facets
from db.library.library import Library
from db.query_kind import SIMILAR, SIMILAR_TAG, QueryKind
from desktop.common.i18n import plural
from desktop.list.list_rows import Arranged, ListOrder, one_per_work
from desktop.list.search_worker import SearchService

if TYPE_CHECKING:  # (db.query and db.search are imported at the first search or when the index opens, after
    # the list's first paint: not needed to show the library's papers)
    from db.query import Query

# keys typed within this long of the search sent last are coalesced into one search when it has passed (key repeats,
# fast typing); the first key after a pause searches at once. The worker also skips searches a newer key replaced
SEARCH_DELAY_MS = 40
INDEX_DELAY_MS = 1000  # the index catches up once a burst of edits is over (a search catches it up at once)
STALE_AGAIN_MS = 2000  # a search answered from an index another process was writing is asked again after this


class SearchSession(QObject):
    """Owns the search box's query, the sort order and the search worker.

    `query` is the text of the results shown and `kind` its kind (db.query_kind); `highlight` the query's words
    and `marks` the starts of the words to mark in the reader (db.search.highlight_prefixes); `why` the shared
    terms of recommended papers; `sort_key`/`sort_descending` the order (None: relevance, library order
    without a query); `all_ids` every paper in library order; `complete` False while the list shows only
    the first page of the query's results (the rest and the count follow)."""

    # paper ids in list order (a Python list; not Signal(list, …), which converted 100k ids for every receiver,
    # 40 ms each at 100k papers); True: the same query again (keep the place)
    resultsReady = Signal(object, bool)
    message = Signal(str, int)  # a status-bar message and how long to show it (ms; 0 clears the bar)
    searched = Signal(str)  # a search was sent to the worker (for tests and the benchmark)
    # a recommendation query other than the one shown was sent: its answer can take seconds (the model is fitted
    # first), and the list must not show the previous results meanwhile as if they were it
    preparing = Signal(str)

    def __init__(self, library: Library, box: QLineEdit, parent=None, new_library: bool = False):
        super().__init__(parent)
        self.library = library
        self.box = box
        self.query = ""
        self.kind = QueryKind()
        self.highlight: list[str] = []
        self.marks: list[str] = []
        self.why: dict[str, list[str]] = {}
        self.interest: dict[str, str] = {}  # is:interests: the interest each paper came for
        self.sort_key: str | None = None
        self.sort_descending = False
        self.similar_to: str | None = None  # similar:ID shows that paper first, pinned above its look-alikes
        self.all_ids = library.ids()
        self.complete = True
        # the works dict of the list's model (desktop.list.paper_model.works; set by the list controller): the
        # worker leaves out each work's later versions with it
        self.works = dict
        self.arranged: Arranged | None = None  # the rows of the ids last sent in resultsReady
        self._library_rows: Arranged | None = None  # all_ids as rows, made once per all_ids and works
        self._keep_place = False
        self._staying: list[str] | None = None  # a ranked list's rows an import leaves in place (`changed`)
        self._ids_request = 0
        self._stale_query = None  # the query last answered from an index another process was writing
        self.service = SearchService(library.folder, self, new_library=new_library)
        self.service.worker.results.connect(self._results)
        self.service.worker.page.connect(self._page)
        self.service.worker.library_ids.connect(self._library_ids)
        self.timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)  # since the last search sent
        self.timer.timeout.connect(self._delay_over)
        self._typed_since = False  # text typed while the timer ran: searched when it ends
        self._setting = False  # set_query puts text in the box and searches itself
        box.textChanged.connect(self._typed)
        # rating a paper a key press apart would otherwise commit to the index after every key, and that
        # Python work on the worker thread holds the interpreter lock the window needs (stalls of 50-150 ms
        # at 20k papers); the worker brings the index up to date before every search anyway
        self.index_timer = QTimer(self, singleShot=True, interval=INDEX_DELAY_MS)
        self.index_timer.timeout.connect(self.service.sync)
        # a search answered from an index another process was writing (an import from the command line): the
        # same query is asked again, keeping the place, until one is answered from an index up to date
        self.stale_timer = QTimer(self, singleShot=True, interval=STALE_AGAIN_MS)
        self.stale_timer.timeout.connect(self._again_if_unchanged)

    # ---------------------------------------------------------------- what the user asks
    def set_query(self, text: str) -> None:
        """Put `text` in the search box and search at once (without the typing delay)."""
        self._setting = True
        try:
            self.box.setText(text)
        finally:
            self._setting = False
        self.timer.stop()
        self._typed_since = False
        self.start()

    def _typed(self, _text: str = "") -> None:
        """The box's text changed: searched at once after a pause (SEARCH_DELAY_MS since the last search), else
        once that delay has passed, for all the keys typed meanwhile (rather than 40 ms after every key)."""
        if self._setting:
            return
        if self.timer.isActive():
            self._typed_since = True
            return
        self.timer.start()
        self.start()

    def _delay_over(self) -> None:
        if self._typed_since:
            self._typed_since = False
            self.timer.start()
            self.start()

    @property
    def typing(self) -> bool:
        """True while text typed into the box waits for its search (SEARCH_DELAY_MS after the last one)."""
        return self.timer.isActive() and self._typed_since

    def add_filter(self, fragment: str, add: bool = False) -> None:
        """A sidebar filter: replaces the query's filter of the same kind (adds it when `add`, Ctrl+click);
        an empty fragment (All papers) clears the query."""
        from db.search.filters import with_filter

        self.set_query(with_filter(self.box.text(), fragment, add=add))

    def tag_renamed(self, old: str, new: str) -> None:
        """A tag was renamed or merged: the box's filters on it name the new one (db.search.filters), searched
        again; nothing else in the box changes."""
        from db.search.filters import with_tag_renamed

        text = self.box.text()
        renamed = with_tag_renamed(text, old, new)
        if renamed != text:
            self.set_query(renamed)

    def sort_by(self, key: str | None, descending: bool = False) -> None:
        """Sort by a facets.SORT_KEYS key, or by relevance (library order without a query) for None."""
        self.sort_key, self.sort_descending = key, descending
        self.start()

    def refresh(self) -> None:
        """Run the same search again (View → Refresh list), keeping the selected paper and the scroll place."""
        self.start(keep_place=True)

    def start(self, keep_place: bool = False) -> None:
        """Search for the box's text now (an empty box shows every paper in library order). The text is parsed
        here, once (db.query.parse_query: its kind, its words for the index, the words to highlight); the worker
        and db.query.run_query take the parsed query as it is."""
        self._keep_place = keep_place
        self._staying = None  # a search the user asks for (typing, F5) ranks anew
        from db.query import parse_query

        query = parse_query(self.box.text())
        if query.empty:
            self.query, self.kind, self.why, self.interest, self.similar_to = "", QueryKind(), {}, {}, None
            self.highlight, self.marks = [], []
            self.complete = True
            self.service.search(query, self.order())  # makes any search still running stale; sorted: answered
            self.message.emit("", 0)  # an old search's hint no longer applies
            if not self.sort_key:  # the library's own order, here at once (sorted, it comes from the worker)
                self._emit(self.library_rows(), keep_place)
            return
        self.service.search(query, self.order())
        if query.kind.recommendation and query.text != self.query:
            self.preparing.emit(query.text)
        self.searched.emit(query.text)

    def order(self) -> ListOrder:
        """How the worker arranges a search's ids: the sort order and the list's works."""
        return ListOrder(self.sort_key, self.sort_descending, self.works())

    def library_rows(self) -> Arranged:
        """Every paper in library order as the list's rows, made once for `all_ids` and the list's works (32 ms
        at 100k papers) rather than each time the search box is cleared."""
        works = self.works()
        rows = self._library_rows
        if rows is None or rows.given is not self.all_ids or rows.works is not works:
            rows = self._library_rows = Arranged(self.all_ids, one_per_work(self.all_ids, works), works)
        return rows

    def _emit(self, arranged: Arranged, keep_place: bool) -> None:
        self.arranged = arranged
        self.resultsReady.emit(arranged.given, keep_place)

    def rows_for(self, ids: list[str]) -> Arranged | None:
        """The rows made for `ids` when `ids` is the list last sent in resultsReady (None: the list model makes
        them)."""
        arranged = self.arranged
        return arranged if arranged is not None and arranged.given is ids else None

    # ---------------------------------------------------------------- what happened
    def changed(self, changes: Changes, outside: bool = False) -> None:
        """After a change: the index catches up (worker thread) once the edits pause; added or removed papers
        are searched again, and so is a query when another process changed papers' titles or bibliographic
        fields (an import there can change which papers match; annotations elsewhere and the window's own
        edits never move its rows)."""
        self.index_timer.start()
        if changes.touches(REMOVED) and not changes.touches(ADDED):  # papers gone: left out here, at once
            gone = {paper_id for paper_id in changes.papers if REMOVED in changes.kinds_of(paper_id)}
            self.all_ids = [paper_id for paper_id in self.all_ids if paper_id not in gone]
            self.refresh()
        elif changes.touches(*MEMBERSHIP) or (outside and self.box.text().strip()
                                              and changes.touches(BIBLIOGRAPHIC, TITLE)):
            staying = self._rows_to_keep() if changes.touches(ADDED) else None
            self.reload()
            self._staying = staying  # the rows shown stay in their order; the import's matches follow them

    def reload(self) -> None:
        """Everything may have changed (the change log no longer reached back): read the papers afresh. The
        query is searched again, and the library's ids (50 ms at 100k papers) are read on the worker thread
        (`_library_ids`): shown when they come if the box is empty, else kept for when it is cleared."""
        self._ids_request = self.service.library_ids(self.works())  # shown when it comes, if the box is empty
        self.refresh()

    def _library_ids(self, request: int, arranged: Arranged) -> None:
        if request != self._ids_request:
            return  # newer ones are on their way
        self.all_ids = arranged.given
        self._library_rows = arranged  # taken by library_rows() while the list's works are the same
        if not self.box.text().strip() and not self.query and not self.typing:
            if self.sort_key:
                self.start(keep_place=True)  # sorted on the worker
            else:
                self._emit(self.library_rows(), True)

    def _page(self, request: int, query: Query, result, arranged: Arranged) -> None:
        """The first page of a ranked search: shown unless the list is sorted otherwise (then the whole
        ranking is needed first) or a newer search was sent."""
        if request == self.service.latest_request and not self.sort_key and self._staying is None:
            self._show(query, result, complete=False, arranged=arranged)

    def _results(self, request: int, query: Query, result, arranged: Arranged) -> None:
        if request == self.service.latest_request:  # else a newer search is on its way
            self._show(query, result, complete=True, arranged=arranged)
            if getattr(result, "stale", False):
                self._stale_query = query.text
                self.stale_timer.start()

    def _again_if_unchanged(self) -> None:
        if self.box.text() == self._stale_query == self.query and not self.typing:
            staying = self._rows_to_keep()
            self.refresh()
            self._staying = staying  # the rows shown stay; what the other process's papers add follows them

    def _show(self, query: Query, result, complete: bool, arranged: Arranged) -> None:
        """Show `result` of `query`, its ids arranged by the worker as the list's rows (`arranged`)."""
        text, kind = query.text, query.kind
        keep_place = self._keep_place or text == self.query
        staying = complete and self._staying is not None and text == self.query
        self.complete = complete
        self.query, self.kind = text, kind
        self.why = result.why if kind.recommendation and kind.kind != SIMILAR else {}  # not for look-alikes
        self.interest = dict(getattr(result, "interest", {}) or {})
        if query.empty:
            self.highlight = []
        else:  # a recommendation query's own words (is:recommended, similar:ID) are no search words
            self.highlight = result.terms if kind.recommendation else (result.terms or query.terms)
        from db.search import highlight_prefixes

        self.marks = highlight_prefixes(self.highlight)
        self.message.emit(result.hint, 8000)  # an empty hint clears an old one that no longer applies
        self.similar_to = self._paper_of(kind.argument) if kind.kind == SIMILAR else None
        if self.similar_to is not None:  # the paper the look-alikes are like comes first, whatever the sort
            ids = [self.similar_to] + [i for i in arranged.given if i != self.similar_to]
            arranged = Arranged(ids, one_per_work(ids, arranged.works), arranged.works)  # a few hundred
        if staying:
            arranged = self._after_import(arranged)
        self._emit(arranged, keep_place)

    def _rows_to_keep(self) -> list[str] | None:
        """The rows of a ranked list (a query, not sorted) to keep in place when it is searched again because
        papers came in; None for any other list."""
        ranked = self.query and not self.sort_key and self.arranged is not None
        return list(self.arranged.given) if ranked else None

    def _after_import(self, arranged: Arranged) -> Arranged:
        """A ranked list searched again because papers were added: the rows shown keep their order (an import
        re-ranks what idf and look-alikes see: rows a reader was working down moved, a new user's trial), the
        new matches come after them in their ranked order, and the status bar says F5 ranks everything again."""
        staying, self._staying = self._staying or [], None
        kept = set(staying)
        added = [paper_id for paper_id in arranged.given if paper_id not in kept]
        if added:
            self.message.emit(plural(self.tr("%Ln paper(s) the import added match: at the end of the list (F5 "
                                             "ranks everything again)", "", len(added)), len(added)), 15000)
        ids = staying + added
        return Arranged(ids, one_per_work(ids, arranged.works), arranged.works)

    def _paper_of(self, prefix: str) -> str | None:
        try:
            return self.library.find_id(prefix)
        except KeyError:
            return None

    # ---------------------------------------------------------------- helpers
    def ordered(self, ids: list[str]) -> list[str]:
        """`ids` in the chosen sort order (as given when sorting by relevance), on this thread: for the window's
        first list only (a search's ids are sorted on the worker)."""
        if not self.sort_key:
            return ids
        return facets.order_ids(self.library, ids, self.sort_key, self.sort_descending)

    def suggestion_tag(self, paper_id: str | None = None) -> str | None:
        """The tag whose suggestions the list shows (`similar-tag:"NAME"`), or in the interests queue
        (`is:interests`) the interest `paper_id` came for; else None."""
        if paper_id is not None and paper_id in self.interest:
            return self.interest[paper_id]
        return (self.kind.argument or None) if self.kind.kind == SIMILAR_TAG else None

    def stop(self) -> None:
        self.timer.stop()
        self.stale_timer.stop()
        self._typed_since = False
        if self.index_timer.isActive():  # the last edits go into the index before the worker ends
            self.index_timer.stop()
            self.service.sync()
        self.service.stop()
