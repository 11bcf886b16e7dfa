"""Several interests in one triage pass (issue 16, item 2): interests, dismissals, the queue across them."""

from __future__ import annotations

import json

import pytest

from db.library.library import Library
from db.recommend.recommender import NoPositivesError, Recommender
from db.triage.interests import NO_INTERESTS, queue
from tests.helpers.records import papers
from tests.helpers.runner import margin
from tests.helpers.topics import KITCHEN, SPACE, topic_abstract

MUSIC = ("violin orchestra symphony melody chord tempo rhythm sonata piano opera harmony concerto "
         "conductor quartet cello").split()


@pytest.fixture
def three(library_dir):
    import random

    rng = random.Random(5)
    records = []
    for name, words in (("Space", SPACE), ("Kitchen", KITCHEN), ("Music", MUSIC)):
        records += papers(12, title=name + " {i}", abstract=lambda i, words=words: topic_abstract(rng, words),
                          venue="X 2024", year=2024)
    lib = Library.open(library_dir, seed=False)
    lib.import_records(records)
    yield lib, {paper.label: paper.id for paper in lib.papers()}
    lib.close()


def test_queue_serves_every_interest_by_score_and_names_it(three):
    lib, ids = three
    with pytest.raises(NoPositivesError, match="No interests yet"):
        queue(lib)
    lib.add_tags(ids["Space 0"], ["astro"])
    lib.add_tags(ids["Music 0"], ["music"])
    lib.set_interest("astro")
    lib.set_interest("Music")  # matched to the tag as written
    lib.set_interest("baking")  # no paper carries it yet
    assert lib.interests() == ["astro", "baking", "music"]
    result = queue(lib)
    assert result.waiting == ["baking"]
    first = [result.interest[i] for i in result.ids[:10]]
    assert set(first) == {"astro", "music"}
    labels = {paper.id: paper.label for paper in lib.papers(result.ids)}
    for paper_id in result.ids[:10]:
        topic = "Space" if result.interest[paper_id] == "astro" else "Music"
        assert labels[paper_id].startswith(topic), (labels[paper_id], result.interest[paper_id])
    assert len(set(result.ids)) == len(result.ids)
    assert NO_INTERESTS.startswith("No interests yet: right-click a tag in the sidebar → Use as an interest")


def test_a_dismissal_is_kept_and_teaches_that_interest_only(three):
    lib, ids = three
    lib.add_tags(ids["Space 0"], ["astro"])
    lib.add_tags(ids["Space 1"], ["astro"])
    recommender = Recommender(lib)
    before = {item.id: item.score for item in recommender.more_like_tag("astro", limit=None)}
    changes = lib.set_dismissed(ids["Space 2"], "astro")
    assert changes.papers == {ids["Space 2"]} and changes.kinds == {"triage"}
    assert lib.set_dismissed(ids["Space 2"], "astro") == type(changes)()  # already dismissed: nothing changes
    after = {item.id: item.score for item in recommender.more_like_tag("astro", limit=None)}
    assert ids["Space 2"] not in after
    # its look-alikes are lowered: the dismissal is a negative of the astro model
    assert all(after[ids[f"Space {i}"]] < before[ids[f"Space {i}"]] for i in range(3, 12))
    lib.close()
    with Library.open(lib.folder, seed=False) as again:  # kept across a restart
        assert again.dismissed("ASTRO") == [ids["Space 2"]]
        assert again.set_dismissed(ids["Space 2"], "astro", False).papers == {ids["Space 2"]}
        assert again.dismissed("astro") == []


def test_a_three_star_maybe_is_a_weak_negative(three):
    lib, ids = three
    lib.add_tags(ids["Space 0"], ["astro"])
    recommender = Recommender(lib)
    base = {item.id: item.score for item in recommender.more_like_tag("astro", limit=None)}
    lib.set_rating(ids["Space 3"], 3)
    maybe = {item.id: item.score for item in recommender.more_like_tag("astro", limit=None)}
    lib.set_rating(ids["Space 3"], 1)
    strong = {item.id: item.score for item in recommender.more_like_tag("astro", limit=None)}
    probe = ids["Space 4"]
    assert strong[probe] < maybe[probe] < base[probe]


def test_deleting_a_tag_forgets_its_interest_and_dismissals(three):
    lib, ids = three
    lib.add_tags(ids["Space 0"], ["astro"])
    lib.set_interest("astro")
    lib.set_dismissed(ids["Space 5"], "astro")
    lib.delete_tag("astro")
    assert lib.interests() == [] and lib.dismissed("astro") == []


def test_cli_interest_and_dismiss(three):
    lib, ids = three
    folder = lib.folder

    assert margin("annotate", ids["Kitchen 0"], "--tag", "baking", library=folder).returncode == 0
    listed = margin("interest", "baking", library=folder)
    assert listed.returncode == 0 and listed.stdout.strip() == "baking  (1 paper)"
    result = margin("list", "is:interests", "--json", library=folder)
    assert result.returncode == 0, result.stderr
    papers = json.loads(result.stdout)
    assert len(papers) == 35 and {paper["interest"] for paper in papers} == {"baking"}
    assert papers[0]["label"].startswith("Kitchen ") and papers[0]["why"]
    assert all(set(term.split()) & set(KITCHEN) for term in papers[0]["why"]), papers[0]["why"]  # baking terms
    first = papers[0]["id"]
    assert margin("annotate", first, "--dismiss", "baking", library=folder).returncode == 0
    again = json.loads(margin("list", "is:interests", "--json", library=folder).stdout)
    assert first not in [paper["id"] for paper in again]
    assert margin("interest", "baking", "--off", library=folder).stdout == ""
    none = margin("list", "is:interests", library=folder)
    assert none.returncode == 1 and "No interests yet" in none.stderr
