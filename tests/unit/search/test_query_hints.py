"""A query that cannot mean what was typed says so (the README's promise: `list` says on stderr when a query is
not taken as typed) — an unknown `is:` and a `decision:` that is neither a screening decision nor a venue's usual
word used to find nothing without a word (second trial, 2026-12-02)."""

from __future__ import annotations

from db.search import parse_query_text


def test_an_unknown_is_clause_says_which_ones_exist():
    parsed = parse_query_text("is:unread graphs")
    assert "is: takes recommended, interests, check or conflict" in parsed.hint and "read:no" in parsed.hint


def test_a_mistyped_screening_decision_says_it_was_taken_as_a_venue_word():
    assert "no screening decision" in parse_query_text("decision:includ").hint
    assert not parse_query_text("decision:include").hint
    assert not parse_query_text("decision:Oral").hint  # a venue's usual word: no hint
