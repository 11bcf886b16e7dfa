"""Resolving in the window and PRISMA counts per member (issue 27) against a real PostgreSQL server, three members
as three database roles: alice owns the project, bob reviews, carol reviews and resolves.

- the window's resolve path (db.sync.project_sync.resolve_paper + take_resolutions: what the Resolve… dialog calls)
  keeps the resolution on the server and in the library's copy, leaves the reviewers' decisions as they were and
  takes the paper out of is:conflict, with a `decision` change of that paper alone; a later sync agrees;
- a plain reviewer is refused by the server and not offered Resolve…; a resolver cannot overwrite another's;
- while blind each member's counts (library and `margin project prisma`) are their own only;
- the dialog driven by keys in alice's window resolves a conflict on the server; with the server down it says so
  and keeps nothing.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from db.changes import DECISION
from db.library import Library
from db.sync import open_for_sync, sync_library
from db.sync.project_sync import resolve_paper, take_resolutions
from db.sync.projects import ProjectError, Projects
from db.triage.project_prisma import REASONS_DIFFER, library_prisma
from desktop.docks.resolve_dialog import resolvable
from tests.helpers.lab import add_members, join, share_papers
from tests.helpers.runner import margin

MEMBERS = ("alice", "bob", "carol")
# per member, per paper (6 papers): (decision, reason) or None
SCRIPT = {
    "alice": [("include", ""), ("include", ""), ("exclude", "off-topic"), ("maybe", ""), ("exclude", "no code"),
              ("include", "")],
    "bob": [("exclude", "off-topic"), ("include", ""), ("include", ""), ("exclude", ""), ("exclude", "no code"), None],
    "carol": [("include", ""), None, ("exclude", ""), None, ("exclude", "off-topic"), ("exclude", "no code")],
}
# unblinded: p0, p2, p5 conflict (include against exclude); p3 on the maybe list; p1 agreed include; p4 all exclude


def _sync(folder) -> None:
    with open_for_sync(folder) as library:
        sync_library(library)


@pytest.fixture
def lab(postgres, tmp_path):
    """The project "icml" (reasons off-topic, no code) with alice's 6 papers, every member's decisions synced, still
    blind. Returns (postgres, {member: library folder}, paper ids)."""
    add_members(postgres, *MEMBERS)
    folders = {member: tmp_path / member for member in MEMBERS}
    ids = share_papers(postgres, folders["alice"], 6, invite=("bob", ("carol", "resolver")), criteria="RL with code",
                       reasons=("off-topic", "no code"))
    for member in ("bob", "carol"):
        join(postgres, folders[member], member)
        _sync(folders[member])  # the papers arrive
    for member, decisions in SCRIPT.items():
        with Library.open(folders[member], seed=False) as library:
            for paper_id, decided in zip(ids, decisions, strict=True):
                if decided:
                    library.set_decision(paper_id, decided[0], decided[1] or None)
        _sync(folders[member])
    return postgres, folders, ids


def _counts(prisma) -> tuple:
    return (prisma.screened, prisma.included, prisma.excluded, prisma.excluded_by_reason, prisma.maybe,
            prisma.undecided)


def _unblind(postgres, folders) -> None:
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.unblind("icml")
    for member in MEMBERS:
        _sync(folders[member])


@pytest.mark.slow
def test_while_blind_each_member_counts_only_their_own(lab):
    postgres, folders, _ids = lab
    with Library.open(folders["bob"], seed=False) as library:
        project = library.project_book.project("icml")
        assert project["blind"] and not library.project_book.may_resolve("icml")
        counts = library_prisma(library, project)
    assert list(counts.members) == ["bob"] and counts.project is None
    assert _counts(counts.members["bob"]) == (5, 2, 3, {"off-topic": 1, "no code": 1, "": 1}, 0, 1)
    for member, own in (("bob", 5), ("carol", 4)):
        shown = margin("project", "prisma", "icml", "--json", "--server", postgres.conninfo_as(member),
                       library=folders[member])
        assert shown.code == 0, shown.stderr
        data = json.loads(shown.stdout)
        assert data["blind"] and data["project"] is None and list(data["members"]) == [member]
        assert data["members"][member]["screened"] == own
    text = margin("project", "prisma", "icml", "--server", postgres.conninfo_as("carol"), library=folders["carol"])
    assert "only your own counts" in text.stdout and "alice" not in text.stdout and "bob" not in text.stdout
    csv = folders["carol"].parent / "carol-prisma.csv"
    written = margin("project", "prisma", "icml", "--csv", str(csv), "--server", postgres.conninfo_as("carol"),
                     library=folders["carol"])
    assert written.code == 0, written.stderr
    rows = csv.read_text(encoding="utf-8-sig").splitlines()
    assert rows[0] == "member,stage,reason,count" and {row.split(",")[0] for row in rows[1:]} == {"carol"}
    assert "carol,records excluded,(no reason given),1" in rows and "carol,records screened,,4" in rows


@pytest.mark.slow
def test_the_owner_resolves_through_the_windows_path_and_a_reviewer_is_refused(lab):
    postgres, folders, ids = lab
    _unblind(postgres, folders)
    decisions_before = postgres.sql("SELECT project, paper, reviewer, decision, reason FROM margin_project_decisions"
                                    " ORDER BY 1, 2, 3")
    assert len(decisions_before) == 6 + 5 + 4
    with Library.open(folders["bob"], seed=False) as library:  # bob reviews: not offered, and refused
        assert not library.project_book.may_resolve("icml")
        conflicts = set(library.project_book.conflict_ids())
        assert conflicts == {ids[0], ids[2], ids[5]}
        assert resolvable(library, conflicts, ids[0]) is None
        with Projects(postgres.conninfo_as("bob")) as projects, pytest.raises(ProjectError, match="resolve"):
            resolve_paper(projects, "icml", ids[0], "include")
    assert postgres.sql("SELECT count(*) FROM margin_project_resolutions") == [(0,)]

    with Library.open(folders["alice"], seed=False) as library:
        book = library.project_book
        conflicts = set(book.conflict_ids())
        assert resolvable(library, conflicts, ids[0])["name"] == "icml"
        assert resolvable(library, conflicts, ids[1]) is None  # agreed: nothing to resolve
        before = library_prisma(library, book.project("icml"))
        with Projects(postgres.conninfo_as("alice")) as projects:
            resolutions = resolve_paper(projects, "icml", ids[0], "exclude", "off-topic")
        changes = take_resolutions(library, "icml", resolutions)
        assert changes.papers == {ids[0]} and DECISION in changes.kinds_of(ids[0])
        assert set(book.conflict_ids()) == {ids[2], ids[5]}
        assert book.resolutions("icml") == {ids[0]: ("alice", "exclude", "off-topic")}
        after = library_prisma(library, book.project("icml"))
        # the reviewers' counts are their decisions, unchanged by the resolution
        assert {m: _counts(c) for m, c in after.members.items()} == {m: _counts(c) for m, c in before.members.items()}
        assert _counts(after.members["alice"]) == (6, 3, 2, {"off-topic": 1, "no code": 1}, 1, 0)
        # the project: p0 excluded (resolved, off-topic), p1 included, p3 maybe, p4 excluded (reasons differ);
        # p2 and p5 await a resolution
        assert _counts(after.project) == (4, 1, 2, {"off-topic": 1, REASONS_DIFFER: 1}, 1, 2)
        assert after.conflicts == 2 and before.conflicts == 3
        assert resolvable(library, set(book.conflict_ids()), ids[0]) is not None  # hers: she may change it
    assert postgres.sql("SELECT project, paper, reviewer, decision, reason FROM margin_project_decisions"
                        " ORDER BY 1, 2, 3") == decisions_before
    assert postgres.sql("SELECT paper, resolver, decision, reason FROM margin_project_resolutions") == \
        [(ids[0], "alice", "exclude", "off-topic")]

    with Library.open(folders["carol"], seed=False) as library:  # a resolver: not over alice's resolution
        _sync(folders["carol"])
        book = library.project_book
        assert book.may_resolve("icml") and set(book.conflict_ids()) == {ids[2], ids[5]}
        assert resolvable(library, set(book.conflict_ids()), ids[0]) is None
        assert resolvable(library, set(book.conflict_ids()), ids[5]) is not None
        with Projects(postgres.conninfo_as("carol")) as projects:
            with pytest.raises(ProjectError):
                resolve_paper(projects, "icml", ids[0], "include")
            take_resolutions(library, "icml", resolve_paper(projects, "icml", ids[5], "maybe"))
        assert set(book.conflict_ids()) == {ids[2]}
    for member in MEMBERS:  # a sync agrees with what the resolve path kept
        _sync(folders[member])
        with Library.open(folders[member], seed=False) as library:
            assert set(library.project_book.conflict_ids()) == {ids[2]}
    shown = margin("project", "prisma", "icml", "--json", "--server", postgres.conninfo_as("bob"),
                   library=folders["bob"])
    data = json.loads(shown.stdout)
    assert list(data["members"]) == ["alice", "bob", "carol"] and data["project"]["conflicts"] == 1
    assert data["project"]["maybe"] == 2 and data["project"]["excluded_by_reason"] == {"off-topic": 1,
                                                                                         REASONS_DIFFER: 1}


@pytest.mark.slow
def test_the_dialog_resolves_by_keys_in_the_owners_window_and_says_when_the_server_is_down(
        lab, make_window, qtbot, library_dir, monkeypatch):
    import shutil

    postgres, folders, ids = lab
    _unblind(postgres, folders)
    monkeypatch.setattr("desktop.window.sync.FIRST_SYNC_MS", 3_600_000)  # only the dialog talks to the server
    shutil.rmtree(library_dir, ignore_errors=True)
    shutil.copytree(folders["alice"], library_dir)
    window = make_window()
    dock = window.criteria_dock
    dock.show()
    panel = dock.project_panel
    qtbot.waitUntil(panel.isVisible)
    window.set_query("is:conflict")
    qtbot.waitUntil(lambda: set(window.model.ids()) == {ids[0], ids[2], ids[5]})
    qtbot.waitUntil(lambda: panel.show_conflicts.text() == "Show conflicts (3)")  # counted on the background pool
    window.select_row(window.model.ids().index(ids[2]))
    qtbot.waitUntil(panel.resolve_button.isVisible)
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_V)
    qtbot.waitUntil(lambda: panel.dialog is not None and panel.dialog.isVisible())
    dialog = panel.dialog
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)  # the mnemonics (Alt+letter) work in the active window
    assert "alice: exclude (off-topic)" in dialog.findChild(type(dialog.status), "resolveDecisions").text()
    assert dialog.focusWidget().objectName() == "resolve_include"  # the keys: → and space choose Exclude,
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Right)
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Space)
    assert dialog.decision() == "exclude" and dialog.reason.isEnabled()
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)  # Tab the project's reasons, ↓ the next, Return resolves
    assert dialog.reason.hasFocus()
    qtbot.keyClick(dialog.reason, Qt.Key.Key_Down)  # off-topic → no code
    assert dialog.reason_text() == "no code"
    with qtbot.waitSignal(dialog.resolved, timeout=20000):
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)
    assert not dialog.isVisible()
    assert postgres.sql("SELECT paper, resolver, decision, reason FROM margin_project_resolutions") == \
        [(ids[2], "alice", "exclude", "no code")]
    qtbot.waitUntil(lambda: panel.show_conflicts.text() == "Show conflicts (2)")  # from the change alone

    def sidebar_conflicts() -> str:
        top = window.sidebar.topLevelItem(0)
        return next(top.child(i).text(1) for i in range(top.childCount()) if top.child(i).text(0) == "Conflicts")

    qtbot.waitUntil(lambda: sidebar_conflicts() == "2")
    assert ids[2] in window.model.ids()  # the window's own edits never move the rows shown (as the I key here)
    window.set_query("")
    window.set_query("is:conflict")  # searched again, it has left is:conflict
    qtbot.waitUntil(lambda: set(window.model.ids()) == {ids[0], ids[5]})
    project = panel.counts.column("Project")  # p2 (resolved: no code) and p4 (reasons differ) excluded
    assert (project["Excluded"], project["Excluded / no code"], project["Awaiting"]) == ("2", "1", "2")  # p0, p5
    assert window.library.paper(ids[2]).decision == "exclude"  # alice's own decision stays as it was
    assert window.library.paper(ids[2]).reason == "off-topic"

    postgres.stop()  # the server goes away: the dialog says so and keeps nothing
    window.select_row(window.model.ids().index(ids[5]))
    qtbot.waitUntil(lambda: window.current_paper_id() == ids[5])
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_V)
    qtbot.waitUntil(lambda: panel.dialog is not dialog and panel.dialog.isVisible())
    dialog = panel.dialog
    with qtbot.waitSignal(dialog.failed, timeout=20000):
        qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert "unreachable" in dialog.status.text() and "Nothing was resolved" in dialog.status.text()
    assert dialog.isVisible() and dialog.ok.isEnabled()
    assert set(window.library.project_book.resolutions("icml")) == {ids[2]}
    assert panel.show_conflicts.text() == "Show conflicts (2)"
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())


def test_a_members_sync_counts_the_resolutions_and_decisions_it_received(lab):
    """New-user trial (2026-12-03): bob's `margin sync` after alice resolved a paper said "0 received", although
    the resolution arrived and bob's is:conflict changed."""
    postgres, folders, ids = lab
    _unblind(postgres, folders)
    assert "0 received, " in margin("sync", library=folders["bob"]).stdout  # nothing new since the unblinding
    with Projects(postgres.conninfo_as("alice")) as projects:
        resolve_paper(projects, "icml", ids[0], "exclude", "off-topic")
    synced = margin("sync", library=folders["bob"])
    assert synced.code == 0 and "1 received (1 resolution), " in synced.stdout, synced.stdout
    with Library.open(folders["carol"], seed=False) as library:
        library.set_decision(ids[1], "maybe")
    _sync(folders["carol"])
    synced = margin("sync", library=folders["bob"])
    assert "1 received (1 by other members), " in synced.stdout, synced.stdout


def test_agreement_with_the_server_down_answers_from_the_librarys_copy(lab, tmp_path):
    """New-user trial (2026-12-03): `margin project agreement` with the server stopped failed ("server
    unreachable") though the library held the last sync's decisions and the window showed them."""
    postgres, folders, ids = lab
    _unblind(postgres, folders)
    with Projects(postgres.conninfo_as("alice")) as projects:
        resolve_paper(projects, "icml", ids[0], "exclude", "off-topic")
    _sync(folders["bob"])
    online = margin("project", "agreement", "icml", library=folders["bob"])
    online_json = json.loads(margin("project", "agreement", "icml", "--json", library=folders["bob"]).stdout)
    assert online.code == 0 and "alice & bob" in online.stdout and online.stderr == ""
    postgres.stop()
    offline = margin("project", "agreement", "icml", library=folders["bob"])
    assert offline.code == 0, offline.stderr
    assert offline.stdout == online.stdout  # the same figures, from the copy
    assert "server unreachable (" in offline.stderr and "as of the last sync (20" in offline.stderr
    offline_json = json.loads(margin("project", "agreement", "icml", "--json", library=folders["bob"]).stdout)
    assert offline_json.pop("as_of_last_sync").startswith("20") and offline_json == online_json
    elsewhere = margin("project", "agreement", "icml", "--server", postgres.conninfo_as("bob"),
                       library=tmp_path / "none")
    assert elsewhere.code == 1 and "server unreachable (" in elsewhere.stderr  # no library, no copy
