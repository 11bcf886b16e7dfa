"""A search shows its first page first (issue 15): the page equals the full ranking's first rows, the rest and
the count follow without moving the user's place, and a newer keystroke cancels the rest."""

import threading

import pytest

import desktop.list.search_worker as search_worker
from db.search import SearchIndex

PAGE = 5  # the bundled corpus has 38 papers: a page smaller than the 27 that "model" finds


@pytest.fixture
def small_page(monkeypatch):
    monkeypatch.setattr(search_worker, "PAGE", PAGE)


def ready(window, qtbot) -> None:
    qtbot.waitUntil(lambda: window.search_service.worker.is_ready, timeout=30000)


def exhaustive(window, text: str) -> list[str]:
    """The full ranking, from an index of its own on the same folder."""
    index = SearchIndex.for_library(window.library)
    try:
        index.open(window.library)
        return index.find(text).ids
    finally:
        index.close()


def test_the_first_page_is_the_full_rankings_first_page_and_the_rest_follows(make_window, qtbot, small_page,
                                                                             monkeypatch):
    window = make_window()
    ready(window, qtbot)
    full = exhaustive(window, "model")
    assert len(full) > 2 * PAGE
    release = threading.Event()
    real_run_query = search_worker.run_query

    def held_rest(*args, **kwargs):  # the rest of the ranking waits until the test has looked at the page
        release.wait(30)
        return real_run_query(*args, **kwargs)

    monkeypatch.setattr(search_worker, "run_query", held_rest)
    resets = []
    window.model.modelReset.connect(lambda: resets.append(1))
    window.set_query("model")
    qtbot.waitUntil(lambda: window.search.query == "model", timeout=10000)
    assert not window.search.complete
    assert window.model.ids() == full[:PAGE]
    assert window.count_label.text().startswith("counting… of 38 papers")
    window.select_row(3, by_user=True)  # the user picks a paper of the first page meanwhile
    picked = window.current_paper_id()
    resets.clear()
    release.set()
    qtbot.waitUntil(lambda: window.search.complete, timeout=10000)
    assert window.model.ids() == full
    assert window.count_label.text().startswith(f"{len(full)} of 38 papers")
    assert window.current_paper_id() == picked and window.paper_list.currentIndex().row() == 3
    assert resets == []  # the rest was added below the page, not shown as a new list


def test_a_keystroke_while_the_rest_is_coming_cancels_it(make_window, qtbot, small_page, monkeypatch):
    window = make_window()
    ready(window, qtbot)
    index = window.search_service.worker._index
    entered, release = threading.Event(), threading.Event()
    real_find = index.find

    def held_page(parsed, limit=None):  # the first page of "model" waits until the next keystroke is sent
        if parsed.text == "model" and limit == PAGE:
            entered.set()
            release.wait(30)
        return real_find(parsed, limit)

    monkeypatch.setattr(index, "find", held_page)
    ranked = []
    real_run_query = search_worker.run_query
    monkeypatch.setattr(search_worker, "run_query",
                        lambda library, query, *etc: ranked.append(query.text) or real_run_query(library, query, *etc))
    shown = []
    window.search.resultsReady.connect(lambda ids, _keep: shown.append((window.search.query, list(ids))))
    window.set_query("model")
    assert entered.wait(10)
    window.set_query("learning")  # typed while the worker answers "model"
    release.set()
    qtbot.waitUntil(lambda: window.search.query == "learning" and window.search.complete, timeout=10000)
    assert "model" not in ranked  # the rest of "model" was never ranked …
    assert [query for query, _ids in shown] in (["learning"], ["learning", "learning"])  # … nor its page shown
    assert window.model.ids() == exhaustive(window, "learning")


def test_a_sorted_list_waits_for_the_whole_ranking(make_window, qtbot, small_page):
    window = make_window()
    ready(window, qtbot)
    window.sort_by("year", descending=True)
    shown = []
    window.search.resultsReady.connect(lambda ids, _keep: shown.append(list(ids)))
    window.set_query("model")
    qtbot.waitUntil(lambda: window.search.query == "model", timeout=10000)
    assert window.search.complete and len(shown) == 1 and len(shown[0]) == len(exhaustive(window, "model"))
    years = [window.library.paper(paper_id).year or 0 for paper_id in window.model.ids()]
    assert years == sorted(years, reverse=True)


def test_a_query_is_searched_again_when_another_process_changes_titles(make_window, qtbot, library_dir):
    """A new user's trial: `margin import` gave 500 papers a word in their titles while the window showed a
    query for it; the list stayed as it was until F5."""
    from db.library.library import Library

    window = make_window()
    ready(window, qtbot)
    window.set_query("zanzibarian")
    qtbot.waitUntil(lambda: window.search.query == "zanzibarian" and window.search.complete, timeout=10000)
    assert window.model.ids() == []
    with Library.open(library_dir) as other:  # another process: the window learns it from the change log
        renamed = other.ids()[:3]
        for paper_id in renamed:
            other.set_title(paper_id, "A zanzibarian title")
    qtbot.waitUntil(lambda: sorted(window.model.ids()) == sorted(renamed), timeout=15000)
