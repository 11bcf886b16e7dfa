"""The window's automatic backups of the library's annotations and user state (db.library.backup), each written in
a child process: one after every BACKUP_AFTER_CHANGES changes or BACKUP_AFTER_MS after the first change not yet in
a backup (whichever comes first; looked at every EDIT_CHECK_MS), the daily one (looked for half a minute after start
and then hourly), File → Back up now, and one more on close. So a crash or a kill loses no edit from a backup once
five minutes have passed since it (the library itself keeps every saved edit anyway)."""

from __future__ import annotations

import sqlite3
import sys
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from db.errors import MarginError
from db.library.backup import backup_folder_if_due, write_backup
from db.library.library import Library
from desktop.common.background import run_in_background

BACKUP_CHECK_MS = 60 * 60 * 1000  # look once an hour whether the daily backup is due
BACKUP_FIRST_CHECK_MS = 30 * 1000
EDIT_CHECK_MS = 15 * 1000  # how often the change log is looked at (one cheap read)
BACKUP_AFTER_CHANGES = 25  # changes (change-log entries: a rating, a tag, a note save…) that make a backup due
BACKUP_AFTER_MS = 5 * 60 * 1000  # how long the first change not yet in a backup may wait for one


class BackupSchedule(QObject):
    """Backs up `library` when due (`check`, on a timer) and on close (`write_now`); a failed daily backup is
    told to `failed(message)`."""

    def __init__(self, library: Library, failed: Callable[[str], None], parent: QObject):
        super().__init__(parent)
        self.library = library
        self._failed = failed
        self._timer = QTimer(self, interval=BACKUP_CHECK_MS)
        self._timer.timeout.connect(self.check)
        self._edits = QTimer(self, interval=EDIT_CHECK_MS)
        self._edits.timeout.connect(self.check_edits)
        self._backed_up = library.last_change()  # the change log as the last backup (or the start) saw it
        self._since: float | None = None  # when a change not yet in a backup was first seen (monotonic)
        self._writing = False
        self._stopped = False  # the window closed (its library may be closed too): no more backups from here
        self.written: list[str] = []  # the backups this window wrote, for tests
        if library.unwritable:  # nothing can change, and nothing can be written beside it
            return
        self._timer.start()
        self._edits.start()
        QTimer.singleShot(BACKUP_FIRST_CHECK_MS, self.check)

    def check(self) -> None:
        """Write the daily backup when it is due, in a child process (at 100k papers the backup is seconds of
        Python: stalls of 0.2-0.5 s on any thread of this process)."""
        self._write(now=False)

    def check_edits(self) -> None:
        """Back up when BACKUP_AFTER_CHANGES changes were made since the last backup, or BACKUP_AFTER_MS passed
        since the first of them."""
        if self._stopped:
            return
        changes = self.library.last_change() - self._backed_up
        if changes <= 0:
            self._since = None
            return
        self._since = self._since if self._since is not None else time.monotonic()
        if changes >= BACKUP_AFTER_CHANGES or (time.monotonic() - self._since) * 1000 >= BACKUP_AFTER_MS:
            self._write(now=True)

    def back_up_now(self, done: Callable[[str], None] | None = None) -> None:
        """File → Back up now: write a backup (unless one is being written), then `done(path)`."""
        self._write(now=True, done=done)

    def _write(self, now: bool, done: Callable[[str], None] | None = None) -> None:
        if self._writing or self._stopped or self.library.unwritable:
            return
        folder, seen = str(self.library.folder), self.library.last_change()
        self._writing = True

        def work():
            import multiprocessing  # (here, off the window's thread, when a backup is first written)
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as child:
                return child.submit(backup_folder_if_due, folder, now).result()

        def finished(path) -> None:
            self._writing = False
            if path is not None:
                self._backed_up, self._since = max(self._backed_up, seen), None
                self.written.append(path)
                if done is not None:
                    done(path)

        def failed(message: str) -> None:
            self._writing = False
            self._failed(message)

        run_in_background(self, work, finished, failed)

    def stop(self) -> None:
        """No more checks (the window closes)."""
        self._stopped = True
        self._timer.stop()
        self._edits.stop()

    def write_now(self) -> None:
        """Write a backup now, on this thread (the window has closed); a failure is said on stderr."""
        if self.library.unwritable:
            return
        try:
            write_backup(self.library)
        except (MarginError, OSError, sqlite3.DatabaseError) as error:  # a damaged page: no backup of it
            print(f"margin: could not write the backup: {error}", file=sys.stderr)
