"""Screening as a lab (issue 27), the members' libraries: a real PostgreSQL server, each member a database role
with a library of their own. The owner shares 200 papers; a member's library receives them with the criteria and
reasons; decisions made in the library (db.library.decisions) reach the project at the next sync; a member
offline for 100 decisions loses none of them and the conflicts follow; `is:conflict` lists what Rayyan's rule
calls a conflict, equal to the expected set, and a resolution keeps every original decision."""

from __future__ import annotations

import pytest

from db.library import Library
from db.sync import SyncUnreachable, open_for_sync, sync_library
from db.sync.projects import Projects
from tests.helpers.lab import add_members, join, share_papers
from tests.helpers.records import papers

MEMBERS = ("alice", "bob", "carol")



def _sync(folder):
    library = open_for_sync(folder)
    try:
        return sync_library(library)
    finally:
        library.close()


@pytest.fixture
def lab(postgres, tmp_path):
    """alice's library of 200 papers shared as the blind project "icml"; bob and carol invited and joined with
    empty libraries, each synced once. Returns (postgres, {member: folder}, [paper ids in order])."""
    add_members(postgres, *MEMBERS)
    folders = {member: tmp_path / member for member in MEMBERS}
    ids = share_papers(postgres, folders["alice"], 200, invite=("bob", "carol"), criteria="RL papers with code",
                       reasons=("off-topic", "no code"))
    for member in ("bob", "carol"):
        join(postgres, folders[member], member)
    for folder in folders.values():
        _sync(folder)
    return postgres, folders, ids


def _decide(folder, decisions: dict[str, tuple[str, str | None]]) -> None:
    with Library.open(folder, seed=False) as library:
        for paper_id, (decision, reason) in decisions.items():
            library.set_decision(paper_id, decision, reason)


def _server_decisions(postgres, reviewer: str) -> dict[str, tuple[str, str]]:
    return {paper: (decision, reason) for paper, decision, reason in postgres.sql(
        "SELECT paper, decision, reason FROM margin_project_decisions WHERE reviewer = %s", (reviewer,))}


def _scripted(i: int) -> tuple[str, str]:
    """alice's and bob's decisions on paper i (as in test_lab_projects): include vs exclude at 3 and 6."""
    pattern = {0: ("include", "include"), 1: ("exclude", "exclude"), 2: ("exclude", "exclude"),
               3: ("include", "exclude"), 4: ("exclude", "maybe"), 5: ("maybe", "maybe"), 6: ("exclude", "include"),
               7: ("include", "maybe"), 8: ("exclude", "exclude"), 9: ("include", "include")}
    return pattern[i % 10]


def test_a_member_receives_the_projects_papers_criteria_and_reasons(lab):
    postgres, folders, ids = lab
    with Library.open(folders["bob"], seed=False) as library:
        assert set(library.ids()) == set(ids) and library.count() == 200
        assert library.criteria() == "RL papers with code"
        assert library.exclusion_reasons() == ["off-topic", "no code"]
        assert library.project_book.project("icml")["role"] == "bob"
        assert library.project_book.project("icml")["blind"] is True
        with Library.open(folders["alice"], seed=False) as alices:
            assert [library.paper(i).title for i in ids[:5]] == [alices.paper(i).title for i in ids[:5]]


def test_decisions_made_in_the_library_reach_the_project_and_a_member_offline_for_100_loses_none(lab):
    postgres, folders, ids = lab
    _decide(folders["alice"], {paper: (_scripted(i)[0], "no code" if _scripted(i)[0] == "exclude" else None)
                               for i, paper in enumerate(ids)})
    _sync(folders["alice"])
    assert len(_server_decisions(postgres, "alice")) == 200
    # bob decides the first 100 online, then the server goes away and he decides the other 100 offline
    first = {paper: (_scripted(i)[1], None) for i, paper in enumerate(ids[:100])}
    _decide(folders["bob"], first)
    _sync(folders["bob"])
    postgres.stop()
    offline = {paper: (_scripted(i)[1], "off-topic" if _scripted(i)[1] == "exclude" else None)
               for i, paper in enumerate(ids) if i >= 100}
    _decide(folders["bob"], offline)
    with pytest.raises(SyncUnreachable):
        _sync(folders["bob"])
    postgres.start()
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.unblind("icml")
    reports = _sync(folders["bob"]).projects
    assert reports[0].sent == 100 and reports[0].received == 0
    got = _server_decisions(postgres, "bob")
    assert len(got) == 200
    assert all(got[paper][0] == _scripted(i)[1] for i, paper in enumerate(ids))
    assert all(got[paper][1] == ("off-topic" if _scripted(i)[1] == "exclude" else "")
               for i, paper in enumerate(ids) if i >= 100)
    # the conflicts follow: bob's library now reads alice's decisions too, and is:conflict lists the conflicts
    expected = [paper for i, paper in enumerate(ids) if i % 10 in (3, 6)]
    for member in ("alice", "bob"):
        _sync(folders[member])
        with Library.open(folders[member], seed=False) as library:
            in_order = [paper for paper in library.ids() if paper in set(expected)]  # in this library's order
            assert library.project_book.conflict_ids() == in_order and len(in_order) == 40, member
            from db.query import run_query
            from db.search import SearchIndex

            index = SearchIndex.for_library(library)
            index.open(library)
            assert run_query(library, "is:conflict", index).ids == in_order
            assert run_query(library, 'is:conflict title:"Paper 3"', index).ids == [ids[3]]


def test_is_conflict_lists_rayyans_conflicts_and_a_resolution_keeps_both_decisions(lab):
    postgres, folders, ids = lab
    for k, member in enumerate(("alice", "bob")):
        _decide(folders[member], {paper: (_scripted(i)[k], None) for i, paper in enumerate(ids)})
        _sync(folders[member])
    with Library.open(folders["bob"], seed=False) as library:  # blind: no one else's decisions, no conflicts
        assert library.project_book.conflict_ids() == []
        assert {r for _p, r, *_ in library.project_book.decisions("icml")} == {"bob"}
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.unblind("icml")
        alice.resolve("icml", ids[3], "include", "code released after all")
    _sync(folders["bob"])
    with Library.open(folders["bob"], seed=False) as library:
        conflicts = library.project_book.conflict_ids()
        assert sorted(conflicts) == sorted(paper for i, paper in enumerate(ids) if i % 10 in (3, 6) and i != 3)
        from db.triage.agreement import agreement_report

        report = agreement_report(library.project_book.by_paper("icml"))
        assert report["conflicts"] == sorted(paper for i, paper in enumerate(ids) if i % 10 in (3, 6))
        assert report["maybe"] == sorted(paper for i, paper in enumerate(ids) if i % 10 in (4, 5, 7))
        p_o, p_e = 6 / 10, (4 * 3 + 5 * 4 + 1 * 3) / 100
        assert abs(report["pairs"][0]["cohen_kappa"] - (p_o - p_e) / (1 - p_e)) < 1e-9
        sklearn = pytest.importorskip("sklearn.metrics")
        by = library.project_book.by_paper("icml")
        kappa = sklearn.cohen_kappa_score([by[p]["alice"] for p in ids], [by[p]["bob"] for p in ids])
        assert abs(report["pairs"][0]["cohen_kappa"] - kappa) < 1e-9
        assert library.project_book.resolutions("icml")[ids[3]] == ("alice", "include", "code released after all")
        # the reviewers' own decisions stay as they were
        assert library.decision(ids[3])[0] == "exclude"
    assert postgres.sql("SELECT reviewer, decision FROM margin_project_decisions WHERE paper = %s ORDER BY 1",
                        (ids[3],)) == [("alice", "include"), ("bob", "exclude")]


def test_a_members_second_machine_the_later_decision_wins_and_a_cleared_one_is_withdrawn(lab, tmp_path):
    postgres, folders, ids = lab
    laptop = tmp_path / "bob-laptop"
    with Library.open(laptop, seed=False) as library:
        library.project_book.put_project("icml", postgres.conninfo_as("bob"))
    _sync(laptop)
    _decide(folders["bob"], {ids[0]: ("include", None), ids[1]: ("exclude", "no code")})
    _sync(folders["bob"])
    _sync(laptop)
    with Library.open(laptop, seed=False) as library:
        assert library.decision(ids[0])[:2] == ("include", None)
        assert library.decision(ids[1])[:2] == ("exclude", "no code")
        library.set_decision(ids[0], None)  # cleared on the laptop
    _sync(laptop)
    assert ids[0] not in _server_decisions(postgres, "bob")
    _sync(folders["bob"])
    with Library.open(folders["bob"], seed=False) as library:
        assert library.decision(ids[0]) is None and library.decision(ids[1])[0] == "exclude"


def test_margin_project_join_and_margin_sync_from_the_command_line(postgres, tmp_path):
    from tests.helpers.runner import margin

    with Projects(postgres.conninfo):
        pass
    for member in ("alice", "bob"):
        postgres.sql(f"CREATE ROLE {member} LOGIN")
    owner, member = tmp_path / "alice", tmp_path / "bob"
    with Library.open(owner, seed=False) as library:
        library.import_records(papers(12, venue="ICML 2024") + papers(3, start=50, venue="NeurIPS"))
    with Library.open(member, seed=False):
        pass

    def run(role, folder, *args):
        return margin("project", *args, "--server", postgres.conninfo_as(role), library=folder)

    assert run("alice", owner, "create", "", "--criteria", "x").returncode == 1  # an empty name is refused
    made = run("alice", owner, "create", "icml", "--criteria", "RL with code", "--reason", "no code")
    assert made.returncode == 0, made.stderr
    again = run("alice", owner, "create", "icml")
    assert again.returncode == 1 and "already" in again.stderr and len(again.stderr.strip().splitlines()) == 1
    added = run("alice", owner, "add", "icml", "--query", 'venue:"ICML 2024"')
    assert added.returncode == 0 and "shared 12 papers" in added.stdout, added.stderr
    assert run("alice", owner, "invite", "icml", "bob").returncode == 0
    refused = run("bob", member, "unblind", "icml")
    assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1
    joined = run("bob", member, "join", "icml")
    assert joined.returncode == 0 and "12 papers received" in joined.stdout, joined.stderr
    with Library.open(member, seed=False) as library:
        ids = library.ids()
        first_title = library.paper(ids[0]).title
        library.set_decision(ids[0], "exclude", "no code")
    status = margin("sync", "--status", library=member)
    assert status.returncode == 0 and "1 screening decision waiting" in status.stdout, status.stdout
    synced = margin("sync", library=member)
    assert synced.returncode == 0 and "1 decision sent" in synced.stdout, synced.stderr
    assert "0 screening decisions waiting" in margin("sync", "--status", library=member).stdout
    leave = run("alice", owner, "leave", "icml")
    assert leave.returncode == 1 and "an owner cannot leave" in leave.stderr
    assert run("alice", owner, "unblind", "icml").returncode == 0
    for who, args, words in (("alice", ("resolve", "icml", "nopaper", "include"), "not one of the project's"),
                             ("alice", ("resolve", "icml", ids[0], "includ"), "not a decision"),
                             ("bob", ("resolve", "icml", ids[0], "include"), "only the owner of 'icml' or a resolver"),
                             ("bob", ("invite", "icml", "bob"), "only the owner of 'icml' can invite")):
        said = run(who, owner if who == "alice" else member, *args)  # one line of words, never SQL
        assert said.returncode == 1 and len(said.stderr.strip().splitlines()) == 1, said.stderr
        assert words is None or words in said.stderr
        assert "violates" not in said.stderr and "policy" not in said.stderr, said.stderr
    assert run("alice", owner, "resolve", "icml", ids[0], "include").returncode == 0
    assert run("alice", owner, "set", "icml", "--crowd", "on").returncode == 0
    with Library.open(owner, seed=False) as library:  # the owner edits the criteria and reasons in her library
        library.set_criteria("RL with code, 2024 only")
        library.add_exclusion_reason("not 2024")
    assert margin("sync", library=owner).returncode == 0
    assert margin("sync", library=member).returncode == 0
    with Library.open(member, seed=False) as library:
        assert library.project_book.project("icml")["crowd"] is True
        assert library.criteria() == "RL with code, 2024 only"
        assert library.exclusion_reasons() == ["no code", "not 2024"]
        assert library.project_book.resolutions("icml")[ids[0]][1] == "include"
    out = tmp_path / "decisions.csv"
    csv = run("alice", owner, "decisions", "icml", "--csv", str(out))
    assert csv.returncode == 0, csv.stderr
    lines = out.read_text(encoding="utf-8-sig").splitlines()
    assert lines[0] == "paper_id,title,reviewer,decision,reason,time,kind"
    assert lines[1].startswith(f"{ids[0]},{first_title},bob,exclude,no code,20")
    assert lines[-1].startswith(f"{ids[0]},{first_title},alice,include,") and lines[-1].endswith(",resolution")
    assert run("alice", owner, "remove", "icml", "bob").returncode == 0  # removed: bob's sync says so in one line
    refused = margin("sync", library=member)
    assert refused.returncode == 1 and "margin project leave icml forgets it here" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    left = run("bob", member, "leave", "icml")
    assert left.returncode == 0 and "no longer a member" in left.stdout, left.stderr
    with Library.open(member, seed=False) as library:
        assert library.project_book.projects() == [] and library.decision(ids[0])[0] == "exclude"
