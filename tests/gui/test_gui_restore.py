"""Importing a Margin JSON backup in the window restores what `margin import` restores (issue 12, item 5):
one import pipeline (db.import_job) for both, and a restore never puts a backup's older note over a newer one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from db.library.backup import write_backup
from db.library.library import Library
from tests.helpers.runner import margin

ROOT = Path(__file__).resolve().parents[2]
NOTE = "Lower bound is $\\Omega(n)$; budget: $50\n\n- 中文 😀\n- line two"


def _make_backup(folder: Path, created: datetime) -> tuple[Path, list[str]]:
    """A backup of a library of the bundled corpus (as the window's is) with five papers annotated in every
    way. Returns the backup and the ids annotated."""
    with Library.open(folder) as source:
        ids = source.ids()[:5]
        source.set_rating(ids[0], 4)
        source.add_tags(ids[0], ["theory", "to read"])
        source.set_note(ids[0], "first draft")
        source.set_note(ids[0], NOTE)
        source.set_read(ids[0], True)
        source.set_title(ids[1], "My own title")
        source.set_rating(ids[2], 2)
        source.add_tags(ids[2], ["Graph Neural Nets"])
        source.set_note(ids[3], "only a note")
        source.set_read(ids[4], True)
        return write_backup(source, now=created), ids


def _annotations(library: Library, ids: list[str]) -> dict[str, tuple]:
    return {paper_id: (paper.rating, paper.tags, paper.note, paper.read, paper.user_title,
                       library.note_history(paper_id))
            for paper_id, paper in ((paper_id, library.paper(paper_id)) for paper_id in ids)}


def _import_in_window(window, qtbot, path: Path):
    assert window.actions_.start_import([path])
    qtbot.waitUntil(lambda: window.actions_.last_import is not None, timeout=60000)
    report, notes = window.actions_.last_import
    assert report is not None, notes  # (None, [message]) when the import failed
    return report


def _cli_import(library: Path, path: Path) -> str:
    result = margin("import", str(path), library=library)
    assert result.code == 0, result.stderr
    return result.stdout.strip()


def test_a_window_import_of_a_backup_restores_what_the_command_line_restores(make_window, qtbot, tmp_path):
    backup, ids = _make_backup(tmp_path / "source", datetime.now(UTC) - timedelta(minutes=5))
    cli = tmp_path / "cli"
    Library.open(cli).close()  # a library of the bundled corpus, as the window's is
    cli_line = _cli_import(cli, backup)
    assert cli_line.endswith("; annotations restored on 5 papers (0 already up to date)")

    window = make_window()
    report = _import_in_window(window, qtbot, backup)
    assert report.summary() == cli_line
    assert report.new == [] and report.updated == []
    with Library.open(cli) as restored:
        expected = _annotations(restored, ids)
        annotated = restored.annotated_ids()
    assert _annotations(window.library, ids) == expected
    assert expected[ids[0]][:5] == (4, ["theory", "to read"], NOTE, True, None)
    assert expected[ids[1]][4] == "My own title" and expected[ids[2]][:2] == (2, ["Graph Neural Nets"])
    assert window.library.annotated_ids() == annotated


def test_a_note_written_in_the_window_after_the_backup_survives_a_window_import(make_window, qtbot, tmp_path):
    backup, ids = _make_backup(tmp_path / "source", datetime.now(UTC) - timedelta(minutes=5))
    window = make_window()
    window.library.set_note(ids[3], "rewritten in the window after the backup")
    report = _import_in_window(window, qtbot, backup)
    assert window.library.paper(ids[3]).note == "rewritten in the window after the backup"
    assert [note for _, note in window.library.note_history(ids[3])] == ["only a note"]
    assert window.library.paper(ids[0]).note == NOTE  # the papers the window had not annotated: restored
    assert report.summary().endswith("; annotations restored on 5 papers (0 already up to date), "
                                     "newer edits kept on 1")
