"""The paper list's controller: which paper is current, which papers the list shows, their order, and Back.

It owns the list's behaviour the way Anki's browser Table owns its table: the model (desktop.list.paper_model)
holds the rows, the search session (desktop.list.search_session) finds them, and this class puts a search's
results in the list while keeping the current paper (and, for the same query again, the scroll place), sorts
from the header, and remembers the views Back returns to. What the window does with the current paper (the
reader, the read clock) it learns from `currentChanged` and `refreshCurrent`; the counts from `resultsShown`.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QTableView, QToolButton, QWidget

from db.query_kind import quoted
from db.text.cleaning import isolate
from desktop.common.plain_text import as_plain
from desktop.list.paper_model import COLUMNS, PaperTableModel
from desktop.list.search_session import SearchSession

BACK_DEPTH = 50  # views Back remembers; older ones are forgotten


class ListController(QObject):
    """Selection, results, sort and Back of the paper list `view` (showing `model`), fed by `search`.

    `box` is the search box (Back remembers its text); `banner` the bar above the list with `banner_label`
    ("Similar to: <label>") and `back_button`, shown over a similar-papers list or a view Back can leave."""

    currentChanged = Signal(object, bool)  # the current paper's id (None: no paper) and whether the user chose it
    refreshCurrent = Signal()  # the current paper stayed in a new list: show it again (new words to mark)
    resultsShown = Signal()  # the list shows a search's results now (the counts follow)

    def __init__(self, model: PaperTableModel, view: QTableView, search: SearchSession, box: QLineEdit,
                 banner: QWidget, banner_label: QLabel, back_button: QToolButton, parent=None):
        super().__init__(parent)
        self.model = model
        self.view = view
        self.search = search
        self.box = box
        self.banner, self.banner_label, self.back_button = banner, banner_label, back_button
        self.current_id: str | None = None
        self._selecting = False  # True while the program, not the user, moves the selection
        self.showing_results = False  # True while a search's results go into the list (show_results)
        self._back: list[tuple[str, str | None]] = []  # (query, current paper) of the views Back returns to
        self._return_to: str | None = None  # the paper Back selects when its view's results arrive
        self._picked_first: str | None = None  # the current paper when a search made its first row current
        search.works = model.works  # the worker leaves out each work's later versions with the model's works
        search.resultsReady.connect(self.show_results)
        view.selectionModel().currentRowChanged.connect(self._current_changed)
        view.horizontalHeader().sectionClicked.connect(self.header_clicked)
        back_button.clicked.connect(self.go_back)

    # ------------------------------------------------------------------ selection
    def select_row(self, row: int, by_user: bool = False) -> None:
        """Make `row` the current paper; `by_user` when the user's key asked for it (only then can it be
        marked read by being shown). A row outside the list does nothing."""
        index = self.model.index(row, 0)
        if not index.isValid():
            return
        self._selecting = not by_user
        try:
            self.view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.view.scrollTo(index)
        finally:
            self._selecting = False

    def select_paper(self, paper_id: str, by_user: bool = False) -> bool:
        """Make the paper `paper_id` current. False when the list does not show it."""
        row = self.model.row_of(paper_id)
        if row is None:
            return False
        self.select_row(row, by_user)
        return True

    def move_selection(self, step: int) -> None:
        """Move the current paper `step` rows down (up when negative), stopping at the list's ends (j/k)."""
        current = self.view.currentIndex().row()
        self.select_row(max(0, min(self.model.rowCount() - 1, current + step)), by_user=True)

    def selected_ids(self) -> list[str]:
        """The ids of the selected rows, in list order."""
        rows = sorted({index.row() for index in self.view.selectionModel().selectedRows()})
        return [self.model.paper_id(row) for row in rows]

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        paper_id = self.model.paper_id(current.row()) if current.isValid() else None
        if not self.showing_results:
            self._picked_first = None  # chosen by the user (or for them), not by a search's order
        if paper_id == self.current_id:
            return  # the same paper in a new list (a search, a refresh): nothing to reload
        self.current_id = paper_id
        self.currentChanged.emit(paper_id, not self._selecting)

    # ------------------------------------------------------------------ results
    def show_results(self, ids: list[str], keep_place: bool) -> None:
        """Show a search's results (paper ids in list order). The current paper stays selected when it is among
        them, unless a search made it current only by putting it first (typing a query: each keystroke's first
        paper is not the reader's choice, and a ranked list's new first paper is what was asked for); with
        `keep_place` (the same query again) the list also keeps its scroll position and its current paper."""
        self.showing_results = True
        try:
            self._show_results(ids, keep_place)
        finally:
            self.showing_results = False

    def _show_results(self, ids: list[str], keep_place: bool) -> None:
        picked = not keep_place and self.current_id is not None and self.current_id == self._picked_first
        keep = self._return_to or (None if picked else self.current_id)
        self._return_to = None
        row = self.view.currentIndex().row()
        scroll = self.view.verticalScrollBar().value()
        self.model.set_ids(ids, self.search.rows_for(ids))  # rows made on the search worker
        if keep is not None and self.select_paper(keep):
            if keep_place:
                self.view.verticalScrollBar().setValue(scroll)
            self.refreshCurrent.emit()  # the words to highlight may be new
        elif self.model.rowCount() and keep_place and row >= 0:  # the paper left the view: stay at its row
            self.select_row(min(row, self.model.rowCount() - 1))
            self.view.verticalScrollBar().setValue(scroll)
        elif self.model.rowCount():
            self.select_row(0)
            self._picked_first = self.current_id
        else:
            self.current_id = None
            self.currentChanged.emit(None, False)
        self.resultsShown.emit()
        self._update_banner()

    # ------------------------------------------------------------------ sort
    def sort_by(self, key: str | None, descending: bool = False) -> None:
        """Sort the list by a facets.SORT_KEYS key, or by relevance (library order without a query) for None."""
        header = self.view.horizontalHeader()
        if key in COLUMNS:
            header.setSortIndicatorShown(True)
            header.setSortIndicator(COLUMNS.index(key), Qt.SortOrder.DescendingOrder if descending
                                    else Qt.SortOrder.AscendingOrder)
        else:
            header.setSortIndicatorShown(False)
        self.search.sort_by(key, descending)

    def header_clicked(self, column: int) -> None:
        """A click on column `column`'s header: sort by it; again: the other way round. Ratings and years
        start highest first."""
        key = COLUMNS[column]
        descending = (not self.search.sort_descending if key == self.search.sort_key
                      else key in ("rating", "year"))
        self.sort_by(key, descending)

    # ------------------------------------------------------------------ Back
    def show_similar(self, paper_id: str | None = None) -> None:
        """Show the papers most like `paper_id` (the current paper when None): the paper itself first, under
        "Similar to: <label>"; Back (Alt+Left) returns to the view before, with its paper selected."""
        paper_id = paper_id or self.current_id
        if paper_id:
            self.go_to(f"similar:{paper_id}")

    def follow_link(self, action: str, argument: str) -> None:
        """A `margin:` link in the reader: "similar" (papers like the paper `argument`) or "tag" (filter the list
        by the tag `argument`)."""
        if action == "similar":
            self.show_similar(argument)
        elif action == "tag":
            self.search.add_filter(f"tag:{quoted(argument)}")

    def go_to(self, query: str) -> None:
        """Show `query`, remembering the view shown now (its query and current paper) for Back."""
        if query != self.box.text():
            self._back.append((self.box.text(), self.current_id))
            del self._back[:-BACK_DEPTH]
        self.search.set_query(query)

    def go_back(self) -> bool:
        """Back to the view before the last `go_to`, its paper selected when its results arrive (False when
        there is none)."""
        if not self._back:
            return False
        query, paper_id = self._back.pop()
        self._return_to = paper_id
        self.search.set_query(query)
        return True

    def _update_banner(self) -> None:
        similar = self.search.similar_to
        if similar is not None and self.model.row_of(similar) is not None:
            label = self.model.paper(self.model.row_of(similar)).label
            self.banner_label.setText(self.tr("Similar to: %1").replace("%1", isolate(label)))
            self.banner_label.setToolTip(as_plain(label))
        else:
            self.banner_label.setText("")
        self.back_button.setEnabled(bool(self._back))
        self.banner.setVisible(similar is not None or (bool(self._back) and bool(self.search.query)))
