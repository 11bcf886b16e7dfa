"""Fault battery, crashes (issue 7, faults 1-3): Margin killed with SIGKILL in a real subprocess in the
middle of an import, while a note is being typed in the window, and between the SQLite and the index
commits. After each, the library opens, SQLite's integrity check passes and nothing saved is lost."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from db.library.library import Library
from db.search.index import SearchIndex
from tests.helpers.faults import (
    WINDOW_TYPIST,
    db_state,
    integrity,
    paper_count,
    start_margin,
    start_python,
    wait_until,
    write_big_json,
    writer_active,
)
from tests.helpers.runner import margin

BIG = 4000


@pytest.fixture
def annotated(tmp_path) -> tuple[Path, str]:
    """A seeded library (38 papers) with a rating, tags, a note with one earlier version, and a read mark."""
    folder = tmp_path / "lib"
    with Library.open(folder) as library:
        pid = library.ids()[5]
        library.set_rating(pid, 4)
        library.add_tags(pid, ["keep", "to read"])
        library.set_note(pid, "first thoughts")
        library.set_note(pid, "second thoughts, $\\Omega(n)$")
        library.set_read(library.ids()[6], True)
    return folder, pid


def _kill(process) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    for stream in (process.stdout, process.stderr):
        if stream:
            stream.close()


def _ids_for(library: Path, query: str) -> list[str]:
    result = margin("list", query, "--json", library=library, subprocess=True)
    assert result.returncode == 0, result.stderr
    return [paper["id"] for paper in json.loads(result.stdout)]


# ------------------------------------------------------------------ 1. kill -9 in the middle of an import
@pytest.mark.slow
def test_kill_during_the_import_transaction_keeps_none_of_it(annotated, tmp_path):
    folder, pid = annotated
    before = db_state(folder)
    big = tmp_path / "big.json"
    write_big_json(big, 2 * BIG)  # its transaction lasts about a second here
    process = start_margin("import", str(big), library=folder)
    assert wait_until(lambda: writer_active(folder), 60, interval=0.01, process=process), process.communicate()
    _kill(process)  # inside the import's one write transaction

    assert integrity(folder) == "ok"
    assert db_state(folder) == before  # none of the import; every annotation and note version intact
    result = margin("list", "--json", library=folder, subprocess=True)  # restart: opens, index caught up or rebuilt
    assert result.returncode == 0, result.stderr
    papers = json.loads(result.stdout)
    assert len(papers) == 38
    kept = next(paper for paper in papers if paper["id"] == pid)
    assert (kept["rating"], kept["tags"], kept["note"]) == (4, ["keep", "to read"], "second thoughts, $\\Omega(n)$")
    # the same import run again takes all of it
    again = margin("import", str(big), library=folder, subprocess=True)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"{2 * BIG:,} new, 0 updated")
    assert paper_count(folder) == 38 + 2 * BIG


@pytest.mark.slow
def test_kill_after_the_import_commit_keeps_all_of_it_and_the_index_catches_up(annotated, tmp_path):
    folder, pid = annotated
    before = db_state(folder)
    big = tmp_path / "big.json"
    titles = write_big_json(big, BIG)
    process = start_margin("import", str(big), library=folder)
    assert wait_until(lambda: paper_count(folder) == 38 + BIG, 90, interval=0.01, process=process)
    finished = process.poll() is not None  # usually it is still indexing when killed
    _kill(process)

    assert integrity(folder) == "ok"
    after = db_state(folder)
    assert after["papers"][:38] == before["papers"]
    assert len(after["papers"]) == 38 + BIG
    assert {k: after[k] for k in ("annotations", "tags", "history")} == \
        {k: before[k] for k in ("annotations", "tags", "history")}
    found = json.loads(margin("list", f'title:"{titles[-1]}"', "--json", library=folder, subprocess=True).stdout)
    assert [paper["title"] for paper in found] == [titles[-1]], f"killed after finishing: {finished}"
    assert _ids_for(folder, '"second thoughts"') == [pid]


# ------------------------------------------------------------------ 2. kill -9 while a note is being typed
@pytest.mark.slow
def test_kill_while_typing_a_note_loses_at_most_the_last_second(annotated, tmp_path):
    folder, pid = annotated
    saved_before = "second thoughts, $\\Omega(n)$"
    first = " Then:"
    second = " the lower bound holds for every graph with n vertices, and the proof is tight." * 2
    process = start_python(WINDOW_TYPIST, str(folder), pid, first, second, "40")
    typed: list[tuple[int, float]] = []
    try:
        line = process.stdout.readline()
        assert line.strip() == "paused", (line, process.stderr.read() if process.poll() is not None else "")
        assert next(a[3] for a in db_state(folder)["annotations"] if a[0] == pid) == saved_before + first
        while len(typed) < 70:  # about three seconds of steady typing, no pause
            count, stamp = process.stdout.readline().split()[1:]
            typed.append((int(count), float(stamp)))
        killed_at = time.monotonic()
        _kill(process)
    finally:
        if process.poll() is None:
            _kill(process)

    assert integrity(folder) == "ok"
    state = db_state(folder)
    note = next(a[3] for a in state["annotations"] if a[0] == pid)
    full = saved_before + first + second
    assert full.startswith(note), note  # a clean prefix of what was typed: nothing garbled
    must_have = max((count for count, stamp in typed if stamp < killed_at - 1.5), default=0)
    assert len(note) >= len(saved_before + first) + must_have, (
        f"lost more than the last second and a half: saved {len(note) - len(saved_before + first)} "
        f"of {must_have} characters typed before then")
    history = [text for paper_id, text in state["history"] if paper_id == pid]
    assert history[:2] == ["first thoughts", saved_before]  # earlier saved versions intact
    assert saved_before + first in history or note.startswith(saved_before + first)  # in history or kept whole


# ------------------------------------------------------------------ 3. kill -9 between the SQLite and index commits
def test_a_change_committed_to_sqlite_but_never_indexed_is_found_and_indexed(annotated):
    folder, pid = annotated
    assert margin("list", "aardvark", library=folder, subprocess=True).stdout == ""  # an index exists and is current
    with Library.open(folder) as library:
        library.set_note(pid, "aardvark sightings")  # SQLite committed; the process "dies" before any sync
        index = SearchIndex.for_library(library)
        assert index.pending(library) == [pid]
        assert index.open(library) is False  # caught up from the change log, no rebuild needed
        assert index.search("aardvark") == [pid]
        assert index.pending(library) == []
        index.close()


_KILLED_INSIDE = r"""
import sys, time
from db.library.library import Library
from db.search.index import SearchIndex
library = Library.open(sys.argv[1])
index = SearchIndex.for_library(library)
index.open(library)
library.set_note(sys.argv[2], "wombat burrows")
if sys.argv[3] == "index-commit":
    from whoosh.writing import SegmentWriter
    def hang(self, *args, **kwargs):
        print("inside", flush=True); time.sleep(120)
    SegmentWriter.commit = hang
else:
    def hang(self, *args, **kwargs):
        print("inside", flush=True); time.sleep(120)
    SearchIndex._write_stamp = hang
index.sync(library)
"""


@pytest.mark.parametrize("where", ["index-commit", "stamp-write"])
def test_kill_inside_sync_then_restart_repairs_the_index(annotated, where):
    folder, pid = annotated
    process = start_python(_KILLED_INSIDE, str(folder), pid, where)
    line = process.stdout.readline()
    assert line.strip() == "inside", process.stderr.read()
    _kill(process)
    assert integrity(folder) == "ok"
    with Library.open(folder) as library:
        assert SearchIndex.for_library(library).pending(library) == [pid]  # the index's stamp says it is behind
        assert library.paper(pid).note == "wombat burrows"
    assert _ids_for(folder, "wombat") == [pid]  # restart: caught up, exactly once
    assert _ids_for(folder, '"second thoughts"') == []  # the replaced note is gone from the index
    with Library.open(folder) as library:
        assert SearchIndex.for_library(library).pending(library) == []
