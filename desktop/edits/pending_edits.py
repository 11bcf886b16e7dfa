"""Edits the library cannot take right now: kept, shown as waiting, and saved as soon as it can take them.

Another Margin process may hold the library's write lock (an import, a second window, the command line) and
the disk may be full. The window then must neither freeze nor lose the edit: its Library waits at most
WRITE_WAIT_MS for the lock (instead of the command line's ten seconds), and an edit that fails as busy or
unwritable is queued here, in order, with what it was ("Set rating"). The queue retries every RETRY_MS
without waiting (a retry while the other process still writes costs the window nothing);
later edits wait behind earlier ones so they are saved in the order they were made; the status bar shows
how many are waiting and why. On close the window tries once more with the long wait (`flush`), and says
which edits could not be saved.

Every window edit (desktop.edits.operations) goes through `write`; notes have their own retry
(desktop.reader.note_session), which also rescues them to a file.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from db.changes import Changes
from db.errors import LibraryDamaged, LibraryError
from db.library.library import BUSY_TIMEOUT_MS, Library

WRITE_WAIT_MS = 250  # the longest a window edit waits for another process's write (the GUI thread waits)
RETRY_MS = 2000

Write = Callable[[], Changes]


class ChangedElsewhere(Exception):
    """Raised by an edit (an undo or redo, desktop.edits.undo) that must not be made because what it would
    overwrite was changed since by something else (the command line, another window, a sync). The edit is
    dropped and `refused(text)` says which; args[0]: the paper's label or the tag's name."""


class PendingEdits(QObject):
    """The window's writes: `write(text, fn, initiator)` runs `fn` (a Library mutation returning Changes) now, or
    keeps it for later when the library cannot take it; `apply` gets the Changes of every write that was saved, as
    made by its initiator. Signals: `waiting(count, reason)` when the number of kept edits changes (0: all saved);
    `refused(text)` when an edit was dropped because what it would overwrite changed elsewhere (ChangedElsewhere)."""

    waiting = Signal(int, str)
    refused = Signal(str)

    def __init__(self, library: Library, apply: Callable[[Changes], None], parent: QObject | None = None):
        super().__init__(parent)
        self._library = library
        self._apply = apply
        self._queue: deque[tuple[str, Write, Any]] = deque()
        self.reason = ""
        library.write_wait_ms = WRITE_WAIT_MS
        self.timer = QTimer(self, interval=RETRY_MS)
        self.timer.timeout.connect(lambda: self.retry(wait_ms=0))  # a retry only looks: never a stall

    def __len__(self) -> int:
        return len(self._queue)

    def descriptions(self) -> list[str]:
        """What each kept edit was, oldest first ("Set rating")."""
        return [text for text, _write, _initiator in self._queue]

    def write(self, text: str, write: Write, initiator: Any = None) -> None:
        """Save the edit `write` now, or keep it (behind any kept before it) when the library cannot take it.
        What it changed is applied as made by `initiator` (db.changes.Changes.initiator)."""
        self._queue.append((text, write, initiator))
        if len(self._queue) == 1:
            self.retry()
        else:
            self.waiting.emit(len(self._queue), self.reason)

    def retry(self, wait_ms: int | None = None) -> bool:
        """Try the kept edits in order; stop at the first the library still refuses. True when none is left.
        `wait_ms`: how long to wait for another process's write (default: as long as the window waits)."""
        while self._queue:
            text, write, initiator = self._queue[0]
            try:
                with self._library.waiting_at_most(wait_ms):
                    changes = write()
            except KeyError:  # the paper is gone: nothing to save it to
                changes = None
            except ChangedElsewhere:
                changes = None
                self.refused.emit(text)
            except LibraryDamaged:
                raise
            except LibraryError as error:
                self.reason = str(error)
                if not self.timer.isActive():
                    self.timer.start()
                self.waiting.emit(len(self._queue), self.reason)
                return False
            self._queue.popleft()
            if changes is not None:
                self._apply(changes.by(initiator))
        if self.timer.isActive():
            self.timer.stop()
            self.reason = ""
            self.waiting.emit(0, "")
        return True

    def flush(self) -> list[str]:
        """Try the kept edits once more, waiting as long as the command line does (on close). Returns the
        descriptions of those that still could not be saved."""
        if not self._queue:
            return []
        self.retry(wait_ms=BUSY_TIMEOUT_MS)
        return self.descriptions()
