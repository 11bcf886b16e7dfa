"""Undoable changes (Ctrl+Z / Ctrl+Shift+Z): rating, tags, read state, title, dismissals and deleting papers.

Each command writes through the Library, by way of the window's pending edits (desktop.edits.pending_edits: saved
now, or kept and retried while another process holds the library or the disk is full), which hand what the
library says it changed (db.changes.Changes) to the window's one reaction to a change. Rating a paper or giving
it a tag also marks it read (it was read to be judged), in the same transaction; undoing the rating or tag
makes it unread again when it was unread before. Notes have their own history (db note_history) instead.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from db.changes import NOTHING, Changes
from db.library.library import Library
from desktop.common.i18n import tr
from desktop.edits.pending_edits import PendingEdits


class _PaperCommand(QUndoCommand):
    def __init__(self, library: Library, paper_id: str, edits: PendingEdits, text: str, marks_read: bool = False):
        super().__init__(text)
        self.library = library
        self.paper_id = paper_id
        self.edits = edits
        self.was_read = library.paper(paper_id).read
        self.marks_read = marks_read and not self.was_read  # undo then makes it unread again

    def _save(self, write: Callable[[], Changes], undoing: bool) -> None:
        """Save `write` (and the read state it implies) as one transaction, now or when the library can."""
        marks_read = self.marks_read

        def save() -> Changes:
            with self.library.transaction():
                changes = write()
                if marks_read:
                    changes |= self.library.set_read(self.paper_id, not undoing)
                return changes

        try:
            label = self.library.paper(self.paper_id).label
        except KeyError:
            label = self.paper_id
        self.edits.write(f"{self.text()}: {label}", save)  # "Set rating: GLEAN: Agent verification …"


class _SetValue(_PaperCommand):
    """Set one annotation to `new`; undo sets it back to what it was. Subclasses name the field."""

    field = ""  # Library.set_<field>
    attribute = ""  # the Paper attribute holding the value (the field's name when empty)

    def __init__(self, library, paper_id, new, edits, text: str, marks_read: bool = False):
        super().__init__(library, paper_id, edits, text, marks_read)
        self.old = getattr(library.paper(paper_id), self.attribute or self.field)
        self.new = new

    def _write(self, value, undoing: bool) -> None:
        setter = getattr(self.library, f"set_{self.field}")
        self._save(lambda: setter(self.paper_id, value), undoing)

    def redo(self) -> None:
        self._write(self.new, False)

    def undo(self) -> None:
        self._write(self.old, True)


class SetRating(_SetValue):
    field = "rating"

    def __init__(self, library, paper_id, rating: int | None, edits):
        super().__init__(library, paper_id, rating or None, edits,
                         tr("Set rating") if rating else tr("Clear rating"), marks_read=bool(rating))


class SetRead(_SetValue):
    field = "read"

    def __init__(self, library, paper_id, read: bool, edits):
        super().__init__(library, paper_id, read, edits, tr("Mark read") if read else tr("Mark unread"))


class SetTitle(_SetValue):
    field = "title"
    attribute = "user_title"  # the user's own title, not the file's

    def __init__(self, library, paper_id, title: str | None, edits):
        super().__init__(library, paper_id, title, edits, tr("Set title"))


class ChangeTags(_PaperCommand):
    """Add or remove tags; undo restores exactly the tags the paper had before."""

    def __init__(self, library, paper_id, edits, add: list[str] = (), remove: list[str] = ()):
        super().__init__(library, paper_id, edits, tr("Add tag") if add else tr("Remove tag"), marks_read=bool(add))
        self.before = library.paper(paper_id).tags
        self.add = list(add)
        self.remove = list(remove)

    def _change(self) -> Changes:
        changes = NOTHING
        if self.add:
            changes |= self.library.add_tags(self.paper_id, self.add)
        if self.remove:
            changes |= self.library.remove_tags(self.paper_id, self.remove)
        return changes

    def redo(self) -> None:
        self._save(self._change, False)

    def undo(self) -> None:
        self._save(lambda: self.library.set_tags(self.paper_id, self.before), True)


class Dismiss(_PaperCommand):
    """Dismiss a paper from the suggestions for a tag (an interest); undo takes the dismissal back."""

    def __init__(self, library, paper_id, tag: str, edits):
        super().__init__(library, paper_id, edits, tr("Dismiss suggestion"))
        self.tag = tag

    def redo(self) -> None:
        self._save(lambda: self.library.set_dismissed(self.paper_id, self.tag, True), False)

    def undo(self) -> None:
        self._save(lambda: self.library.set_dismissed(self.paper_id, self.tag, False), True)


class DeletePapers(QUndoCommand):
    """Delete papers (db.library.deleting); undo puts them back as they were, annotations and places included."""

    def __init__(self, library: Library, ids: list[str], edits: PendingEdits):
        super().__init__(tr("Delete %n paper(s)", "", len(ids)))
        self.library = library
        self.ids = list(ids)
        self.edits = edits

    def redo(self) -> None:
        library, ids = self.library, self.ids
        # papers another process deleted meanwhile are left out (delete_papers refuses unknown ids)
        self.edits.write(self.text(), lambda: library.delete_papers([paper.id for paper in library.papers(ids)]))

    def undo(self) -> None:
        self.edits.write(self.text(), lambda: self.library.undelete_papers(self.ids))
