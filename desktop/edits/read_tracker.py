"""When a paper counts as read: the user chose it, and had it open for DWELL_MS with the window active.

A row the program selected (the first row at start, after a search, after a sidebar click, after the shown
paper dropped out of a view) is never marked read by itself. Leaving the window stops the clock; coming back
starts it again for the paper still shown.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

DWELL_MS = 2000


class ReadTracker(QObject):
    """`shown(paper_id, by_user)` on every change of the shown paper; `window_activated()` when the window
    becomes active again. Marks the paper read through `mark_read(paper_id)` (desktop.edits.operations: kept and
    saved later when the library is busy).
    `enabled()` says whether View → Mark read when shown is on; `active()` whether the window is active."""

    def __init__(self, mark_read: Callable[[str], None], enabled: Callable[[], bool],
                 active: Callable[[], bool], parent=None):
        super().__init__(parent)
        self._mark_read = mark_read
        self._enabled = enabled
        self._active = active
        self._paper_id: str | None = None  # the user's choice, waiting for the dwell time
        self.timer = QTimer(self, singleShot=True, interval=DWELL_MS)
        self.timer.timeout.connect(self._elapsed)

    def shown(self, paper_id: str | None, by_user: bool) -> None:
        """The paper shown changed to `paper_id`; `by_user` when the user's click or key chose it."""
        self.timer.stop()
        self._paper_id = paper_id if by_user and self._enabled() else None
        if self._paper_id is not None and self._active():
            self.timer.start()

    def window_activated(self) -> None:
        if self._paper_id is not None and not self.timer.isActive():
            self.timer.start()

    def stop(self) -> None:
        """Forget the pending paper (it was marked by hand, or the window closes)."""
        self.timer.stop()
        self._paper_id = None

    def pending(self) -> str | None:
        """The paper that will be marked read when its time is up (None when none)."""
        return self._paper_id

    def _elapsed(self) -> None:
        paper_id, self._paper_id = self._paper_id, None
        if paper_id is None or not self._enabled():
            return
        if not self._active():  # the user left the window before the time was up: wait for them
            self._paper_id = paper_id
            return
        self._mark_read(paper_id)
