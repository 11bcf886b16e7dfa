"""`list is:recommended`, `list similar:ID` and `list similar-tag:"NAME"` (issue 9), run in-process."""

from __future__ import annotations

import json

import pytest

from db.library.library import Library
from db.paper import PaperRecord
from tests.helpers.runner import margin
from tests.helpers.topics import KITCHEN, SPACE, two_topics


@pytest.fixture
def topics_dir(library_dir):
    """A library folder of two topics; yields (folder, {title: id})."""
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(two_topics())
        ids = {paper.label: paper.id for paper in lib.papers()}
    return library_dir, ids


def listed(result) -> list[dict]:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_no_positive_rating_exits_1_with_one_line(topics_dir):
    folder, ids = topics_dir
    result = margin("list", "is:recommended", library=folder)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "margin: Rate at least one paper 4 or 5 stars to get recommendations\n"


def test_list_is_recommended_after_a_rating(topics_dir):
    folder, ids = topics_dir
    assert margin("annotate", ids["Kitchen 1"][:6], "--rating", "5", library=folder).returncode == 0
    assert margin("annotate", ids["Space 1"][:6], "--rating", "2", library=folder).returncode == 0
    papers = listed(margin("list", "is:recommended", "--json", library=folder))
    assert len(papers) == 26  # every other paper shares a word with the positive; the limit is 50
    assert [p["label"].split()[0] for p in papers] == ["Kitchen"] * 13 + ["Space"] * 13
    assert {"id", "label", "title", "venue", "year", "rating", "tags", "read", "note", "why"} <= papers[0].keys()
    assert papers[0]["rating"] is None and papers[0]["read"] is False
    assert 1 <= len(papers[0]["why"]) <= 5 and all(isinstance(term, str) for term in papers[0]["why"])
    text = margin("list", "IS:Recommended", library=folder)
    assert text.returncode == 0
    lines = text.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [p["id"] for p in papers]
    assert lines[0] == f"{papers[0]['id']}         {papers[0]['label']}"
    # the rest of the query filters the recommendations, in their order
    assert [p["id"] for p in listed(margin("list", "is:recommended venue:BAK", "--json", library=folder))] == [
        p["id"] for p in papers[:13]]
    # a rating changes the next list at once (the cached tf-idf matrix is reused)
    assert margin("annotate", ids["Kitchen 1"][:6], "--rating", "1", library=folder).returncode == 0
    assert margin("annotate", ids["Space 4"][:6], "--rating", "4", library=folder).returncode == 0
    again = listed(margin("list", "is:recommended", "--json", library=folder))
    assert [p["label"].split()[0] for p in again[:12]] == ["Space"] * 12


def test_list_similar_id_prefix_puts_the_near_duplicate_first(topics_dir):
    folder, ids = topics_dir
    with Library.open(folder) as lib:
        source = lib.paper(ids["Space 6"])
        lib.import_records([PaperRecord(title="Space copy", abstract=source.abstract.replace("orbit", "orbits"))])
        copy = lib.papers()[-1].id
    papers = listed(margin("list", f"similar:{ids['Space 6'][:6]}", "--json", library=folder))
    assert papers[0]["id"] == copy
    assert ids["Space 6"] not in [p["id"] for p in papers]
    assert all(p["label"].startswith("Space ") for p in papers[:14])
    why = papers[0]["why"]
    assert len(why) == 5 and all(set(term.split()) & set(SPACE) for term in why[:3]), why  # astronomy first
    assert "why" in papers[-1]
    unknown = margin("list", "similar:ffff0000", library=folder)
    assert (unknown.returncode, unknown.stderr) == (
        1, "margin: no single paper has the id 'ffff0000' (see: margin list)\n")


def test_list_similar_tag_suggests_untagged_papers(topics_dir):
    folder, ids = topics_dir
    for name in ("Kitchen 2", "Kitchen 3"):
        assert margin("annotate", ids[name][:6], "--tag", "to bake", library=folder).returncode == 0
    papers = listed(margin("list", 'similar-tag:"To Bake"', "--json", library=folder))
    names = [p["label"] for p in papers]
    assert len(names) == 26 and all(name.startswith("Kitchen ") for name in names[:12]), names
    assert not {"Kitchen 2", "Kitchen 3"} & set(names)
    assert all(p["why"] and all(set(term.split()) & set(KITCHEN) for term in p["why"]) for p in papers[:12])  # baking
    missing = margin("list", 'similar-tag:"nothing here"', library=folder)
    assert missing.returncode == 1 and missing.stderr.startswith("margin: No paper carries the tag 'nothing here'")
    assert missing.stderr.count("\n") == 1


def test_export_takes_a_recommendation_query(topics_dir, tmp_path):
    folder, ids = topics_dir
    assert margin("annotate", ids["Space 0"][:6], "--rating", "5", library=folder).returncode == 0
    out = tmp_path / "recommended.json"
    result = margin("export", "--format", "json", "--query", "is:recommended", "--output", str(out), library=folder)
    assert result.returncode == 0, result.stderr
    exported = json.loads(out.read_text(encoding="utf-8"))
    papers = exported["papers"] if isinstance(exported, dict) else exported
    assert len(papers) == 27
