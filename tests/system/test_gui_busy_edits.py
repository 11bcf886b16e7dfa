"""Every window edit goes one write path (issue 33): made while another process holds the library's write lock,
each is kept ("Not saved yet"), then saved in order once the lock is released: the sidebar's toggles and tag
rename, the highlight word lists and tagging a map selection as much as a rating."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from db.library.library import Library
from desktop.reader.highlight_view import edit_highlight_words
from tests.helpers.faults import start_python

HOLD = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1])
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(60)
"""


@pytest.fixture
def held(library_dir):
    """Hold the library's write lock from another process: `held()` starts it and returns a release()."""
    processes = []

    def hold():
        process = start_python(HOLD, str(library_dir / "library.db"))
        processes.append(process)
        assert process.stdout.readline().strip() == "locked"

        def release():
            process.kill()
            process.wait(10)

        return release

    yield hold
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait(10)


def test_every_window_edit_made_while_the_library_is_busy_is_kept_and_saved_later(make_window, library_dir,
                                                                                   qtbot, held):
    with Library.open(library_dir) as library:
        ids = library.ids()
        library.add_tags(ids[0], ["old name"])
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    dock = window.map_dock  # hidden: tagging its selection needs no drawn map
    window.select_row(window.model.row_of(ids[2]), by_user=True)
    release = held()
    try:  # released however the test ends: a window closed with edits waiting would wait for the lock and ask
        qtbot.keyClick(window.paper_list, Qt.Key.Key_3)  # a rating
        window.sidebar.set_liked_venue("ICML 2026", True)  # the sidebar's toggles
        window.sidebar.set_interest("agents", True)
        assert window.sidebar.rename_tag("old name", "new name") is True
        assert edit_highlight_words(window, ["reasoning"], ["lower bound*"]) is True  # the highlight lists
        dock.selection = ids[5:9]
        dock.tag_selection("Lasso")  # a map selection

        assert window.pending_label.isVisible() and window.pending_label.text() == "Not saved yet: 6"
        with Library.open(library_dir, seed=False) as other:  # nothing saved yet, and nothing said to be
            assert other.paper(ids[2]).rating is None and other.liked_sources() == [] and other.interests() == []
            assert dict(other.tags()) == {"old name": 1} and not other.highlight_lists()
    finally:
        release()
    window.edits.timer.setInterval(50)
    qtbot.waitUntil(lambda: not window.pending_label.isVisible(), timeout=10000)
    with Library.open(library_dir, seed=False) as other:
        assert (other.paper(ids[2]).rating, other.paper(ids[2]).read) == (3, True)
        assert other.liked_sources() == [("venue", "ICML 2026")] and other.interests() == ["agents"]
        assert dict(other.tags()) == {"new name": 1, "Lasso": 4}
        assert other.highlight_lists().include == ["reasoning"]
    assert window.model.paper(window.model.row_of(ids[2])).rating == 3  # the list shows what was saved
    assert window.highlight_lists.include == ["reasoning"]
    window.undo_stack.undo()  # the map tagging is undone as one
    assert "Lasso" not in dict(window.library.tags())
