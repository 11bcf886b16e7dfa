"""Undoable annotation changes (Ctrl+Z / Ctrl+Shift+Z): rating, tags, read state, title and dismissals.

Each command writes through the Library and hands what the library says it changed (db.changes.Changes) to
`apply`, the window's one reaction to a change. Rating a paper or giving it a tag also marks it read (it was
read to be judged); undoing the rating or tag makes it unread again when it was unread before.
Notes have their own history (db note_history) instead of the undo stack.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from db.changes import NOTHING, Changes
from db.library import Library
from desktop.i18n import tr

Apply = Callable[[Changes], None]


class _PaperCommand(QUndoCommand):
    def __init__(self, library: Library, paper_id: str, apply: Apply, text: str, marks_read: bool = False):
        super().__init__(text)
        self.library = library
        self.paper_id = paper_id
        self.apply = apply
        self.was_read = library.paper(paper_id).read
        self.marks_read = marks_read and not self.was_read  # undo then makes it unread again

    def _done(self, changes: Changes, undoing: bool) -> None:
        if self.marks_read:
            changes |= self.library.set_read(self.paper_id, not undoing)
        self.apply(changes)


class _SetValue(_PaperCommand):
    """Set one annotation to `new`; undo sets it back to what it was. Subclasses name the field."""

    field = ""  # Library.set_<field>
    attribute = ""  # the Paper attribute holding the value (the field's name when empty)

    def __init__(self, library, paper_id, new, apply, text: str, marks_read: bool = False):
        super().__init__(library, paper_id, apply, text, marks_read)
        self.old = getattr(library.paper(paper_id), self.attribute or self.field)
        self.new = new

    def _write(self, value, undoing: bool) -> None:
        self._done(getattr(self.library, f"set_{self.field}")(self.paper_id, value), undoing)

    def redo(self) -> None:
        self._write(self.new, False)

    def undo(self) -> None:
        self._write(self.old, True)


class SetRating(_SetValue):
    field = "rating"

    def __init__(self, library, paper_id, rating: int | None, apply):
        super().__init__(library, paper_id, rating or None, apply,
                         tr("Set rating") if rating else tr("Clear rating"), marks_read=bool(rating))


class SetRead(_SetValue):
    field = "read"

    def __init__(self, library, paper_id, read: bool, apply):
        super().__init__(library, paper_id, read, apply, tr("Mark read") if read else tr("Mark unread"))


class SetTitle(_SetValue):
    field = "title"
    attribute = "user_title"  # the user's own title, not the file's

    def __init__(self, library, paper_id, title: str | None, apply):
        super().__init__(library, paper_id, title, apply, tr("Set title"))


class ChangeTags(_PaperCommand):
    """Add or remove tags; undo restores exactly the tags the paper had before."""

    def __init__(self, library, paper_id, apply, add: list[str] = (), remove: list[str] = ()):
        super().__init__(library, paper_id, apply, tr("Add tag") if add else tr("Remove tag"), marks_read=bool(add))
        self.before = library.paper(paper_id).tags
        self.add = list(add)
        self.remove = list(remove)

    def redo(self) -> None:
        changes = NOTHING
        if self.add:
            changes |= self.library.add_tags(self.paper_id, self.add)
        if self.remove:
            changes |= self.library.remove_tags(self.paper_id, self.remove)
        self._done(changes, False)

    def undo(self) -> None:
        self._done(self.library.set_tags(self.paper_id, self.before), True)


class Dismiss(_PaperCommand):
    """Dismiss a paper from the suggestions for a tag (an interest); undo takes the dismissal back."""

    def __init__(self, library, paper_id, tag: str, apply):
        super().__init__(library, paper_id, apply, tr("Dismiss suggestion"))
        self.tag = tag

    def redo(self) -> None:
        self._done(self.library.set_dismissed(self.paper_id, self.tag, True), False)

    def undo(self) -> None:
        self._done(self.library.set_dismissed(self.paper_id, self.tag, False), True)
