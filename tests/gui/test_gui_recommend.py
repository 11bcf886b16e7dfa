"""Recommendations, similar papers and tag suggestions in the window (issues 4 and 9)."""

import pytest
from PySide6.QtCore import Qt, QUrl

from tests.helpers.window import count_index_syncs, let_checks_run, search

AGENTS = "6ac65bf33b7e"  # GLEAN, agent verification
REASONING = "9342e12f8e8d"  # chain-of-thought lower bounds


@pytest.fixture
def window(shown_window):
    return shown_window


def test_recommended_needs_a_positive_and_says_so(window, qtbot):
    search(qtbot, window, "is:recommended")
    assert window.model.ids() == []
    assert "Rate at least one paper 4 or 5 stars" in window.statusBar().currentMessage()


def test_recommendations_follow_ratings_and_say_why(window, qtbot):
    window.library.set_rating(REASONING, 5)
    window.library.set_rating(AGENTS, 1)
    search(qtbot, window, "is:recommended")
    ids = window.model.ids()
    assert len(ids) == 36 and REASONING not in ids and AGENTS not in ids
    assert window.search.highlight == []  # "is" is no search word: nothing is marked in the abstracts
    window.select_paper(ids[0])  # (current already: the reader follows once the list has painted the results)
    qtbot.waitUntil(lambda: "Recommended for: " in window.reader.toPlainText(), timeout=10000)
    before = window.search_service.latest_request
    window.select_paper(ids[0])
    window.paper_list.setFocus()
    syncs = count_index_syncs(window, qtbot)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_5)  # a new positive: the list keeps its place …
    qtbot.waitUntil(lambda: len(syncs) > 0, timeout=10000)  # (the index has the rating
    let_checks_run(window, qtbot, 2)  # and the outside-change check ran twice)
    assert window.model.ids() == ids and window.current_paper_id() == ids[0]
    assert window.search_service.latest_request == before
    qtbot.keyClick(window.paper_list, Qt.Key.Key_F5)  # … until the user asks for a new ranking
    qtbot.waitUntil(lambda: window.search_service.latest_request > before and window.search.query == "is:recommended",
                    timeout=60000)
    qtbot.waitUntil(lambda: ids[0] not in window.model.ids(), timeout=60000)  # rated, so read: not recommended


def test_s_key_and_reader_link_show_similar_papers(window, qtbot):
    window.select_paper(REASONING)
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: window.search.query == f"similar:{REASONING}", timeout=60000)
    similar = window.model.ids()
    assert similar[0] == REASONING and REASONING not in similar[1:]  # the paper itself pinned first
    window.set_query("")
    window.select_paper(AGENTS)
    assert "Similar papers" in window.reader.toPlainText()
    window.reader.anchorClicked.emit(QUrl(f"margin:similar/{AGENTS}"))
    qtbot.waitUntil(lambda: window.search.query == f"similar:{AGENTS}", timeout=60000)
    assert window.model.ids()[0] == AGENTS and AGENTS not in window.model.ids()[1:]


def test_tag_suggestions_accept_and_dismiss(window, qtbot):
    ids = window.library.ids()
    window.library.add_tags(REASONING, ["llm reasoning"])
    window.library.add_tags(ids[5], ["llm reasoning"])
    search(qtbot, window, 'similar-tag:"llm reasoning"')
    suggestions = window.model.ids()
    assert len(suggestions) >= 3 and REASONING not in suggestions
    assert window.search.suggestion_tag() == "llm reasoning"
    first, second = window.current_paper_id(), suggestions[1]
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_A)
    assert window.library.paper(first).tags == ["llm reasoning"]
    assert first not in window.model.ids()
    assert window.current_paper_id() == second
    qtbot.keyClick(window.paper_list, Qt.Key.Key_X)
    assert second not in window.model.ids() and window.library.paper(second).tags == []


def test_reader_tag_link_filters_by_tag(window, qtbot):
    window.library.add_tags(AGENTS, ["agents, evals"])
    window.select_paper(AGENTS)
    window.show_current()
    window.reader.anchorClicked.emit(QUrl("margin:tag/agents%2C%20evals"))
    qtbot.waitUntil(lambda: window.search.query == 'tag:"agents, evals"', timeout=60000)
    assert window.model.ids() == [AGENTS]
