"""Errors that the command line and the window show to the user as one line."""

from __future__ import annotations

from pathlib import Path


class MarginError(Exception):
    """A problem with the user's input or data; its str() is the one line shown to the user."""


class InputError(MarginError):
    """A file that cannot be read. `path` and `line` (1-based, optional) say where."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        self.path = Path(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else f"{self.path}"
        super().__init__(f"{where}: {message}")


class LibraryError(MarginError):
    """The library folder or its database cannot be used (too new, unreadable, locked)."""


class LibraryBusy(LibraryError):
    """Another process held the library's write lock for longer than this one would wait; nothing was changed.
    Trying again later can succeed (the window keeps the edit and retries)."""


class IndexBusy(MarginError):
    """Another Margin process held the search index's write lock for longer than this one would wait, or the
    lock file cannot be made; nothing was written to the index (searches still read it as it stands)."""


class LibraryDamaged(LibraryError):
    """library.db is damaged (SQLite reports a malformed page or a file that is not a database).

    `path` is the database file, `reason` SQLite's words, `backup` the newest backup file of the library (None
    when it has none). str() is one line naming the file, what is wrong, and what to do (db.library.integrity)."""

    def __init__(self, message: str, path: Path, reason: str, backup: Path | None):
        super().__init__(message)
        self.path = path
        self.reason = reason
        self.backup = backup
