"""The window's own thread does the same work for a search's results whatever their number (issue 28): what
grows with the results (ranking, sorting, one row per work) is done on the search worker, and the list, the
status bar, the sidebar and the reader take them in a fixed number of steps. Counted, not timed: the Python lines
of the project's code run on the window's thread, the statements on the window's library connection, the list
model's resets and inserts, and the reader's renderings."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from db.library.library import Library
from desktop.list.search_session import SearchSession
from tests.helpers.records import papers

ROOT = Path(__file__).resolve().parents[2]
OURS = (str(ROOT / "desktop"), str(ROOT / "db"))
SHOWING = SearchSession._show.__code__  # a search's results (its first page, then the rest) going into the window
FEW, MANY = 150, 1500  # both more than the first page (search_worker.PAGE), so both come as a page and the rest


@pytest.fixture
def window(make_window, library_dir, qtbot):
    with Library.open(library_dir) as library:
        library.import_records(papers(FEW, title="Alpha paper {i}", abstract="Alpha study {i} of sparse graphs.")
                               + papers(MANY, start=FEW, title="Beta paper {i}",
                                        abstract="Beta study {i} of dense graphs."))
    window = make_window()
    window.resize(900, 600)
    for query in ("alpha", "beta"):  # the index open, the first search's imports done and the first rows of each
        window.set_query(query)  # query loaded before counting: both counted alike
        qtbot.waitUntil(lambda query=query: window.search.query == query and window.search.complete, timeout=30000)
        qtbot.waitUntil(lambda: window.current_paper.shown == window.model.paper_id(0), timeout=30000)
    return window


class Counted:
    """What the window's thread does from `start()` until the results are shown, painted and read."""

    def __init__(self, window):
        self.window, self.lines, self.statements = window, 0, []
        self.resets = self.inserts = self.renders = 0
        model = window.model
        model.modelReset.connect(lambda: self._add("resets"))
        model.rowsInserted.connect(lambda *_: self._add("inserts"))
        shown = window.current_paper._set_html

        def render(*args):
            self.renders += 1
            return shown(*args)

        window.current_paper._set_html = render
        self._on = False

    def _add(self, name: str) -> None:
        if self._on:
            setattr(self, name, getattr(self, name) + 1)

    def _trace(self, frame, event, _arg):
        """Each new frame: its lines are counted when it runs for a search's results (SearchSession._show and
        all it calls: the list model, the list controller, the status bar, the sidebar, the docks). The paints
        and the reader's turn that follow are bounded by the rows shown, and counted apart (renders)."""
        if event == "call" and frame.f_code.co_filename.startswith(OURS):
            caller = frame
            while caller is not None:
                if caller.f_code is SHOWING:
                    return self._count
                caller = caller.f_back
        return None

    def _count(self, frame, event, _arg):
        if event == "line":
            self.lines += 1
        return self._count

    def search(self, qtbot, query: str) -> Counted:
        window = self.window
        window.set_query("nothing-matches-this")
        qtbot.waitUntil(lambda: window.search.query == "nothing-matches-this" and window.model.rowCount() == 0,
                        timeout=30000)
        self.lines, self.statements, self.resets, self.inserts, self.renders = 0, [], 0, 0, 0
        window.library.store.conn.set_trace_callback(self.statements.append)
        self._on = True
        sys.settrace(self._trace)  # this thread only: the window's
        try:
            window.set_query(query)
            qtbot.waitUntil(lambda: window.search.query == query and window.search.complete
                            and window.current_paper.shown == window.model.paper_id(0), timeout=30000)
            window.paper_list.viewport().repaint()
            qtbot.wait(50)  # the reader's turn of the event loop, if one were still to come
        finally:
            sys.settrace(None)
            self._on = False
            window.library.store.conn.set_trace_callback(None)
        return self


def test_the_window_s_thread_takes_ten_times_more_results_in_the_same_steps(window, qtbot):
    counted = Counted(window)
    few = counted.search(qtbot, "alpha")
    few = (few.lines, len(few.statements), few.resets, few.inserts, few.renders)
    assert window.model.rowCount() == FEW
    many = counted.search(qtbot, "beta")
    assert window.model.rowCount() == MANY
    many = (many.lines, len(many.statements), many.resets, many.inserts, many.renders)
    # 1,350 more rows: not a line of Python per row (a per-row loop would add >= 1,350), no statement per chunk
    assert many[0] - few[0] < 100, (few, many)
    assert many[1] <= few[1] + 2, (few, many, counted.statements)
    # the first page resets the list once, the rest of the ranking is inserted after it; the reader renders once
    assert few[2:] == many[2:] == (1, 1, 1), (few, many)


def test_the_same_search_again_renders_the_reader_no_more(window, qtbot):
    """View → Refresh list (the same query again, the current paper kept): the reader shows the same paper with
    the same marks, so its HTML is not made again."""
    counted = Counted(window)
    counted.search(qtbot, "beta")
    counted.renders, counted._on = 0, True
    current = window.current_paper_id()
    window.search.refresh()
    qtbot.waitUntil(lambda: window.search.complete and window.current_paper_id() == current, timeout=30000)
    qtbot.wait(50)
    assert counted.renders == 0
    window.search.set_query("beta graphs")  # new words to mark: rendered again, once
    qtbot.waitUntil(lambda: window.search.query == "beta graphs" and window.search.complete, timeout=30000)
    qtbot.waitUntil(lambda: counted.renders >= 1, timeout=30000)
    qtbot.wait(50)
    assert counted.renders == 1
