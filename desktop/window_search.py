"""The main window's searching, sorting and suggestion handling (mixed into desktop.main_window.MainWindow).

Queries go to the SearchService's worker thread; results come back to `_show_results`, which applies them to the
list keeping the selection where it can.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from db import facets
from db.search_index import highlight_terms
from db.searching import RECOMMENDATION
from desktop import undo
from desktop.paper_model import COLUMNS


class WindowSearch:
    """Search box, sort order, recommendations and tag suggestions of the main window.

    Strings are translated in the MainWindow context, where this code runs."""

    def set_query(self, text: str) -> None:
        """Put `text` in the search box and search at once (without the typing delay)."""
        self.search_box.setText(text)
        self._search_timer.stop()
        self._start_search()

    def add_filter(self, fragment: str) -> None:
        """Add a sidebar filter to the query (an empty fragment clears the query)."""
        current = self.search_box.text().strip()
        if not fragment:
            self.set_query("")
        elif fragment not in current:
            self.set_query(f"{current} {fragment}".strip())

    def _start_search(self) -> None:
        text = self.search_box.text()
        if not text.strip():
            self._query = ""
            self._highlight = []
            self.search_service.search("")  # makes any search still running stale
            self._apply_ids(self._all_ids)
            return
        self.search_service.search(text)

    def _show_results(self, request: int, text: str, result) -> None:
        if request != self.search_service.latest_request:
            return  # a newer search is on its way
        self._query = text
        found = RECOMMENDATION.search(text)
        self._why = result.why if found and not found.group(2) else {}  # "recommended for" is not for look-alikes
        self._highlight = (result.terms or highlight_terms(text)) if text.strip() else []
        if result.hint:
            self.statusBar().showMessage(result.hint, 8000)
        else:
            self.statusBar().clearMessage()  # an old hint no longer applies
        self._apply_ids(result.ids if text.strip() else self._all_ids)

    def show_similar(self, paper_id: str | None = None) -> None:
        """Show the papers most like `paper_id` (the current paper when None)."""
        paper_id = paper_id or self._current_id
        if paper_id:
            self.set_query(f"similar:{paper_id}")

    def suggestion_tag(self) -> str | None:
        """The tag whose suggestions the list shows (`similar-tag:"NAME"`), else None."""
        found = RECOMMENDATION.search(self._query)
        return (found.group(3) or found.group(4)) if found and (found.group(3) or found.group(4)) else None

    def accept_suggestion(self) -> None:
        """Add the suggested tag to the current paper and go on to the next suggestion."""
        tag = self.suggestion_tag()
        if tag and self._current_id:
            self.undo_stack.push(undo.ChangeTags(self.library, self._current_id, self.paper_changed, add=[tag]))
            self.dismiss_suggestion()

    def dismiss_suggestion(self) -> None:
        """Take the current paper off the suggestion list (for this session) and show the next."""
        if self.suggestion_tag() and self._current_id:
            row = self.paper_list.currentIndex().row()
            ids = [i for i in self.model.ids() if i != self._current_id]
            self._current_id = None
            self.model.set_ids(ids)
            if ids:
                self.select_row(min(row, len(ids) - 1))
            self._update_status()

    def sort_by(self, key: str | None, descending: bool = False) -> None:
        """Sort the list by a facets.SORT_KEYS key, or by relevance (library order without a query) for None."""
        self._sort_key, self._sort_descending = key, descending
        header = self.paper_list.horizontalHeader()
        if key in COLUMNS:
            header.setSortIndicatorShown(True)
            header.setSortIndicator(COLUMNS.index(key), Qt.SortOrder.DescendingOrder if descending
                                    else Qt.SortOrder.AscendingOrder)
        else:
            header.setSortIndicatorShown(False)
        self._start_search()

    def _header_clicked(self, column: int) -> None:
        key = COLUMNS[column]
        descending = not self._sort_descending if key == self._sort_key else key in ("rating", "year")
        self.sort_by(key, descending)

    def _ordered(self, ids: list[str]) -> list[str]:
        return facets.order_ids(self.library, ids, self._sort_key, self._sort_descending) if self._sort_key else ids

    def _apply_ids(self, ids: list[str]) -> None:
        keep = self._current_id
        self.model.set_ids(self._ordered(ids))
        if keep is not None and self.select_paper(keep):
            self.show_current(reload_note=False)
        elif self.model.rowCount():
            self.select_row(0)
        else:
            self.note_editor.flush()
            self._current_id = None
            self.show_current()
        self._update_status()
