"""Saved searches: the user's named queries, shown in the sidebar's "Saved searches" section.

They are kept in QSettings, per library folder, not in library.db: a saved search changes no paper and is a
way of looking at the library (like the column layout or the last query, which QSettings keeps too), so it
needs no change log, no backup and no migration; the command line takes the query itself."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings


class SavedSearches:
    """(name, query) pairs in the order saved, stored under `savedSearches/<library folder>`."""

    def __init__(self, settings: QSettings, folder: Path):
        self.settings = settings
        self.key = "savedSearches/" + str(Path(folder).resolve()).replace("/", "|")

    def all(self) -> list[tuple[str, str]]:
        try:
            items = json.loads(self.settings.value(self.key, "[]", type=str) or "[]")
        except ValueError:
            return []  # a hand-edited value that is not JSON: no saved searches rather than a crash
        return [(str(name), str(query)) for name, query in items if str(name).strip()]

    def save(self, name: str, query: str) -> None:
        """Add `name` → `query`; a search with the same name (case-insensitive) is replaced in its place."""
        name = " ".join(name.split())
        items = self.all()
        for index, (old, _query) in enumerate(items):
            if old.casefold() == name.casefold():
                items[index] = (name, query)
                break
        else:
            items.append((name, query))
        self._write(items)

    def remove(self, name: str) -> None:
        self._write([(n, q) for n, q in self.all() if n != name])

    def _write(self, items: list[tuple[str, str]]) -> None:
        self.settings.setValue(self.key, json.dumps(items, ensure_ascii=False))
        self.settings.sync()
