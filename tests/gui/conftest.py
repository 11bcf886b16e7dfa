"""Qt fixtures for the GUI tier: an own QSettings folder per test (autouse), main windows on the test's library,
and Margin's delays made short so that tests wait on conditions instead of clocks."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.helpers.fetching import server  # noqa: F401 - a server replaying recorded API answers (the fetch tests)
from tests.helpers.qt import isolated_settings, make_window  # noqa: F401 - fixtures for this tier


@pytest.fixture
def short_delays(monkeypatch):
    """The read dwell, the search index's catch-up and the outside-change check made short (milliseconds);
    set before the window is built (each is read when its timer is made). Returns the values used."""
    from desktop.edits import change_watcher, read_tracker
    from desktop.list import search_session

    delays = SimpleNamespace(dwell=60, index_sync=40, change_check=40)
    monkeypatch.setattr(read_tracker, "DWELL_MS", delays.dwell)
    monkeypatch.setattr(search_session, "INDEX_DELAY_MS", delays.index_sync)
    monkeypatch.setattr(change_watcher, "CHECK_MS", delays.change_check)
    return delays


@pytest.fixture
def shown_window(qtbot, library_dir, short_delays):
    """A main window on the test's library, shown, with View → Mark read when shown off (papers stay unread
    unless a test marks them); closed with its library at the end."""
    from desktop.app import create_window

    win = create_window(library_dir)
    win.actions_.auto_read.setChecked(False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()
    win.library.close()
