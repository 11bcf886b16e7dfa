"""The search index's folder on disk, shared by every Margin process on a library (window and command line).

Two rules keep processes from breaking each other's index:
- one index writer at a time across processes: `IndexLock`, an OS file lock on `<library>/index.lock`
  (outside `index/`, so a rebuild never removes it; the OS releases it when its process dies);
- a rebuild never deletes the folder others are reading: it builds into a fresh sibling folder
  (`fresh_folder`) and `swap_in` renames it into place; a reader's open files stay valid, and the old folder
  is removed afterwards.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from whoosh.util.filelock import FileLock

from db.errors import IndexBusy

LOCK_WAIT = 120.0  # seconds to wait for another process's rebuild (20k papers take well under a minute)


class IndexLock:
    """A reentrant, cross-process lock for writing the index in `folder` (the `index/` path). Waits up to
    `timeout` seconds, calling `waiting()` once when another process holds it; after that (or when the lock
    file cannot be made) entering raises db.errors.IndexBusy: the index is never written without the lock."""

    def __init__(self, folder: Path, waiting: Callable[[], None] | None = None, timeout: float = LOCK_WAIT):
        self.path = Path(folder).with_name(Path(folder).name + ".lock")
        self.waiting = waiting
        self.timeout = timeout
        self._lock: FileLock | None = None
        self._depth = 0

    @contextmanager
    def waiting_at_most(self, seconds: float | None):
        """Taking the lock inside waits at most `seconds` (None: as set, `timeout`); as Library.waiting_at_most."""
        before = self.timeout
        if seconds is not None:
            self.timeout = seconds
        try:
            yield
        finally:
            self.timeout = before

    def __enter__(self) -> IndexLock:
        if self._depth == 0:
            self._acquire()
        self._depth += 1
        return self

    def __exit__(self, *exc) -> None:
        self._depth -= 1
        if self._depth == 0 and self._lock is not None:
            lock, self._lock = self._lock, None
            lock.release()

    def _acquire(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock = FileLock(str(self.path))
            if lock.acquire(blocking=False):
                self._lock = lock
                return
        except OSError as error:
            raise IndexBusy(f"{self.path}: cannot make the search index's lock file ({error.strerror or error})"
                            ) from None
        if self.waiting is not None:
            self.waiting()
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            time.sleep(0.05)
            if lock.acquire(blocking=False):
                self._lock = lock
                return
        raise IndexBusy(f"{self.path}: another Margin process has been writing the search index for "
                        f"{self.timeout:g} s; the index was not updated (try again when it has finished)")


def fresh_folder(target: Path) -> Path:
    """A new empty folder beside `target` to build an index in (`index.new-PID-…`). Leftovers of processes
    that died while building, and old folders a swap could not remove, are deleted first."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    for leftover in target.parent.glob(f"{target.name}.*-*"):
        kind, _sep, rest = leftover.name[len(target.name) + 1:].partition("-")
        if kind == "old" or (kind == "new" and not _alive(rest.partition("-")[0])):
            _remove(leftover)
    return Path(tempfile.mkdtemp(dir=target.parent, prefix=f"{target.name}.new-{os.getpid()}-"))


def swap_in(fresh: Path, target: Path) -> bool:
    """Put the finished index folder `fresh` in place of `target` (a folder, a file, or nothing). Returns
    False when another process put its own new index there in the meantime (ours is then discarded)."""
    old = target.with_name(f"{target.name}.old-{os.getpid()}-{time.monotonic_ns()}")
    try:
        os.replace(target, old)
    except FileNotFoundError:
        old = None
    try:
        os.replace(fresh, target)
        installed = True
    except OSError:  # a non-empty folder is there again: another process swapped first; its index is as new
        _remove(fresh)
        installed = False
    if old is not None:
        _remove(old)
    return installed


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _alive(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True
