"""Opening a library that cannot be written: on a read-only medium (a read-only mount, a folder or file without
write permission) or on a full disk. SQLite in WAL mode must create `library.db-wal` and `library.db-shm` beside
the database even to read it, so the ordinary connection fails there ("unable to open database file", "disk I/O
error"). `open_unwritable` connects read-only instead — `mode=ro`, or `immutable=1` where not even the shared-memory
file can be made — after removing the empty side files the failed attempt left, and says why in `reason`:
READ_ONLY or DISK_FULL. The Store then refuses every write with one line (`refusal`), and the derived data
(search index, recommendation and map caches) goes to a folder of the user's cache (`derived_folder`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import sqlite3
from pathlib import Path

READ_ONLY = "read-only"
# derived data a library folder may hold that is costly to make again (minutes of embedding): an unwritable
# library's derived folder starts from a copy of it, kept until the library's own is newer (db.embed.store)
SEEDS = ("embed/vectors.db", "embed/model.txt")
DISK_FULL = "disk full"
_SIDE_FILES = ("-wal", "-shm", "-journal")
_FULL_BELOW = 256 * 1024  # free bytes under which the disk counts as full (SQLite needs a few pages and the shm)


def side_files(path: Path) -> dict[Path, bool]:
    """{side file of the database `path`: whether it exists}, taken before an open attempt."""
    return {Path(f"{path}{suffix}"): Path(f"{path}{suffix}").exists() for suffix in _SIDE_FILES}


def writable(folder: Path, path: Path) -> bool:
    """Whether the library's folder and database may be written (access(2): false on a read-only mount, also for
    root)."""
    return os.access(folder, os.W_OK) and os.access(path, os.W_OK)


def why_unwritable(folder: Path, path: Path) -> str | None:
    """READ_ONLY when the library's folder or database cannot be written, DISK_FULL when the disk holding it has
    (almost) no free space, else None (the failure was something else)."""
    probe = folder / f".margin-write-test-{os.getpid()}"
    try:
        with open(probe, "wb") as handle:
            handle.write(b"x" * 4096)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        with contextlib.suppress(OSError):
            probe.unlink()
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            return DISK_FULL
        return READ_ONLY if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM) else None
    with contextlib.suppress(OSError):
        probe.unlink()
    if path.exists() and not os.access(path, os.W_OK):
        return READ_ONLY
    with contextlib.suppress(OSError):
        if shutil.disk_usage(folder).free < _FULL_BELOW:
            return DISK_FULL
    return None


def remove_new_side_files(before: dict[Path, bool]) -> None:
    """Remove the side files that a failed open made (those that did not exist before it) while they hold
    nothing: empty, or the few zero bytes of a shared-memory file that could not be written on a full disk."""
    for side, existed in before.items():
        with contextlib.suppress(OSError):
            if not existed and side.exists() and side.stat().st_size <= 65536 and not side.read_bytes().strip(b"\0"):
                side.unlink()


def open_unwritable(path: Path, reason: str) -> sqlite3.Connection:
    """A read-only connection to the database `path`: on a read-only medium `mode=ro` when SQLite can use the WAL
    side files as they are, else (and on a full disk) `immutable=1` (safe: nothing can write the file meanwhile).
    Side files a failed attempt made are removed. Raises sqlite3.DatabaseError when it cannot be read."""
    uri = path.resolve().as_uri()
    modes = ("mode=ro", "immutable=1") if reason == READ_ONLY else ("immutable=1",)
    for mode in modes:
        before = side_files(path)
        connection = sqlite3.connect(f"{uri}?{mode}", uri=True, check_same_thread=False, timeout=10.0)
        try:
            connection.execute("PRAGMA user_version").fetchone()
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return connection
        except sqlite3.DatabaseError:
            connection.close()
            remove_new_side_files(before)
            if mode == modes[-1]:
                raise
    raise AssertionError("unreachable")


def refusal(path: Path, reason: str) -> str:
    """The one line a write to an unwritable library gets."""
    if reason == DISK_FULL:
        return f"{path}: the disk is full: changes can't be saved (reading works; free some space and try again)"
    return f"{path}: read-only: changes can't be saved"


def derived_folder(folder: Path) -> Path:
    """Where the derived data of an unwritable library `folder` goes: `<user cache>/Margin/unwritable/<hash of the
    folder's path>` (platformdirs; $XDG_CACHE_HOME on Linux). Created when missing, with a copy of the SEEDS the
    library's folder holds (its semantic vectors), so they are read, not computed again."""
    import platformdirs

    key = hashlib.sha256(str(folder.resolve()).encode("utf-8")).hexdigest()[:16]
    target = Path(platformdirs.user_cache_dir("Margin", appauthor=False)) / "unwritable" / key
    target.mkdir(parents=True, exist_ok=True)
    for name in SEEDS:
        _seed(folder / name, target / name)
    return target


def _seed(source: Path, copy: Path) -> None:
    """Copy `source` to `copy` when it is newer (or there is none): an SQLite file through a read-only connection
    (its WAL side files read as they are, none made), anything else as bytes. Derived data: a copy that fails is
    left out (it is made again)."""
    try:
        if not source.is_file() or (copy.exists() and copy.stat().st_mtime >= source.stat().st_mtime):
            return
        copy.parent.mkdir(parents=True, exist_ok=True)
        part = copy.with_name(copy.name + ".part")
        if source.suffix != ".db":
            shutil.copyfile(source, part)
        else:
            part.unlink(missing_ok=True)
            reading = open_unwritable(source, READ_ONLY)
            try:
                writing = sqlite3.connect(part)
                reading.backup(writing)
                writing.close()
            finally:
                reading.close()
            for suffix in _SIDE_FILES:  # an older copy's: they must not meet the new file
                Path(f"{copy}{suffix}").unlink(missing_ok=True)
        os.replace(part, copy)
    except (OSError, sqlite3.Error):
        with contextlib.suppress(OSError):
            copy.with_name(copy.name + ".part").unlink(missing_ok=True)
