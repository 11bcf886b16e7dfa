"""Changes carry who made them (issue 33): not part of equality; `|` keeps the first one named."""

from __future__ import annotations

from db.changes import NOTHING, OUTSIDE, RATING, READ, TAGS, Changes


def test_the_initiator_travels_with_a_change_and_is_not_part_of_equality():
    sidebar = object()
    change = Changes.of(["a"], TAGS).by(sidebar)
    assert change.initiator is sidebar
    assert change == Changes.of(["a"], TAGS)  # the same change, whoever made it
    assert Changes.of(["a"], TAGS).initiator is None
    assert change.by(sidebar) is change


def test_or_keeps_the_initiator_of_either_side():
    view = object()
    rated = Changes.of(["a"], RATING).by(view)
    both = rated | Changes.of(["a"], READ)
    assert both.initiator is view and both.kinds == {RATING, READ}
    assert (Changes.of(["b"], READ) | rated).initiator is view
    assert (NOTHING | rated).initiator is view
    assert (rated | NOTHING).initiator is view
    assert (NOTHING.by(view) | Changes.of(["c"], TAGS)).initiator is view  # an empty first write still says who
    assert (Changes.of(["a"], READ).by(OUTSIDE) | rated).initiator == OUTSIDE
