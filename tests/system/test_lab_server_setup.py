"""Screening as a lab (issue 27), the server's setup and its remaining rules, on a real PostgreSQL server where
the roles involved are no superusers (as on a managed cloud server):

- the first Margin to reach the server may be a member's: it must neither own the project tables (a table owner
  can switch row security off) nor leave the projects unusable; a database owner with CREATEROLE prepares it,
  and the tables then belong to a NOLOGIN role no member is part of;
- blind only goes true → false; a decision keeps the time it was made (its stamp), not its arrival;
- a member cannot time, count or EXPLAIN another member's decisions out of the table while blind.
"""

from __future__ import annotations

import psycopg
import pytest

from db.sync.clock import Stamp
from db.sync.projects import ProjectError, Projects

PAPERS = [(f"p{i:03d}", f"Paper {i}") for i in range(20)]



def _roles(postgres, admin_options: str = "CREATEROLE") -> None:
    """A lab database owned by a non-superuser `admin`; alice, bob, carol plain login roles; alice may create
    tables in it (the trial's setup: she can run the first command)."""
    postgres.sql(f"CREATE ROLE admin LOGIN {admin_options}")
    for member in ("alice", "bob", "carol"):
        postgres.sql(f"CREATE ROLE {member} LOGIN")
    postgres.sql("CREATE DATABASE lab OWNER admin")
    postgres.sql("GRANT CREATE ON DATABASE lab TO alice")
    with psycopg.connect(postgres.conninfo_as("margin", "lab"), autocommit=True) as conn:
        conn.execute("GRANT CREATE ON SCHEMA public TO alice")


def _lab(postgres) -> None:
    """admin prepares; alice makes a blind project with PAPERS, bob and carol join."""
    with Projects(postgres.conninfo_as("admin", "lab")):
        pass
    with Projects(postgres.conninfo_as("alice", "lab")) as alice:
        alice.create("icml")
        alice.add_papers("icml", PAPERS)
        alice.invite("icml", "bob")
        alice.invite("icml", "carol")
    for member in ("bob", "carol"):
        with Projects(postgres.conninfo_as(member, "lab")) as projects:
            projects.join("icml")


def _owners(postgres) -> set[str]:
    with psycopg.connect(postgres.conninfo_as("margin", "lab"), autocommit=True) as conn:
        tables = conn.execute("SELECT tableowner FROM pg_tables WHERE tablename LIKE 'margin_project%'").fetchall()
        functions = conn.execute("SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE proname LIKE 'margin_project%'"
                                 ).fetchall()
    return {row[0] for row in tables + functions}


def test_a_non_superuser_database_owner_prepares_and_the_lab_works(postgres):
    _roles(postgres)
    _lab(postgres)
    assert _owners(postgres) == {"margin_owner"}  # no member (nor the admin) owns a table or a helper
    with Projects(postgres.conninfo_as("alice", "lab")) as alice:
        alice.decide("icml", [("p000", "include", "")])
        assert alice.info("icml")["members"] == ["alice", "bob", "carol"]
    with Projects(postgres.conninfo_as("bob", "lab")) as bob:
        bob.decide("icml", [("p000", "exclude", "")])
        assert [d.reviewer for d in bob.decisions("icml")] == ["bob"]  # blind
    # the owner cannot lift row security
    with psycopg.connect(postgres.conninfo_as("alice", "lab"), autocommit=True) as conn:
        for statement in ("ALTER TABLE margin_project_decisions DISABLE ROW LEVEL SECURITY",
                          "SET ROLE margin_owner"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)


def test_a_member_running_the_first_command_is_refused_in_one_line_and_owns_nothing(postgres):
    _roles(postgres)
    with pytest.raises(ProjectError) as refused:
        Projects(postgres.conninfo_as("alice", "lab"))
    said = str(refused.value)
    assert "\n" not in said and "CREATEROLE" in said and "margin sync --server" in said, said
    assert _owners(postgres) == set()  # nothing was made
    _lab(postgres)  # the administrator's run afterwards makes a working lab
    assert _owners(postgres) == {"margin_owner"}


def test_a_role_that_can_become_the_tables_owner_may_not_take_part(postgres):
    _roles(postgres)
    _lab(postgres)
    with Projects(postgres.conninfo_as("admin", "lab")) as admin, pytest.raises(ProjectError, match="administers"):
        admin.create("mine")
    with Projects(postgres.conninfo_as("alice", "lab")) as alice:
        alice.invite("icml", "admin")
    with Projects(postgres.conninfo_as("admin", "lab")) as admin, pytest.raises(ProjectError, match="administers"):
        admin.join("icml")
    # the server's refusal, not Margin's
    with psycopg.connect(postgres.conninfo_as("admin", "lab"), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO margin_projects (name) VALUES ('mine')")
        assert conn.execute("SELECT margin_project_join(1)").fetchone()[0] is False


def test_blind_only_goes_from_true_to_false(postgres):
    _roles(postgres)
    _lab(postgres)
    with Projects(postgres.conninfo_as("alice", "lab")) as alice:
        alice.unblind("icml")
    with psycopg.connect(postgres.conninfo_as("alice", "lab"), autocommit=True) as conn:
        with pytest.raises(psycopg.Error, match="blind"):
            conn.execute("UPDATE margin_projects SET blind = true")
        assert conn.execute("SELECT blind FROM margin_projects").fetchone()[0] is False
        conn.execute("UPDATE margin_projects SET criteria = 'edited'")  # other edits still go through


def test_a_decision_keeps_the_time_it_was_made(postgres):
    _roles(postgres)
    _lab(postgres)
    made = 1_700_000_000_000  # 2023-11-14T22:13:20Z, long before it reaches the server
    with Projects(postgres.conninfo_as("bob", "lab")) as bob:
        bob.decide("icml", [("p001", "include", "", Stamp(made, 0, "dev").text), ("p002", "maybe", "")])
        times = {d.paper: d.decided_at for d in bob.decisions("icml")}
    assert times["p001"] == "2023-11-14T22:13:20+00:00"
    assert times["p002"] > "2025"  # unstamped: when it arrived


def test_blind_rows_cannot_be_timed_counted_or_explained(postgres):
    _roles(postgres)
    _lab(postgres)
    with Projects(postgres.conninfo_as("alice", "lab")) as alice:
        alice.decide("icml", [(paper, "include", "") for paper, _title in PAPERS])
    with psycopg.connect(postgres.conninfo_as("bob", "lab"), autocommit=True) as bob:
        probe = ("EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM {} WHERE project = 1 AND paper = 'p003'"
                 " AND reviewer = 'alice' AND decision = 'include'")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # the table itself is no member's to plan on
            bob.execute(probe.format("margin_project_decisions"))
        plans = [bob.execute(probe.format("margin_project_decisions_visible")).fetchone()[0][0]["Plan"]
                 for _ in range(2)]
        text = str(plans)
        # the only scan a member's plan holds is of the rows they may read (none of alice's): nothing counts hers
        assert "margin_project_decisions'" not in text and "Index" not in text, text
        assert all(plan.get("Rows Removed by Filter", 0) == 0 and plan["Actual Rows"] == 0 for plan in plans)
        for statement in ("UPDATE margin_project_decisions SET reason = reason WHERE reviewer = 'alice'",
                          "DELETE FROM margin_project_decisions WHERE reviewer = 'alice' AND decision = 'include'",
                          "SELECT margin_project_decide(1, 'alice', ARRAY['p004'], ARRAY['exclude'], ARRAY[''],"
                          " ARRAY[''])"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                bob.execute(statement)


def test_a_resolved_conflict_leaves_the_conflict_count_and_enters_the_csv(postgres, tmp_path):
    import csv
    import json

    from tests.helpers.runner import margin

    _roles(postgres)
    _lab(postgres)
    with Projects(postgres.conninfo_as("alice", "lab")) as alice:
        alice.decide("icml", [("p000", "include", ""), ("p001", "include", ""), ("p002", "include", "")])
    with Projects(postgres.conninfo_as("bob", "lab")) as bob:
        bob.decide("icml", [("p000", "exclude", ""), ("p001", "exclude", ""), ("p002", "include", "")])
    with Projects(postgres.conninfo_as("alice", "lab")) as alice:
        alice.unblind("icml")
        alice.resolve("icml", "p000", "include", "code released")

    def run(*args):
        done = margin("project", *args, "--server", postgres.conninfo_as("alice", "lab"), library=tmp_path / "none")
        assert done.returncode == 0, done.stderr
        return done.stdout

    report = json.loads(run("agreement", "icml", "--json"))
    assert report["conflicts"] == ["p001"] and report["resolved"] == ["p000"]
    assert report["pairs"][0]["papers"] == 3  # agreement stays on the original decisions
    assert abs(report["pairs"][0]["percent_agreement"] - 1 / 3) < 1e-12
    assert "1 conflict, " in run("agreement", "icml")
    run("decisions", "icml", "--csv", str(tmp_path / "all.csv"))
    rows = list(csv.DictReader((tmp_path / "all.csv").read_text(encoding="utf-8-sig").splitlines()))
    resolutions = [row for row in rows if row["kind"] == "resolution"]
    assert [(r["paper_id"], r["reviewer"], r["decision"], r["reason"]) for r in resolutions] == \
        [("p000", "alice", "include", "code released")]
    assert sum(1 for row in rows if row["kind"] == "decision") == 6
