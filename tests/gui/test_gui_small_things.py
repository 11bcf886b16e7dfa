"""The small things a daily user trips on (issue 21): Back from similar papers, a suggestion list that keeps its
order, the shortcuts dialog generated from the bindings."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from db.text.cleaning import strip_bidi  # the window isolates each field (FSI … PDI)
from desktop.app import create_window
from desktop.window.shortcuts import TRIAGE_KEYS, key_text, shortcut_rows, shortcuts_dialog
from tests.helpers.window import count_index_syncs, let_checks_run, search

AGENTS = "6ac65bf33b7e"  # GLEAN, agent verification
REASONING = "9342e12f8e8d"  # chain-of-thought lower bounds


@pytest.fixture
def window(shown_window):
    return shown_window


def test_similar_shows_its_paper_first_under_a_label_and_back_returns(window, qtbot):
    search(qtbot, window, "agents")
    before = window.model.ids()
    assert AGENTS in before and before[0] != AGENTS
    window.select_paper(AGENTS)
    window.paper_list.setFocus()
    assert not window.view_banner.isVisible()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: window.search.query == f"similar:{AGENTS}", timeout=60000)
    assert window.model.ids()[0] == AGENTS and window.current_paper_id() == AGENTS
    label = window.library.paper(AGENTS).label
    assert window.view_banner.isVisible() and strip_bidi(window.view_label.text()) == f"Similar to: {label}"
    window.select_row(3, by_user=True)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)  # Alt+Left: Back
    qtbot.waitUntil(lambda: window.search.query == "agents", timeout=60000)
    assert window.search_box.text() == "agents" and window.model.ids() == before
    assert window.current_paper_id() == AGENTS  # the paper the user left from, selected again
    assert not window.view_banner.isVisible()
    assert window.go_back() is False or window.search.query == ""  # nothing further back than the start


def test_suggestion_list_keeps_its_order_while_the_user_works_through_it(window, qtbot):
    ids = window.library.ids()
    window.library.add_tags(REASONING, ["llm reasoning"])
    window.library.add_tags(ids[5], ["llm reasoning"])
    search(qtbot, window, 'similar-tag:"llm reasoning"')
    suggestions = window.model.ids()
    assert len(suggestions) >= 6
    window.paper_list.setFocus()
    done = []
    syncs = count_index_syncs(window, qtbot)
    for key in (Qt.Key.Key_A, Qt.Key.Key_X, Qt.Key.Key_A):
        done.append(window.current_paper_id())
        synced = len(syncs)
        qtbot.keyClick(window.paper_list, key)
        qtbot.waitUntil(lambda synced=synced: len(syncs) > synced, timeout=10000)  # the index has the new tag …
        let_checks_run(window, qtbot, 2)  # … and the window had time to act on it: still the same order
        assert window.model.ids() == [i for i in suggestions if i not in done]
    assert done == suggestions[:3]


def test_shortcuts_dialog_lists_every_bound_key_once_from_the_bindings(window, qtbot):
    rows = shortcut_rows(window)
    keys = [keys for keys, _what in rows]
    shown = " | ".join(keys)
    for row in TRIAGE_KEYS:  # every key the event filter binds, and only those
        assert key_text(row.keys) in shown
    assert set(window._triage_keys) == {getattr(Qt.Key, f"Key_{n}") for row in TRIAGE_KEYS for n in row.keys}
    native = QKeySequence.SequenceFormat.NativeText
    for needed in ("Ctrl+R", "Ctrl+Shift+S", "Ctrl+Shift+P", "Alt+Left", "Ctrl+Shift+C", "F2"):
        assert any(QKeySequence(needed).toString(native) in k.split(" / ") for k in keys), needed
    assert len({what for _k, what in rows}) == len(rows)  # no action listed twice
    dialog = shortcuts_dialog(window)
    qtbot.addWidget(dialog)
    table = [child for child in dialog.children() if child.objectName() == "shortcutsTable"][0]
    assert table.rowCount() == len(rows) and table.item(0, 0).text() == "j / ↓"


def test_slash_searches_from_the_sidebar_too(window, qtbot):
    window.sidebar.setFocus()
    qtbot.keyClick(window.sidebar, Qt.Key.Key_Slash)
    assert window.search_box.hasFocus() and window.search_box.text() == ""


def test_copy_citation_puts_bibtex_on_the_clipboard(window, qtbot):
    from PySide6.QtWidgets import QApplication

    window.select_paper(AGENTS)
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    text = QApplication.clipboard().text()
    assert text.startswith("@") and f"x-margin-id = {{{AGENTS}}}" in text and text.count("\n@") == 0
    assert window.statusBar().currentMessage() == "Copied the BibTeX entry of 1 paper"


def test_numbers_and_plurals_in_the_window(window, qtbot, tmp_path):
    from desktop.common.i18n import number, plural

    assert number(1683) == "1,683"  # English grouping where the system names no locale (tests run with LANG=C)
    assert plural(window.tr("%Ln paper(s)", "", 1), 1) == "1 paper"
    assert plural(window.tr("%Ln paper(s)", "", 1721), 1721) == "1,721 papers"
    window.actions_.start_export([AGENTS], "bibtex", tmp_path / "one.bib")
    qtbot.waitUntil(lambda: window.actions_.last_export is not None, timeout=30000)
    assert window.statusBar().currentMessage() == f"Exported 1 paper to {tmp_path / 'one.bib'}"
    assert window.count_label.text() == "38 of 38 papers · read 0 of 38"


def test_zoom_scales_the_list_and_the_note_with_the_reader(window, qtbot):
    from desktop.window.layout import apply_zoom

    list_size, note_size = window.paper_list.font().pointSizeF(), window.note_editor.editor.font().pointSizeF()
    row = window.paper_list.rowHeight(0)
    apply_zoom(window, 3)
    assert window.reader.zoom == 3
    assert window.paper_list.font().pointSizeF() == list_size + 3 and window.paper_list.rowHeight(0) > row
    assert window.note_editor.editor.font().pointSizeF() == note_size + 3
    apply_zoom(window, 0)
    assert window.paper_list.font().pointSizeF() == list_size and window.paper_list.rowHeight(0) == row


def test_authors_column_and_sort_by_year_venue_author(window, qtbot):
    from desktop.list.paper_model import AUTHORS, COLUMNS

    assert window.model.headerData(AUTHORS, Qt.Orientation.Horizontal) == "Authors"
    window._header_clicked(COLUMNS.index("authors"))
    assert window.search.sort_key == "authors"
    assert window.paper_list.horizontalHeader().sortIndicatorSection() == AUTHORS
    sort_menu = [a.menu() for a in window.actions_.view_menu.actions() if a.menu() and "Sort" in a.text()][0]
    names = [a.text() for a in sort_menu.actions()]
    assert {"Year", "Venue", "First author"} <= set(names)


def test_saved_searches_in_the_sidebar(window, qtbot):
    from desktop.docks.sidebar import SAVED_ROLE

    def entries():
        return [window.sidebar.topLevelItem(i) for i in range(window.sidebar.topLevelItemCount())]

    assert "Saved searches" not in [item.text(0) for item in entries()]
    assert window.sidebar.save_search('agents rating:none', name="To screen") is True
    section = [item for item in entries() if item.text(0) == "Saved searches"][0]
    entry = section.child(0)
    assert entry.text(0) == "To screen" and entry.data(0, SAVED_ROLE) == "To screen"
    window.sidebar.itemClicked.emit(entry, 0)
    qtbot.waitUntil(lambda: window.search.query == "agents rating:none", timeout=60000)
    assert window.search_box.text() == "agents rating:none"  # the whole query, not one filter added
    again = create_window(window.library.folder)  # kept in the settings, per library
    qtbot.addWidget(again)
    try:
        assert [n for n, _q in again.sidebar.saved.all()] == ["To screen"]
    finally:
        again.close()
        again.library.close()
    window.sidebar.remove_search("To screen")
    assert "Saved searches" not in [item.text(0) for item in entries()]
