"""The window's docks made late: View → Triage progress (desktop.docks.progress) and View → Conference map
(desktop.docks.map). Their pyqtgraph, numpy and scipy take 0.4-0.8 s to import, so they are made just after the
first paint of the paper list (or when first asked for), not before it; then the heap is settled."""

from __future__ import annotations

import gc

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


def settle_heap() -> None:
    """Take what the window and the search index have built so far out of the cyclic garbage collector's
    scans (gc.freeze): they live as long as the window. Its full collections otherwise walk every one of those
    objects, holding the interpreter lock meanwhile: 140 ms at 100k papers, a stall of the window whichever
    thread it runs on; with them frozen, the longest collection while typing took 10 ms. Frozen objects are
    still freed when no longer referenced; only a reference cycle among them would stay."""
    gc.freeze()


class AfterFirstPaint(QObject):
    """Calls `then()` once, from the event loop, after `widget` was first painted."""

    def __init__(self, widget, then) -> None:
        super().__init__(widget)
        self._then = then
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint and self._then is not None:
            then, self._then = self._then, None
            watched.removeEventFilter(self)
            QTimer.singleShot(0, then)
        return False


class LazyDocks(QObject):
    """The progress and map docks of `window` (a MainWindow), made after `first_painted` was first painted or
    when `progress` or `map` is first read; none is made once the window is closing (its "closing" property)."""

    def __init__(self, window, first_painted: QWidget):
        super().__init__(window)
        self._window = window
        self._docks: dict[str, object] = {}
        self._first_paint = AfterFirstPaint(first_painted, self.build)

    @property
    def progress(self):
        """View → Triage progress (desktop.docks.progress.ProgressDock)."""
        if "progress" not in self._docks:
            from desktop.docks.progress import ProgressDock

            self._docks["progress"] = ProgressDock(self._window)
        return self._docks["progress"]

    @property
    def criteria(self):
        """View → Screening criteria (desktop.docks.criteria.CriteriaDock, issue 29)."""
        if "criteria" not in self._docks:
            from desktop.docks.criteria import CriteriaDock

            self._docks["criteria"] = CriteriaDock(self._window)
        return self._docks["criteria"]

    @property
    def map(self):
        """View → Conference map, File → Export map… (desktop.docks.map.MapDock; its menu entry goes before
        the progress view's, so that one is made first)."""
        if "map" not in self._docks:
            from desktop.docks.map import MapDock

            self.build(map_too=False)
            self._docks["map"] = MapDock(self._window)
        return self._docks["map"]

    def made(self, name: str):
        """The dock `name` ("progress", "map", "criteria") when it was made already, else None."""
        return self._docks.get(name)

    def save_typing(self) -> None:
        """Save what a dock holds typed but not saved yet (the screening criteria), before the window closes."""
        if "criteria" in self._docks:
            self._docks["criteria"].save_typing()

    def build(self, map_too: bool = True) -> None:
        """Make the docks not made yet (the map too when `map_too`), unless the window is closing."""
        if not self._window.property("closing"):
            _ = self.progress
            _ = self.criteria
            if map_too:
                _ = self.map
                settle_heap()
