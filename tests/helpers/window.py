"""Acting on the main window as a user does (mouse clicks on rows and sidebar entries), and waiting for what the
window does by itself, measured in its own delays rather than in seconds."""

from __future__ import annotations

from PySide6.QtCore import Qt


def activate(window, qtbot) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)


def click_row(window, qtbot, row: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """Click a row of the paper list with the mouse, as a user picks a paper."""
    window.paper_list.scrollTo(window.model.index(row, 0))
    rect = window.paper_list.visualRect(window.model.index(row, 0))
    qtbot.mouseClick(window.paper_list.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def click_sidebar(window, qtbot, text: str, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    item = window.sidebar.findItems(text, Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive, 0)[0]
    window.sidebar.scrollToItem(item)
    rect = window.sidebar.visualItemRect(item)
    qtbot.mouseClick(window.sidebar.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def wait_for_query(window, qtbot, text: str) -> None:
    qtbot.waitUntil(lambda: window.search.query == text and window.search_box.text() == text, timeout=30000)


def let_checks_run(window, qtbot, count: int) -> None:
    """Wait until the outside-change check has run `count` more times: time passing, counted in Margin's own timer
    (with short_delays, a few dwell times pass every few checks)."""
    ticks: list[int] = []

    def tick() -> None:
        ticks.append(1)

    window.watcher.timer.timeout.connect(tick)
    try:
        qtbot.waitUntil(lambda: len(ticks) >= count, timeout=30000)
    finally:
        window.watcher.timer.timeout.disconnect(tick)


def count_index_syncs(window, qtbot) -> list[int]:
    """A list that grows by one each time the search worker's index has finished catching up with the library."""
    qtbot.waitUntil(lambda: window.search_service.worker._index is not None, timeout=30000)
    index = window.search_service.worker._index
    done: list[int] = []
    original = index.sync

    def sync(*args, **kwargs):
        result = original(*args, **kwargs)
        done.append(1)
        return result

    index.sync = sync
    return done


def search(qtbot, window, text: str) -> None:
    """Put `text` in the search box and wait until the list shows its answer."""
    window.set_query(text)
    qtbot.waitUntil(lambda: window.search.query == text, timeout=60000)
