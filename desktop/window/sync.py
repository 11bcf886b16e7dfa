"""The window's sync with a PostgreSQL server (db.sync): File → Sync now, an automatic sync every N seconds
(`margin sync --every N`, default 60) while the window is open and a server is set (`margin sync --server URL`),
and a status-bar label: synced / N changes waiting / server unreachable (why).

A sync runs on the background pool's worker thread (desktop.common.background) on a library connection of its
own, never on the GUI thread; what it applied reaches the views as any other process's change (the window's
change watcher reads it from the change log), so a note changed on the other machine raises the note editor's
"changed elsewhere" bar.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel

from db.errors import MarginError
from desktop.common.background import run_in_background
from desktop.common.i18n import plural
from desktop.common.plain_text import as_plain

FIRST_SYNC_MS = 5000  # the first automatic sync after the window opens
DEFAULT_INTERVAL_S = 60
SYNC_PAUSE_MS = 30  # between the sync's short write transactions: the window's own edits get the lock at once
LABEL_CHARS = 90  # the longest status text shown in the bar
LABEL_DELAY_MS = 1000  # the waiting count follows edits this long after the last one


class SyncSchedule(QObject):
    """Syncs `window.library`'s folder now (`sync_now`) and every interval while a server is set; shows the
    state in a permanent status-bar label (`label`, objectName `syncStatus`, hidden with no server).
    `finished(report or error message)` after each sync."""

    finished = Signal(object)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.library = window.library
        self.running = False
        self.error: str | None = None
        self.label = QLabel(window)
        self.label.setObjectName("syncStatus")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setAccessibleName(self.tr("Sync status"))
        self.label.hide()
        window.statusBar().addPermanentWidget(self.label)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.sync_now)
        self._label_timer = QTimer(self, singleShot=True, interval=LABEL_DELAY_MS)
        self._label_timer.timeout.connect(self.show_state)
        window.libraryChanged.connect(lambda _changes: self._label_timer.start())
        if self.server():
            self.show_state()
            QTimer.singleShot(FIRST_SYNC_MS, self._first)

    def server(self) -> str | None:
        """The server set for this library (no password), None when none is."""
        try:
            joined = self.library.project_book.projects()  # a lab member may sync projects only (issue 27)
            return self.library.sync_book.sync_state().get("server") or (joined[0]["server"] if joined else None)
        except MarginError:
            return None

    def interval_s(self) -> int:
        try:
            return int(self.library.sync_book.sync_state().get("interval", DEFAULT_INTERVAL_S))
        except (MarginError, ValueError):
            return DEFAULT_INTERVAL_S

    def _first(self) -> None:
        if self.library.closed:  # the window closed before its first sync was due
            return
        if not self.timer.isActive() and not self.running:
            self.sync_now()

    def sync_now(self) -> None:
        """Start a sync on the worker thread (nothing when one runs or no server is set: then say how to set one)."""
        if self.running:
            return
        if not self.server():
            self.window.statusBar().showMessage(
                self.tr("No sync server is set for this library: margin sync --server URL"), 10000)
            return
        self.running = True
        self.timer.stop()
        self._show(self.tr("Syncing…"), "")
        folder = self.library.folder

        def work():
            from db.sync import open_for_sync, sync_library

            library = open_for_sync(folder)
            try:
                return sync_library(library, pause_ms=SYNC_PAUSE_MS)
            finally:
                library.close()

        run_in_background(self, work, self._done, self._failed)

    def _done(self, report) -> None:
        self.running, self.error = False, None
        self.show_state(report.summary())
        self._again()
        self.finished.emit(report)

    def _failed(self, message: str) -> None:
        self.running, self.error = False, message
        self.show_state()
        self._again()
        self.finished.emit(message)

    def _again(self) -> None:
        if self.interval_s() > 0 and self.server():
            self.timer.start(self.interval_s() * 1000)

    def show_state(self, detail: str = "") -> None:
        """Show synced / N changes waiting / server unreachable (why) in the label (hidden with no server)."""
        if self.running:
            return
        server = self.server()
        if not server:
            self.label.hide()
            return
        from db.sync.engine import waiting_here

        try:  # a library with projects only (a lab member) has no personal changes to send: its decisions wait
            personal = self.library.sync_book.sync_state().get("server")
            waiting = (waiting_here(self.library) if personal else 0) + self.library.project_book.unsent()
        except MarginError:
            return
        if self.error:  # the whole reason in the tooltip, the start of it in the bar
            text = self.tr("Sync: %1").replace("%1", self.error)
            detail = text
            text = text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"
        elif waiting:
            text = plural(self.tr("Sync: %Ln change(s) waiting", "", waiting), waiting)
        else:
            text = self.tr("Synced")
        self._show(text, detail or server)

    def _show(self, text: str, tip: str) -> None:
        self.label.setText(text)
        self.label.setToolTip(as_plain(tip))
        self.label.show()

    def stop(self) -> None:
        """No more automatic syncs (the window closes; a running one finishes on the worker)."""
        self.timer.stop()
        self._label_timer.stop()
