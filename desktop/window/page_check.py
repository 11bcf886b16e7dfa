"""Reading every page of the library's tables once the window shows its papers.

The window opens its library with only the ends of its tables read (db.library.damage.read_ends: under a
millisecond); reading every leaf page (db.library.damage.read_pages, 60-240 ms at 100k papers) waited before the
list's first paint. It now runs here, on the background pool with a read-only connection of its own, just after
that paint, and a damaged page found there is told by `damageFound` (desktop.app offers the rebuild it offers
when damage is found at open).
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QObject, Signal

from db.library.damage import damaged, scan
from desktop.common.background import run_in_background
from desktop.window.lazy_docks import AfterFirstPaint


class PageCheck(QObject):
    """Reads every page of `window`'s library (a MainWindow) after its paper list's first paint.

    `done` is True once the pages were read; `damage` the LibraryDamaged found (None: none)."""

    damageFound = Signal(object)  # db.errors.LibraryDamaged: the file, SQLite's words, the newest backup

    def __init__(self, window) -> None:
        super().__init__(window)
        self._window = window
        self.done = False
        self.damage = None
        self._after_paint = AfterFirstPaint(window.paper_list.viewport(), self.start)

    def start(self) -> None:
        """Read the pages now (once; the window's first paint calls it)."""
        if self._after_paint is None or self._window.property("closing"):
            return
        self._after_paint = None
        run_in_background(self, partial(scan, self._window.library.folder), self._read, self._failed)

    def _read(self, reason: str | None) -> None:
        self.done = True
        if reason is not None and not self._window.property("closing"):
            self.damage = damaged(self._window.library.folder, reason)
            self.damageFound.emit(self.damage)

    def _failed(self, _message: str) -> None:  # not damage (scan returns that): left to the reads that meet it
        self.done = True
