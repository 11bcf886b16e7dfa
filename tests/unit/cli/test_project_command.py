"""`margin project` (issue 27) refuses in one line, creating nothing, when it has no server to talk to or lacks
the member's role; the server-side behaviour is tested in tests/system/test_lab_projects.py."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.runner import margin


def test_no_server_is_one_line_and_nothing_is_made(tmp_path: Path):
    folder = tmp_path / "librray"
    result = margin("project", "agreement", "icml", "--json", library=folder)
    assert result.code == 1 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "margin: no sync server set: margin project … --server URL (or margin sync --server URL first)"]
    assert not folder.exists()


def test_invite_without_a_role_is_refused_before_connecting(tmp_path: Path):
    result = margin("project", "invite", "icml", "--server", "host=/nonexistent dbname=x", library=tmp_path / "x")
    assert result.code == 1 and "needs the member's PostgreSQL role" in result.stderr


def test_an_unknown_action_is_a_usage_error(tmp_path: Path):
    result = margin("project", "delete", "icml", library=tmp_path / "x")
    assert result.code == 2 and "invalid choice" in result.stderr


def test_an_empty_project_name_is_refused_before_connecting(tmp_path: Path):
    for name in ("", "   "):
        result = margin("project", "create", name, "--server", "host=/nonexistent dbname=x", library=tmp_path / "x")
        assert result.code == 1 and result.stderr.strip().splitlines() == [
            "margin: a project needs a name: margin project create NAME"]


def test_resolve_needs_a_paper_and_a_decision(tmp_path: Path):
    result = margin("project", "resolve", "icml", "p1", "--server", "host=/nonexistent dbname=x",
                    library=tmp_path / "x")
    assert result.code == 1 and "needs PAPER and include|exclude|maybe" in result.stderr


def test_sync_log_shows_a_decision_in_words_and_the_papers_title(tmp_path: Path):
    from db.library import Library
    from tests.helpers.records import papers

    folder = tmp_path / "lib"
    with Library.open(folder, seed=False) as library:
        library.import_records(papers(1))
        paper = library.ids()[0]
        title = library.paper(paper).title
        library.sync_book.add_conflict(paper, "decision", '["exclude", "no code"]', "1764650000000.0.aa",
                                       '["include", null]', "1764640000000.0.bb")
        library.sync_book.add_conflict(paper, "note", "null", "1764650000000.0.aa", "a note", "1764640000000.0.bb")
    result = margin("sync", "--log", library=folder)
    assert result.code == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert f"paper {paper} ({title}) note: kept nothing" in first and "over 'a note'" in first
    assert "kept exclude (no code)" in second and "over include (" in second and "[" not in second.split(")", 1)[1]
