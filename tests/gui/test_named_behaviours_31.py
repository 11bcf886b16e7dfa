"""Window behaviours that worked but that no test guarded (issue 31's planted-bug audit): each test was seen
failing with its bug planted (issue 31's report names the plants). The library's and the readers' are in
tests/unit/test_named_behaviours_31.py."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from db.errors import LibraryBusy
from desktop.reader import note_editor
from tests.helpers.runner import margin


def test_show_theirs_before_the_autosave_shows_their_text_not_the_users(make_window, short_delays, qtbot,
                                                                          library_dir, monkeypatch):
    monkeypatch.setattr(note_editor, "AUTOSAVE_MS", 60_000)  # the user's words are not saved yet
    monkeypatch.setattr(note_editor, "MAX_UNSAVED_MS", 60_000)
    window = make_window()
    paper_id = window.current_paper_id()
    editor = window.note_editor.editor
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton)
    qtbot.keyClicks(editor, "my own words")
    assert window.library.paper(paper_id).note == ""  # typed, not saved
    assert margin("annotate", paper_id, "--note", "their words", library=library_dir).code == 0
    qtbot.waitUntil(window.note_editor.outside_bar.isVisible, timeout=10000)
    qtbot.mouseClick(window.note_editor.show_theirs_button, Qt.MouseButton.LeftButton)
    assert editor.toPlainText() == "their words"
    assert "my own words" in [text for _when, text in window.library.note_history(paper_id)]


def test_a_second_rescue_keeps_the_notes_an_earlier_rescue_saved(make_window, qtbot, library_dir, monkeypatch):
    window = make_window()
    ids = window.library.ids()
    rescue = library_dir / "unsaved-notes.json"
    rescue.write_text(json.dumps({ids[1]: "rescued by an earlier closing"}), encoding="utf-8")

    def busy(*args, **kwargs):
        raise LibraryBusy(f"{library_dir}/library.db: the library is busy: another Margin process is writing to it")

    monkeypatch.setattr(window.library, "set_note", busy)
    window.select_paper(ids[2])
    window.note_editor.editor.setPlainText("typed while the library was busy")
    window.close()
    assert json.loads(rescue.read_text(encoding="utf-8")) == {ids[1]: "rescued by an earlier closing",
                                                              ids[2]: "typed while the library was busy"}


def test_undoing_a_rating_on_a_paper_already_read_leaves_it_read(make_window, qtbot):
    window = make_window()
    window.select_row(3, by_user=True)
    paper_id = window.current_paper_id()
    window.ops.set_read(paper_id, True)
    assert window.library.paper(paper_id).read
    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)
    assert window.library.paper(paper_id).rating == 4
    window.undo_stack.undo()
    paper = window.library.paper(paper_id)
    assert paper.rating is None and paper.read  # it was read before the rating: undoing the rating keeps that


def test_j_onto_a_read_paper_and_r_keeps_it_unread_after_the_read_time(make_window, short_delays, qtbot,
                                                                         monkeypatch):
    window = make_window()
    monkeypatch.setattr(window, "isActiveWindow", lambda: True)  # offscreen windows are never active
    target = window.model.paper_id(5)
    window.ops.set_read(target, True)
    window.select_row(4, by_user=True)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_J)
    assert window.current_paper_id() == target
    qtbot.keyClick(window.paper_list, Qt.Key.Key_R)
    assert not window.library.paper(target).read
    qtbot.waitUntil(lambda: not window.reading.timer.isActive(), timeout=10000)  # the read time is over
    assert window.reading.pending() is None and not window.library.paper(target).read
