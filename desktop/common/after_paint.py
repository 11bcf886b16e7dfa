"""Run a step after a widget's next paint, in an event-loop turn of its own.

Why (issue 28): a keystroke's results change the paper list (its paint: 10-17 ms of the window's thread at 100,000
papers) and the current paper (the reader's HTML and layout: 2-25 ms). Run in the same turn of the event loop they
were one stall of up to 45 ms, during which no key or timer was served; the reader following the list's paint in a
turn of its own halves the longest stall, and the reader still shows the new current paper one frame later.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QWidget

LATEST_MS = 100  # no paint this long after being armed (nothing the list showed changed, a minimised window): run
_PAINTED = QEvent.Type(QEvent.registerEventType())  # posted from the paint: delivered after it, in the next turn
# below the paint's own request (Qt posts it at LowEventPriority): when both wait in one turn, the paint goes first
_AFTER_PAINTS = Qt.EventPriority.LowEventPriority.value - 1


class AfterNextPaint(QObject):
    """Calls `then()` from the event loop once `widget` has painted after `arm()`, in a turn after the paint's;
    at the next turn when `widget` is not visible (no paint is coming), and at the latest LATEST_MS after `arm()`.
    Arming again before it ran runs it once. `stop()` forgets an armed call and takes no more (on closing: a
    search's results still on their way must not show a paper from a closed library)."""

    def __init__(self, widget: QWidget, then: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._widget, self._armed, self._stopped = widget, False, False
        self._now = QTimer(self, singleShot=True, interval=0)  # the turn after the paint's
        self._now.timeout.connect(then)
        self._latest = QTimer(self, singleShot=True, interval=LATEST_MS)
        self._latest.timeout.connect(self._after_paints)

    @property
    def armed(self) -> bool:
        """True while waiting for the widget's paint (for tests)."""
        return self._armed

    def arm(self) -> None:
        if self._stopped:
            return
        if not self._widget.isVisible():
            self._after_paints()
            return
        if not self._armed:
            self._armed = True
            self._widget.installEventFilter(self)
            self._latest.start()

    def stop(self) -> None:
        self._stopped = True
        self._disarm()
        self._now.stop()

    def _disarm(self) -> None:
        if self._armed:
            self._armed = False
            self._widget.removeEventFilter(self)
            self._latest.stop()

    def _after_paints(self) -> None:
        """Run `then` from a timer started once the paints waiting now (if any) are over: the event posted here
        comes after them, and the timer it starts is due after every timer that was due meanwhile."""
        self._disarm()
        QCoreApplication.postEvent(self, QEvent(_PAINTED), _AFTER_PAINTS)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint and self._armed:
            # this filter runs before the paint: an event posted now is delivered once the paint is over, in the
            # event loop's next turn; it starts the timer then, so timers due meanwhile (a key's, the clock's)
            # run before `then`, not after it in one go
            self._after_paints()
        return False

    def customEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        if event.type() == _PAINTED and not self._stopped:
            self._now.start()
