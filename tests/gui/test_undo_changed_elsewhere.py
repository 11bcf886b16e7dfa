"""Ctrl+Z never takes back a change made elsewhere (a new user's trial: the window rated a paper 5, the command
line then rated it 3, and Ctrl+Z made it unrated and unread; undoing a tag merge took away a tag the command line
had given since). An undo or redo whose value was changed since by another process is not made, and the status
bar says so; tags added or removed by the window are taken back one by one, leaving other tags alone."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from db.library.library import Library
from tests.gui.test_gui_tag_edits import press, sidebar_tags, tag_some


def elsewhere(library_dir, write) -> None:
    """`write(library)` by another connection, as the command line would; the window hears of it from its watcher."""
    with Library.open(library_dir, seed=False) as library:
        write(library)


def rated(make_window, qtbot, stars: int) -> tuple:
    """A window whose third paper was just rated `stars` by key: (window, that paper's id)."""
    window = make_window()
    window.select_row(2, by_user=True)
    paper_id = window.current_paper_id()
    press(window, qtbot, getattr(Qt.Key, f"Key_{stars}"), Qt.KeyboardModifier.NoModifier)
    qtbot.waitUntil(lambda: window.library.paper(paper_id).rating == stars, timeout=5000)
    return window, paper_id


def test_undoing_a_rating_keeps_a_rating_the_command_line_made_since(make_window, library_dir, qtbot):
    window, paper_id = rated(make_window, qtbot, 5)
    assert window.library.paper(paper_id).read
    elsewhere(library_dir, lambda library: library.set_rating(paper_id, 3))

    press(window, qtbot, Qt.Key.Key_Z)
    qtbot.waitUntil(lambda: "changed elsewhere" in window.statusBar().currentMessage(), timeout=5000)
    paper = window.library.paper(paper_id)
    assert (paper.rating, paper.read) == (3, True)  # neither the rating nor the read mark taken back


def test_undoing_a_rating_still_works_when_nothing_else_changed_it(make_window, qtbot):
    window, paper_id = rated(make_window, qtbot, 4)
    press(window, qtbot, Qt.Key.Key_Z)
    qtbot.waitUntil(lambda: window.library.paper(paper_id).rating is None, timeout=5000)
    assert not window.library.paper(paper_id).read
    press(window, qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.library.paper(paper_id).rating == 4, timeout=5000)


def test_a_redo_keeps_a_rating_the_command_line_made_after_the_undo(make_window, library_dir, qtbot):
    window, paper_id = rated(make_window, qtbot, 4)
    press(window, qtbot, Qt.Key.Key_Z)
    qtbot.waitUntil(lambda: window.library.paper(paper_id).rating is None, timeout=5000)
    elsewhere(library_dir, lambda library: library.set_rating(paper_id, 2))
    press(window, qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: "changed elsewhere" in window.statusBar().currentMessage(), timeout=5000)
    assert window.library.paper(paper_id).rating == 2


def test_undoing_a_decision_keeps_one_made_elsewhere_since(make_window, library_dir, qtbot):
    window = make_window()
    window.select_row(1, by_user=True)
    paper_id = window.current_paper_id()
    press(window, qtbot, Qt.Key.Key_I, Qt.KeyboardModifier.NoModifier)
    qtbot.waitUntil(lambda: window.library.paper(paper_id).decision == "include", timeout=5000)
    elsewhere(library_dir, lambda library: library.set_decision(paper_id, "maybe"))
    press(window, qtbot, Qt.Key.Key_Z)
    qtbot.waitUntil(lambda: "changed elsewhere" in window.statusBar().currentMessage(), timeout=5000)
    assert window.library.paper(paper_id).decision == "maybe"


def test_undoing_a_tag_takes_back_only_that_tag(make_window, library_dir, qtbot):
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    window.select_row(0, by_user=True)
    paper_id = window.current_paper_id()
    editor = window.tag_editor
    editor.input.setText("mine")
    qtbot.keyClick(editor.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.library.paper(paper_id).tags == ["mine"], timeout=5000)
    elsewhere(library_dir, lambda library: library.add_tags(paper_id, ["from-cli"]))
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: window.library.paper(paper_id).tags == ["from-cli"], timeout=5000)


def test_undoing_a_merge_keeps_a_tag_the_command_line_gave_since(make_window, library_dir, qtbot, monkeypatch):
    ids = tag_some(library_dir)
    window = make_window()
    monkeypatch.setattr(QMessageBox, "question", lambda *args: QMessageBox.StandardButton.Yes)
    assert window.sidebar.rename_tag("alpha", "beta") is True
    qtbot.waitUntil(lambda: "alpha" not in sidebar_tags(window), timeout=5000)
    elsewhere(library_dir, lambda library: library.add_tags(ids[5], ["beta"]))
    qtbot.waitUntil(lambda: window.sidebar._tags["beta"].text(1) == "4", timeout=5000)

    press(window, qtbot, Qt.Key.Key_Z)
    qtbot.waitUntil(lambda: "changed elsewhere" in window.statusBar().currentMessage(), timeout=5000)
    assert "beta" in window.library.paper(ids[5]).tags
    assert window.library.paper(ids[0]).tags == ["beta", "kept"]  # the merge stays as it is
