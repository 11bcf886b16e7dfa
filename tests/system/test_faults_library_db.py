"""Fault battery, library.db itself (issue 7, faults 6 and 7): an older schema is migrated after a backup
copy, a newer one refused untouched; a library.db that is not a database, cannot be opened, sits on a
read-only disk or on a full one gives one clear line, no traceback, and nothing half-written."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from db.library.library import SCHEMA_VERSION, Library
from tests.helpers.faults import assert_one_line_error, db_state, integrity, write_big_json
from tests.helpers.runner import margin


@pytest.fixture
def folder(tmp_path) -> tuple[Path, str]:
    folder = tmp_path / "lib"
    with Library.open(folder) as library:
        pid = library.ids()[7]
        library.set_rating(pid, 5)
        library.set_note(pid, "keep me")
    return folder, pid


def _set_version(folder: Path, version: int, *statements: str) -> None:
    conn = sqlite3.connect(folder / "library.db")
    for statement in statements:
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()


# ------------------------------------------------------------------ 6. schema versions
def old_schema(version: int) -> list[str]:
    """Statements that turn a library of today's schema into one of schema `version` (1..4)."""
    seq = ", seq INTEGER NOT NULL DEFAULT 0" if version >= 2 else ""
    older = ["DROP TABLE change_log", f"CREATE TABLE index_queue (paper_id TEXT PRIMARY KEY{seq})"]
    older = older if version <= 3 else []
    return ["ALTER TABLE papers DROP COLUMN extra"] + older + (["DROP INDEX papers_venue"] if version <= 2 else [])


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_cli_migrates_an_older_library_after_a_backup_copy(folder, version):
    folder, pid = folder
    _set_version(folder, version, *old_schema(version))
    result = margin("list", "--json", library=folder, subprocess=True)
    assert result.returncode == 0, result.stderr
    assert '"note": "keep me"' in result.stdout
    conn = sqlite3.connect(folder / "library.db")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'papers_venue'").fetchone() == (1,)
    assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'index_queue'").fetchone() is None
    (copy,) = (folder / "backups").glob(f"library-v{version}-*.db")
    old = sqlite3.connect(copy)
    assert old.execute("PRAGMA user_version").fetchone()[0] == version
    assert old.execute("SELECT rating, note FROM annotations WHERE paper_id = ?", (pid,)).fetchone() == (5, "keep me")


def test_a_failed_migration_leaves_the_library_at_its_old_version(folder, monkeypatch):
    import db.library.migrations

    folder, pid = folder
    _set_version(folder, 2)
    monkeypatch.setitem(db.library.migrations.MIGRATIONS, 2, ["CREATE INDEX papers_venue ON papers(venue)",
                                                      "CREATE INDEX broken ON no_such_table(x)"])
    before = db_state(folder)
    with pytest.raises(Exception, match="upgrading from schema 2 failed"):
        Library.open(folder)
    conn = sqlite3.connect(folder / "library.db")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    assert db_state(folder) == before


def test_cli_refuses_a_newer_library_untouched(folder):
    folder, _pid = folder
    _set_version(folder, SCHEMA_VERSION + 1)
    conn = sqlite3.connect(folder / "library.db")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = (folder / "library.db").read_bytes()
    for args in (["list"], ["annotate", "abcd", "--rating", "1"], ["export", "--format", "json"]):
        result = margin(*args, library=folder, subprocess=True)
        assert_one_line_error(result, "newer Margin", f"schema {SCHEMA_VERSION + 1}")
    assert (folder / "library.db").read_bytes() == before
    assert not (folder / "backups").exists() or not list((folder / "backups").glob("library-v*.db"))


# ------------------------------------------------------------------ 7. unreadable library.db
@pytest.mark.parametrize("content", [b"this is not sqlite" * 100, b"SQLite format 3\x00" + b"\xff" * 4000, b""])
def test_not_a_database_is_one_line_and_left_alone(tmp_path, content):
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "library.db").write_bytes(content)
    for args in (["list"], ["import", str(tmp_path / "none.json")], ["annotate", "abcd", "--tag", "x"]):
        result = margin(*args, library=folder, subprocess=True)
        if content == b"":  # an empty file is a new, empty SQLite database: Margin makes it a library
            assert result.returncode in (0, 1) and "Traceback" not in result.stderr
            continue
        assert_one_line_error(result)
    if content:
        assert (folder / "library.db").read_bytes() == content


def test_a_folder_named_library_db_is_one_line(tmp_path):
    folder = tmp_path / "lib"
    (folder / "library.db").mkdir(parents=True)
    assert_one_line_error(margin("list", library=folder, subprocess=True), "library.db")
    assert_one_line_error(margin("annotate", "abcd", "--tag", "x", library=folder, subprocess=True), "library.db")


def test_a_library_path_that_is_a_file_is_one_line(tmp_path):
    (tmp_path / "lib").write_text("a file, not a folder")
    assert_one_line_error(margin("list", library=tmp_path / "lib", subprocess=True), "lib")


@contextlib.contextmanager
def _tmpfs(where: Path, size: str):
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip()}); needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_read_only_disk_is_one_line_and_nothing_changes(folder, tmp_path):
    """Permission denied, the way it reaches root too: the library on a file system mounted read-only
    (as another user, chmod would do; root ignores file modes)."""
    folder, pid = folder
    before = db_state(folder)
    with _tmpfs(tmp_path / "ro", "64m") as mount:
        shutil.copytree(folder, mount / "lib")
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        result = margin("annotate", pid, "--rating", "1", library=mount / "lib", subprocess=True)
        assert_one_line_error(result, "library.db")
        listed = margin("list", library=mount / "lib", subprocess=True)
        assert listed.returncode == 0 or assert_one_line_error(listed)
        assert db_state(mount / "lib") == before


@pytest.mark.slow
def test_a_full_disk_during_an_import_is_one_line_and_nothing_half_written(folder, tmp_path):
    folder, pid = folder
    margin("list", "x", library=folder, subprocess=True)  # index built: only the import's own writes need room
    conn = sqlite3.connect(folder / "library.db")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = db_state(folder)
    big = tmp_path / "big.json"
    write_big_json(big, 3000)
    used = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    with _tmpfs(tmp_path / "full", f"{used // 1024 + 400}k") as mount:
        shutil.copytree(folder, mount / "lib")
        result = margin("import", str(big), library=mount / "lib", subprocess=True)
        assert_one_line_error(result)
        assert "full" in result.stderr
        assert integrity(mount / "lib") == "ok"
        assert db_state(mount / "lib") == before
        note = margin("annotate", pid, "--note", "still writable when there is room", library=mount / "lib",
                      subprocess=True)
        assert note.returncode == 0 or assert_one_line_error(note)
