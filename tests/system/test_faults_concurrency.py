"""Fault battery, two Margin processes on one library (issue 7, fault 5): no lost writes, no corruption,
whoosh's LockError never reaches the user, and a clear message where one process must wait."""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from db.library.library import Library
from db.search.index import SearchIndex
from tests.helpers.faults import (
    assert_one_line_error,
    db_state,
    integrity,
    paper_count,
    start_margin,
    write_big_json,
)
from tests.helpers.runner import margin


@pytest.fixture
def folder(seeded_library, tmp_path) -> Path:
    folder = tmp_path / "lib"
    shutil.copytree(seeded_library, folder)  # a command line makes no library by accident (issue 31)
    assert margin("list", "x", library=folder, subprocess=True).returncode == 0  # index built
    return folder


def _clean(result) -> None:
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "LockError" not in result.stderr, result.stderr
    for line in result.stderr.splitlines():  # only progress notes: waiting, or indexing another's import
        assert line.startswith(("margin: waiting for another Margin process",
                                "margin: rebuilding the search index")), result.stderr


def _ids(folder: Path, query: str) -> list[str]:
    result = margin("list", query, "--json", library=folder, subprocess=True)
    _clean(result)
    return [paper["id"] for paper in json.loads(result.stdout)]


@pytest.mark.slow
def test_parallel_command_lines_lose_no_write(folder):
    with Library.open(folder) as library:
        ids = library.ids()
    target = ids[0]
    processes = [start_margin("annotate", target, "--tag", f"parallel {n}", library=folder) for n in range(4)]
    processes += [start_margin("annotate", ids[n + 1], "--rating", str(n + 1), "--note", f"note {n}",
                               library=folder) for n in range(4)]
    for process in processes:
        out, err = process.communicate(timeout=120)
        _clean(type("R", (), {"returncode": process.returncode, "stderr": err})())
    assert integrity(folder) == "ok"
    with Library.open(folder) as library:
        assert library.paper(target).tags == [f"parallel {n}" for n in range(4)]
        assert [(library.paper(ids[n + 1]).rating, library.paper(ids[n + 1]).note) for n in range(4)] == \
            [(n + 1, f"note {n}") for n in range(4)]
        assert SearchIndex.for_library(library).pending(library) == []
    for n in range(4):
        assert _ids(folder, f'tag:"parallel {n}"') == [target]
        assert _ids(folder, f'note:"note {n}"') == [ids[n + 1]]


@pytest.mark.slow
def test_annotate_during_a_big_import_waits_and_both_land(folder, tmp_path):
    big = tmp_path / "big.json"
    titles = write_big_json(big, 6000)
    with Library.open(folder) as library:
        pid = library.ids()[4]
    importing = start_margin("import", str(big), library=folder)
    time.sleep(1.0)  # parsing done; the import's transaction or its indexing is under way
    annotate = margin("annotate", pid, "--tag", "during import", "--note", "written meanwhile", library=folder,
                      subprocess=True)
    out, err = importing.communicate(timeout=180)
    assert importing.returncode == 0, err
    _clean(annotate)
    assert out.startswith("6,000 new")  # thousands separated (issue 21)
    assert integrity(folder) == "ok"
    assert paper_count(folder) == 38 + 6000
    assert _ids(folder, 'tag:"during import"') == [pid]
    assert _ids(folder, '"written meanwhile"') == [pid]
    assert len(_ids(folder, f'title:"{titles[-1]}"')) == 1


@pytest.mark.slow
def test_a_library_busy_for_too_long_is_one_clear_line(folder):
    with Library.open(folder) as library:
        pid = library.ids()[1]
    before = db_state(folder)
    holder = sqlite3.connect(folder / "library.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing, and not finishing
    try:
        result = margin("annotate", pid, "--rating", "3", library=folder, timeout=120, subprocess=True)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    lines = result.stderr.strip().splitlines()
    assert lines[0] == "margin: waiting for another Margin process to finish writing to the library"
    assert_one_line_error(type("R", (), {"returncode": result.returncode, "stderr": lines[-1]})(), "busy")
    assert len(lines) == 2
    assert db_state(folder) == before


def test_window_and_command_line_at_once(qtbot, folder):
    from desktop.app import create_window

    window = create_window(folder)
    qtbot.addWidget(window)
    window.set_query("reasoning")
    qtbot.waitUntil(lambda: 1 < len(window.model.ids()) < 38, timeout=30000)  # the window's index is open
    pid, other = window.model.ids()[:2]
    # the command line writes while the window is open and has its index open
    done = {}
    thread = threading.Thread(target=lambda: done.setdefault("r", margin(
        "annotate", pid, "--tag", "from the shell", "--rating", "2", library=folder, subprocess=True)))
    thread.start()
    assert window.select_paper(other)
    window.note_editor.editor.setPlainText("typed in the window meanwhile")
    while thread.is_alive():
        qtbot.wait(50)
    _clean(done["r"])
    window.note_editor.flush()
    window.set_query('tag:"from the shell"')
    qtbot.waitUntil(lambda: window.model.ids() == [pid], timeout=10000)
    window.close()
    with Library.open(folder) as library:
        assert (library.paper(pid).tags, library.paper(pid).rating) == (["from the shell"], 2)
        assert library.paper(other).note == "typed in the window meanwhile"
    assert _ids(folder, '"typed in the window meanwhile"') == [other]
    assert integrity(folder) == "ok"


def test_a_rebuild_elsewhere_never_breaks_an_open_index(folder):
    """A command line that rebuilds (here: the index stamp says another version) while this process has
    the index open and has searched it: this process's next search and sync still work."""
    from db.search.index import SearchIndex

    with Library.open(folder) as library:
        index = SearchIndex.for_library(library)
        index.open(library)
        pid = library.ids()[5]
        first = index.search("reasoning")
        assert len(first) == 7
        (folder / "index" / "margin-index.json").write_text('{"schema": 1}')
        rebuilt = margin("annotate", pid, "--tag", "rebuilt elsewhere", library=folder, subprocess=True)
        assert rebuilt.returncode == 0 and "rebuilding the search index" in rebuilt.stderr
        assert sorted(index.search("reasoning")) == sorted(first)
        library.set_note(pid, "quokka")
        assert index.sync(library) == 1
        assert index.search("quokka") == [pid]
        assert index.search('tag:"rebuilt elsewhere"') == [pid]
        index.close()
    leftovers = sorted(path.name for path in folder.iterdir() if path.name.startswith("index"))
    assert leftovers == ["index", "index.lock"]
