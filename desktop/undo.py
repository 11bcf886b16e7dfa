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


class SetRating(_PaperCommand):
    def __init__(self, library, paper_id, rating: int | None, changed):
        super().__init__(library, paper_id, changed, tr("Set rating") if rating else tr("Clear rating"))
        self.old = library.paper(paper_id).rating
        self.new = rating or None

    def redo(self) -> None:
        self.library.set_rating(self.paper_id, self.new)
        self.changed(self.paper_id)

    def undo(self) -> None:
        self.library.set_rating(self.paper_id, self.old)
        self.changed(self.paper_id)


class SetRead(_PaperCommand):
    def __init__(self, library, paper_id, read: bool, changed):
        super().__init__(library, paper_id, changed, tr("Mark read") if read else tr("Mark unread"))
        self.old = library.paper(paper_id).read
        self.new = read

    def redo(self) -> None:
        self.library.set_read(self.paper_id, self.new)
        self.changed(self.paper_id)

    def undo(self) -> None:
        self.library.set_read(self.paper_id, self.old)
        self.changed(self.paper_id)


class SetTitle(_PaperCommand):
    def __init__(self, library, paper_id, title: str | None, changed):
        super().__init__(library, paper_id, changed, tr("Set title"))
        self.old = library.paper(paper_id).user_title
        self.new = title

    def redo(self) -> None:
        self.library.set_title(self.paper_id, self.new)
        self.changed(self.paper_id)

    def undo(self) -> None:
        self.library.set_title(self.paper_id, self.old)
        self.changed(self.paper_id)


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
