"""Screening as a lab (issue 27), the tags and notes members share, on a real PostgreSQL server with three members
as three database roles. The server decides: member B's own psycopg connection cannot read member A's shared
tags or notes while the project is blind, nor a kind the owner does not share after unblinding, nor anything
after B's removal; B cannot write rows with A's reviewer id by any statement (each listed with its refusal);
the server refuses tags while the project does not share tags and notes while it does not share notes."""

from __future__ import annotations

import psycopg
import pytest

from db.sync.project_annotations import share, shared
from db.sync.projects import ProjectError, Projects

MEMBERS = ("alice", "bob", "carol")
PAPERS = [(f"p{i:03d}", f"Paper {i}") for i in range(10)]
ALICE = [("p000", ["rl", "code"], "Strong **baseline**"), ("p001", ["survey"], "off-topic?")]


@pytest.fixture
def lab(postgres):
    """A blind project "icml" of alice's sharing tags and notes, bob and carol joined; alice shared ALICE and bob
    a tag and a note of his own on p000."""
    with Projects(postgres.conninfo):
        pass
    for member in MEMBERS:
        postgres.sql(f"CREATE ROLE {member} LOGIN")
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.create("icml")
        alice.add_papers("icml", PAPERS)
        for member in ("bob", "carol"):
            alice.invite("icml", member)
        alice.edit("icml", share_tags=True, share_notes=True)
        assert share(alice, "icml", ALICE) == 2
    for member in ("bob", "carol"):
        with Projects(postgres.conninfo_as(member)) as projects:
            projects.join("icml")
    with Projects(postgres.conninfo_as("bob")) as bob:
        share(bob, "icml", [("p000", ["mine"], "bob's note")])
    return postgres


def _connect(postgres, role):
    return psycopg.connect(postgres.conninfo_as(role), autocommit=True)


def _try(conn, statement) -> str:
    try:
        with conn.transaction():
            cursor = conn.execute(statement)
            return f"{cursor.rowcount} rows" if cursor.rowcount == 0 else f"changed {cursor.rowcount}"
    except psycopg.Error as error:
        return type(error).__name__


def _alice_rows(postgres):
    return postgres.sql("SELECT paper, tags, note FROM margin_project_annotations WHERE reviewer = 'alice'"
                        " ORDER BY paper")


def _seen(postgres, role) -> list[tuple]:
    """(paper, reviewer, tags, note) of the others' rows `role` reads through the view."""
    with _connect(postgres, role) as conn:
        return conn.execute("SELECT paper, reviewer, tags, note FROM margin_project_annotations_visible"
                            " WHERE reviewer <> current_user ORDER BY paper, reviewer").fetchall()


# every way bob might read alice's shared tags and notes: each must return nothing of hers while blind
READS = [
    "SELECT paper, reviewer, tags, note FROM margin_project_annotations_visible WHERE reviewer = 'alice'",
    "SELECT paper, reviewer, tags, note FROM margin_project_annotations_visible",
    "SELECT a.paper, a.reviewer, a.tags, a.note FROM margin_project_papers p"
    " JOIN margin_project_annotations_visible a USING (project, paper) WHERE a.reviewer <> current_user",
    "WITH t AS (SELECT * FROM margin_project_annotations_visible) SELECT paper, reviewer, tags, note FROM t",
    "SELECT paper, reviewer, tags, note FROM margin_project_annotations_of('alice')",
    "SELECT paper, reviewer, tags, note FROM margin_project_annotations_of('bob') WHERE reviewer = 'alice'",
]

# every statement bob tries against alice's rows, and how the server refuses it (its SQLSTATE class name)
WRITES = [
    ("INSERT INTO margin_project_annotations (project, paper, reviewer, note) VALUES (1, 'p002', 'alice', 'x')",
     "InsufficientPrivilege"),
    ("INSERT INTO margin_project_annotations (project, paper, reviewer, note) VALUES (1, 'p000', 'alice', 'x')"
     " ON CONFLICT (project, paper, reviewer) DO UPDATE SET note = 'x'", "InsufficientPrivilege"),
    ("UPDATE margin_project_annotations SET note = 'forged' WHERE reviewer = 'alice'", "InsufficientPrivilege"),
    ("UPDATE margin_project_annotations SET tags = '[]'", "InsufficientPrivilege"),
    ("DELETE FROM margin_project_annotations WHERE reviewer = 'alice'", "InsufficientPrivilege"),
    ("DELETE FROM margin_project_annotations", "InsufficientPrivilege"),
    ("TRUNCATE margin_project_annotations", "InsufficientPrivilege"),
    ("SELECT margin_project_annotate(1, 'alice', ARRAY['p000'], ARRAY['[\"forged\"]'], ARRAY['forged'])",
     "InsufficientPrivilege"),
    ("SELECT margin_project_annotate(1, 'alice', ARRAY['p002'], ARRAY[NULL::text], ARRAY['new'])",
     "InsufficientPrivilege"),
    # the view reads a function's rows: nothing to write through ("cannot update view …")
    ("UPDATE margin_project_annotations_visible SET note = 'forged' WHERE reviewer = 'alice'",
     "ObjectNotInPrerequisiteState"),
    ("INSERT INTO margin_project_annotations_visible (project, paper, reviewer, note) VALUES (1, 'p002', 'alice', 'x')",
     "ObjectNotInPrerequisiteState"),
    ("DELETE FROM margin_project_annotations_visible", "ObjectNotInPrerequisiteState"),
    ("ALTER TABLE margin_project_annotations DISABLE ROW LEVEL SECURITY", "InsufficientPrivilege"),
    ("ALTER TABLE margin_project_annotations NO FORCE ROW LEVEL SECURITY", "InsufficientPrivilege"),
    ("DROP POLICY functions ON margin_project_annotations", "InsufficientPrivilege"),
    ("CREATE POLICY mine ON margin_project_annotations FOR ALL USING (true)", "InsufficientPrivilege"),
    ("CREATE OR REPLACE VIEW margin_project_annotations_visible AS SELECT * FROM margin_project_annotations",
     "InsufficientPrivilege"),
    ("CREATE OR REPLACE FUNCTION margin_project_annotations_of(who text) RETURNS SETOF margin_project_annotations"
     " LANGUAGE sql AS $$ SELECT * FROM margin_project_annotations $$", "InsufficientPrivilege"),
    ("SET ROLE alice", "InsufficientPrivilege"),
    ("SET SESSION AUTHORIZATION alice", "InsufficientPrivilege"),
    ("UPDATE margin_projects SET share_notes = false", "0 rows"),  # only the owner changes what is shared
]


def test_blind_bob_cannot_read_or_write_alices_shared_tags_and_notes_by_any_sql(lab):
    with _connect(lab, "bob") as bob:
        for statement in READS:
            rows = bob.execute(statement).fetchall()
            assert [row for row in rows if row[1] == "alice"] == [], statement
        assert bob.execute("SELECT count(*) FROM margin_project_annotations_visible").fetchone()[0] == 1  # his own
        assert _try(bob, "SELECT count(*) FROM margin_project_annotations") == "InsufficientPrivilege"
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            bob.execute("SET row_security = off; SELECT * FROM margin_project_annotations")
        refusals = [(statement, _try(bob, statement)) for statement, _want in WRITES]
        assert [(s, got) for (s, got), (_s, want) in zip(refusals, WRITES, strict=True) if got != want] == []
    assert _alice_rows(lab) == ALICE
    with Projects(lab.conninfo_as("bob")) as bob:
        assert [(a.paper, a.reviewer, a.tags, a.note) for a in shared(bob, "icml")] == \
            [("p000", "bob", ("mine",), "bob's note")]


def test_after_unblinding_bob_reads_only_what_is_shared_and_still_cannot_write_it(lab):
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.unblind("icml")
    assert _seen(lab, "bob") == [(paper, "alice", tags, note) for paper, tags, note in ALICE]
    with _connect(lab, "bob") as bob:
        refusals = [(statement, _try(bob, statement)) for statement, _want in WRITES[:12]]
        assert [(s, got) for (s, got), (_s, want) in zip(refusals, WRITES[:12], strict=True) if got != want] == []
    assert _alice_rows(lab) == ALICE
    # the owner stops sharing notes: alice's notes (and when she wrote them) are hidden, her tags still read
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.edit("icml", share_notes=False)
    assert _seen(lab, "bob") == [(paper, "alice", tags, None) for paper, tags, _note in ALICE]
    with _connect(lab, "bob") as bob:
        assert bob.execute("SELECT count(*) FROM margin_project_annotations_visible WHERE note_at IS NOT NULL"
                           " AND reviewer = 'alice'").fetchone()[0] == 0
    # nor tags: nothing of hers at all, not even that a row exists
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.edit("icml", share_tags=False)
    assert _seen(lab, "bob") == []
    with Projects(lab.conninfo_as("alice")) as alice:  # shared again: read again
        alice.edit("icml", share_notes=True)
    assert _seen(lab, "bob") == [(paper, "alice", None, note) for paper, _tags, note in ALICE]
    # a note-only row of carol's shows; her tag-only row does not while tags are not shared
    with Projects(lab.conninfo_as("carol")) as carol:
        share(carol, "icml", [("p005", None, "carol's note")])
    assert ("p005", "carol", None, "carol's note") in _seen(lab, "bob")


def test_the_server_refuses_notes_while_the_project_does_not_share_them_and_tags_likewise(lab):
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.edit("icml", share_notes=False)
    with Projects(lab.conninfo_as("bob")) as bob:
        with pytest.raises(ProjectError, match="does not share notes"):
            share(bob, "icml", [("p003", None, "a note while notes are not shared")])
        with pytest.raises(ProjectError, match="does not share notes"):  # tags and a note in one call: nothing kept
            share(bob, "icml", [("p003", ["t"], None), ("p004", None, "note")])
        assert share(bob, "icml", [("p003", ["t"], None)]) == 1  # tags are still shared
    with _connect(lab, "bob") as bob:  # the server's refusal, not Margin's
        assert _try(bob, "SELECT margin_project_annotate(1, current_user::text, ARRAY['p004'], ARRAY[NULL::text],"
                         " ARRAY['raw note'])") == "InsufficientPrivilege"
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.edit("icml", share_tags=False)
    with Projects(lab.conninfo_as("bob")) as bob, pytest.raises(ProjectError, match="does not share tags"):
        share(bob, "icml", [("p006", ["t"], None)])
    assert lab.sql("SELECT paper, tags, note FROM margin_project_annotations WHERE reviewer = 'bob' ORDER BY 1") == \
        [("p000", ["mine"], "bob's note"), ("p003", ["t"], None)]
    with Projects(lab.conninfo_as("bob")) as bob, pytest.raises(ProjectError, match="not one of the project"):
        share(bob, "icml", [("elsewhere", None, None)])


def test_a_removed_member_reads_and_writes_nothing_of_the_shared_notes(lab):
    with Projects(lab.conninfo_as("carol")) as carol:
        share(carol, "icml", [("p001", ["c"], "carol's")])
    with Projects(lab.conninfo_as("alice")) as alice:
        alice.unblind("icml")
        assert len(shared(alice, "icml")) == 4
        alice.remove("icml", "carol")
    with _connect(lab, "carol") as carol:
        assert carol.execute("SELECT * FROM margin_project_annotations_visible").fetchall() == []
        assert carol.execute("SELECT * FROM margin_project_annotations_of('carol')").fetchall() == []
        assert _try(carol, "SELECT margin_project_annotate(1, current_user::text, ARRAY['p002'], ARRAY['[]'],"
                           " ARRAY['x'])") == "InsufficientPrivilege"
    with Projects(lab.conninfo_as("carol")) as carol, pytest.raises(ProjectError, match="no project"):
        shared(carol, "icml")
    # her past notes stay with the project and the remaining members still read them
    assert ("p001", "carol", ["c"], "carol's") in _seen(lab, "bob")


def test_margin_project_set_share_and_margin_project_notes(lab, tmp_path):
    import json

    from tests.helpers.runner import margin

    def run(role, *args):
        return margin("project", *args, "--server", lab.conninfo_as(role), library=tmp_path / "none")

    refused = run("bob", "set", "icml", "--share-notes", "off")
    assert refused.returncode == 1 and "only the owner" in refused.stderr
    blind = run("bob", "notes", "icml", "--json")
    assert blind.returncode == 0, blind.stderr
    assert [(r["paper"], r["reviewer"], r["tags"], r["note"]) for r in json.loads(blind.stdout)] == \
        [("p000", "bob", ["mine"], "bob's note")]
    assert "is blind" in run("bob", "notes", "icml").stdout
    assert run("alice", "unblind", "icml").returncode == 0
    assert run("alice", "set", "icml", "--share-notes", "off").returncode == 0
    assert lab.sql("SELECT share_tags, share_notes FROM margin_projects") == [(True, False)]
    rows = json.loads(run("bob", "notes", "icml", "--json").stdout)
    assert [(r["paper"], r["reviewer"], r["tags"], r["note"], r["title"]) for r in rows] == \
        [("p000", "alice", ["rl", "code"], None, "Paper 0"), ("p000", "bob", ["mine"], "bob's note", "Paper 0"),
         ("p001", "alice", ["survey"], None, "Paper 1")]
    assert run("alice", "set", "icml", "--share-tags", "off", "--share-notes", "on").returncode == 0
    text = run("bob", "notes", "icml").stdout
    assert "Strong **baseline**" in text and "tags: rl" not in text and "tags: mine" in text
