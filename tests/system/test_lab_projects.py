"""Screening as a lab (issue 27), server side: a real PostgreSQL server, three members as three database roles.

Blind is the server's doing: member B's own psycopg connection tries every way to read or change member A's
decisions and each refusal is checked; after unblinding B reads them and still cannot change them; a removed
member reads nothing of the project. Two members screen the same 200 papers with a scripted disagreement
pattern: the conflicts are the expected set, and Cohen's kappa equals a hand computation and scikit-learn's."""

from __future__ import annotations

import psycopg
import pytest

from db.sync.projects import ProjectError, Projects
from db.triage.agreement import agreement_report

MEMBERS = ("alice", "bob", "carol")
PAPERS = [(f"p{i:03d}", f"Paper {i}") for i in range(200)]



@pytest.fixture
def lab(postgres):
    """The server prepared by its administrator, a role per member, and a blind project of alice's with the 200
    papers, bob and carol invited and joined."""
    with Projects(postgres.conninfo):
        pass
    for member in MEMBERS:
        postgres.sql(f"CREATE ROLE {member} LOGIN")
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.create("icml", criteria="RL papers with code", reasons=("off-topic", "no code"))
        alice.add_papers("icml", PAPERS)
        alice.invite("icml", "bob")
        alice.invite("icml", "carol")
        alice.decide("icml", [("p000", "include", "on topic"), ("p001", "exclude", "off-topic")])
    for member in ("bob", "carol"):
        with Projects(postgres.conninfo_as(member)) as projects:
            projects.join("icml")
    return postgres


def _connect(postgres, role):
    return psycopg.connect(postgres.conninfo_as(role), autocommit=True)


def _alice_rows(postgres):
    return postgres.sql("SELECT paper, decision, reason FROM margin_project_decisions WHERE reviewer = 'alice'"
                        " ORDER BY paper")


ALICE = [("p000", "include", "on topic"), ("p001", "exclude", "off-topic")]

# every statement bob tries against alice's rows, and how the server refuses it: an error (its SQLSTATE class
# name) or silently touching no row ("0 rows")
WRITES = [
    ("INSERT INTO margin_project_decisions (project, paper, reviewer, decision) VALUES (1, 'p002', 'alice', 'include')",
     "InsufficientPrivilege"),  # new row violates row-level security policy
    ("INSERT INTO margin_project_decisions (project, paper, reviewer, decision) VALUES (1, 'p000', 'alice', 'exclude')"
     " ON CONFLICT (project, paper, reviewer) DO UPDATE SET decision = 'exclude'", "InsufficientPrivilege"),
    # members have no privilege on the decisions table but through margin_project_decide/withdraw (schema 4)
    ("UPDATE margin_project_decisions SET decision = 'exclude' WHERE reviewer = 'alice'", "InsufficientPrivilege"),
    ("UPDATE margin_project_decisions SET decision = 'exclude'", "InsufficientPrivilege"),
    ("DELETE FROM margin_project_decisions WHERE reviewer = 'alice'", "InsufficientPrivilege"),
    ("DELETE FROM margin_project_decisions", "InsufficientPrivilege"),
    ("SELECT margin_project_decide(1, 'alice', ARRAY['p002'], ARRAY['exclude'], ARRAY[''], ARRAY[''])",
     "InsufficientPrivilege"),
    ("SELECT margin_project_withdraw(1, 'alice', ARRAY['p000', 'p001'])", "InsufficientPrivilege"),
    ("TRUNCATE margin_project_decisions", "InsufficientPrivilege"),
    ("ALTER TABLE margin_project_decisions DISABLE ROW LEVEL SECURITY", "InsufficientPrivilege"),
    ("ALTER TABLE margin_project_decisions NO FORCE ROW LEVEL SECURITY", "InsufficientPrivilege"),
    ("DROP POLICY read ON margin_project_decisions", "InsufficientPrivilege"),
    ("CREATE POLICY mine ON margin_project_decisions FOR ALL USING (true)", "InsufficientPrivilege"),
    ("SET ROLE alice", "InsufficientPrivilege"),
    ("SET SESSION AUTHORIZATION alice", "InsufficientPrivilege"),
    ("UPDATE margin_projects SET blind = false", "0 rows"),  # only the owner unblinds
    ("UPDATE margin_projects SET owner = 'bob'", "0 rows"),
    ("INSERT INTO margin_project_members (project, member, role) VALUES (1, 'bob', 'owner')"
     " ON CONFLICT (project, member) DO UPDATE SET role = 'owner'", "InsufficientPrivilege"),
    ("UPDATE margin_project_members SET role = 'owner' WHERE member = 'bob'", "0 rows"),
    ("INSERT INTO margin_project_resolutions (project, paper, resolver, decision) VALUES (1, 'p000', 'bob', 'exclude')",
     "InsufficientPrivilege"),
]


def _try(conn, statement) -> str:
    try:
        with conn.transaction():
            cursor = conn.execute(statement)
            return f"{cursor.rowcount} rows" if cursor.rowcount == 0 else f"changed {cursor.rowcount}"
    except psycopg.Error as error:
        return type(error).__name__


# reading alice's rows while blind, every way bob might: each must return nothing of hers
READS = [
    "SELECT paper, reviewer, decision, reason FROM margin_project_decisions_visible WHERE reviewer = 'alice'",
    "SELECT paper, reviewer, decision, reason FROM margin_project_decisions_visible",
    "SELECT d.paper, d.reviewer, d.decision, d.reason FROM margin_project_papers p"
    " JOIN margin_project_decisions_visible d USING (project, paper) WHERE d.reviewer <> current_user",
    "SELECT paper, reviewer, decision, reason FROM margin_project_decisions_visible WHERE reviewer = 'alice'"
    " AND decision = 'include' UNION ALL SELECT paper, reviewer, decision, reason FROM"
    " margin_project_decisions_visible WHERE reviewer LIKE 'a%'",
    "WITH t AS (SELECT * FROM margin_project_decisions_visible) SELECT paper, reviewer, decision, reason FROM t",
    "SELECT paper, reviewer, decision, reason FROM margin_project_decisions_of('alice')",
]


def test_blind_bob_cannot_read_or_write_alices_decisions_by_any_sql(lab):
    with _connect(lab, "bob") as bob:
        for statement in READS:
            rows = bob.execute(statement).fetchall()
            assert [row for row in rows if row[1] == "alice"] == [], statement
        # the policies' helper functions answer nothing about another role
        for probe in ("SELECT margin_project_active(1, 'alice')", "SELECT margin_project_owned(1, 'alice')",
                      "SELECT margin_project_resolver(1, 'alice')", "SELECT margin_project_unblinded(1)"):
            assert bob.execute(probe).fetchone()[0] is False, probe
        assert bob.execute("SELECT margin_project_active(1, 'bob')").fetchone()[0] is True
        # aggregates and row counts leak nothing either; the table itself is no member's to read
        assert bob.execute("SELECT count(*) FROM margin_project_decisions_visible").fetchone()[0] == 0
        assert _try(bob, "SELECT count(*) FROM margin_project_decisions") == "InsufficientPrivilege"
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # row security cannot be switched off
            bob.execute("SET row_security = off; SELECT * FROM margin_project_decisions")
        refusals = [(statement, _try(bob, statement)) for statement, _want in WRITES]
        assert [(s, got) for (s, got), (_s, want) in zip(refusals, WRITES, strict=True) if got != want] == []
        # bob's own row cannot be turned into alice's either
        bob.execute("SELECT margin_project_decide(1, current_user::text, ARRAY['p000'], ARRAY['maybe'], ARRAY[''],"
                    " ARRAY[''])")
        assert _try(bob, "UPDATE margin_project_decisions SET reviewer = 'alice' WHERE paper = 'p000'") \
            == "InsufficientPrivilege"
    assert _alice_rows(lab) == ALICE
    assert lab.sql("SELECT blind, owner FROM margin_projects") == [(True, "alice")]
    assert lab.sql("SELECT role FROM margin_project_members WHERE member = 'bob'") == [("reviewer",)]
    assert lab.sql("SELECT count(*) FROM margin_project_resolutions") == [(0,)]


def test_only_the_owner_edits_criteria_reasons_and_sharing(lab):
    with Projects(lab.conninfo_as("bob")) as bob:
        with pytest.raises(ProjectError, match="only the owner"):
            bob.edit("icml", criteria="anything goes", share_notes=True)
        assert bob.info("icml")["criteria"] == "RL papers with code"
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.edit("icml", reasons=("off-topic", "no code", "survey"), share_tags=True)
    with Projects(lab.conninfo_as("bob")) as bob:
        info = bob.info("icml")
    assert info["reasons"] == ["off-topic", "no code", "survey"] and info["criteria"] == "RL papers with code"
    assert info["members"] == list(MEMBERS) and info["blind"] is True
    assert lab.sql("SELECT share_tags, share_notes FROM margin_projects") == [(True, False)]


def test_a_resolver_resolves_once_unblinded_and_a_reviewer_cannot(lab):
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.invite("icml", "carol", "resolver")
    with Projects(lab.conninfo_as("carol")) as carol:
        with pytest.raises(ProjectError):  # blind: not yet
            carol.resolve("icml", "p000", "exclude", "no code")
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.unblind("icml")
    with Projects(lab.conninfo_as("carol")) as carol:
        carol.resolve("icml", "p000", "exclude", "no code")
    with Projects(lab.conninfo_as("bob")) as bob:
        with pytest.raises(ProjectError):
            bob.resolve("icml", "p000", "include")
    with _connect(lab, "bob") as bob:
        assert bob.execute("SELECT resolver, decision FROM margin_project_resolutions").fetchall() == \
            [("carol", "exclude")]
        assert _try(bob, "UPDATE margin_project_resolutions SET decision = 'include'") == "0 rows"
        assert _try(bob, "DELETE FROM margin_project_resolutions") == "0 rows"
    assert _alice_rows(lab) == ALICE  # the reviewer's decision stays beside the resolution


def test_after_unblinding_bob_reads_alices_decisions_and_still_cannot_write_them(lab):
    with Projects(lab.conninfo_as("bob")) as bob:
        with pytest.raises(ProjectError, match="only the owner"):
            bob.unblind("icml")
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.unblind("icml")
    with _connect(lab, "bob") as bob:
        seen = bob.execute("SELECT paper, decision, reason FROM margin_project_decisions_visible"
                           " WHERE reviewer = 'alice' ORDER BY paper").fetchall()
        assert seen == ALICE
        refusals = [(statement, _try(bob, statement)) for statement, _want in WRITES[:8]]
        assert [(s, got) for (s, got), (_s, want) in zip(refusals, WRITES[:8], strict=True) if got != want] == []
    assert _alice_rows(lab) == ALICE


def test_a_removed_or_departed_member_reads_nothing_of_the_project(lab):
    with Projects(lab.conninfo_as("carol")) as carol:
        carol.decide("icml", [("p000", "exclude", "no code")])
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.unblind("icml")
        alice.remove("icml", "carol")
        with pytest.raises(ProjectError, match="an owner cannot leave"):  # the owner cannot walk away
            alice.leave("icml")
    with Projects(lab.conninfo_as("bob")) as bob:
        bob.leave("icml")
    for member in ("bob", "carol"):
        with _connect(lab, member) as conn:
            for table in ("margin_projects", "margin_project_members", "margin_project_papers",
                          "margin_project_decisions_visible", "margin_project_resolutions"):
                assert conn.execute(f"SELECT * FROM {table}").fetchall() == [], (member, table)
            assert _try(conn, "INSERT INTO margin_project_decisions (project, paper, decision)"
                              " VALUES (1, 'p005', 'include')") == "InsufficientPrivilege"
            assert conn.execute("SELECT margin_project_join(1)").fetchone()[0] is False  # cannot rejoin alone
        with Projects(lab.conninfo_as(member)) as projects, pytest.raises(ProjectError, match="no project"):
            projects.decisions("icml")
    # carol's past decision stays with the project
    assert lab.sql("SELECT decision FROM margin_project_decisions WHERE reviewer = 'carol'") == [("exclude",)]


def _scripted(i: int) -> tuple[str, str]:
    """alice's and bob's decisions on paper i: a known pattern of agreements and disagreements."""
    pattern = {0: ("include", "include"), 1: ("exclude", "exclude"), 2: ("exclude", "exclude"),
               3: ("include", "exclude"), 4: ("exclude", "maybe"), 5: ("maybe", "maybe"), 6: ("exclude", "include"),
               7: ("include", "maybe"), 8: ("exclude", "exclude"), 9: ("include", "include")}
    return pattern[i % 10]


def test_two_members_screen_200_papers_conflicts_and_kappa(lab):
    sklearn = pytest.importorskip("sklearn.metrics")
    for k, member in enumerate(("alice", "bob")):
        with Projects(lab.conninfo_as(member)) as projects:
            projects.decide("icml", [(paper, _scripted(i)[k], "") for i, (paper, _title) in enumerate(PAPERS)])
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.unblind("icml")
        by_paper: dict = {}
        for decision in alice.decisions("icml"):
            by_paper.setdefault(decision.paper, {})[decision.reviewer] = decision.decision
    report = agreement_report(by_paper)
    assert report["conflicts"] == [f"p{i:03d}" for i in range(200) if i % 10 in (3, 6)]
    assert report["maybe"] == [f"p{i:03d}" for i in range(200) if i % 10 in (4, 5, 7)]
    (pair,) = report["pairs"]
    assert pair["reviewers"] == ["alice", "bob"] and pair["papers"] == 200
    # by hand: per 10 papers alice = 4 include, 5 exclude, 1 maybe; bob = 3 include, 4 exclude, 3 maybe;
    # agreements 0, 1, 2, 5, 8, 9 = 6 of 10
    p_o = 6 / 10
    p_e = (4 * 3 + 5 * 4 + 1 * 3) / 100
    assert pair["percent_agreement"] == pytest.approx(p_o, abs=1e-12)
    assert abs(pair["cohen_kappa"] - (p_o - p_e) / (1 - p_e)) < 1e-9
    first = [_scripted(i)[0] for i in range(200)]
    second = [_scripted(i)[1] for i in range(200)]
    assert abs(pair["cohen_kappa"] - sklearn.cohen_kappa_score(first, second)) < 1e-9
    assert report["per_reviewer"] == {"alice": {"include": 80, "exclude": 100, "maybe": 20},
                                      "bob": {"include": 60, "exclude": 80, "maybe": 60}}
    # only the owner or a resolver resolves; a resolution keeps both reviewers' decisions
    with Projects(lab.conninfo_as("bob")) as bob, \
            pytest.raises(ProjectError, match="only the owner of .icml. or a resolver"):
        bob.resolve("icml", "p003", "exclude")
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.resolve("icml", "p003", "include", "code released after all")
    assert lab.sql("SELECT reviewer, decision FROM margin_project_decisions WHERE paper = 'p003' ORDER BY 1") == \
        [("alice", "include"), ("bob", "exclude")]
    assert lab.sql("SELECT resolver, decision FROM margin_project_resolutions") == [("alice", "include")]


def test_margin_project_commands_create_invite_join_unblind_agreement(postgres, tmp_path):
    import json

    from tests.helpers.runner import margin

    with Projects(postgres.conninfo):
        pass
    for member in MEMBERS:
        postgres.sql(f"CREATE ROLE {member} LOGIN")

    def run(role, *args):
        return margin("project", *args, "--server", postgres.conninfo_as(role), library=tmp_path / "none")

    made = run("alice", "create", "neurips", "--criteria", "RL with code", "--reason", "off-topic")
    assert made.returncode == 0 and "blind" in made.stdout, made.stderr
    refused = run("bob", "invite", "neurips", "carol")
    assert refused.returncode == 1 and "no project 'neurips'" in refused.stderr
    for member in ("bob", "carol"):
        assert run("alice", "invite", "neurips", member).returncode == 0
        assert run(member, "join", "neurips").returncode == 0
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.add_papers("neurips", PAPERS[:4])
    labels = {"alice": ["include", "exclude", "maybe", "include"], "bob": ["include", "include", "exclude", "include"],
              "carol": ["include", "exclude", "exclude", "exclude"]}
    for member, decided in labels.items():
        with Projects(postgres.conninfo_as(member)) as projects:
            projects.decide("neurips", [(p, label, "") for (p, _t), label in zip(PAPERS, decided, strict=False)])
    blind = json.loads(run("bob", "agreement", "neurips", "--json").stdout)
    assert blind["blind"] is True and blind["reviewers"] == ["bob"] and blind["pairs"] == []
    assert run("bob", "unblind", "neurips").returncode == 1
    assert run("alice", "unblind", "neurips").returncode == 0
    report = json.loads(run("bob", "agreement", "neurips", "--json").stdout)
    assert report["reviewers"] == list(MEMBERS) and len(report["pairs"]) == 3
    assert report["conflicts"] == ["p001", "p003"] and report["maybe"] == ["p002"]  # p002: maybe vs exclude
    assert report["fleiss_papers"] == 4 and report["fleiss_kappa"] is not None
    assert run("carol", "leave", "neurips").returncode == 0
    assert run("carol", "agreement", "neurips").returncode == 1


def test_decisions_made_offline_arrive_later_the_later_stamp_wins_and_conflicts_update(lab):
    """bob decides 100 papers offline (stamped then), meanwhile re-decides 10 of them online later; when the
    offline batch arrives the 90 land, the 10 newer ones stay, and the conflicts follow."""
    from db.sync.clock import Stamp

    def stamp(minute: int) -> str:
        return Stamp(1_800_000_000_000 + minute * 60_000, 0, "bobdevice").text

    with Projects(lab.conninfo_as("alice")) as alice:
        alice.decide("icml", [(f"p{i:03d}", "include", "") for i in range(100)])
        alice.unblind("icml")
    with Projects(lab.conninfo_as("bob")) as bob:
        assert bob.decide("icml", [(f"p{i:03d}", "include", "online", stamp(10)) for i in range(10)]) == 10
        offline = [(f"p{i:03d}", "exclude", "offline", stamp(1)) for i in range(100)]
        assert bob.decide("icml", offline) == 90
        assert bob.decide("icml", offline) == 90  # sent twice: same rows, nothing doubled
        mine = {d.paper: (d.decision, d.reason) for d in bob.decisions("icml") if d.reviewer == "bob"}
    assert len(mine) == 100
    assert all(mine[f"p{i:03d}"] == ("include", "online") for i in range(10))
    assert all(mine[f"p{i:03d}"] == ("exclude", "offline") for i in range(10, 100))
    by_paper: dict = {}
    with Projects(lab.conninfo_as("alice")) as alice:
        for decision in alice.decisions("icml"):
            by_paper.setdefault(decision.paper, {})[decision.reviewer] = decision.decision
    assert agreement_report(by_paper)["conflicts"] == [f"p{i:03d}" for i in range(10, 100)]
