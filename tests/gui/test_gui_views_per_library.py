"""Views and places (issue 31, item 7): the last search, the map dock and the current paper are kept per library;
filters of every kind that pile up are all marked in the sidebar, and an empty list names them."""

from __future__ import annotations

import shutil

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence

from db.text.cleaning import strip_bidi  # the window isolates each field (FSI … PDI)
from desktop.app import create_window
from desktop.common.library_settings import library_key
from desktop.docks.sidebar import ACTIVE_ROLE
from tests.helpers.window import click_sidebar, search


def _open(qtbot, folder):
    window = create_window(folder)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def _close(window) -> None:
    window.close()
    window.library.close()


def test_the_last_search_and_the_current_paper_belong_to_their_library(qtbot, seeded_copy, tmp_path, short_delays):
    other = tmp_path / "other"
    shutil.copytree(seeded_copy, other)
    first = _open(qtbot, seeded_copy)
    search(qtbot, first, "reasoning")
    qtbot.waitUntil(lambda: first.model.rowCount() > 2, timeout=30000)
    chosen = first.model.paper_id(2)
    first.select_paper(chosen)
    _close(first)

    second = _open(qtbot, other)  # library B does not open on A's query
    assert second.search_box.text() == ""
    assert second.current_paper_id() == second.model.paper_id(0)
    _close(second)

    again = _open(qtbot, seeded_copy)  # A again: its query, and the paper the reader was on
    assert again.search_box.text() == "reasoning"
    qtbot.waitUntil(lambda: again.search.query == "reasoning", timeout=30000)
    assert again.current_paper_id() == chosen
    _close(again)


def test_the_map_dock_opens_only_in_the_library_it_was_open_in(qtbot, seeded_copy, tmp_path, short_delays):
    other = tmp_path / "other"
    shutil.copytree(seeded_copy, other)
    settings = QSettings()
    settings.setValue("map/visible", True)  # what an earlier Margin kept for every library
    settings.setValue(library_key(seeded_copy, "map/visible"), True)
    settings.sync()
    window = _open(qtbot, other)
    try:
        assert not window.docks.map.isVisible() and window.docks.map.map is None
    finally:
        _close(window)


def test_filters_of_every_kind_are_all_marked_and_an_empty_list_names_them(qtbot, library_dir, make_window,
                                                                           short_delays):
    window = make_window()
    window.ops.change_tags(window.model.paper_id(0), add=["lonely"])
    window.ops.set_read(window.model.paper_id(0), True)
    qtbot.waitUntil(lambda: bool(window.sidebar.findItems("lonely", Qt.MatchFlag.MatchRecursive, 0)), timeout=10000)
    for entry in ("Unread", "lonely"):  # a read paper's only tag, after Unread: nothing can match
        click_sidebar(window, qtbot, entry)
    qtbot.waitUntil(lambda: window.search.query.count(":") == 2 and window.search.complete, timeout=30000)
    qtbot.waitUntil(lambda: window.model.rowCount() == 0, timeout=30000)
    marked = [item.text(0) for item in window.sidebar.findItems("", Qt.MatchFlag.MatchContains
                                                                | Qt.MatchFlag.MatchRecursive, 0)
              if item.data(0, ACTIVE_ROLE)]
    assert marked == ["Unread", "lonely"]
    qtbot.waitUntil(window.empty_label.isVisible, timeout=10000)
    assert "Filters on: Unread · lonely" in strip_bidi(window.empty_label.text())


def test_ctrl_r_never_shows_the_previous_view_as_its_recommendations(make_window, qtbot, short_delays):
    window = make_window()
    liked = window.model.paper_id(0)
    window.ops.rate(liked, 5)
    assert window.model.rowCount() == 38
    (ctrl_r,) = [action for action in window.findChildren(QAction) if action.shortcut() == QKeySequence("Ctrl+R")]
    ctrl_r.trigger()
    # until the recommendations come (the model is fitted first: seconds in a large library), no paper of the
    # previous view is shown as one of them
    assert window.search.query == "is:recommended" or window.model.rowCount() == 0
    if window.search.query != "is:recommended":
        assert window.empty_label.isVisible() and "Preparing" in window.empty_label.text()
    qtbot.waitUntil(lambda: window.search.query == "is:recommended" and window.model.rowCount() > 0, timeout=60000)
    shown = window.model.ids()
    assert liked not in shown and not any(window.library.paper(paper_id).read for paper_id in shown)
    assert not window.empty_label.isVisible()
