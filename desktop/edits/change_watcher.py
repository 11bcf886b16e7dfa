"""Changes that another process (the command line, an import, another window) committed to the library.

SQLite's `PRAGMA data_version` moves only when another connection commits, and nothing of Margin's own
searching writes to the library, so a moved number is real news. The library's change log then says what
changed (db.library.library.Library.changes_since), and the watcher hands that on as a db.changes.Changes value, like
the window's own edits: the window applies it; it never reloads everything for it.
"""

from __future__ import annotations

import sqlite3

from PySide6.QtCore import QObject, QTimer, Signal

from db.changes import OUTSIDE, Changes
from db.errors import MarginError
from db.library.library import Library

CHECK_MS = 1000


class ChangeWatcher(QObject):
    """Polls the library every `interval` ms. Emits `changed(Changes)` for another process's changes, and
    `reloadNeeded()` when the change log no longer reaches back to the last change seen (then every view
    reloads what it shows)."""

    changed = Signal(object)
    reloadNeeded = Signal()

    def __init__(self, library: Library, parent=None, interval: int | None = None):
        super().__init__(parent)
        self._library = library
        self._seen = library.last_change()
        self._version = self._data_version()
        self.timer = QTimer(self, interval=interval or CHECK_MS)  # CHECK_MS read here: tests shorten it
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def _data_version(self) -> int | None:
        try:
            return self._library.data_version()
        except (sqlite3.Error, MarginError):  # a closed or busy library: look again later
            return None

    def check(self, force: bool = False) -> Changes | None:
        """Look now. Returns the changes found (also emitted), None when there was nothing new to read."""
        version = self._data_version()
        if version is None or (version == self._version and not force):
            return None
        self._version = version
        try:
            found = self._library.changes_since(self._seen, others_only=True)
        except (sqlite3.Error, MarginError):
            return None
        if found is None:
            self._seen = self._library.last_change()
            self.reloadNeeded.emit()
            return None
        changes, self._seen = found
        if changes:
            self.changed.emit(changes.by(OUTSIDE))  # not this window's edit
        return changes

    def stop(self) -> None:
        self.timer.stop()
