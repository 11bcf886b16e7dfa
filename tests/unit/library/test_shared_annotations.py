"""The library's copy of the tags and notes shared in its projects (issue 27, db.library.shared_annotations): a
`shared` change only for the papers whose copied rows changed and none for a copy as it was, the current paper's
rows of the other members only (never this member's own, never empty ones), the member's own tags and notes
untouched, and the copy forgotten on leaving."""

from db.changes import NOTHING, SHARED
from db.library import Library
from tests.helpers.records import papers

INFO = {"role": "bob", "owner": "alice", "blind": False, "crowd": False, "criteria": "", "reasons": [],
        "members": ["alice", "bob", "carol"]}


def test_the_copy_changes_say_shared_shows_only_others_and_is_forgotten_on_leaving(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records(papers(4))
        ids = library.ids()
        book = library.project_book
        book.put_project("icml", "host=server user=bob", INFO)
        book.set_papers("icml", ids)
        library.add_tags(ids[0], ["mine"])
        rows = [(ids[0], "alice", ["rl", "code"], "a **note**", "t1", "n1"),
                (ids[0], "bob", ["mine"], "own", "t", "n"),
                (ids[1], "carol", [], "", "", ""),  # nothing readable: left out
                (ids[2], "carol", None, "carol\u202e's\x07", "", "n2")]
        changes = book.set_annotations("icml", rows)
        assert changes.kinds == {SHARED} and changes.papers == {ids[0], ids[1], ids[2]}
        assert book.set_annotations("icml", rows) is NOTHING  # as it was: nothing written
        assert [(r["reviewer"], r["tags"], r["note"]) for r in book.shared_on(ids[0])] == \
            [("alice", ["rl", "code"], "a **note**")]
        assert book.shared_on(ids[1]) == []
        # kept as it reads: no bidirectional override, no control character
        assert [(r["reviewer"], r["tags"], r["note"]) for r in book.shared_on(ids[2])] == [("carol", [], "carol's")]
        assert (ids[0], "bob", ["mine"], "own", "t", "n") in book.annotations("icml")  # the next sync's base
        changed = book.set_annotations("icml", [rows[0], rows[1], (ids[2], "carol", None, "changed", "", "n3")])
        assert changed.papers == {ids[1], ids[2]}
        assert library.paper(ids[0]).tags == ["mine"] and not library.paper(ids[0]).note  # own: the library's
        book.drop_project("icml")
        assert book.annotations("icml") == [] and book.shared_on(ids[0]) == []
