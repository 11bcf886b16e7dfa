"""The library's copy of its shared projects (issue 27, db.library.shared_projects): Rayyan's conflicts as
`is:conflict` finds them, resolutions taking papers off that list, the crowd model's labels, and leaving."""

from db.changes import DECISION
from db.library import Library
from db.recommend.labels import labels
from tests.helpers.records import papers

INFO = {"role": "bob", "owner": "alice", "blind": False, "crowd": False, "criteria": "RL", "reasons": ["no code"],
        "members": ["alice", "bob"]}


def _library(tmp_path, crowd=False):
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_records(papers(6))
    library.project_book.put_project("icml", "host=server user=bob", {**INFO, "crowd": crowd})
    library.project_book.set_papers("icml", library.ids())
    return library, library.ids()


def _rows(ids, alice, bob):
    return [(ids[i], "alice", a, "", "", "") for i, a in enumerate(alice) if a] + \
        [(ids[i], "bob", b, "", "", "") for i, b in enumerate(bob) if b]


def _mine(library, ids, bob):
    for paper_id, decision in zip(ids, bob, strict=True):
        library.set_decision(paper_id, decision)


def test_conflicts_follow_rayyans_rule_and_a_resolution_settles_one(tmp_path):
    library, ids = _library(tmp_path)
    with library:
        alice = ["include", "include", "exclude", "maybe", "exclude", None]
        bob = ["exclude", "include", "include", "exclude", "exclude", "include"]
        changes = library.project_book.set_decisions("icml", _rows(ids, alice, bob), [])
        assert changes.kinds == {DECISION} and changes.papers == set(ids)
        assert library.project_book.conflict_ids() == []  # bob's own decisions count as the library has them
        assert library.project_book.unsent() == 6  # the copy has bob's 6 decisions, the library none
        _mine(library, ids, bob)
        assert library.project_book.unsent() == 0
        assert library.project_book.conflict_ids() == [ids[0], ids[2]]  # maybe vs exclude is no conflict
        changes = library.project_book.set_decisions("icml", _rows(ids, alice, bob),
                                                     [(ids[0], "alice", "include", "fits")])
        assert changes.papers == {ids[0]}
        assert library.project_book.conflict_ids() == [ids[2]]
        assert library.project_book.set_decisions("icml", _rows(ids, alice, bob),
                                                  [(ids[0], "alice", "include", "fits")]).papers == set()
        assert library.project_book.by_paper("icml")[ids[3]] == {"alice": "maybe", "bob": "exclude"}
        library.set_decision(ids[2], "exclude")  # bob changes his mind here: no conflict before the next sync
        assert library.project_book.conflict_ids() == [] and library.project_book.unsent() == 1
        left = library.project_book.drop_project("icml")
        assert left.papers == set(ids) and library.project_book.conflict_ids() == []
        assert library.project_book.projects() == []


def test_the_crowd_model_labels_only_papers_this_member_has_not_judged_and_keeps_them_in_the_queue(tmp_path):
    for crowd in (False, True):
        library, ids = _library(tmp_path / str(crowd), crowd=crowd)
        with library:
            library.set_decision(ids[0], "exclude", None)  # bob's own judgement wins over the crowd's
            others = [("include", "alice"), ("include", "alice"), ("exclude", "alice"), ("maybe", "alice")]
            rows = [(ids[i], who, d, "", "", "") for i, (d, who) in enumerate(others)]
            rows += [(ids[0], "bob", "exclude", "", "", ""), (ids[4], "carol", "include", "", "", ""),
                     (ids[4], "alice", "exclude", "", "", "")]
            library.project_book.set_decisions("icml", rows, [])
            got = labels(library)
            if not crowd:
                assert got.liked == set() and got.disliked == {ids[0]} and got.crowd == set()
                continue
            assert got.liked == {ids[1]} and got.disliked == {ids[0], ids[2]} and got.maybe == {ids[4]}
            assert got.crowd == {ids[1], ids[2], ids[4]}  # maybe isn't a crowd label: only include/exclude
            assert got.judged == {ids[0]}


def test_resolve_is_for_the_owner_or_a_resolver_once_unblinded(tmp_path):
    library, _ids = _library(tmp_path)
    with library:
        book = library.project_book
        assert book.project("icml")["resolvers"] == [] and not book.may_resolve("icml")  # bob reviews
        book.put_project("icml", "host=server user=bob", {**INFO, "resolvers": ["bob"]})
        assert book.project("icml")["resolvers"] == ["bob"] and book.may_resolve("icml")
        book.put_project("icml", "host=server user=bob", {**INFO, "resolvers": ["bob"], "blind": True})
        assert not book.may_resolve("icml")  # blind: nobody resolves yet
        book.put_project("icml", "host=server user=alice", {**INFO, "role": "alice"})
        assert book.may_resolve("icml")  # the owner
        assert not book.may_resolve("other")


def test_a_schema_14_library_gains_the_resolvers_column_empty_until_the_next_sync(tmp_path):
    import sqlite3

    from db.library.schema import MIGRATIONS

    library, _ids = _library(tmp_path)
    library.close()
    path = tmp_path / "lib" / "library.db"
    (before,) = [version for version, steps in MIGRATIONS.items()  # the step that adds the column
                 if any("resolvers" in str(part) for step in steps
                        for part in (step.__code__.co_consts if callable(step) else (step,)))]
    with sqlite3.connect(path) as conn:
        conn.execute("ALTER TABLE projects DROP COLUMN resolvers")
        conn.execute(f"PRAGMA user_version = {before}")  # the version before the resolvers column
    conn.close()
    with Library.open(tmp_path / "lib", seed=False) as library:
        assert library.project_book.project("icml")["resolvers"] == []
        assert library.project_book.project("icml")["members"] == ["alice", "bob"]
