"""The window's sync (desktop.window.sync) against a real PostgreSQL server: the automatic sync brings the other
machine's changes in on the worker thread while the user types, a note changed there raises the "changed
elsewhere" bar, and the status bar says synced / waiting / unreachable (why in the tooltip)."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt

from db.library import Library
from tests.helpers.sync import sync_folder
from tests.helpers.window import activate


@pytest.mark.slow
def test_the_automatic_sync_brings_the_other_machines_note_while_typing_and_says_how_it_went(
        make_window, qtbot, library_dir, postgres, tmp_path, monkeypatch):
    from desktop.common import background
    from desktop.edits import change_watcher
    from desktop.window import sync

    monkeypatch.setattr(change_watcher, "CHECK_MS", 40)
    monkeypatch.setattr(sync, "FIRST_SYNC_MS", 50)
    monkeypatch.setattr(sync, "LABEL_DELAY_MS", 20)
    desktop = tmp_path / "desktop"
    Library.open(library_dir).close()
    sync_folder(library_dir, postgres.conninfo)
    sync_folder(desktop, postgres.conninfo)
    with Library.open(library_dir) as laptop:
        laptop.sync_book.set_sync_state({"interval": 1})
    window = make_window()
    label = window.findChild(type(window.sync.label), "syncStatus")
    assert label is window.sync.label
    qtbot.waitUntil(label.isVisible)  # once the changed fields waiting are counted (on the worker thread)
    activate(window, qtbot)
    paper_id = window.current_paper_id()
    editor = window.note_editor.editor
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton)
    qtbot.keyClicks(editor, "my words")
    qtbot.waitUntil(lambda: window.library.paper(paper_id).note == "my words", timeout=5000)
    with Library.open(desktop) as other:
        other.set_note(paper_id, "their words, written later")
        other.set_rating(paper_id, 5)
    sync_folder(desktop, postgres.conninfo)

    threads = []
    original = background._Task.run
    monkeypatch.setattr(background._Task, "run", lambda self: (threads.append(threading.current_thread()),
                                                               original(self))[1])
    qtbot.waitUntil(lambda: window.library.paper(paper_id).rating == 5, timeout=20000)
    qtbot.waitUntil(lambda: (window.model.cached(paper_id) or window.library.paper(paper_id)).rating == 5
                    and window.rating_widget.rating() == 5, timeout=5000)
    qtbot.waitUntil(window.note_editor.outside_bar.isVisible, timeout=5000)
    assert editor.toPlainText() == "my words"  # not typed over; both versions kept
    assert threads and threading.main_thread() not in threads
    qtbot.waitUntil(lambda: label.text() == "Synced" or label.text().endswith("waiting"), timeout=10000)

    with Library.open(desktop) as other:
        assert other.paper(paper_id).note == "their words, written later"
    postgres.stop()
    window.sync.sync_now()
    qtbot.waitUntil(lambda: label.text().startswith("Sync: server unreachable"), timeout=20000)
    assert "could not be reached: " in label.toolTip()


def test_without_a_server_the_label_is_hidden_and_sync_now_says_how_to_set_one(make_window, qtbot):
    window = make_window()
    assert not window.sync.label.isVisible()
    window.actions_.sync_action.trigger()
    assert "margin sync --server URL" in window.statusBar().currentMessage()
