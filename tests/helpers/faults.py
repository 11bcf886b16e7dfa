"""Helpers for the fault battery (tests/system/test_faults_*.py): Margin started as a process to act on while it
runs (tests.helpers.runner.margin runs it to the end), raw looks at library.db that do not go through the Library
API, damage to its pages, and big generated inputs."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.corpus import ROOT
from tests.helpers.runner import margin_env


def start_margin(*args: str, library: Path | None = None, env: dict | None = None) -> subprocess.Popen:
    """Start `python main.py ARGS --library LIBRARY` without waiting (stdout and stderr piped)."""
    command = [sys.executable, str(ROOT / "main.py"), *args]
    if library is not None:
        command += ["--library", str(library)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=margin_env(env), cwd=ROOT)


def start_python(script: str, *args: str) -> subprocess.Popen:
    """Run a Python snippet in a fresh interpreter (project on the path); stdout line-buffered text."""
    return subprocess.Popen([sys.executable, "-u", "-c", script, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=margin_env(), cwd=ROOT)


def assert_one_line_error(result, *fragments: str) -> str:
    """Exit code 1, exactly one line on stderr starting `margin:`, no traceback; returns that line."""
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("margin: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def connect_raw(library: Path) -> sqlite3.Connection:
    """A plain read connection to library.db (no Margin code involved)."""
    return sqlite3.connect(f"file:{library / 'library.db'}?mode=ro", uri=True, timeout=30)


def db_state(library: Path) -> dict:
    """Everything a fault must not lose, read with plain SQL: papers (id, position, abstract), annotations,
    tags per paper and note history."""
    conn = connect_raw(library)
    try:
        return {
            "papers": conn.execute("SELECT id, position, abstract FROM papers ORDER BY position").fetchall(),
            "annotations": conn.execute(
                "SELECT paper_id, rating, read, note, title FROM annotations ORDER BY paper_id").fetchall(),
            "tags": conn.execute(
                "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id"
                " ORDER BY pt.paper_id, t.name").fetchall(),
            "history": conn.execute("SELECT paper_id, note FROM note_history ORDER BY id").fetchall(),
        }
    finally:
        conn.close()


def integrity(library: Path) -> str:
    conn = sqlite3.connect(library / "library.db", timeout=30)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def paper_count(library: Path) -> int:
    conn = connect_raw(library)
    try:
        return conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
    finally:
        conn.close()


def writer_active(library: Path) -> bool:
    """True while another connection holds library.db's write lock (an import's transaction is open)."""
    conn = sqlite3.connect(library / "library.db", timeout=0, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            return True
        raise
    finally:
        conn.close()


def wait_until(predicate: Callable[[], bool], timeout: float, interval: float = 0.02,
               process: subprocess.Popen | None = None) -> bool:
    """Poll `predicate` until it holds (True) or `timeout` seconds pass (False); stops early (False) when
    `process` has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        if process is not None and process.poll() is not None:
            return predicate()
        time.sleep(interval)
    return False


def write_big_json(path: Path, count: int, prefix: str = "Fault") -> list[str]:
    """A JSON paper list of `count` distinct papers (title, abstract, authors, year). Returns the titles."""
    words = ("graph", "kernel", "policy", "gradient", "tensor", "sparse", "manifold", "bandit", "prior", "flow")
    records = []
    for i in range(count):
        body = " ".join(words[(i * 7 + k * 3) % len(words)] for k in range(40))
        records.append({"title": f"{prefix} paper number {i}", "authors": "Ada Lovelace; Alan Turing",
                        "year": 2024, "abstract": f"We study case {i} of {prefix.lower()} behaviour: {body}."})
    path.write_text(json.dumps(records), encoding="utf-8")
    return [record["title"] for record in records]


# A real window process for the kill tests: opens desktop.app.create_window offscreen on argv[1], selects the
# paper argv[2], types argv[3] into the note editor, waits for the autosave, then types argv[4] one key at a
# time, printing `typed N MONOTONIC` after each key (time.monotonic is one clock for every process here).
WINDOW_TYPIST = r"""
import sys, time
from pathlib import Path
from PySide6.QtWidgets import QApplication
from PySide6.QtTest import QTest
from desktop.app import create_window

app = QApplication(sys.argv[:1])
window = create_window(Path(sys.argv[1]))
window.show()
assert window.select_paper(sys.argv[2])
editor = window.note_editor.editor
editor.setFocus()
from PySide6.QtGui import QTextCursor
editor.moveCursor(QTextCursor.MoveOperation.End)
QTest.qWait(200)
for ch in sys.argv[3]:
    QTest.keyClicks(editor, ch)
    QTest.qWait(30)
QTest.qWait(1500)
print("paused", flush=True)
for n, ch in enumerate(sys.argv[4], 1):
    QTest.keyClicks(editor, ch)
    print(f"typed {n} {time.monotonic():.4f}", flush=True)
    QTest.qWait(int(sys.argv[5]) if len(sys.argv) > 5 else 40)
print("done", flush=True)
QTest.qWait(120000)
"""


def btree_pages(folder: Path, table: str, kind: str) -> list[int]:
    """Page numbers of `table`'s b-tree of the given kind ('internal', 'leaf'), via SQLite's dbstat table."""
    conn = sqlite3.connect(folder / "library.db")
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return [row[0] for row in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno", (table, kind))]
    except sqlite3.OperationalError as error:
        pytest.skip(f"this SQLite has no dbstat table ({error})")
    finally:
        conn.close()


def damage_page(folder: Path, page: int) -> None:
    """Flip 64 bytes at the start of `page` (4 KiB pages): what a bad sector or a stray write does."""
    with open(folder / "library.db", "r+b") as handle:
        handle.seek((page - 1) * 4096)
        data = bytes(byte ^ 0xFF for byte in handle.read(64))
        handle.seek((page - 1) * 4096)
        handle.write(data)
