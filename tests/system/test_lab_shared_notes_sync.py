"""Screening as a lab (issue 27), shared tags and notes end to end: a real PostgreSQL server, each member a database
role with a library of their own, syncing with `sync_library` (what `margin sync` and the window's sync run).
Member A tags and writes notes on two papers and syncs; member B's library receives them only once the project is
unblinded and its owner shares them; B's own tags and notes never change; only what changed is sent again; turning
a kind off takes it out of B's library at the next sync."""

from __future__ import annotations

import pytest

from db.changes import SHARED
from db.library import Library
from db.sync import open_for_sync, sync_library
from db.sync.projects import Projects
from tests.helpers.records import papers


def _sync(folder):
    library = open_for_sync(folder)
    try:
        return sync_library(library).projects[0]
    finally:
        library.close()


@pytest.fixture
def lab(postgres, tmp_path):
    """alice's library of 20 papers shared as the blind project "icml" (sharing nothing yet); bob joined with an
    empty library; both synced once. Returns (postgres, {member: folder}, [paper ids])."""
    with Projects(postgres.conninfo):
        pass
    for member in ("alice", "bob"):
        postgres.sql(f"CREATE ROLE {member} LOGIN")
    folders = {member: tmp_path / member for member in ("alice", "bob")}
    with Library.open(folders["alice"], seed=False) as library:
        library.import_records(papers(20))
        ids = library.ids()
        states = library.sync_book.paper_states(ids)
        with Projects(postgres.conninfo_as("alice")) as alice:
            alice.create("icml")
            alice.add_papers("icml", [(i, states[i]["paper"]["title"], states[i]["paper"]) for i in ids])
            alice.invite("icml", "bob")
        library.project_book.put_project("icml", postgres.conninfo_as("alice"))
    with Projects(postgres.conninfo_as("bob")) as bob:
        bob.join("icml")
    with Library.open(folders["bob"], seed=False) as library:
        library.project_book.put_project("icml", postgres.conninfo_as("bob"))
    for folder in folders.values():
        _sync(folder)
    return postgres, folders, ids


def _shared_in(folder, paper_id):
    with Library.open(folder, seed=False) as library:
        return [(row["reviewer"], row["tags"], row["note"]) for row in library.project_book.shared_on(paper_id)]


def _own(folder, paper_id):
    with Library.open(folder, seed=False) as library:
        paper = library.paper(paper_id)
        return paper.tags, paper.note


def test_bob_reads_alices_tags_and_notes_only_once_unblinded_and_shared_and_his_own_stay(lab):
    postgres, folders, ids = lab
    first, second = ids[0], ids[1]
    with Library.open(folders["alice"], seed=False) as library:
        library.add_tags(first, ["rl", "code"])
        library.set_note(first, "Strong **baseline**; see <b>Table 2</b>")
        library.add_tags(second, ["survey"])
        library.set_note(second, "Probably off-topic")
    with Library.open(folders["bob"], seed=False) as library:
        library.add_tags(first, ["bobs"])
        library.set_note(first, "bob's own note")
    # nothing is shared while the owner has not turned sharing on: alice's sync sends nothing
    assert _sync(folders["alice"]).notes_sent == 0
    assert postgres.sql("SELECT count(*) FROM margin_project_annotations") == [(0,)]
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.edit("icml", share_tags=True, share_notes=True)
    assert _sync(folders["alice"]).notes_sent == 2
    assert _sync(folders["bob"]).notes_sent == 1
    # blind: bob's library receives nothing of alice's
    assert _shared_in(folders["bob"], first) == [] and _shared_in(folders["bob"], second) == []
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.unblind("icml")
    report = _sync(folders["bob"])
    assert report.notes_readable == 2 and SHARED in report.changes.kinds
    assert set(report.changes.papers) >= {first, second}
    assert _shared_in(folders["bob"], first) == [("alice", ["code", "rl"], "Strong **baseline**; see <b>Table 2</b>")]
    assert _shared_in(folders["bob"], second) == [("alice", ["survey"], "Probably off-topic")]
    assert _own(folders["bob"], first) == (["bobs"], "bob's own note")  # his own tags and note unchanged
    assert _own(folders["bob"], second)[0] == []
    # only what changed is sent again; alice reads bob's
    assert _sync(folders["alice"]).notes_sent == 0
    assert _shared_in(folders["alice"], first) == [("bob", ["bobs"], "bob's own note")]
    with Library.open(folders["alice"], seed=False) as library:
        library.set_note(second, "On topic after all")
    assert _sync(folders["alice"]).notes_sent == 1
    _sync(folders["bob"])
    assert _shared_in(folders["bob"], second) == [("alice", ["survey"], "On topic after all")]
    # cleared tags and note are sent too (the paper is no longer annotated): gone from bob's library
    with Library.open(folders["alice"], seed=False) as library:
        library.remove_tags(second, ["survey"])
        library.set_note(second, "")
    assert _sync(folders["alice"]).notes_sent == 1
    _sync(folders["bob"])
    assert _shared_in(folders["bob"], second) == []
    # the owner stops sharing notes: at bob's next sync alice's notes leave his library, her tags stay
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.edit("icml", share_notes=False)
    with Library.open(folders["alice"], seed=False) as library:
        library.set_note(first, "a note made after sharing stopped")
    _sync(folders["alice"])  # sends no note (the server would refuse it)
    _sync(folders["bob"])
    assert _shared_in(folders["bob"], first) == [("alice", ["code", "rl"], "")]
    assert _own(folders["bob"], first) == (["bobs"], "bob's own note")
    assert postgres.sql("SELECT note FROM margin_project_annotations WHERE reviewer = 'alice' AND paper = %s",
                        (first,)) == [("Strong **baseline**; see <b>Table 2</b>",)]
