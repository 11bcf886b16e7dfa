"""Cold start from the user's own history (issue 16, item 3): a venue or an imported file marked "papers I
like" gives positives from the first screen, without its papers being recommended or counted in the view."""

from __future__ import annotations

import random

import pytest

from db.library.library import Library
from db.recommend.recommender import NoPositivesError, Recommender
from db.triage.progress import progress
from tests.helpers.records import papers
from tests.helpers.runner import margin
from tests.helpers.topics import KITCHEN, SPACE, topic_abstract


@pytest.fixture
def venues(library_dir):
    rng = random.Random(2)
    last_year = papers(5, title="Old space {i}", abstract=lambda i: topic_abstract(rng, SPACE), venue="AST 2023",
                       year=2023, source="mine.bib")
    this_year = (papers(10, title="Space {i}", abstract=lambda i: topic_abstract(rng, SPACE), venue="CONF 2024",
                        year=2024)
                 + papers(10, title="Kitchen {i}", abstract=lambda i: topic_abstract(rng, KITCHEN), venue="CONF 2024",
                          year=2024))
    lib = Library.open(library_dir, seed=False)
    lib.import_records(last_year + this_year)
    yield lib, {paper.label: paper.id for paper in lib.papers()}
    lib.close()


def test_a_liked_venue_gives_positives_from_the_first_screen(venues):
    lib, ids = venues
    with pytest.raises(NoPositivesError):
        Recommender(lib).recommend()
    changes = lib.set_liked_source("venue", "AST 2023")
    assert changes.papers == {ids[f"Old space {i}"] for i in range(5)}
    result = Recommender(lib).recommend(limit=10)
    labels = [paper.label for paper in lib.papers(result.ids)]
    assert len(labels) == 10 and all(label.startswith("Space") for label in labels)  # the topic of the history first …
    assert not any(label.startswith("Old") for label in labels)  # … and the history itself is never served
    assert result.positives == 5
    view = [paper_id for label, paper_id in ids.items() if not label.startswith("Old")]
    assert progress(lib, view).found == 0  # the history is no part of the venue being triaged
    lib.set_liked_source("venue", "AST 2023", liked=False)
    with pytest.raises(NoPositivesError):
        Recommender(lib).recommend()
    with pytest.raises(KeyError):
        lib.set_liked_source("venue", "NOPE 1999")


def test_cli_like_an_imported_file(venues):
    lib, ids = venues

    marked = margin("like", "--source", "some/folder/mine.bib", library=lib.folder)
    assert marked.returncode == 0 and marked.stdout == "source: mine.bib  (5 papers)\n"
    listed = margin("list", 'is:recommended venue:"CONF 2024"', library=lib.folder)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[0].split("  ", 2)[-1].strip().startswith("Space")
    bad = margin("like", "--venue", "NOPE 1999", library=lib.folder)
    assert bad.returncode == 1 and "no paper has the venue 'NOPE 1999'" in bad.stderr
    assert margin("like", "--source", "mine.bib", "--off", library=lib.folder).stdout == ""
