"""Screening as a lab (issue 27), the member's command line against a real PostgreSQL server: a join into a
missing or empty folder makes an empty library; reasons need a word; a member cannot edit the project's reasons
or criteria in the library, nor exclude for a reason the project lacks; `sync --status` says the project's
server is unreachable; `--server` is the library's project server when it has one; a non-owner's `add` is one
line; small wording."""

from __future__ import annotations

import pytest

from db.library import Library
from db.sync.projects import Projects
from tests.helpers.records import papers
from tests.helpers.runner import margin


@pytest.fixture
def lab(postgres, tmp_path):
    """alice owns "icml" (reasons off-topic, no code) with 5 papers from her library; bob is invited.
    Returns (postgres, alice's folder)."""
    with Projects(postgres.conninfo):
        pass
    for member in ("alice", "bob"):
        postgres.sql(f"CREATE ROLE {member} LOGIN")
    folder = tmp_path / "alice"
    with Library.open(folder, seed=False) as library:
        library.import_records(papers(5))
        ids = library.ids()
        states = library.sync_book.paper_states(ids)
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.create("icml", criteria="RL papers with code", reasons=("off-topic", "no code"))
        alice.add_papers("icml", [(i, states[i]["paper"]["title"], states[i]["paper"]) for i in ids])
        alice.invite("icml", "bob")
    return postgres, folder


def test_join_into_a_missing_folder_makes_an_empty_library_that_syncs(lab, tmp_path):
    postgres, _alice = lab
    folder = tmp_path / "new" / "bob"
    joined = margin("project", "join", "icml", "--server", postgres.conninfo_as("bob"), library=folder)
    assert joined.code == 0, joined.stderr
    assert "made an empty library" in joined.stdout and "5 papers received" in joined.stdout
    synced = margin("sync", library=folder)
    assert synced.code == 0, synced.stderr
    with Library.open(folder, seed=False) as library:
        assert len(library.ids()) == 5 and library.exclusion_reasons() == ["off-topic", "no code"]


def test_join_into_a_folder_of_other_files_is_refused_in_one_line(lab, tmp_path):
    postgres, _alice = lab
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "thesis.tex").write_text("x")
    joined = margin("project", "join", "icml", "--server", postgres.conninfo_as("bob"), library=folder)
    assert joined.code == 1 and len(joined.stderr.strip().splitlines()) == 1, joined.stderr
    assert "no Margin library here" in joined.stderr and not (folder / "library.db").exists()


@pytest.mark.parametrize("reason", ["", "   ", "42"])
def test_a_reason_without_a_word_is_refused(lab, tmp_path, reason):
    postgres, alice = lab
    for args in (("create", "other"), ("set", "icml")):
        result = margin("project", *args, "--reason", "fine", "--reason", reason, "--server",
                        postgres.conninfo_as("alice"), library=tmp_path / "none")
        assert result.code == 1 and result.stderr.strip().splitlines() == [
            f"margin: a reason needs a word: {reason!r} (margin project {args[0]} NAME --reason TEXT)"]
    with Projects(postgres.conninfo_as("alice")) as projects:
        assert projects.info("icml")["reasons"] == ["off-topic", "no code"]


def test_a_bad_reason_on_the_server_is_skipped_and_said(lab, tmp_path):
    postgres, _alice = lab
    folder = tmp_path / "bob"
    assert margin("project", "join", "icml", "--server", postgres.conninfo_as("bob"), library=folder).code == 0
    postgres.sql("UPDATE margin_projects SET reasons = %s WHERE name = 'icml'",
                 ('["off-topic", "42", "wrong method"]',))
    synced = margin("sync", library=folder)
    assert synced.code == 0, synced.stderr
    assert "'42'" in synced.stderr and "skipped" in synced.stderr
    with Library.open(folder, seed=False) as library:
        assert library.exclusion_reasons() == ["off-topic", "wrong method"]


def test_a_member_cannot_edit_the_projects_reasons_or_criteria_or_exclude_for_another_reason(lab, tmp_path):
    postgres, _alice = lab
    folder = tmp_path / "bob"
    assert margin("project", "join", "icml", "--server", postgres.conninfo_as("bob"), library=folder).code == 0
    for args in (("reasons", "--add", "too theoretical"), ("criteria", "--set", "anything")):
        result = margin(*args, library=folder)
        assert result.code == 1 and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "the project's owner edits its reasons and criteria" in result.stderr
    assert margin("reasons", library=folder).code == 0  # reading them is fine
    with Library.open(folder, seed=False) as library:
        library.add_exclusion_reason("too theoretical")  # as an old Margin could
        paper = library.ids()[0]
    result = margin("decide", paper[:8], "exclude", "--reason", "too theoretical", library=folder)
    assert result.code == 1 and "not a reason of project 'icml'" in result.stderr, result.stderr
    assert margin("decide", paper[:8], "exclude", "--reason", "no code", library=folder).code == 0


def test_status_of_a_project_member_with_the_server_down_says_unreachable(lab, tmp_path):
    postgres, _alice = lab
    folder = tmp_path / "bob"
    assert margin("project", "join", "icml", "--server", postgres.conninfo_as("bob"), library=folder).code == 0
    postgres.stop()
    status = margin("sync", "--status", library=folder)
    assert "server unreachable (" in status.stdout and status.code == 0, status.stdout + status.stderr


def test_a_second_project_reuses_the_librarys_project_server(lab, tmp_path):
    postgres, alice = lab
    margin("project", "add", "icml", "--server", postgres.conninfo_as("alice"), library=alice)
    made = margin("project", "create", "second", library=alice)
    assert made.code == 0, made.stderr
    with Projects(postgres.conninfo_as("alice")) as projects:
        assert projects.info("second")["owner"] == "alice"


def test_a_non_owners_add_is_one_line(lab, tmp_path):
    postgres, alice = lab
    for _try in range(3):  # psycopg's "pipeline aborted" warning came in about one run of three
        result = margin("project", "add", "icml", "--server", postgres.conninfo_as("bob"), library=alice,
                        subprocess=True)
        assert result.code == 1 and "pipeline" not in result.stderr, result.stderr
        assert result.stderr.strip().splitlines() == ["margin: only the owner of 'icml' adds papers (you are a member)"]


def test_small_words(lab, tmp_path):
    postgres, alice = lab
    server = postgres.conninfo_as("alice")
    invite = margin("project", "invite", "icml", "", "--server", server, library=tmp_path / "none")
    assert invite.code == 1 and "needs the member's PostgreSQL role" in invite.stderr
    nothing = margin("project", "set", "icml", "--server", server, library=tmp_path / "none")
    assert nothing.code == 1 and "nothing to change" in nothing.stderr
    with Library.open(alice, seed=False) as library:
        paper = library.ids()[0]
    with Projects(server) as projects:
        projects.unblind("icml")
    resolved = margin("project", "resolve", "icml", paper[:8], "include", "--server", server, library=alice)
    assert resolved.code == 0 and paper in resolved.stdout, resolved.stderr
    refused = margin("project", "agreement", "icml", "--server", server.replace("user=alice", "user=nobody"),
                     library=tmp_path / "none")
    assert refused.code == 1 and "unreachable" not in refused.stderr and "refused" in refused.stderr, refused.stderr


def test_status_after_the_owner_removed_the_member_promises_no_sending(lab, tmp_path):
    """New-user trial (2026-12-03): after `project remove icml bob`, bob's `sync --status` said "1 screening
    decision waiting to be sent"; only `sync` said the project no longer counts him."""
    postgres, _alice = lab
    folder = tmp_path / "bob"
    assert margin("project", "join", "icml", "--server", postgres.conninfo_as("bob"), library=folder).code == 0
    assert margin("sync", library=folder).code == 0
    with Library.open(folder, seed=False) as library:
        paper = library.ids()[0]
    assert margin("decide", paper, "include", library=folder).code == 0
    status = margin("sync", "--status", library=folder)
    assert "1 screening decision waiting to be sent to the projects" in status.stdout, status.stdout
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.remove("icml", "bob")
    status = margin("sync", "--status", library=folder)
    assert status.code == 0 and "waiting to be sent" not in status.stdout, status.stdout
    assert "no project 'icml' that you are a member of" in status.stdout
    assert "1 screening decision made here since the last sync that 'icml' will not take now" in status.stdout
    refused = margin("sync", library=folder)
    assert refused.code == 1 and "no project 'icml' that you are a member of" in refused.stderr
