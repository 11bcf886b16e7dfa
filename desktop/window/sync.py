"""The window's sync with a PostgreSQL server (db.sync): File → Sync now, an automatic sync every N seconds
(`margin sync --every N`, default 60) while the window is open and a server is set (`margin sync --server URL`),
and a status-bar label: synced / N changed fields waiting / server unreachable (and how many wait), short enough
for a laptop's status bar; the why (libpq's words, a sync's figures) in its tooltip.

A sync runs on the background pool's worker thread (desktop.common.background) on a library connection of its
own, never on the GUI thread, and so is the count of changed fields waiting (db.sync.engine.waiting_here compares
the papers changed since the last sync: a moment for many). What a sync applied reaches the views as any other
process's change (the window's change watcher reads it from the change log), so a note changed on the other
machine raises the note editor's "changed elsewhere" bar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel

from db.errors import MarginError
from desktop.common.background import run_in_background
from desktop.common.i18n import number, plural
from desktop.common.plain_text import as_plain

if TYPE_CHECKING:
    from db.sync.server import SyncError

FIRST_SYNC_MS = 5000  # the first automatic sync after the window opens
DEFAULT_INTERVAL_S = 60
SYNC_PAUSE_MS = 30  # between the sync's short write transactions: the window's own edits get the lock at once
LABEL_DELAY_MS = 1000  # the waiting count follows edits this long after the last one


class SyncSchedule(QObject):
    """Syncs `window.library`'s folder now (`sync_now`) and every interval while a server is set; shows the
    state in a permanent status-bar label (`label`, objectName `syncStatus`, hidden with no server).
    `finished(report or error message)` after each sync. `error`: the last sync's SyncError (or message), None
    after one that went well; `waiting`: changed fields waiting to be sent, None until counted."""

    finished = Signal(object)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.library = window.library
        self.running = False
        self.error: SyncError | str | None = None
        self.waiting: int | None = None
        self.report = None  # the last sync's db.sync.engine.SyncReport
        self._counting = self._count_again = self._stopped = False
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
            from db.sync.server import SyncError

            library = open_for_sync(folder)
            try:
                try:
                    outcome = sync_library(library, pause_ms=SYNC_PAUSE_MS)
                except SyncError as error:  # said in the window's words (_texts), with its reason
                    outcome = error
                return outcome, _waiting(library)
            finally:
                library.close()

        run_in_background(self, work, self._done, self._failed)

    def _done(self, result) -> None:
        from db.sync.server import SyncError  # (db.sync is imported when a sync first runs, not at start)

        outcome, self.waiting = result
        self.running = False
        if self._stopped:
            return
        if isinstance(outcome, SyncError):
            self.error = outcome
        else:
            self.error, self.report = None, outcome
        self._render()
        self._again()
        self.finished.emit(str(outcome) if isinstance(outcome, SyncError) else outcome)

    def _failed(self, message: str) -> None:
        self.running, self.error = False, message
        if self._stopped:
            return
        self._render()
        self.show_state()
        self._again()
        self.finished.emit(message)

    def _again(self) -> None:
        if self.interval_s() > 0 and self.server():
            self.timer.start(self.interval_s() * 1000)

    def show_state(self) -> None:
        """Count the changed fields waiting (on the worker thread), then show synced / N waiting / server
        unreachable in the label (hidden with no server)."""
        if self.running or self._stopped:
            return
        if not self.server():
            self.label.hide()
            return
        if self._counting:
            self._count_again = True
            return
        self._counting = True
        folder = self.library.folder

        def work():
            from db.library import Library

            library = Library.open(folder, seed=False)
            try:
                return _waiting(library)
            finally:
                library.close()

        run_in_background(self, work, self._counted, self._count_failed)

    def _counted(self, waiting: int) -> None:
        self._counting, self.waiting = False, waiting
        if self._stopped:
            return
        self._render()
        if self._count_again:
            self._count_again = False
            self.show_state()

    def _count_failed(self, _message: str) -> None:
        self._counting = self._count_again = False  # the label keeps what it said

    def _render(self) -> None:
        if self.running or self.waiting is None or not self.server():
            return
        self._show(*self._texts(self.waiting))

    def _texts(self, waiting: int) -> tuple[str, str]:
        """(the label's text, its tooltip) for the state: short in the bar, the why in the tooltip."""
        error = self.error
        reason = getattr(error, "reason", None) or str(error)
        unreachable = schema = ()  # (no sync error before a sync ran: db.sync is not imported for this)
        if error is not None and not isinstance(error, str):
            from db.sync.server import SyncSchemaError, SyncUnreachable

            unreachable, schema = SyncUnreachable, SyncSchemaError
        if isinstance(error, unreachable):
            text = (self.tr("Sync: server unreachable · %Ln changed field(s) waiting", "", waiting) if waiting
                    else self.tr("Sync: server unreachable"))
            tip = self.tr("The sync server could not be reached: %1\nWhat changed here is kept and goes with the "
                          "next sync.")
            return plural(text, waiting), tip.replace("%1", reason)
        if error is not None:
            text = (self.tr("Sync failed · %Ln changed field(s) waiting", "", waiting) if waiting
                    else self.tr("Sync failed"))
            if isinstance(error, schema):
                tip = self.tr("The sync server keeps its data in a newer form than this Margin knows: update "
                              "Margin here to sync. Nothing was written.")
            elif getattr(error, "reason", None):
                tip = self.tr("The sync server refused the sync: %1").replace("%1", reason)
            else:
                tip = self.tr("The sync did not run: %1").replace("%1", reason)
            return plural(text, waiting), tip
        text = self.tr("Sync: %Ln changed field(s) waiting", "", waiting) if waiting else self.tr("Synced")
        return plural(text, waiting), self._last_sync() or self.server() or ""

    def _last_sync(self) -> str:
        report = self.report
        if report is None:
            return ""
        tip = (self.tr("Last sync with %1: %2 sent, %3 received.")
               .replace("%1", report.server)
               .replace("%2", plural(self.tr("%Ln changed field(s)", "", report.sent), report.sent))
               .replace("%3", number(report.received)))
        if report.conflicts:
            tip += " " + plural(self.tr("%Ln conflict(s) decided by the clock (margin sync --log).", "",
                                        report.conflicts), report.conflicts)
        return tip

    def _show(self, text: str, tip: str) -> None:
        self.label.setText(text)
        self.label.setToolTip(as_plain(tip))
        self.label.show()

    def stop(self) -> None:
        """No more automatic syncs (the window closes; a running one finishes on the worker)."""
        self._stopped = True
        self.timer.stop()
        self._label_timer.stop()


def _waiting(library) -> int:
    """Changed fields waiting for the personal server, plus decisions waiting for the library's projects (a lab
    member may have projects only, and no personal changes any server takes)."""
    from db.sync.engine import waiting_here

    personal = library.sync_book.sync_state().get("server")
    return (waiting_here(library) if personal else 0) + library.project_book.unsent()
