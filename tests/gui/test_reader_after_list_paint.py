"""A keystroke's results: the list paints first, and the reader follows in an event-loop turn of its own (issue 28).

The list's paint (10-17 ms of the window's thread at 100,000 papers) and the reader's HTML (2-25 ms) ran in one
turn of the event loop, one stall of up to 45 ms. Counted, not timed: the turns of the event loop (a zero-interval
timer that restarts itself counts one per turn), which turn the list painted in and which the reader rendered in,
and which papers the reader rendered."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, QTimer

from db.library.library import Library
from desktop.common import after_paint
from tests.helpers.records import papers


@pytest.fixture
def window(make_window, library_dir, qtbot):
    with Library.open(library_dir) as library:
        library.import_records(papers(30, title="Alpha paper {i}", abstract="Alpha study {i} of sparse graphs.")
                               + papers(30, start=30, title="Beta paper {i}", abstract="Beta study {i} of graphs."))
    window = make_window()
    window.resize(900, 600)
    window.set_query("alpha")
    qtbot.waitUntil(lambda: window.search.query == "alpha" and window.search.complete, timeout=30000)
    qtbot.waitUntil(lambda: window.current_paper.shown == window.model.paper_id(0), timeout=30000)
    return window


class Turns(QObject):
    """Counts the event loop's turns, and notes the turn of each paint of the list and each reader rendering."""

    def __init__(self, window) -> None:
        super().__init__()
        self.window, self.turn, self.paints, self.renders = window, 0, [], []
        self.ticker = QTimer(self, interval=0)
        self.ticker.timeout.connect(self._tick)
        window.paper_list.viewport().installEventFilter(self)
        shown = window.current_paper._set_html

        def render(*args):
            self.renders.append((self.turn, window.current_paper.shown))
            return shown(*args)

        window.current_paper._set_html = render

    def _tick(self) -> None:
        self.turn += 1

    def start(self) -> None:
        self.paints, self.renders = [], []
        self.ticker.start()

    def stop(self) -> None:
        self.ticker.stop()
        self.window.paper_list.viewport().removeEventFilter(self)

    def eventFilter(self, _watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint:
            self.paints.append((self.turn, self.window.current_paper_id()))
        return False


class KeyAtPaint(QObject):
    """Presses j (the window's move_selection) as the list's first paint after `arm()` begins."""

    def __init__(self, window) -> None:
        super().__init__()
        self.window, self.armed = window, False
        window.paper_list.viewport().installEventFilter(self)

    def eventFilter(self, _watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint and self.armed:
            self.armed = False
            self.window.move_selection(1)
        return False


def beta(window, row: int = 0) -> str:
    """The id of the paper titled "Beta paper N" (N = 30 + row): the row-th in the search for beta."""
    return next(paper.id for paper in window.library.papers(window.library.ids())
                if paper.title == f"Beta paper {row + 30}")


def test_the_reader_shows_the_new_current_paper_in_a_turn_after_the_list_s_paint(window, qtbot):
    turns = Turns(window)
    first = beta(window)
    turns.start()
    window.set_query("beta")
    qtbot.waitUntil(lambda: window.search.query == "beta" and window.current_paper.shown == first, timeout=30000)
    qtbot.wait(50)  # any later rendering would show here
    turns.stop()
    assert window.current_paper_id() == first
    # the reader rendered once, the new current paper (no placeholder, no earlier paper, no second rendering)
    assert [paper for _turn, paper in turns.renders] == [first], turns.renders
    painted_new = [turn for turn, current in turns.paints if current == first]
    assert painted_new, turns.paints
    # the list painted its new rows first, and the reader came in a later turn of the event loop
    assert turns.renders[0][0] > painted_new[0], (turns.paints, turns.renders)


def test_a_key_before_the_list_paints_leaves_no_stale_paper_in_the_reader(window, qtbot):
    """j pressed as the list begins to paint a search's results, before the reader followed them: the reader
    shows the paper j chose at once, and the turn after the paint finds it shown (it never shows the results'
    first paper after it)."""
    turns = Turns(window)
    first, second = beta(window), beta(window, 1)
    key = KeyAtPaint(window)
    window.list_controller.resultsShown.connect(lambda: setattr(key, "armed", window.search.query == "beta"))
    turns.start()
    window.set_query("beta")
    qtbot.waitUntil(lambda: window.current_paper.shown == second, timeout=30000)
    qtbot.waitUntil(lambda: not window._show_after_paint.armed, timeout=30000)
    qtbot.wait(50)
    turns.stop()
    assert window.current_paper_id() == second
    assert [paper for _turn, paper in turns.renders] == [second], turns.renders
    assert first not in [paper for _turn, paper in turns.renders]


def test_the_reader_follows_when_the_list_does_not_paint(window, qtbot, monkeypatch):
    """No paint comes (the window minimised, or nothing the list shows changed): the reader follows anyway, at
    the latest after_paint.LATEST_MS later; a hidden list does not wait at all."""
    turns = Turns(window)
    first = beta(window)
    turns.start()
    window.paper_list.viewport().setUpdatesEnabled(False)  # shown, but it never paints
    try:
        window.set_query("beta")
        qtbot.waitUntil(lambda: window.current_paper.shown == first, timeout=5000)
        assert not turns.paints
    finally:
        window.paper_list.viewport().setUpdatesEnabled(True)
    turns.stop()
    assert [paper for _turn, paper in turns.renders] == [first]
    window.hide()
    window.set_query("alpha")
    qtbot.waitUntil(lambda: window.current_paper.shown == window.model.paper_id(0), timeout=5000)
    assert not window._show_after_paint.armed
    assert after_paint.LATEST_MS <= 200


def test_the_first_formula_the_reader_shows_imports_nothing_on_the_window_s_thread(make_window, library_dir,
                                                                                     qtbot, monkeypatch):
    """The TeX converter (latex2mathml, ~20 ms of imports) is imported by the search worker once the index is open,
    not on the window's thread in the turn of the keystroke or the j that shows the first abstract with math."""
    import sys

    from db.text import math_markup

    for name in [name for name in sys.modules if name.startswith("latex2mathml")]:
        monkeypatch.delitem(sys.modules, name)  # as in a fresh process (put back at the end)
    for cached in (math_markup._parse, math_markup._math_html, math_markup.math_to_plain):
        cached.cache_clear()
    with Library.open(library_dir, seed=False) as library:  # (the bundled corpus has formulas)
        library.import_records(papers(1, title="Plain paper {i}", abstract="No formula here {i}.")
                               + papers(1, start=1, title="Math paper {i}",
                                        abstract=lambda i: "We bound $\\sum_{k=1}^{n} x_k^{2}$ for paper " + str(i)))
    window = make_window()
    assert window.current_paper_id() == window.model.paper_id(0) and "latex2mathml" not in sys.modules
    # the worker's formula converted (a module is in sys.modules from the start of its import, not its end)
    qtbot.waitUntil(lambda: math_markup._parse.cache_info().currsize >= 1, timeout=30000)
    imported = set(sys.modules)
    window.select_row(1, by_user=True)
    assert "∑" in window.reader.toPlainText()
    assert set(sys.modules) - imported == set()
