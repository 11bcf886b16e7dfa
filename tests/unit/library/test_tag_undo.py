"""Renaming, merging and deleting a tag can be taken back (the window's Ctrl+Z): `Library.tag_state` reads what
the tags own (which papers carry them, interest, dismissals) and `Library.restore_tags` puts exactly that back.
And a tag no paper carries takes the spelling typed now (the trial's `--untag` then `--tag "Deep Learning"`)."""

from __future__ import annotations

from db.changes import TAGS, TRIAGE
from tests.helpers.runner import margin


def every_papers_tags(library) -> dict[str, list[str]]:
    return {paper.id: paper.tags for paper in library.papers()}


def tagged(library):
    """alpha on a, b; beta on b, c; alpha an interest with a dismissal; beta an interest too."""
    a, b, c, d = library.ids()[:4]
    library.add_tags(a, ["alpha", "other"])
    library.add_tags(b, ["alpha", "beta"])
    library.add_tags(c, ["beta"])
    library.set_interest("alpha")
    library.set_interest("beta")
    library.set_dismissed(d, "alpha")
    return a, b, c, d


def test_a_merge_taken_back_gives_every_paper_its_tags_interests_and_dismissals_again(library):
    a, b, c, d = tagged(library)
    before = every_papers_tags(library)
    state = library.tag_state(["alpha", "beta"])
    library.rename_tag("alpha", "Beta")  # merged into beta
    assert library.paper(a).tags == ["beta", "other"] and library.dismissed("alpha") == []

    changes = library.restore_tags(state)

    assert every_papers_tags(library) == before
    assert library.interests() == ["alpha", "beta"]
    assert library.dismissed("alpha") == [d]
    assert library.tags() == [("alpha", 2), ("beta", 2), ("other", 1)]
    assert a in changes.papers and TAGS in changes.kinds_of(a) and TRIAGE in changes.kinds_of(d)
    assert c not in changes.papers  # beta's own papers kept it all along
    assert library.sync_book.unstamped_renames() == []  # the rename was never sent: it is not sent now


def test_a_rename_taken_back_brings_the_old_spelling_back_and_no_new_tag_is_left(library):
    a, b, _c, d = tagged(library)
    before = every_papers_tags(library)
    state = library.tag_state(["alpha", "Gamma"])
    library.rename_tag("alpha", "Gamma")
    assert library.interests() == ["beta", "Gamma"]

    library.restore_tags(state)

    assert every_papers_tags(library) == before
    assert [name for name, _count in library.tags()] == ["alpha", "beta", "other"]
    assert library.interests() == ["alpha", "beta"] and library.dismissed("alpha") == [d]
    assert library.sync_book.unstamped_renames() == []


def test_a_rename_sent_already_is_followed_by_its_reverse_when_taken_back(library):
    tagged(library)
    state = library.tag_state(["alpha", "Gamma"])
    library.rename_tag("alpha", "Gamma")
    [(rename_id, _old, _new, _at)] = library.sync_book.unstamped_renames()
    library.sync_book.add_to_outbox([], [(rename_id, "clock")])  # stamped: another device will replay it

    library.restore_tags(state)

    assert [(old, new) for _id, old, new, _at in library.sync_book.unstamped_renames()] == [("gamma", "alpha")]


def test_a_deleted_tag_comes_back_with_its_papers_interest_and_dismissals(library):
    _a, b, _c, d = tagged(library)
    before = every_papers_tags(library)
    state = library.tag_state(["alpha"])
    library.delete_tag("alpha")
    assert library.interests() == ["beta"]

    changes = library.restore_tags(state)

    assert every_papers_tags(library) == before
    assert library.interests() == ["alpha", "beta"] and library.dismissed("alpha") == [d]
    assert b in changes.papers
    assert library.restore_tags(state).papers == frozenset()  # as it was: nothing to do


def test_a_tag_no_paper_carries_takes_the_spelling_typed_now(library):
    a, b = library.ids()[:2]
    library.add_tags(a, ["deep learning"])
    library.remove_tags(a, ["deep learning"])
    library.add_tags(a, ["Deep Learning"])
    assert library.tags() == [("Deep Learning", 1)]
    library.add_tags(b, ["DEEP LEARNING"])  # a paper carries it: its spelling stays
    assert library.paper(b).tags == ["Deep Learning"]


def test_an_interest_no_paper_carries_keeps_its_state_under_the_new_spelling(library):
    a, b = library.ids()[:2]
    library.set_interest("machine learning")
    library.set_dismissed(b, "machine learning")
    library.add_tags(a, ["Machine Learning"])
    assert library.interests() == ["Machine Learning"] and library.dismissed("Machine Learning") == [b]


def test_the_command_line_stores_the_spelling_typed_after_an_untag(seeded_copy, library_dir):
    first = "9342e12f8e8d"
    margin("annotate", first, "--tag", "deep learning", library=library_dir)
    margin("annotate", first, "--untag", "deep learning", library=library_dir)
    assert margin("tags", library=library_dir).stdout.strip() == ""
    margin("annotate", first, "--tag", "Deep Learning", library=library_dir)
    assert margin("tags", library=library_dir).stdout.split() == ["1", "Deep", "Learning"]


def test_a_rename_onto_a_tag_no_paper_carries_takes_the_spelling_typed(library):
    a = library.ids()[0]
    library.set_interest("beta")  # a tag of no paper
    library.add_tags(a, ["alpha"])
    state = library.tag_state(["alpha", "Beta"])
    library.rename_tag("alpha", "Beta")
    assert library.tags() == [("Beta", 1)] and library.interests() == ["Beta"]
    library.restore_tags(state)
    assert library.tags() == [("alpha", 1)] and library.interests() == ["beta"]


def test_a_paper_deleted_since_is_passed_over_when_a_tag_comes_back(library):
    a, b, _c, d = tagged(library)
    state = library.tag_state(["alpha"])
    library.delete_tag("alpha")
    library.delete_papers([a, d])
    changes = library.restore_tags(state)
    assert library.tags()[0] == ("alpha", 1) and library.dismissed("alpha") == []
    assert changes.papers == {b}
