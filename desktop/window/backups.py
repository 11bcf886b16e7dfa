"""The window's automatic backups of the library's annotations (db.library.backup): the daily one, looked for
half a minute after start and then hourly and written in a child process when due, and one more on close."""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from PySide6.QtCore import QObject, QTimer

from db.errors import MarginError
from db.library.backup import backup_folder_if_due, write_backup
from db.library.library import Library
from desktop.common.background import run_in_background

BACKUP_CHECK_MS = 60 * 60 * 1000  # look once an hour whether the daily backup is due
BACKUP_FIRST_CHECK_MS = 30 * 1000


class BackupSchedule(QObject):
    """Backs up `library` when due (`check`, on a timer) and on close (`write_now`); a failed daily backup is
    told to `failed(message)`."""

    def __init__(self, library: Library, failed: Callable[[str], None], parent: QObject):
        super().__init__(parent)
        self.library = library
        self._failed = failed
        self._timer = QTimer(self, interval=BACKUP_CHECK_MS)
        self._timer.timeout.connect(self.check)
        if library.unwritable:  # nothing can change, and nothing can be written beside it
            return
        self._timer.start()
        QTimer.singleShot(BACKUP_FIRST_CHECK_MS, self.check)

    def check(self) -> None:
        """Write the daily backup when it is due, in a child process (at 100k papers the backup is seconds of
        Python: stalls of 0.2-0.5 s on any thread of this process)."""
        folder = str(self.library.folder)

        def work():
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as child:
                return child.submit(backup_folder_if_due, folder).result()

        run_in_background(self, work, lambda path: None, self._failed)

    def stop(self) -> None:
        """No more daily checks (the window closes)."""
        self._timer.stop()

    def write_now(self) -> None:
        """Write a backup now, on this thread (the window has closed); a failure is said on stderr."""
        if self.library.unwritable:
            return
        try:
            write_backup(self.library)
        except (MarginError, OSError) as error:
            print(f"margin: could not write the backup: {error}", file=sys.stderr)
