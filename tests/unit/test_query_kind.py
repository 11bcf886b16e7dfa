"""A query's kind (db/query_kind.py): every form of the README's Searching section read into a QueryKind, written
back as text and read again to the same QueryKind; the same answers as the regex it replaced, read by group
number; and db.query.parse_query's words, parsed once."""

import re

import pytest

from db.query import parse_query
from db.query_kind import (
    CHECK,
    INTERESTS,
    PLAIN,
    RECOMMENDED,
    SIMILAR,
    SIMILAR_TAG,
    QueryKind,
    is_kind_clause,
    parse_kind,
    without_kinds,
)

# the README's Searching table, each form as typed → (kind, argument, rest)
README_FORMS = {
    "graph neural": (PLAIN, None, "graph neural"),
    '"chain of thought"': (PLAIN, None, '"chain of thought"'),
    "reinforc*": (PLAIN, None, "reinforc*"),
    "gr?ph": (PLAIN, None, "gr?ph"),
    "title:transformer": (PLAIN, None, "title:transformer"),
    "title:(graph OR tree)": (PLAIN, None, "title:(graph OR tree)"),
    'tag:"graph neural nets"': (PLAIN, None, 'tag:"graph neural nets"'),
    "tag:graph*": (PLAIN, None, "tag:graph*"),
    "year:2017..2019": (PLAIN, None, "year:2017..2019"),
    "year:>=2018": (PLAIN, None, "year:>=2018"),
    "rating:none": (PLAIN, None, "rating:none"),
    "read:no": (PLAIN, None, "read:no"),
    "(a OR b) c": (PLAIN, None, "(a OR b) c"),
    "NOT a -b": (PLAIN, None, "NOT a -b"),
    "is:recommended": (RECOMMENDED, None, ""),
    "similar:9342e12f": (SIMILAR, "9342e12f", ""),
    'similar-tag:"to read"': (SIMILAR_TAG, "to read", ""),
    "similar-tag:agents": (SIMILAR_TAG, "agents", ""),
    "is:interests": (INTERESTS, None, ""),
    "is:check": (CHECK, None, ""),
    'is:check venue:"ICLR 2018"': (CHECK, None, 'venue:"ICLR 2018"'),
    'is:recommended venue:"ICLR 2018"': (RECOMMENDED, None, 'venue:"ICLR 2018"'),
    'graph similar-tag:"llm reasoning" year:2019': (SIMILAR_TAG, "llm reasoning", "graph   year:2019"),
    "IS:Recommended": (RECOMMENDED, None, ""),
}

# the regex db.search.run exported before, and how its five readers read it (by group number)
OLD = re.compile(
    r'(?i)(?:^|(?<=\s))(?:(is:recommended)|similar:(\S+)|similar-tag:(?:"([^"]*)"?|(\S+))|(is:check)|(is:interests))(?=\s|$)')
EDGES = ["", "   ", "is:recommendedx", "xis:check", "similar:", "similar-tag:", 'similar-tag:""', 'similar-tag:"open',
         "is:check is:recommended", "a\tis:interests\nb", "similar:a similar:b", 'tag:x similar-tag:"a b" c',
         "-is:recommended", "(is:check)", "is:check)", "similar-tag:a\"b", "similar:ab12 venue:ICLR"]


def _old_reading(text: str) -> tuple:
    found = OLD.search(text)
    if found is None:
        return PLAIN, None, text
    rest = (text[: found.start()] + " " + text[found.end() :]).strip()
    if found.group(2):
        return SIMILAR, found.group(2), rest
    if found.group(3) is not None or found.group(4) is not None:
        return SIMILAR_TAG, found.group(3) or found.group(4) or "", rest
    return (RECOMMENDED if found.group(1) else CHECK if found.group(5) else INTERESTS), None, rest


@pytest.mark.parametrize(("text", "expected"), README_FORMS.items())
def test_every_form_of_the_readme_is_read_and_written_back(text, expected):
    kind = parse_kind(text)
    assert (kind.kind, kind.argument, kind.rest) == expected
    assert parse_kind(str(kind)) == kind
    assert kind.recommendation is (kind.kind != PLAIN)


@pytest.mark.parametrize("text", [*README_FORMS, *EDGES])
def test_the_kind_is_what_the_old_regex_said_read_by_its_group_numbers(text):
    kind = parse_kind(text)
    assert (kind.kind, kind.argument, kind.rest) == _old_reading(text)
    assert parse_kind(str(kind)) == kind
    assert without_kinds(text) == OLD.sub(" ", text)  # a view's scope (db.triage.progress.scope_of)
    assert is_kind_clause(text) is (OLD.fullmatch(text) is not None)  # a sidebar "view" (db.search.filters)


def test_a_tag_name_with_spaces_is_written_back_in_quotes():
    kind = QueryKind(SIMILAR_TAG, "graph neural nets", "year:2019")
    assert str(kind) == 'similar-tag:"graph neural nets" year:2019'
    assert parse_kind(str(kind)) == kind
    assert str(QueryKind(SIMILAR_TAG, "", "")) == 'similar-tag:""' and parse_kind('similar-tag:""').argument == ""


def test_a_tag_name_with_quotes_and_spaces_is_written_back_whole():
    kind = QueryKind(SIMILAR_TAG, 'say "hi" twice', "year:2019")
    assert str(kind) == 'similar-tag:"say ""hi"" twice" year:2019'
    assert parse_kind(str(kind)) == kind


def test_a_query_is_parsed_once_into_its_kind_and_its_words():
    query = parse_query('is:recommended venue:"ICLR 2018" graph')
    assert query.kind == QueryKind(RECOMMENDED, None, 'venue:"ICLR 2018" graph')
    assert query.words.text == 'venue:"ICLR 2018" graph' and query.terms == ["graph"]
    assert not query.ranked  # a recommendation keeps the recommender's order
    assert parse_query("graph neural").ranked and not parse_query('venue:"ICLR 2018"').ranked
    assert parse_query("similar:ab12").words is None and parse_query("similar:ab12").terms == []
    assert parse_query("  ").empty and parse_query("  ").words is None
