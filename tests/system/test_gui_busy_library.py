"""A library that another process is writing to, or that is full, in the window (issue 18, item 4): a rating
key answers at once, the edit is kept and shown as waiting, saved when the library can take it, and never
reported wrongly; undo works on it; closing saves what is still waiting."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt

from db.errors import LibraryError
from tests.helpers.faults import start_python

HOLD = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1])
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
connection.rollback()
"""


@pytest.fixture
def writer(library_dir):
    """Another process holding the library's write lock until `release()`."""
    process = None

    class Writer:
        def hold(self):
            nonlocal process
            process = start_python(HOLD.replace("sys.stdin.readline()", "time.sleep(float(sys.argv[2]))"),
                                   str(library_dir / "library.db"), "60")
            assert process.stdout.readline().strip() == "locked"

        def release(self):
            process.kill()
            process.wait(10)

    yield Writer()
    if process is not None and process.poll() is None:
        process.kill()
        process.wait(10)


def _press(qtbot, window, key) -> float:
    """Press `key` on the list; the seconds the GUI thread spent on it."""
    started = time.monotonic()
    qtbot.keyClick(window.paper_list, key)
    return time.monotonic() - started


def test_a_rating_while_another_process_writes_is_kept_and_saved_later(make_window, qtbot, writer, capfd):
    window = make_window()
    window.select_row(4, by_user=True)
    paper_id = window.current_paper_id()
    writer.hold()
    stall = _press(qtbot, window, Qt.Key.Key_3)
    # the write waits 0.25 s for the lock, then is kept; frozen, it would wait out the library's 10 s (3: a bound a
    # busy machine keeps)
    assert stall < 3.0, f"the window froze {stall:.2f} s"
    assert window.pending_label.isVisible() and window.pending_label.text() == "Not saved yet: 1"
    assert "busy" in window.statusBar().currentMessage()
    assert window.library.paper(paper_id).rating is None  # not saved yet, and not said to be
    stall = _press(qtbot, window, Qt.Key.Key_J)  # the window goes on working
    assert stall < 3.0 and window.current_paper_id() != paper_id
    writer.release()
    window.edits.timer.setInterval(50)
    qtbot.waitUntil(lambda: not window.pending_label.isVisible(), timeout=10000)
    paper = window.library.paper(paper_id)
    assert (paper.rating, paper.read) == (3, True)
    row = window.model.ids().index(paper_id)
    assert window.model.paper(row).rating == 3  # the row shows what was saved
    window.undo_stack.undo()
    assert window.library.paper(paper_id).rating is None
    assert "Traceback" not in capfd.readouterr().err


def test_edits_made_while_busy_are_saved_in_the_order_they_were_made(make_window, qtbot, writer):
    window = make_window()
    window.select_row(2, by_user=True)
    paper_id = window.current_paper_id()
    writer.hold()
    for key in (Qt.Key.Key_2, Qt.Key.Key_5, Qt.Key.Key_4):
        _press(qtbot, window, key)
    window.tag_editor.input.setText("busy day")
    qtbot.keyClick(window.tag_editor.input, Qt.Key.Key_Return)
    assert len(window.edits) == 4 and window.pending_label.text() == "Not saved yet: 4"
    writer.release()
    window.edits.timer.setInterval(50)
    qtbot.waitUntil(lambda: not len(window.edits), timeout=10000)
    paper = window.library.paper(paper_id)
    assert (paper.rating, paper.tags) == (4, ["busy day"])


def test_a_full_disk_keeps_the_rating_and_says_so_without_a_traceback(make_window, qtbot, monkeypatch, capfd):
    window = make_window()
    window.select_row(1, by_user=True)
    paper_id = window.current_paper_id()
    real = window.library.set_rating
    full = [True]

    def set_rating(*args):
        if full[0]:
            raise LibraryError(f"{window.library.folder}/library.db: cannot write to the library (database or disk "
                               f"is full); nothing of this change was saved")
        return real(*args)

    monkeypatch.setattr(window.library, "set_rating", set_rating)
    _press(qtbot, window, Qt.Key.Key_5)
    assert window.pending_label.isVisible() and "full" in window.pending_label.toolTip()
    assert window.library.paper(paper_id).rating is None
    full[0] = False  # room again
    window.edits.timer.setInterval(50)
    qtbot.waitUntil(lambda: not window.pending_label.isVisible(), timeout=10000)
    assert window.library.paper(paper_id).rating == 5
    assert "Traceback" not in capfd.readouterr().err


def test_closing_saves_the_edits_still_waiting(make_window, qtbot, writer, library_dir):
    from db.library.library import Library

    window = make_window()
    window.select_row(6, by_user=True)
    paper_id = window.current_paper_id()
    writer.hold()
    _press(qtbot, window, Qt.Key.Key_2)
    assert len(window.edits) == 1
    writer.release()
    window.close()  # before the retry timer: the close saves it
    with Library.open(library_dir) as library:
        assert library.paper(paper_id).rating == 2


def test_notes_rescued_by_a_closing_window_are_put_back_at_the_next_start(make_window, qtbot, library_dir):
    import json

    from db.library.library import Library

    with Library.open(library_dir) as library:
        paper_id = library.ids()[4]
        library.set_note(paper_id, "what the library had")
    (library_dir / "unsaved-notes.json").write_text(json.dumps({paper_id: "typed while the library was busy"}))
    window = make_window()
    assert window.library.paper(paper_id).note == "typed while the library was busy"
    assert "what the library had" in [text for _when, text in window.library.note_history(paper_id)]
    assert not (library_dir / "unsaved-notes.json").exists()
    assert "Recovered 1 notes" in window.statusBar().currentMessage()
