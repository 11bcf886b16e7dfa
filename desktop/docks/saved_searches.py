"""Saved searches: the user's named queries, shown in the sidebar's "Saved searches" section.

They are kept in the library (db.library.user_state, schema 9), so that backups and JSON exports carry them and a
restore brings them back; a new one is saved through the window's write path (desktop.edits.operations). Margin
kept them in QSettings, per library folder, before: the first window on a library moves those into it, once."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings

from db.errors import LibraryError
from db.library.library import Library


class SavedSearches:
    """The library's (name, query) pairs in the order saved; `ops` (desktop.edits.operations.Operations) saves
    and removes them."""

    def __init__(self, settings: QSettings, library: Library, ops=None):
        self.library, self.ops = library, ops
        self._take_over(settings, "savedSearches/" + str(Path(library.folder).resolve()).replace("/", "|"))

    def all(self) -> list[tuple[str, str]]:
        return self.library.saved_searches()

    def save(self, name: str, query: str, saved: Callable[[], None] = lambda: None) -> None:
        """Add `name` → `query`; a search with the same name (case-insensitive) is replaced in its place.
        `saved()` is called once the library has it."""
        self.ops.save_search(name, query, saved)

    def remove(self, name: str, saved: Callable[[], None] = lambda: None) -> None:
        self.ops.remove_saved_search(name, saved)

    def _take_over(self, settings: QSettings, key: str) -> None:
        """Move the saved searches an earlier Margin kept in QSettings under `key` into the library (those whose
        name the library has already stay as the library has them), then forget the QSettings entry."""
        if not settings.contains(key) or self.library.unwritable:
            return
        try:
            items = json.loads(settings.value(key, "[]", type=str) or "[]")
        except ValueError:
            items = []  # a hand-edited value that is not JSON: nothing to move
        have = {name.casefold() for name, _query in self.all()}
        try:
            for name, query in items:
                if str(name).strip() and " ".join(str(name).split()).casefold() not in have:
                    self.library.save_search(str(name), str(query))
        except (LibraryError, ValueError, TypeError):
            return  # busy or malformed: the entry stays, and the next window tries again
        settings.remove(key)
        settings.sync()
