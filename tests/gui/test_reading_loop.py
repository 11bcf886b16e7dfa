"""The reading loop as a person uses it (issue 12), with Margin's delays made short (tests/gui/conftest.py
short_delays): real key events and clicks, another process on the same library; waits are on conditions, and
"hands off" is counted in the window's own outside-change checks. The real-time loop is
tests/system/test_gui_reading_loop.py."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from db.library.library import Library
from db.paper import PaperRecord
from db.text.cleaning import strip_bidi  # the window isolates each field (FSI … PDI)
from tests.helpers.runner import margin
from tests.helpers.window import activate, click_row, click_sidebar, count_index_syncs, let_checks_run, wait_for_query


def test_a_note_changed_elsewhere_while_typing_is_offered_not_typed_over(make_window, short_delays, qtbot, library_dir):
    window = make_window()
    activate(window, qtbot)
    paper_id = window.current_paper_id()
    editor = window.note_editor.editor
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton)
    qtbot.keyClicks(editor, "my own words")
    qtbot.waitUntil(lambda: window.library.paper(paper_id).note == "my own words", timeout=5000)  # saved
    assert margin("annotate", paper_id, "--note", "their words", library=library_dir, subprocess=True).code == 0
    bar = window.note_editor.outside_bar
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    assert editor.toPlainText() == "my own words"  # not typed over
    # the message has the bar's width to itself (beside the buttons it was squeezed to two Chinese characters a
    # line in a narrow reader)
    message = window.note_editor.outside_message
    assert message.width() >= bar.contentsRect().width() - 20 > window.note_editor.keep_mine_button.width()
    qtbot.keyClicks(editor, ", more")
    assert editor.toPlainText() == "my own words, more"
    qtbot.mouseClick(window.note_editor.keep_mine_button, Qt.MouseButton.LeftButton)
    assert not bar.isVisible()
    assert window.library.paper(paper_id).note == "my own words, more"
    assert "their words" in [text for _when, text in window.library.note_history(paper_id)]
    # and the other way: show theirs, as one undoable edit
    theirs = margin("annotate", paper_id, "--note", "their second words", library=library_dir, subprocess=True)
    assert theirs.code == 0
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    qtbot.mouseClick(window.note_editor.show_theirs_button, Qt.MouseButton.LeftButton)
    assert editor.toPlainText() == "their second words"
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editor.toPlainText() == "my own words, more"
    # the undo is saved: their version must stay in the note history
    qtbot.waitUntil(lambda: window.library.paper(paper_id).note == "my own words, more", timeout=5000)
    assert "their second words" in [text for _when, text in window.library.note_history(paper_id)]


def test_a_note_whose_paper_is_deleted_elsewhere_while_typing_stays_and_the_keys_go_into_no_other_note(
        make_window, short_delays, qtbot, library_dir):
    """A new user's trial: the command line deleted the paper whose note was being written; the list moved to the
    next paper and the words typed next were saved as that paper's note. Now the text stays, read-only, under a
    bar saying so; the next paper's note is untouched; Close shows the paper the list holds."""
    window = make_window()
    activate(window, qtbot)
    paper_id = window.current_paper_id()
    editor = window.note_editor.editor
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton)
    qtbot.keyClicks(editor, "note A. ")
    qtbot.waitUntil(lambda: window.library.paper(paper_id).note == "note A. ", timeout=5000)
    assert margin("delete", paper_id, "--yes", library=library_dir, subprocess=True).code == 0
    qtbot.waitUntil(lambda: window.current_paper_id() not in (None, paper_id), timeout=10000)  # the list moved on
    moved_to = window.current_paper_id()
    assert window.note_editor.gone_bar.isVisible() and editor.isReadOnly()
    editor.setFocus()
    qtbot.keyClicks(editor, "then more typed")
    qtbot.wait(300)  # (more than an autosave's delay in short_delays)
    window.note_editor.flush()
    assert editor.toPlainText() == "note A. " and window.library.paper(moved_to).note == ""
    qtbot.mouseClick(window.note_editor.close_orphan_button, Qt.MouseButton.LeftButton)
    assert not window.note_editor.gone_bar.isVisible() and not editor.isReadOnly()
    assert window.note_editor.paper_id() == moved_to and editor.toPlainText() == ""


def test_a_note_changed_elsewhere_is_shown_when_the_user_has_not_written_in_it(make_window, short_delays, qtbot,
                                                                               library_dir):
    window = make_window()
    paper_id = window.current_paper_id()
    assert margin("annotate", paper_id, "--note", "from the command line", library=library_dir,
                  subprocess=True).code == 0
    qtbot.waitUntil(lambda: window.note_editor.text() == "from the command line", timeout=5000)
    assert not window.note_editor.outside_bar.isVisible()


# ------------------------------------------------------------------ 2. read means read
def test_a_new_library_reports_nothing_read(make_window, short_delays, qtbot):
    window = make_window()
    activate(window, qtbot)
    let_checks_run(window, qtbot, 10)  # many dwell times
    assert not window.reading.timer.isActive()
    assert window.library.read_counts() == {"ICML 2026": (0, 38)}
    assert window.count_label.text() == "38 of 38 papers · read 0 of 38"


def test_idle_unread_and_recommended_views_mark_only_the_paper_the_user_chose(make_window, short_delays, qtbot):
    window = make_window()
    activate(window, qtbot)
    ids = window.library.ids()
    window.actions_.unread_only.setChecked(True)
    wait_for_query(window, qtbot, "read:no")
    click_sidebar(window, qtbot, "ICML 2026")  # a sidebar click selects a row: the program's, not read
    wait_for_query(window, qtbot, 'read:no venue:"ICML 2026"')
    click_row(window, qtbot, 3)
    chosen = window.current_paper_id()
    qtbot.waitUntil(lambda: window.library.paper(chosen).read, timeout=5000)
    let_checks_run(window, qtbot, 30)  # hands off for many dwell times (30 s with Margin's own delays)
    read = [paper.id for paper in window.library.papers() if paper.read]
    assert read == [chosen]
    assert chosen in window.model.ids() and window.current_paper_id() == chosen  # it stays until the user moves on
    assert window.model.rowCount() == 38

    window.actions_.unread_only.setChecked(False)
    window.library.set_rating(ids[0], 5)  # a favourite to recommend from (rated elsewhere)
    window.library.set_rating(ids[1], 1)
    click_sidebar(window, qtbot, "Recommended")
    wait_for_query(window, qtbot, 'venue:"ICML 2026" is:recommended')
    top = window.model.ids()[:3]
    let_checks_run(window, qtbot, 30)
    assert window.model.ids()[:3] == top  # the top recommendations are all still there
    assert [paper.id for paper in window.library.papers() if paper.read] == [chosen]


def test_leaving_the_window_stops_the_read_clock(make_window, short_delays, qtbot):
    window = make_window()
    activate(window, qtbot)
    click_row(window, qtbot, 5)
    chosen = window.current_paper_id()
    window.reading._active = lambda: False  # the user switched to another application
    let_checks_run(window, qtbot, 10)  # many dwell times
    assert window.library.paper(chosen).read is False
    window.reading._active = lambda: True  # … and came back
    window.reading.window_activated()
    qtbot.waitUntil(lambda: window.library.paper(chosen).read, timeout=5000)


# ------------------------------------------------------------------ 3. stable places
@pytest.fixture
def venue_library(library_dir):
    """The bundled 38 papers and 500 of venue "Venue X" (2020), before and after them in library order."""
    words = "graph bandit kernel policy sparse tensor prior margin causal spectral".split()
    with Library.open(library_dir) as library:
        library.import_records([PaperRecord(
            title=f"Paper {n} on {words[n % 10]} {words[n // 10 % 10]}", venue="Venue X", year=2020,
            abstract=f"We study {words[n % 10]} {words[n // 10 % 10]} {words[n // 100 % 10]} methods, case {n}.")
            for n in range(500)])
    return library_dir


def test_annotating_the_tenth_row_of_a_venue_keeps_it_there(make_window, short_delays, qtbot, venue_library):
    window = make_window()
    activate(window, qtbot)
    window.resize(1000, 700)
    click_sidebar(window, qtbot, "Venue X")
    wait_for_query(window, qtbot, 'venue:"Venue X"')
    assert window.model.rowCount() == 500
    order = window.model.ids()
    resets, searches = [], []
    window.model.modelReset.connect(lambda: resets.append(1))
    window.search.searched.connect(searches.append)
    syncs = count_index_syncs(window, qtbot)
    bar = window.paper_list.verticalScrollBar()
    bar.setValue(6)
    click_row(window, qtbot, 10)
    scroll = bar.value()
    paper_id = window.current_paper_id()
    assert paper_id == order[10]
    qtbot.keyClick(window.paper_list, Qt.Key.Key_3)  # rate
    qtbot.keyClick(window.paper_list, Qt.Key.Key_T)  # tag
    qtbot.keyClicks(window.tag_editor.input, "to read")
    qtbot.keyClick(window.tag_editor.input, Qt.Key.Key_Return)
    qtbot.keyClick(window.tag_editor.input, Qt.Key.Key_Escape)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_R)  # unread (the rating had marked it read) …
    qtbot.keyClick(window.paper_list, Qt.Key.Key_R)  # … and read again
    qtbot.waitUntil(lambda: len(syncs) > 0, timeout=10000)  # the index catches up …
    let_checks_run(window, qtbot, 2)  # … and the outside-change check runs twice
    paper = window.library.paper(paper_id)
    assert (paper.rating, paper.tags, paper.read) == (3, ["to read"], True)
    assert window.model.ids() == order
    assert window.paper_list.currentIndex().row() == 10 and window.current_paper_id() == paper_id
    assert bar.value() == scroll
    assert (resets, searches) == ([], [])  # no reset, no search, no reload for one's own edits
    # another process annotates the same paper: still the tenth row, the view where it was
    assert margin("annotate", paper_id, "--rating", "5", "--tag", "cli", library=venue_library,
                  subprocess=True).code == 0
    qtbot.waitUntil(lambda: window.rating_widget.rating() == 5, timeout=5000)
    assert window.model.ids() == order and window.paper_list.currentIndex().row() == 10
    assert bar.value() == scroll and resets == []
    # asking for the list again (F5) keeps the place too: filter-only queries come back in library order
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: len(searches) == 1 and window.search.complete, timeout=5000)
    let_checks_run(window, qtbot, 2)
    assert window.model.ids() == order and window.paper_list.currentIndex().row() == 10
    assert bar.value() == scroll


def test_a_paper_that_leaves_the_view_on_refresh_leaves_the_place_where_it_was(make_window, short_delays, qtbot):
    window = make_window()
    activate(window, qtbot)
    window.resize(1000, 500)
    window.actions_.unread_only.setChecked(True)
    wait_for_query(window, qtbot, "read:no")
    bar = window.paper_list.verticalScrollBar()
    bar.setValue(8)
    click_row(window, qtbot, 12)
    scroll = bar.value()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)  # rated, so read: it no longer matches "read:no"
    after = window.model.paper_id(13)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.model.rowCount() == 37, timeout=5000)
    assert window.paper_list.currentIndex().row() == 12 and window.current_paper_id() == after
    assert bar.value() == scroll


def test_one_rating_causes_no_model_reset_no_search_and_no_index_reopen(make_window, short_delays, qtbot):
    window = make_window()
    activate(window, qtbot)
    qtbot.waitUntil(lambda: window.search_service.worker._index is not None, timeout=30000)
    index = window.search_service.worker._index
    calls = []
    for name in ("open", "rebuild", "close"):
        original = getattr(index, name)
        setattr(index, name, lambda *a, _name=name, _original=original, **k: (
            calls.append(_name), _original(*a, **k))[1])
    window.set_query("learning")  # a ranked view: a search after the rating would re-order it
    wait_for_query(window, qtbot, "learning")
    resets, searches, changes = [], [], []
    window.model.modelReset.connect(lambda: resets.append(1))
    window.search_service.request_search.connect(lambda request, text: searches.append(text))
    window.libraryChanged.connect(changes.append)
    syncs = count_index_syncs(window, qtbot)
    click_row(window, qtbot, 4)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)
    qtbot.waitUntil(lambda: len(syncs) > 0, timeout=10000)  # the index caught up with the rating …
    let_checks_run(window, qtbot, 2)  # … and two outside-change checks ran
    assert (resets, searches, calls) == ([], [], [])
    assert [sorted(c.kinds) for c in changes] == [["rating", "read"]]


# ------------------------------------------------------------------ 4. sidebar filters
def test_sidebar_clicks_replace_their_kind_and_ctrl_click_adds(make_window, short_delays, qtbot, venue_library):
    window = make_window()
    click_sidebar(window, qtbot, "ICML 2026")
    wait_for_query(window, qtbot, 'venue:"ICML 2026"')
    click_sidebar(window, qtbot, "Venue X")
    wait_for_query(window, qtbot, 'venue:"Venue X"')
    assert window.model.rowCount() == 500
    click_sidebar(window, qtbot, "ICML 2026", Qt.KeyboardModifier.ControlModifier)  # a paper has one venue:
    wait_for_query(window, qtbot, '(venue:"Venue X" OR venue:"ICML 2026")')  # the second is an alternative
    qtbot.waitUntil(lambda: window.model.rowCount() == 538, timeout=10000)
    window.set_query('venue:"Venue X" venue:"ICML 2026"')  # typed: both at once, which no paper is
    wait_for_query(window, qtbot, 'venue:"Venue X" venue:"ICML 2026"')
    assert window.model.rowCount() == 0
    assert window.empty_label.isVisible()
    assert strip_bidi(window.empty_label.text()) == ('No papers match “venue:"Venue X" venue:"ICML 2026"”.\n'
                                         "Filters on: ICML 2026 · Venue X. All papers clears them.")  # issue 31
    click_sidebar(window, qtbot, "All papers")
    wait_for_query(window, qtbot, "")
    assert window.model.rowCount() == 538 and not window.empty_label.isVisible()


def test_an_empty_result_says_so_in_the_list(make_window, short_delays, qtbot):
    window = make_window()
    window.search_box.setFocus()
    QTest.keyClicks(window.search_box, "zyzzyva")
    wait_for_query(window, qtbot, "zyzzyva")
    assert window.model.rowCount() == 0
    assert window.empty_label.isVisible() and "zyzzyva" in window.empty_label.text()
    assert window.empty_label.textFormat() == Qt.TextFormat.PlainText
