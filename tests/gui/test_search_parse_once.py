"""A search keystroke parses its query once and ranks it once (issue 33): the search session parses the typed text
(db.query.parse_query: kind, words for the index, words to highlight) and the worker, db.query.run_query and the
index take that parse as it is; the whole ranking after the first page sorts the page's scores again."""

import pytest

import db.query_kind as query_kind
import db.search.language as language
import desktop.list.search_worker as search_worker
from db.search.ranking import Ranker

PAGE = 5  # the bundled corpus has 38 papers and "model" finds 27: a first page, then the rest
REASONING = "9342e12f8e8d"


class _CountedClause:
    """db.query_kind's clause pattern, counting the texts whose kind is read."""

    def __init__(self, pattern, seen: list):
        self.pattern, self.seen = pattern, seen

    def search(self, text):
        self.seen.append(text)
        return self.pattern.search(text)

    def __getattr__(self, name):
        return getattr(self.pattern, name)


@pytest.fixture
def counted(monkeypatch):
    """Lists of what was parsed (query texts), whose kind was read, and what was ranked (whoosh queries)."""
    parsed, kinds, ranked = [], [], []
    real_parse, real_scored, real_phrase_page = language.parse, Ranker.scored_matches, Ranker._first_page_of_phrase

    def parse(text, analyzers):
        parsed.append(text)
        return real_parse(text, analyzers)

    def scored_matches(self, query):
        ranked.append(query)
        return real_scored(self, query)

    def phrase_page(self, node, limit):
        ranked.append(node)
        return real_phrase_page(self, node, limit)

    monkeypatch.setattr(language, "parse", parse)
    monkeypatch.setattr(Ranker, "scored_matches", scored_matches)
    monkeypatch.setattr(Ranker, "_first_page_of_phrase", phrase_page)
    monkeypatch.setattr(query_kind, "_CLAUSE", _CountedClause(query_kind._CLAUSE, kinds))
    monkeypatch.setattr(search_worker, "PAGE", PAGE)
    return parsed, kinds, ranked


@pytest.mark.parametrize(("typed", "words"), [
    ("model", "model"),  # ranked by the index: a first page, then the rest
    ('venue:"ICML 2026"', 'venue:"ICML 2026"'),  # filters only: library order
    ("is:recommended model", "model"),  # the recommender's order, narrowed by the index
])
def test_one_search_keystroke_parses_its_query_once_and_ranks_it_once(make_window, qtbot, counted, typed, words):
    parsed, kinds, ranked = counted
    window = make_window()
    window.library.set_rating(REASONING, 5)
    qtbot.waitUntil(lambda: window.search_service.worker.is_ready, timeout=30000)
    searches = []
    window.search.searched.connect(searches.append)
    window.search_box.setFocus()
    parsed.clear(), kinds.clear(), ranked.clear()
    qtbot.keyClicks(window.search_box, typed)
    qtbot.waitUntil(lambda: window.search.query == typed and window.search.complete
                    and searches and searches[-1] == typed, timeout=30000)
    qtbot.waitUntil(lambda: not window.search.timer.isActive(), timeout=5000)
    assert window.model.ids(), "the query finds papers"
    assert searches.count(typed) == 1
    # every keystroke-search the session sent (the timer coalesces fast typing) was parsed once, kind and words
    assert kinds == searches
    rests = [query_kind.parse_kind(text).rest for text in searches]
    assert parsed == [rest for rest in rests if rest.strip()] and parsed[-1] == words
    # … and the shown one ranked once (a newer search skips an older one before it is ranked)
    assert len(ranked) <= len(searches)
    assert ranked.count(ranked[-1]) == 1 and len(ranked) >= 1
    if typed == "model":  # the first page came first, and the rest took the page's scores
        assert window.model.ids()[:PAGE] == window.search_service.worker._index.find("model", limit=PAGE).ids
