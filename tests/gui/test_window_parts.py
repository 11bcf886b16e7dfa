"""The main window's parts on their own (issue 33): the list controller with a real model, search session and
table view (no MainWindow), the status bar's texts, and the widgets build_widgets returns."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel, QLineEdit, QMainWindow, QStatusBar, QTableView, QToolButton, QWidget

from db.text.cleaning import strip_bidi  # the window isolates each field (FSI … PDI)
from desktop.edits.pending_edits import PendingEdits
from desktop.list.list_controller import ListController
from desktop.list.paper_model import COLUMNS, PaperTableModel
from desktop.list.search_session import SearchSession
from desktop.window.status import WindowStatus

AGENTS = "6ac65bf33b7e"  # GLEAN, agent verification: found by "agents"


class ListParts:
    """A paper list as the window has it, without the window: model, view, search box, search session, banner."""

    def __init__(self, library, qtbot):
        self.host = QWidget()
        qtbot.addWidget(self.host)
        self.model = PaperTableModel(library, self.host)
        self.view = QTableView(self.host)
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.box = QLineEdit(self.host)
        self.search = SearchSession(library, self.box, self.host, new_library=library.created)
        self.banner, self.label, self.back = QWidget(self.host), QLabel(), QToolButton()
        self.controller = ListController(self.model, self.view, self.search, self.box, self.banner, self.label,
                                         self.back, self.host)
        self.current: list[tuple[str | None, bool]] = []  # what currentChanged said, in order
        self.refreshed = []
        self.controller.currentChanged.connect(lambda paper_id, by_user: self.current.append((paper_id, by_user)))
        self.controller.refreshCurrent.connect(lambda: self.refreshed.append(self.controller.current_id))


@pytest.fixture
def parts(library, qtbot):
    made = ListParts(library, qtbot)
    made.controller.show_results(library.ids(), False)
    yield made
    made.search.stop()


def searched(qtbot, parts, text):
    qtbot.waitUntil(lambda: parts.search.query == text and parts.search.complete, timeout=60000)


def test_new_results_keep_the_current_paper_selected_and_refresh_it_without_reselecting(parts, library):
    ids = library.ids()
    assert parts.controller.current_id == ids[0] and parts.current == [(ids[0], False)]  # by the program
    parts.controller.select_row(5, by_user=True)
    assert parts.controller.current_id == ids[5] and parts.current[-1] == (ids[5], True)
    reordered = list(reversed(ids))
    parts.controller.show_results(reordered, False)
    assert parts.controller.current_id == ids[5]
    assert parts.view.currentIndex().row() == reordered.index(ids[5])
    assert parts.controller.selected_ids() == [ids[5]]
    assert parts.current[-1] == (ids[5], True)  # not chosen again (its read clock keeps running) …
    assert parts.refreshed == [ids[5]]  # … but shown again: a new list may mark new words


def test_results_without_the_current_paper_select_the_first_and_none_clear_it(parts, library):
    ids = library.ids()
    parts.controller.select_row(5)
    parts.controller.show_results(ids[10:20], False)
    assert parts.controller.current_id == ids[10] and parts.current[-1] == (ids[10], False)
    parts.controller.show_results([], False)
    assert parts.controller.current_id is None and parts.current[-1] == (None, False)


def test_a_paper_current_only_because_a_search_put_it_first_gives_way_to_the_new_first(parts, library):
    """A new user's trial: typing a `~` question left the first paper of a partial question selected (row 14 of
    the final ranking, the list scrolled down to it). A paper the search made current by putting it first is not
    the reader's choice: the next query's first paper replaces it; the same query again keeps it; a paper chosen
    by the user, or for them (the map, Similar papers), stays while it is in the results."""
    ids = library.ids()
    assert parts.controller.current_id == ids[0]  # the first of the fixture's results
    reordered = list(reversed(ids))
    parts.controller.show_results(reordered, False)
    assert parts.controller.current_id == reordered[0] and parts.view.currentIndex().row() == 0
    parts.controller.show_results(reordered, True)  # the same query again (an edit's refresh)
    assert parts.controller.current_id == reordered[0]
    parts.controller.select_row(3, by_user=True)
    parts.controller.show_results(ids, False)
    assert parts.controller.current_id == reordered[3]
    parts.controller.select_paper(ids[9])  # chosen for the user elsewhere (the map)
    parts.controller.show_results(reordered, False)
    assert parts.controller.current_id == ids[9]


def test_back_returns_to_the_previous_query_with_its_paper_selected(parts, library, qtbot):
    ids = library.ids()
    left_from = ids[7]
    parts.controller.select_paper(left_from)
    parts.controller.go_to("agents")
    searched(qtbot, parts, "agents")
    found = parts.model.ids()
    assert AGENTS in found and left_from not in found and parts.box.text() == "agents"
    assert parts.back.isEnabled() and not parts.banner.isHidden()  # a view Back can leave
    parts.controller.select_paper(AGENTS, by_user=True)
    assert parts.controller.go_back() is True
    searched(qtbot, parts, "")
    assert parts.box.text() == "" and parts.model.ids() == ids
    assert parts.controller.current_id == left_from  # the paper the user left from, selected again
    assert parts.controller.go_back() is False and not parts.back.isEnabled()


def test_similar_papers_show_their_paper_first_under_its_label(parts, library, qtbot):
    parts.controller.show_similar(AGENTS)
    searched(qtbot, parts, f"similar:{AGENTS}")
    assert parts.model.ids()[0] == AGENTS and parts.controller.current_id == AGENTS
    assert strip_bidi(parts.label.text()) == f"Similar to: {library.paper(AGENTS).label}"  # without isolates
    assert not parts.banner.isHidden()


def test_a_header_click_sorts_by_its_column_and_again_the_other_way(parts, library, qtbot):
    rating = COLUMNS.index("rating")
    parts.controller.header_clicked(rating)
    assert (parts.search.sort_key, parts.search.sort_descending) == ("rating", True)  # highest first
    assert parts.view.horizontalHeader().sortIndicatorSection() == rating
    parts.controller.header_clicked(rating)
    assert (parts.search.sort_key, parts.search.sort_descending) == ("rating", False)
    parts.controller.sort_by(None)
    assert parts.search.sort_key is None and not parts.view.horizontalHeader().isSortIndicatorShown()


@pytest.fixture
def status(library, qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    made = ListParts(library, qtbot)
    labels = QLabel(window), QLabel(window), QLabel(made.view.viewport())
    edits = PendingEdits(library, lambda changes: None, window)
    part = WindowStatus(window.statusBar(), *labels, made.view, library, made.model, made.search, edits, window)
    made.model.set_ids(library.ids())
    yield part
    made.search.stop()


def test_the_status_bar_counts_the_list_and_the_read_papers(status, library):
    status.recount()
    assert status.count_label.text() == "38 of 38 papers · read 0 of 38"
    library.set_read(library.ids()[3], True)
    status.model.set_ids(library.ids()[:5])
    status.update()
    assert status.count_label.text() == "5 of 38 papers · read 0 of 38"  # the read count waits for recount
    status.recount()
    assert status.count_label.text() == "5 of 38 papers · read 1 of 38"
    status.search.complete = False  # the first page of a ranked search: its count follows
    status.update()
    assert status.count_label.text() == "counting… of 38 papers · read 1 of 38"


def test_an_empty_list_says_why(status):
    status.recount()
    status.model.set_ids([])
    status.search.query = "zyzzyva"
    status.update()
    assert not status.empty_label.isHidden() and strip_bidi(status.empty_label.text()) == "No papers match “zyzzyva”."
    assert status.empty_label.size() == status.view.viewport().size()
    status.model.set_ids(status.library.ids()[:1])
    status.update()
    assert status.empty_label.isHidden()


def test_waiting_edits_are_counted_until_they_are_saved(status):
    bar: QStatusBar = status.bar
    status.edits_waiting(2, "the library is busy")
    assert not status.pending_label.isHidden() and status.pending_label.text() == "Not saved yet: 2"
    assert "the library is busy" in status.pending_label.toolTip()  # plain text (as_plain), the reason last
    assert bar.currentMessage() == "Not saved yet, Margin will try again: the library is busy"
    status.edits_waiting(0, "")
    assert status.pending_label.isHidden() and bar.currentMessage() == "All changes are saved"
    status.show_hint("", 0)
    assert bar.currentMessage() == ""
    status.search_failed("index unreadable")
    assert bar.currentMessage() == "Search problem: index unreadable"


def test_build_widgets_returns_the_widgets_the_window_shows_under_their_contract_names(make_window):
    window = make_window()
    widgets = window.widgets
    names = {"searchBox": widgets.search_box, "paperList": widgets.paper_list, "readerView": widgets.reader,
             "tagEditor": widgets.tag_editor, "ratingWidget": widgets.rating_widget,
             "noteEditor": widgets.note_editor, "sidebar": widgets.sidebar}
    for name, widget in names.items():
        assert window.findChild(QWidget, name) is widget, name
    assert window.search_box is widgets.search_box and window.paper_list is widgets.paper_list
    assert window.centralWidget() is widgets.splitter
    assert isinstance(window.search_box, QLineEdit) and window.paper_list.model() is window.model


def test_the_rating_box_keys_rate_and_step_the_rating(qtbot):
    from PySide6.QtCore import Qt

    from desktop.reader.rating_widget import RatingWidget

    box = RatingWidget()
    qtbot.addWidget(box)
    said = []
    box.ratingChanged.connect(said.append)
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Plus, Qt.Key.Key_4, Qt.Key.Key_Minus, Qt.Key.Key_Left, Qt.Key.Key_0,
                Qt.Key.Key_Left):
        qtbot.keyClick(box, key)
    assert said == [1, 2, 4, 3, 2, 0]  # Left at 0 stays 0: nothing to say
