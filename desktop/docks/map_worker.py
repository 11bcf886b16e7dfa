"""The conference map's own worker thread (desktop.docks.map): a first t-SNE of a big venue takes seconds, and the
shared background pool stays free for backups and progress figures meanwhile."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class _Signals(QObject):
    done = Signal(object)
    failed = Signal(str)


class _Task(QRunnable):
    def __init__(self, function, signals: _Signals):
        super().__init__()
        self.function, self.signals = function, signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self.function()
        except Exception as error:  # noqa: BLE001 - shown in the dock as a message
            self._emit(self.signals.failed, str(error) or type(error).__name__)
        else:
            self._emit(self.signals.done, result)

    def _emit(self, signal, value) -> None:
        try:
            signal.emit(value)
        except RuntimeError:  # the dock (the signals' parent) was deleted meanwhile: nobody to tell
            pass


_pool: QThreadPool | None = None


def map_pool() -> QThreadPool:
    """The map's own worker thread (one computation at a time)."""
    global _pool
    if _pool is None:
        _pool = QThreadPool()
        _pool.setMaxThreadCount(1)
    return _pool


def run_on_map_worker(function: Callable[[], object], done: Callable[[object], None], failed: Callable[[str], None],
                      parent: QObject) -> None:
    """Run `function` on the map's worker; `done(result)` or `failed(message)` is called on `parent`'s thread."""
    signals = _Signals(parent)
    signals.done.connect(done)
    signals.failed.connect(failed)
    map_pool().start(_Task(function, signals))
