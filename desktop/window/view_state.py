"""The view a window shows, carried to the window that replaces it on the same library (View → Language).

The query in the search box (with the filters the sidebar put in it) and the current paper are what the window
saves when it closes (desktop.window.layout.save_layout), so they are saved before the new window is built and
read back by it; the selected papers and the list's scroll place are handed over here, once the new window's
search has shown its results in full."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QItemSelectionModel

from desktop.window.layout import save_layout


@dataclass(frozen=True)
class ViewState:
    """What the user sees of the list: `selected` paper ids (list order), the vertical `scroll` value (pixels)."""

    selected: tuple[str, ...]
    scroll: int


def keep_view(window) -> ViewState:
    """Save `window`'s layout, query and current paper (read by the next window on its library) and return the
    rest of its view (selection, scroll place) for `restore_view`."""
    save_layout(window)
    return ViewState(tuple(window.selected_ids()), window.paper_list.verticalScrollBar().value())


def restore_view(window, state: ViewState) -> None:
    """Select `state`'s papers (those the list shows) and scroll to its place in `window` (a MainWindow just
    built), once its search shows its results in full (at once when it has no query)."""

    def apply() -> None:
        if window.search_box.text().strip() and not (window.search.complete
                                                     and window.search.query == window.search_box.text()):
            return  # the first page of the results, or the search is still to come
        window.list_controller.resultsShown.disconnect(apply)
        selection = window.paper_list.selectionModel()
        for paper_id in state.selected:
            row = window.model.row_of(paper_id)
            if row is not None:
                selection.select(window.model.index(row, 0), QItemSelectionModel.SelectionFlag.Select
                                 | QItemSelectionModel.SelectionFlag.Rows)
        window.paper_list.verticalScrollBar().setValue(state.scroll)

    window.list_controller.resultsShown.connect(apply)
    if not window.search_box.text().strip():
        apply()
