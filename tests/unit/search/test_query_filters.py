"""Sidebar clicks in the query text: a click replaces the filter of its kind, Ctrl+click (add=True) adds one
(issue 12, item 4). The queries written must mean what the user's text meant, plus the filter."""

import random

import pytest
from whoosh import query as q

from db.search.filters import with_filter, with_tag_renamed
from db.search.language import InPart, parse, query_analyzers

NIPS = 'venue:"NIPS 2017"'


def test_a_tag_click_replaces_a_tag_holding_quotes():
    first = with_filter("graph", 'tag:"say ""hi"""')
    assert first == 'graph tag:"say ""hi"""'
    assert with_filter(first, 'tag:"say ""hi"""', add=True) == first  # the same tag is not added twice
    assert with_filter(first, 'tag:"other"') == 'graph tag:"other"'


def test_a_venue_click_replaces_the_venue():
    assert with_filter('venue:"ICLR 2018"', NIPS) == NIPS
    assert with_filter(with_filter("", 'venue:"ICLR 2018"'), NIPS) == NIPS  # two clicks: the second venue only


def test_words_and_other_filters_stay_and_the_click_comes_last():
    assert with_filter('graph venue:"ICLR 2018" tag:x', NIPS) == 'graph tag:x venue:"NIPS 2017"'
    assert with_filter("graph   neural\tnets", NIPS) == 'graph neural nets venue:"NIPS 2017"'
    assert with_filter('  title:(graph OR tree)  "chain of thought" ', "read:no") == (
        'title:(graph OR tree) "chain of thought" read:no')


@pytest.mark.parametrize("before, fragment, after", [
    ("venue:ICLR graph", NIPS, 'graph venue:"NIPS 2017"'),
    ('Venue:"ICLR 2018" venue:icml', NIPS, NIPS),
    ("venue: ICLR graph", NIPS, 'graph venue:"NIPS 2017"'),  # "venue: ICLR" is venue:ICLR to the parser
    ("venue:(ICLR OR ICML) graph", NIPS, 'graph venue:"NIPS 2017"'),
    ("venue:ICLR OR venue:ICML", NIPS, NIPS),
    ("(venue:ICLR venue:ICML) graph", NIPS, 'graph venue:"NIPS 2017"'),
    ("tag:x tags:y graph", 'tag:"to read"', 'graph tag:"to read"'),
    ("rating:5", "rating:none", "rating:none"),
    ("rating:>=4 read:no", "rating:2", "read:no rating:2"),
    ("read:no rating:5", "read:yes", "rating:5 read:yes"),
    ("is:recommended tag:x", "similar:abc123", "tag:x similar:abc123"),
    ('similar-tag:"to read" graph', "is:recommended", "graph is:recommended"),
    ("similar:abc123", 'similar-tag:"to read"', 'similar-tag:"to read"'),
    ("graph venue:ICLR", "is:recommended", "graph venue:ICLR is:recommended"),
])
def test_a_click_replaces_its_kind_only(before, fragment, after):
    assert with_filter(before, fragment) == after


@pytest.mark.parametrize("before, after", [
    ('-venue:"ICLR 2018" graph', '-venue:"ICLR 2018" graph venue:"NIPS 2017"'),
    ("NOT venue:ICLR", 'NOT venue:ICLR venue:"NIPS 2017"'),
    ("graph OR venue:ICLR", '(graph OR venue:ICLR) venue:"NIPS 2017"'),
    ("(graph venue:ICLR) tree", '(graph venue:ICLR) tree venue:"NIPS 2017"'),
])
def test_negated_filters_and_filters_mixed_into_an_or_or_group_stay(before, after):
    assert with_filter(before, NIPS) == after


def test_add_keeps_both_and_never_duplicates():
    both = with_filter("tag:x", 'tag:"to read"', add=True)
    assert both == 'tag:x tag:"to read"'
    assert with_filter(both, 'tag:"to read"', add=True) == both
    assert with_filter(both, "tag:X", add=True) == both  # the same tag, in another case

def test_added_filters_of_a_field_a_paper_has_one_value_of_are_alternatives():
    """Ctrl+click on a second venue listed nothing (a new user's trial): a paper has one venue, so the two venues
    ANDed can never match. Venues, years, ratings, read state and decisions added beside their own kind are ORed;
    tags (a paper has many) stay ANDed."""
    assert with_filter('venue:"ICLR 2018"', NIPS, add=True) == '(venue:"ICLR 2018" OR venue:"NIPS 2017")'
    assert with_filter("venue:a OR venue:b", NIPS, add=True) == '(venue:a OR venue:b OR venue:"NIPS 2017")'
    both = with_filter('graph venue:"ICLR 2018" tag:x', NIPS, add=True)
    assert both == 'graph tag:x (venue:"ICLR 2018" OR venue:"NIPS 2017")'
    assert with_filter(both, NIPS, add=True) == both  # not twice
    assert with_filter(both, 'venue:"ICLR 2017"') == 'graph tag:x venue:"ICLR 2017"'  # a click replaces them all
    assert with_filter("rating:5", "rating:4", add=True) == "(rating:5 OR rating:4)"
    assert with_filter("tag:a", "tag:b", add=True) == "tag:a tag:b"


def test_the_same_click_twice_changes_nothing():
    for fragment in (NIPS, 'tag:"to read"', "rating:5", "rating:none", "read:no", "is:recommended"):
        once = with_filter("graph tag:x", fragment)
        assert with_filter(once, fragment) == once
        assert with_filter(once, fragment, add=True) == once
        assert once.count(fragment) == 1


def test_all_papers_clears_everything():
    assert with_filter('graph venue:"ICLR 2018" tag:x is:recommended', "") == ""
    assert with_filter("graph", "   ") == ""
    assert with_filter("", "") == ""


def test_an_or_at_the_top_is_kept_whole_under_the_new_filter():
    assert with_filter("graph OR tree", NIPS) == '(graph OR tree) venue:"NIPS 2017"'
    assert with_filter("a b OR c", "read:no") == "(a b OR c) read:no"
    assert with_filter("a OR b) c", "read:no") == "(a OR b) c read:no"  # the stray ")" ended the OR


def test_explicit_and_between_kept_words_stays():
    assert with_filter("graph AND venue:x AND tree", NIPS) == 'graph AND tree venue:"NIPS 2017"'
    assert with_filter("venue:x AND tree", NIPS) == 'tree venue:"NIPS 2017"'


@pytest.mark.parametrize("hostile", [
    '"graph neu', 'venue:"ICLR', "(graph", "((((", ")))", "graph)", "OR", "AND NOT", "- -", "-NOT", "-OR x",
    "venue:", 'tag:""', "()", '"', '""', "NOT", "title:(", "\x00\x1f graph \x7f", "(" * 3000, ")" * 3000,
    '"(' * 500, "é" * 5000, "similar-tag:", 'similar-tag:"', "is:", "venue:(" * 400,
])
def test_hostile_input_never_raises(hostile):
    for fragment in (NIPS, "tag:x", "is:recommended", "", hostile):
        for add in (False, True):
            out = with_filter(hostile, fragment, add=add)
            assert isinstance(out, str)
            parse(out, query_analyzers())


def test_unclosed_quotes_and_parentheses_are_closed_before_the_filter():
    assert with_filter('"graph neu', "read:no") == '"graph neu" read:no'
    assert with_filter('venue:"ICLR', NIPS) == NIPS
    assert with_filter("(graph OR tree", "read:no") == "(graph OR tree) read:no"


def _shape(node):
    """A parsed query with nested ANDs and ORs flattened, comparable across spellings."""
    if node is None:
        return None
    if isinstance(node, (q.And, q.Or)):
        parts = []
        for sub in node.subqueries:
            shape = _shape(sub)
            parts += shape[1] if type(sub) is type(node) else [shape]
        return type(node).__name__, tuple(parts)
    if isinstance(node, q.Not):
        return "Not", _shape(node.query)
    if isinstance(node, InPart):
        return "InPart", node.part, _shape(node.child)
    return repr(node)


PIECES = ["graph", "tree", "venue:", "venue:a", '"x y"', "(", ")", "-", "-tag:b", "tag:", "OR", "AND", "NOT",
          "&&", "||", "title:", "rating:5", "is:recommended", "similar-tag:", "read:no", "year:2019", "-NOT",
          "-OR", '-venue:"p q"', "venue:(a OR b)"]


def test_adding_a_filter_keeps_what_the_query_meant():
    """Random queries from the grammar's pieces: the query written by add=True parses to the user's query AND
    the filter, and a second click changes nothing (replace or add)."""
    rng = random.Random(12)
    analyzers = query_analyzers()
    zz = q.Term("tag", "zz")
    for _ in range(3000):
        words = [rng.choice(PIECES) + (rng.choice(PIECES) if rng.random() < 0.2 else "")
                 for _ in range(rng.randint(0, 8))]
        text = " ".join(words)
        added = with_filter(text, "tag:zz", add=True)
        replaced = with_filter(text, "tag:zz")
        assert with_filter(added, "tag:zz", add=True) == added, text
        assert with_filter(replaced, "tag:zz") == replaced, text
        if text.count('"') % 2:
            continue  # an unclosed quote is closed: a phrase now, where the parser took its words
        before = parse(text, analyzers).query
        expected = zz if before is None else q.And([before, zz])
        assert _shape(parse(added, analyzers).query) == _shape(expected), (text, added)


def test_a_renamed_tag_is_renamed_in_the_query_and_nothing_else():
    assert with_tag_renamed('graph tag:"to read" year:2019', "to read", "later") == 'graph tag:"later" year:2019'
    assert with_tag_renamed("tag:ml -tag:ML tag:mlx (tag:ml OR x)", "ml", "machine learning") == \
        'tag:"machine learning" -tag:"machine learning" tag:mlx (tag:"machine learning" OR x)'
    assert with_tag_renamed('tag:"say ""hi"" twice"', 'say "hi" twice', 'say "bye"') == 'tag:"say ""bye"""'
    assert with_tag_renamed("ml tag:other", "ml", "x") == "ml tag:other"  # the word ml is not the tag
