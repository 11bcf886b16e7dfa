"""The conference map (issue 17) without fitting a large layout: the lasso's even-odd rule, colours that follow
the annotations, a small library's map. The fitted layouts are tested in tests/system/test_conference_map_fits.py."""

from __future__ import annotations

import numpy as np
import pytest

from db.library.library import Library
from db.map import conference_map as cm
from tests.helpers.topics import map_topics as records


@pytest.fixture
def three(library_dir):
    """A library of three clearly separated topics, 30 papers each (titles "space 0" …)."""
    lib = Library.open(library_dir, seed=False)
    lib.import_records(records(30))
    yield lib
    lib.close()


def test_points_in_polygon_is_the_even_odd_rule():
    xy = np.array([[0.5, 0.5], [1.5, 0.5], [0.5, 1.5], [-0.1, 0.2], [0.9, 0.9]])
    square = [(0, 0), (1, 0), (1, 1), (0, 1)]
    assert cm.points_in_polygon(xy, square).tolist() == [True, False, False, False, True]
    l_shape = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    assert cm.points_in_polygon(xy, l_shape).tolist() == [True, True, True, False, True]
    assert not cm.points_in_polygon(xy, [(0, 0), (1, 1)]).any()


def test_colouring_follows_ratings_read_state_and_a_tag(three):
    ids = three.ids()
    three.set_rating(ids[0], 5)
    three.set_rating(ids[1], 1)
    three.set_read(ids[2], True)
    three.add_tags(ids[3], ["Maybe"])
    rgb = cm.colours(three, ids, "rating")
    assert tuple(rgb[0]) == cm.RATING_COLOURS[5] and tuple(rgb[1]) == cm.RATING_COLOURS[1]
    assert tuple(rgb[2]) == cm.UNRATED
    three.set_rating(ids[0], None)
    assert tuple(cm.colours(three, ids, "rating")[0]) == cm.UNRATED
    read = cm.colours(three, ids, "read")
    assert tuple(read[2]) == cm.READ_COLOUR and tuple(read[0]) == cm.UNREAD_COLOUR
    tagged = cm.colours(three, ids, "tag", "maybe")  # tags match as the search does, by their key
    assert [tuple(c) == cm.TAGGED_COLOUR for c in tagged[:5]] == [False, False, False, True, False]
    with pytest.raises(ValueError):
        cm.colours(three, ids, "colour")


def test_a_small_library_gets_a_map_too(library_dir):
    lib = Library.open(library_dir, seed=False)
    lib.import_records(records(2))
    conference_map, report = cm.MapCache(lib.folder).refresh(lib)
    assert report.kind == "fitted" and conference_map.xy.shape == (6, 2) and np.isfinite(conference_map.xy).all()
    lib.close()
    empty = Library.open(library_dir.parent / "empty", seed=False)
    assert cm.MapCache(empty.folder).refresh(empty)[0].ids == []
    empty.close()
