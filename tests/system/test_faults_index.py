"""Fault battery, the index folder (issue 7, fault 4): `index/` deleted, truncated, filled with garbage,
replaced by a file, or left with a stale lock. Margin starts, says it is rebuilding, rebuilds from SQLite
(the source of truth) and loses nothing."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from db.library.library import Library
from tests.helpers.faults import db_state, integrity
from tests.helpers.runner import margin


def _delete(index: Path) -> None:
    shutil.rmtree(index)


def _truncate(index: Path) -> None:
    for path in index.iterdir():
        with open(path, "r+b") as handle:
            handle.truncate(path.stat().st_size // 3)


def _garbage(index: Path) -> None:
    for path in index.iterdir():
        path.write_bytes(os.urandom(max(64, path.stat().st_size)))


def _empty_files(index: Path) -> None:
    for path in index.iterdir():
        path.write_bytes(b"")


def _a_file_instead(index: Path) -> None:
    shutil.rmtree(index)
    index.write_text("not a folder")


DAMAGE = {"deleted": _delete, "truncated": _truncate, "garbage": _garbage, "empty files": _empty_files,
          "a file instead": _a_file_instead}


@pytest.fixture
def indexed(tmp_path) -> tuple[Path, str]:
    """A seeded library with a note and tags, its index built by the command line."""
    folder = tmp_path / "lib"
    with Library.open(folder) as library:
        pid = library.ids()[3]
        library.add_tags(pid, ["okapi work"])
        library.set_note(pid, "the okapi argument")
    assert margin("list", "okapi", library=folder, subprocess=True).returncode == 0
    assert (folder / "index" / "margin-index.json").exists()
    return folder, pid


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_cli_says_it_rebuilds_a_damaged_index_and_loses_nothing(indexed, damage):
    folder, pid = indexed
    before = db_state(folder)
    DAMAGE[damage](folder / "index")
    result = margin("list", "okapi", "--json", library=folder, subprocess=True)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == ["margin: rebuilding the search index (38 papers)"]
    assert [paper["id"] for paper in json.loads(result.stdout)] == [pid]
    assert db_state(folder) == before
    assert integrity(folder) == "ok"
    again = margin("list", 'tag:"okapi work"', library=folder, subprocess=True)  # rebuilt once: quiet from now on
    assert (again.returncode, again.stderr, again.stdout.split()[0]) == (0, "", pid)


@pytest.mark.parametrize("lock", ["MAIN_WRITELOCK", "MAIN_WRITELOCK garbage"])
def test_a_lock_file_left_behind_does_not_block(indexed, lock):
    folder, pid = indexed
    name, _sep, content = lock.partition(" ")
    (folder / "index" / name).write_text(content)
    result = margin("annotate", pid, "--tag", "after the crash", library=folder, subprocess=True)
    assert (result.returncode, result.stderr) == (0, "")
    listed = margin("list", 'tag:"after the crash"', library=folder, subprocess=True)
    assert (listed.returncode, listed.stderr, listed.stdout.split()[0]) == (0, "", pid)


def test_a_stamp_from_another_version_or_garbage_is_rebuilt(indexed):
    folder, pid = indexed
    (folder / "index" / "margin-index.json").write_bytes(b"\x00\xff{not json")
    result = margin("list", "okapi", library=folder, subprocess=True)
    assert result.returncode == 0 and result.stdout.split()[0] == pid
    assert "rebuilding the search index" in result.stderr


@pytest.mark.parametrize("damage", ["deleted", "garbage"])
def test_window_says_it_rebuilds_and_search_works(qtbot, indexed, damage):
    from desktop.app import create_window

    folder, pid = indexed
    before = db_state(folder)
    DAMAGE[damage](folder / "index")
    window = create_window(folder)
    qtbot.addWidget(window)
    messages: list[str] = []
    worker = window.search_service.worker
    worker.status.connect(messages.append)
    shown: list[str] = []
    window.statusBar().messageChanged.connect(shown.append)
    # the worker starts at once and may be ready before this test connects: wait for its flag, not the signal
    qtbot.waitUntil(lambda: worker.is_ready, timeout=30000)
    qtbot.waitUntil(lambda: "Search index rebuilt" in shown, timeout=5000)  # queued to the window's thread
    said = ("Rebuilding the search index", "Search index rebuilt")
    assert all(message.startswith(said) for message in shown[:2]), shown
    window.set_query("okapi")
    qtbot.waitUntil(lambda: window.model.ids() == [pid], timeout=10000)
    window.close()
    assert db_state(folder) == before
