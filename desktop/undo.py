"""Undoable annotation changes (Ctrl+Z / Ctrl+Shift+Z): rating, tags, read state and title.

Each command writes through the Library and then calls `changed(paper_id)` so the window can repaint.
Notes have their own history (db note_history) instead of the undo stack.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from db.library import Library
from desktop.i18n import tr


class _PaperCommand(QUndoCommand):
    def __init__(self, library: Library, paper_id: str, changed: Callable[[str], None], text: str):
        super().__init__(text)
        self.library = library
        self.paper_id = paper_id
        self.changed = changed


class _SetValue(_PaperCommand):
    """Set one annotation to `new`; undo sets it back to what it was. Subclasses name the field."""

    field = ""  # Library.set_<field>
    attribute = ""  # the Paper attribute holding the value (the field's name when empty)

    def __init__(self, library, paper_id, new, changed, text: str):
        super().__init__(library, paper_id, changed, text)
        self.old = getattr(library.paper(paper_id), self.attribute or self.field)
        self.new = new

    def _write(self, value) -> None:
        getattr(self.library, f"set_{self.field}")(self.paper_id, value)
        self.changed(self.paper_id)

    def redo(self) -> None:
        self._write(self.new)

    def undo(self) -> None:
        self._write(self.old)


class SetRating(_SetValue):
    field = "rating"

    def __init__(self, library, paper_id, rating: int | None, changed):
        super().__init__(library, paper_id, rating or None, changed,
                         tr("Set rating") if rating else tr("Clear rating"))


class SetRead(_SetValue):
    field = "read"

    def __init__(self, library, paper_id, read: bool, changed):
        super().__init__(library, paper_id, read, changed, tr("Mark read") if read else tr("Mark unread"))


class SetTitle(_SetValue):
    field = "title"
    attribute = "user_title"  # the user's own title, not the file's

    def __init__(self, library, paper_id, title: str | None, changed):
        super().__init__(library, paper_id, title, changed, tr("Set title"))


class ChangeTags(_PaperCommand):
    """Add or remove tags; undo restores exactly the tags the paper had before."""

    def __init__(self, library, paper_id, changed, add: list[str] = (), remove: list[str] = ()):
        super().__init__(library, paper_id, changed, tr("Add tag") if add else tr("Remove tag"))
        self.before = library.paper(paper_id).tags
        self.add = list(add)
        self.remove = list(remove)

    def redo(self) -> None:
        if self.add:
            self.library.add_tags(self.paper_id, self.add)
        if self.remove:
            self.library.remove_tags(self.paper_id, self.remove)
        self.changed(self.paper_id)

    def undo(self) -> None:
        self.library.set_tags(self.paper_id, self.before)
        self.changed(self.paper_id)
