"""View → Language builds a new window on the same library: the view the user had stays (new-user trial, issue 1):
the query with its sidebar filters, the current and the selected papers, the list's scroll place; and an empty
list says why once the new window is laid out."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication


@pytest.fixture
def make_window(qtbot, library_dir):
    """A shown main window on the test's library (the switch deletes it: not closed again at the end)."""
    from desktop.app import create_window

    def make():
        window = create_window(library_dir)
        window.show()
        qtbot.waitExposed(window)
        return window

    return make


def _english_again():
    from desktop.common.i18n import apply_language, language_locale

    apply_language(QApplication.instance(), language_locale("en"))


def test_switching_language_keeps_the_query_its_filters_the_selection_and_the_scroll(qtbot, make_window,
                                                                                    short_delays):
    window = make_window()
    window.resize(900, 500)
    venue = window.library.paper(window.model.paper_id(0)).venue
    window.set_query("learning")
    window.search.add_filter(f'venue:"{venue}"')
    window.search.add_filter("read:no")
    qtbot.waitUntil(lambda: window.search.query == window.search_box.text() and window.search.complete)
    query = window.search_box.text()
    assert "venue:" in query and "read:no" in query and window.model.rowCount() > 8
    window.select_row(window.model.rowCount() - 1)
    current = window.current_paper_id()
    selection = window.paper_list.selectionModel()
    for row in (2, 3):
        selection.select(window.model.index(row, 0), selection.SelectionFlag.Select | selection.SelectionFlag.Rows)
    selected = window.selected_ids()
    scroll = window.paper_list.verticalScrollBar().value()
    assert len(selected) == 3 and scroll > 0
    new = window.actions_.library_actions.set_language("en")
    qtbot.addWidget(new)
    try:
        assert new is not window and new.search_box.text() == query
        qtbot.waitUntil(lambda: new.search.query == query and new.search.complete)
        qtbot.waitUntil(lambda: new.paper_list.verticalScrollBar().value() == scroll)
        assert new.current_paper_id() == current and new.selected_ids() == selected
    finally:
        new.close()
        new.library.close()
        _english_again()


def test_an_empty_list_says_why_after_a_language_switch(qtbot, make_window, short_delays):
    window = make_window()
    window.set_query("zzzznothingmatches")
    qtbot.waitUntil(lambda: window.empty_label.isVisible())
    new = window.actions_.library_actions.set_language("en")
    qtbot.addWidget(new)
    try:
        qtbot.waitUntil(lambda: new.search.complete and new.search.query == "zzzznothingmatches")
        qtbot.waitUntil(lambda: new.empty_label.isVisible())
        viewport = new.paper_list.viewport()
        qtbot.waitUntil(lambda: new.empty_label.size() == viewport.size())  # the message covers the list
        assert "zzzznothingmatches" in new.empty_label.text()
    finally:
        new.close()
        new.library.close()
        _english_again()
