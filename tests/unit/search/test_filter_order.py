"""A query of filters only lists its papers in library order, also after one of them was annotated (its index
document is then re-added at the end); a query with words keeps its ranking (issue 12, item 3)."""

from pathlib import Path

import pytest

from db.paper import PaperRecord
from db.query import run_query
from db.search.index import ensure_index
from db.search.language import parse as parse_query
from db.search.language import query_analyzers
from tests.helpers.runner import margin

ROOT = Path(__file__).resolve().parents[2]
ICLR = "ICLR 2018"


def _iclr_records() -> list[PaperRecord]:
    topics = ["graph networks", "bandit feedback", "protein folding", "graph kernels", "sparse attention",
              "speech recognition"]
    return [PaperRecord(title=f"Paper {n} on {topic}", venue=ICLR, year=2017 + n % 3,
                        abstract=f"We study {topic} with method number {n} and report results on benchmarks.")
            for n, topic in enumerate(topics)]


def _venue_ids(library, venue: str) -> list[str]:
    return [paper_id for paper_id in library.ids() if library.paper(paper_id).venue == venue]


def _annotate(library, paper_id: str) -> None:
    library.set_rating(paper_id, 5)
    library.add_tags(paper_id, ["x"])
    library.set_note(paper_id, "a note about graph networks")


def _catch_up(library, index):
    index.close()
    return ensure_index(library)


@pytest.fixture
def two_venues(library):
    library.import_records(_iclr_records())
    return library


@pytest.mark.parametrize("venue", [ICLR, "ICML 2026"])
def test_a_venue_keeps_library_order_after_its_first_paper_is_annotated(two_venues, venue):
    library = two_venues
    expected = _venue_ids(library, venue)
    assert len(expected) >= 6
    index = ensure_index(library)
    query = f'venue:"{venue}"'
    assert run_query(library, query, index).ids == expected
    _annotate(library, expected[0])
    library.set_read(expected[1], True)
    index = _catch_up(library, index)
    try:
        assert index.search(query)[-1] in expected[:2]  # the index itself moved them: the bug this guards
        assert run_query(library, query, index).ids == expected
    finally:
        index.close()


@pytest.mark.parametrize("query, keep", [
    ("tag:x", lambda p: "x" in p.tags),
    ("rating:>=4", lambda p: (p.rating or 0) >= 4),
    ("read:no", lambda p: not p.read),
    ("year:2017..2019", lambda p: p.year is not None and 2017 <= p.year <= 2019),
    (f'venue:"{ICLR}" AND (rating:5 OR read:yes)', lambda p: p.venue == ICLR and (p.rating == 5 or p.read)),
    (f'venue:"{ICLR}" NOT tag:x', lambda p: p.venue == ICLR and "x" not in p.tags),
    (f'-venue:"{ICLR}" OR tag:x', lambda p: p.venue != ICLR or "x" in p.tags),
    ("NOT protein", None),  # a NOT-ed word only excludes: nothing to rank by
])
def test_filter_combinations_come_back_in_library_order(two_venues, query, keep):
    library = two_venues
    iclr = _venue_ids(library, ICLR)
    index = ensure_index(library)
    for paper_id in (iclr[2], library.ids()[0], iclr[0]):  # out of order on purpose
        _annotate(library, paper_id)
    library.set_read(iclr[3], True)
    index = _catch_up(library, index)
    try:
        got = run_query(library, query, index).ids
        matching = set(index.search(query)) if keep is None else {
            i for i in library.ids() if keep(library.paper(i))}
        expected = [i for i in library.ids() if i in matching]
        assert len(expected) > 1 and got == expected
    finally:
        index.close()


def test_a_query_with_words_keeps_its_ranking(two_venues):
    library = two_venues
    index = ensure_index(library)
    try:
        for query in ("graph", f'graph venue:"{ICLR}"', f'title:kernels OR venue:"{ICLR}"'):
            assert run_query(library, query, index).ids == index.search(query)
        ranked = run_query(library, f'(graph OR kernels) venue:"{ICLR}"', index).ids
        titles = [library.paper(i).title for i in ranked]
        assert titles == ["Paper 3 on graph kernels", "Paper 0 on graph networks"]  # not library order
    finally:
        index.close()


@pytest.mark.parametrize("query, ranked", [
    ("graph", True), ('"graph networks"', True), ("title:graph", True), ("reinforc*", True),
    ("graph OR venue:x", True), ("venue:x (tag:y OR graph)", True), ("author:smith", True),
    ('venue:"ICLR 2018"', False), ("venue:iclr", False), ("tag:x", False), ("rating:>=4", False),
    ("rating:none", False), ("read:no", False), ("year:2017..2019", False), ("NOT graph", False),
    ("-graph venue:x", False), ("(tag:a OR tag:b) -rating:none", False), ("", False),
])
def test_parsed_query_says_whether_it_ranks(query, ranked):
    assert parse_query(query, query_analyzers()).ranked is ranked


def test_list_of_a_venue_keeps_its_first_line_after_annotating_it(seeded_copy, library_dir):
    query = 'venue:"ICML 2026"'
    listed = margin("list", query, library=library_dir)
    assert listed.code == 0, listed.stderr
    before = listed.stdout.splitlines()
    assert len(before) == 38
    first = before[0].split()[0]
    annotated = margin("annotate", first, "--rating", "5", "--tag", "t", library=library_dir)
    assert annotated.code == 0, annotated.stderr
    listed = margin("list", query, library=library_dir)
    assert listed.code == 0, listed.stderr
    after = listed.stdout.splitlines()
    assert after[0].split()[0] == first
    assert [line.split()[0] for line in after] == [line.split()[0] for line in before]
