"""Run a function on a worker thread and get its result (or error) back on the GUI thread.

The function must not touch widgets; it should open its own Library connection when it needs the database,
so the GUI thread's connection is never held for long.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class _Signals(QObject):
    done = Signal(object)
    failed = Signal(str)


class _Task(QRunnable):
    def __init__(self, function: Callable[[], object], signals: _Signals):
        super().__init__()
        self.function = function
        self.signals = signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self.function()
        except Exception as error:  # noqa: BLE001 - handed to the GUI as a message
            self._tell("failed", str(error) or type(error).__name__)
        else:
            self._tell("done", result)

    def _tell(self, name: str, value: object) -> None:
        try:
            getattr(self.signals, name).emit(value)
        except RuntimeError:  # the parent (a window, a dock) was deleted while this ran: nobody is left to tell
            pass


_pool: QThreadPool | None = None


def pool() -> QThreadPool:
    global _pool
    if _pool is None:
        _pool = QThreadPool()
        _pool.setMaxThreadCount(1)  # one background writer at a time besides the search worker
    return _pool


def run_in_background(parent: QObject, function: Callable[[], object], on_done: Callable[[object], None],
                      on_failed: Callable[[str], None]) -> None:
    """Run `function()` on the background pool; call `on_done(result)` or `on_failed(message)` on the GUI
    thread (through `parent`, which must outlive the task)."""
    signals = _Signals(parent)
    signals.done.connect(on_done)
    signals.failed.connect(on_failed)
    signals.done.connect(signals.deleteLater)
    signals.failed.connect(signals.deleteLater)
    pool().start(_Task(function, signals))


def wait_for_background(msecs: int = 30000) -> bool:
    """Wait until background tasks are done (on closing). Returns False on time-out."""
    return pool().waitForDone(msecs)
