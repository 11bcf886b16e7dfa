"""File → Get papers… and File → Add paper… driven with real key events, against a local server replaying the
sources' recorded answers (tests/data/fetch): a venue fetched in the background with its counts, a paper added
by DOI, by arXiv id and by hand, a cancel, and a failure shown in one line with nothing changed."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.helpers.fetching import (
    VENUE,
    queue_arxiv,
    queue_crossref,
    queue_openreview,
)


def _type(qtbot, widget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClicks(widget, text)


def _finished(dialog) -> bool:
    return not dialog.running() and dialog.last_result is not None


def test_get_papers_from_openreview_in_the_background(qtbot, shown_window, server):
    queue_openreview(server)
    window = shown_window
    before = len(window.library.ids())
    window.actions_.get_papers_action.trigger()
    dialog = window.actions_.get_papers_window
    qtbot.waitExposed(dialog)
    assert dialog.source.currentData() == "openreview"
    _type(qtbot, dialog.target, VENUE)
    qtbot.keyClick(dialog.target, Qt.Key.Key_Return)  # the default button: Get papers
    qtbot.waitUntil(lambda: _finished(dialog), timeout=20000)
    assert dialog.status.text().startswith("5 new, 0 updated"), dialog.status.text()
    qtbot.waitUntil(lambda: window.model.rowCount() == before + 5, timeout=10000)
    assert len(window.library.ids()) == before + 5
    qtbot.keyClick(dialog.target, Qt.Key.Key_Return)  # the same venue again: cached, nothing new
    qtbot.waitUntil(lambda: not dialog.running(), timeout=20000)
    qtbot.waitUntil(lambda: dialog.status.text().startswith("0 new, 0 updated, 5 unchanged"), timeout=20000)


def test_add_paper_by_doi_arxiv_id_and_by_hand(qtbot, shown_window, server):
    queue_crossref(server)
    queue_arxiv(server)
    window = shown_window
    before = len(window.library.ids())
    window.actions_.add_paper_action.trigger()
    dialog = window.actions_.add_paper_window
    qtbot.waitExposed(dialog)
    _type(qtbot, dialog.identifier, "10.1371/journal.pone.0033693")
    qtbot.keyClick(dialog.identifier, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: _finished(dialog), timeout=20000)
    assert dialog.status.text().startswith("1 new"), dialog.status.text()

    dialog.last_result = None
    dialog.identifier.selectAll()
    _type(qtbot, dialog.identifier, "arXiv:1201.4869")
    qtbot.keyClick(dialog.identifier, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: _finished(dialog), timeout=20000)
    assert dialog.status.text().startswith("1 new"), dialog.status.text()

    dialog.last_result = None
    dialog.identifier.selectAll()
    qtbot.keyClick(dialog.identifier, Qt.Key.Key_Delete)
    _type(qtbot, dialog.title_edit, "A Paper Typed By Hand")
    qtbot.keyClick(dialog.title_edit, Qt.Key.Key_Tab)
    qtbot.keyClicks(dialog.focusWidget(), "Ada Lovelace; Alan Turing")
    _type(qtbot, dialog.venue, "Workshop on Things")
    _type(qtbot, dialog.year, "2025")
    _type(qtbot, dialog.abstract, "We type a paper by hand, word by word.")
    qtbot.keyClick(dialog.year, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: _finished(dialog), timeout=20000)
    assert dialog.status.text().startswith("1 new"), dialog.status.text()
    qtbot.waitUntil(lambda: window.model.rowCount() == before + 3, timeout=10000)
    [paper] = [p for p in window.library.papers(window.library.ids()) if p.title == "A Paper Typed By Hand"]
    assert (paper.authors, paper.venue, paper.year, paper.abstract) == (
        ["Ada Lovelace", "Alan Turing"], "Workshop on Things", 2025, "We type a paper by hand, word by word.")


def test_a_failed_lookup_is_one_line_and_changes_nothing(qtbot, shown_window, server):
    window = shown_window
    before = len(window.library.ids())
    window.actions_.add_paper_action.trigger()
    dialog = window.actions_.add_paper_window
    _type(qtbot, dialog.identifier, "10.9999/not.recorded")
    qtbot.keyClick(dialog.identifier, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: _finished(dialog), timeout=20000)
    assert dialog.status.text() == "crossref: refused (HTTP 404 Not Found); nothing was changed"
    assert len(window.library.ids()) == before


def test_cancel_stops_a_fetch_and_changes_nothing(qtbot, shown_window, server, monkeypatch):
    monkeypatch.setenv("MARGIN_FETCH_WAIT_SCALE", "1")  # OpenReview's half second between pages
    server.add("/openreview/notes", '{"error": "busy"}', status=429, headers={"Retry-After": "30"},
               content_type="application/json")
    window = shown_window
    before = len(window.library.ids())
    window.actions_.get_papers_action.trigger()
    dialog = window.actions_.get_papers_window
    _type(qtbot, dialog.target, VENUE)
    qtbot.keyClick(dialog.target, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: server.hits("/openreview/notes") >= 1, timeout=10000)
    assert dialog.running()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # Esc: cancels the fetch (waiting out a 30 s Retry-After)
    # 25 s, below the 30 s Retry-After: an ignored cancel still fails here (10 s timed out once in CI, unexplained)
    qtbot.waitUntil(lambda: dialog.last_result is not None, timeout=25000)
    assert "cancelled" in dialog.last_result
    assert len(window.library.ids()) == before


def test_closing_the_window_during_a_fetch_cancels_it(qtbot, make_window, server, monkeypatch):
    server.add("/openreview/notes", '{"error": "busy"}', status=429, headers={"Retry-After": "30"},
               content_type="application/json")
    window = make_window()
    before = len(window.library.ids())
    dialog = window.actions_.get_papers_dialog()
    _type(qtbot, dialog.target, VENUE)
    qtbot.keyClick(dialog.target, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: server.hits("/openreview/notes") >= 1, timeout=10000)
    task = dialog.task
    window.close()  # waits for the fetch thread, which the cancel wakes from its 30 s wait
    assert not task.thread.is_alive()
    from db.library.library import Library

    with Library.open(window.library.folder, seed=False) as library:
        assert len(library.ids()) == before
