"""db/changes.py: the Changes value every mutation returns (ARCHITECTURE.md)."""

from __future__ import annotations

import pytest

from db.changes import NOTE, NOTHING, RATING, READ, TAGS, Changes


def test_of_names_the_papers_and_kinds_for_each_paper():
    changes = Changes.of(["a", "b"], RATING, READ)
    assert changes.papers == {"a", "b"} and changes.kinds == {RATING, READ}
    assert changes.by_paper == {"a": {RATING, READ}, "b": {RATING, READ}}
    assert changes.kinds_of("a") == {RATING, READ}


def test_a_paper_that_did_not_change_has_no_kinds():
    changes = Changes.of(["a"], NOTE)
    assert changes.kinds_of("b") == frozenset()
    assert (changes | Changes.of(["b"], TAGS)).kinds_of("b") == {TAGS}
    assert NOTHING.kinds_of("a") == frozenset()


def test_of_no_papers_is_nothing_and_an_unknown_kind_is_refused():
    assert Changes.of([], RATING) is NOTHING
    with pytest.raises(ValueError, match=r"^unknown kind of change: colour, size$"):
        Changes.of(["a"], RATING, "size", "colour")
    with pytest.raises(ValueError, match=r"^unknown kind of change: size$"):
        Changes.of([], "size")


def test_or_keeps_each_papers_own_kinds():
    both = Changes.of(["a"], RATING) | Changes.of(["a", "b"], NOTE)
    assert (both.papers, both.kinds) == ({"a", "b"}, {RATING, NOTE})
    assert both.by_paper == {"a": {RATING, NOTE}, "b": {NOTE}}
    assert both.touches(NOTE) is True and both.touches(TAGS) is False
    assert Changes.by_kinds({"a": [RATING], "b": [TAGS]}).by_paper == {"a": {RATING}, "b": {TAGS}}
