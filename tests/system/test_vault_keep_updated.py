"""`margin export --format markdown-folder --keep-updated DIR` keeps an Obsidian vault up to date: a change made by
another command rewrites that paper's file and no other; Ctrl+C ends it with exit code 0 (issue 30)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from db.library.library import Library
from tests.helpers.records import papers
from tests.helpers.runner import ROOT, margin, margin_env

pytestmark = pytest.mark.slow


def _as_a_background_job() -> None:
    """SIGINT ignored, as a non-interactive shell starts a command with `&` (CI's own runs were started so): Python
    then sets no KeyboardInterrupt handler, and before the fix the process never stopped on Ctrl+C."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_a_change_rewrites_only_that_papers_file_and_ctrl_c_stops(tmp_path):
    library_dir, vault = tmp_path / "lib", tmp_path / "vault"
    with Library.open(library_dir, seed=False) as library:
        ids = library.import_records(papers(5)).new
        for paper_id in ids:
            library.set_rating(paper_id, 2)
    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "export", "--format", "markdown-folder",
                                "--keep-updated", str(vault), "--library", str(library_dir)],
                               env=margin_env(), cwd=ROOT, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_as_a_background_job)
    try:
        assert "exported 5 papers to" in process.stderr.readline()
        before = {path.name: path.stat().st_mtime_ns for path in vault.iterdir()}
        assert len(before) == 5
        assert margin("annotate", ids[3], "--rating", "5", "--tag", "to read", library=library_dir).code == 0
        assert "updated 1, removed 0" in process.stderr.readline()
        changed = [path.name for path in vault.iterdir() if path.stat().st_mtime_ns != before[path.name]]
        assert changed == [name for name in before if ids[3] in name]
        text = (vault / changed[0]).read_text(encoding="utf-8")
        assert 'rating: 5' in text and 'tags: ["to-read"]' in text and 'margin_tags: ["to read"]' in text
    finally:
        process.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 30
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    if process.poll() is None:  # say what it was doing
        process.kill()
        pytest.fail(f"still running 30 s after Ctrl+C; its stderr: {process.stderr.read()[-3000:]!r}")
    assert process.returncode == 0
    assert "stopped keeping" in process.stderr.read()
