"""Undoable changes (Ctrl+Z / Ctrl+Shift+Z): rating, screening decision, tags, read state, title, dismissals,
splitting a version from its work, tagging a map selection, deleting papers, and renaming, merging or deleting a
tag library-wide.

The commands are made by the window's one write path (desktop.edits.operations), which hands each the paper as it
was before the edit (read once). Each command writes through the Library, by way of the window's pending edits
(desktop.edits.pending_edits: saved now, or kept and retried while another process holds the library or the disk
is full), which hand what the library says it changed (db.changes.Changes) to the window's one reaction to a
change. The first `redo` is the edit itself and carries the initiator the operation named (the view that asked);
undoing and redoing later are the undo stack's (UNDO). An undo or redo from the stack first checks, in its own
transaction, that what it would overwrite is what this edit left (or found) there; when something else — the
command line, another window, a sync — changed it since, nothing is written and the window says so
(ChangedElsewhere), rather than silently taking that change back. Rating a paper or giving it a tag also marks
it read (it was read to be judged), in the same transaction; undoing the rating or tag makes it unread again when
it was unread before. Notes have their own history (db note_history) instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QUndoCommand

from db.changes import NOTHING, Changes
from db.library.library import Library
from db.paper import Paper
from desktop.common.i18n import plural, tr
from desktop.edits.pending_edits import ChangedElsewhere, PendingEdits

UNDO = "undo"  # the initiator of an edit undone or redone from the undo stack


class _Command(QUndoCommand):
    """A command whose first redo is made by `initiator`, later ones by the undo stack."""

    def __init__(self, library: Library, edits: PendingEdits, text: str, initiator: Any = None):
        super().__init__(text)
        self.library = library
        self.edits = edits
        self._initiator = initiator

    def _by(self) -> Any:
        initiator, self._initiator = self._initiator, UNDO
        return initiator

    def _from_stack(self) -> bool:
        """True for an undo, or a redo after an undo (not the edit itself, which was made on what was there)."""
        return self._initiator == UNDO


class _PaperCommand(_Command):
    def __init__(self, library: Library, paper: Paper, edits: PendingEdits, text: str, marks_read: bool = False,
                 initiator: Any = None):
        super().__init__(library, edits, text, initiator)
        self.paper_id = paper.id
        self.label = paper.label
        self.marks_read = marks_read and not paper.read  # undo then makes it unread again

    def _save(self, write: Callable[[], Changes], undoing: bool, still: Callable[[], bool] | None = None) -> None:
        """Save `write` (and the read state it implies) as one transaction, now or when the library can. `still`:
        read in that transaction first (undo and redo from the stack); False means the value was changed since by
        something else, and nothing is written (ChangedElsewhere)."""
        marks_read = self.marks_read
        check = still if self._from_stack() else None

        def save() -> Changes:
            with self.library.transaction():
                if check is not None and not check():
                    raise ChangedElsewhere(self.label)
                changes = write()
                if marks_read:
                    changes |= self.library.set_read(self.paper_id, not undoing)
                return changes

        self.edits.write(f"{self.text()}: {self.label}", save, self._by())  # "Set rating: GLEAN: Agent …"


class _SetValue(_PaperCommand):
    """Set one annotation to `new`; undo sets it back to what it was. Subclasses name the field."""

    field = ""  # Library.set_<field>
    attribute = ""  # the Paper attribute holding the value (the field's name when empty)

    def __init__(self, library, paper: Paper, new, edits, text: str, marks_read: bool = False, initiator=None):
        super().__init__(library, paper, edits, text, marks_read, initiator)
        self.old = getattr(paper, self.attribute or self.field)
        self.new = new

    def _write(self, value, undoing: bool) -> None:
        setter = getattr(self.library, f"set_{self.field}")
        expected = self.new if undoing else self.old  # what this command left there, or found there
        self._save(lambda: setter(self.paper_id, value), undoing,
                   lambda: getattr(self.library.paper(self.paper_id), self.attribute or self.field) == expected)

    def redo(self) -> None:
        self._write(self.new, False)

    def undo(self) -> None:
        self._write(self.old, True)


class SetRating(_SetValue):
    field = "rating"

    def __init__(self, library, paper: Paper, rating: int | None, edits, initiator=None):
        super().__init__(library, paper, rating or None, edits,
                         tr("Set rating") if rating else tr("Clear rating"), marks_read=bool(rating),
                         initiator=initiator)


class SetRead(_SetValue):
    field = "read"

    def __init__(self, library, paper: Paper, read: bool, edits, initiator=None):
        super().__init__(library, paper, read, edits, tr("Mark read") if read else tr("Mark unread"),
                         initiator=initiator)


class SetTitle(_SetValue):
    field = "title"
    attribute = "user_title"  # the user's own title, not the file's

    def __init__(self, library, paper: Paper, title: str | None, edits, initiator=None):
        super().__init__(library, paper, title, edits, tr("Set title"), initiator=initiator)


class SetDecision(_PaperCommand):
    """Include, exclude (with a reason) or maybe a paper (and the other versions of its work), or clear its decision
    (None); undo puts back the decision, reason and time each version had. Deciding marks the paper read, as a
    rating does."""

    def __init__(self, library, paper: Paper, decision: str | None, reason: str | None, edits, initiator=None):
        super().__init__(library, paper, edits, tr("Screening decision") if decision else tr("Clear decision"),
                         marks_read=bool(decision), initiator=initiator)
        versions = library.versions(paper.id)  # every version's decision, as the decision is the work's
        found = library.decisions(versions)
        self.old = {paper_id: found.get(paper_id) for paper_id in versions}
        self.new = (decision, reason)

    def _now(self) -> tuple:
        found = self.library.decision(self.paper_id)
        return (found[0], found[1] or None) if found else (None, None)

    def redo(self) -> None:
        was = self.old.get(self.paper_id)
        self._save(lambda: self.library.set_decision(self.paper_id, *self.new), False,
                   lambda: self._now() == ((was[0], was[1] or None) if was else (None, None)))

    def undo(self) -> None:
        decision, reason = self.new
        self._save(lambda: self.library.restore_decisions(self.old), True,
                   lambda: self._now() == ((decision, reason or None) if decision else (None, None)))


class ChangeTags(_PaperCommand):
    """Add or remove tags; undo takes back only this edit's difference (the tags it added that the paper did not
    have, the tags it removed that it had), so tags given or taken elsewhere since stay as they are."""

    def __init__(self, library, paper: Paper, edits, add: Sequence[str] = (), remove: Sequence[str] = (),
                 initiator=None):
        super().__init__(library, paper, edits, tr("Add tag") if add else tr("Remove tag"), marks_read=bool(add),
                         initiator=initiator)
        self.before = list(paper.tags)
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
        had = {tag.casefold() for tag in self.before}
        gained = [tag for tag in self.add if tag.casefold() not in had]
        lost = [tag for tag in self.before if tag.casefold() in {t.casefold() for t in self.remove}]

        def take_back() -> Changes:
            changes = NOTHING
            if gained:
                changes |= self.library.remove_tags(self.paper_id, gained)
            if lost:
                changes |= self.library.add_tags(self.paper_id, lost)
            return changes

        self._save(take_back, True)


class Dismiss(_PaperCommand):
    """Dismiss a paper from the suggestions for a tag (an interest); undo takes the dismissal back."""

    def __init__(self, library, paper: Paper, tag: str, edits, initiator=None):
        super().__init__(library, paper, edits, tr("Dismiss suggestion"), initiator=initiator)
        self.tag = tag

    def redo(self) -> None:
        self._save(lambda: self.library.set_dismissed(self.paper_id, self.tag, True), False)

    def undo(self) -> None:
        self._save(lambda: self.library.set_dismissed(self.paper_id, self.tag, False), True)


class SplitVersion(_PaperCommand):
    """Take a paper out of its work (db.library.works); undo groups it with those versions again."""

    def __init__(self, library, paper: Paper, others: Sequence[str], edits, initiator=None):
        super().__init__(library, paper, edits, tr("Split from other versions"), initiator=initiator)
        self.others = list(others)

    def redo(self) -> None:
        self._save(lambda: self.library.split_version(self.paper_id), False)

    def undo(self) -> None:
        self._save(lambda: self.library.group_versions([self.paper_id, *self.others]), True)


class TagPapers(_Command):
    """Give many papers one tag (a map selection) in one transaction; undo takes it from the papers that did not
    have it before, in one transaction too."""

    def __init__(self, library: Library, ids: Sequence[str], tag: str, edits: PendingEdits, initiator=None):
        super().__init__(library, edits, QCoreApplication.translate("MapDock", "Tag papers"), initiator)
        self.ids = list(ids)
        self.tag = tag
        self.gained: list[str] = []  # the papers that got the tag (known once the redo was saved)

    def _each(self, ids: Sequence[str], write: Callable[[str, list[str]], Changes]) -> Changes:
        """`write(paper_id, [tag])` for every paper of `ids` in one transaction; papers another process deleted
        meanwhile are passed over (the others are still written)."""
        changes = NOTHING
        with self.library.transaction():
            for paper_id in ids:
                try:
                    changes |= write(paper_id, [self.tag])
                except KeyError:
                    continue
        return changes

    def redo(self) -> None:
        def save() -> Changes:
            changes = self._each(self.ids, self.library.add_tags)
            self.gained = sorted(changes.papers)
            return changes

        self.edits.write(f"{self.text()}: {self.tag}", save, self._by())

    def undo(self) -> None:
        self.edits.write(f"{self.text()}: {self.tag}", lambda: self._each(self.gained, self.library.remove_tags),
                         self._by())


class DeletePapers(_Command):
    """Delete papers (db.library.deleting); undo puts them back as they were, annotations and places included."""

    def __init__(self, library: Library, ids: list[str], edits: PendingEdits, initiator=None):
        super().__init__(library, edits, plural(tr("Delete %n paper(s)", "", len(ids)), len(ids)), initiator)
        self.ids = list(ids)

    def redo(self) -> None:
        library, ids = self.library, self.ids
        # papers another process deleted meanwhile are left out (delete_papers refuses unknown ids)
        self.edits.write(self.text(), lambda: library.delete_papers([paper.id for paper in library.papers(ids)]),
                         self._by())

    def undo(self) -> None:
        self.edits.write(self.text(), lambda: self.library.undelete_papers(self.ids), self._by())


class EditTag(_Command):
    """Rename tag `old` to `new` on every paper (a merge when `new` exists), or delete it (`new` None); undo puts
    back what the tags owned before (db.library.tag_undo: the papers carrying each, interest, dismissals), read
    in the edit's own transaction."""

    def __init__(self, library: Library, edits: PendingEdits, text: str, old: str, new: str | None = None,
                 initiator=None):
        super().__init__(library, edits, text, initiator)
        self.old, self.new = old, new
        self.before = None  # db.library.tag_undo.TagState, known once the redo was saved
        self.after = None  # the same tags' state right after it: an undo puts `before` back only over this

    def redo(self) -> None:
        def save() -> Changes:
            library = self.library
            names = [self.old] if self.new is None else [self.old, self.new]
            with library.transaction():
                if self.after is not None and library.tag_state(names).tags != self.before.tags:
                    raise ChangedElsewhere(self.old)  # a redo over tags changed since the undo
                before = library.tag_state(names)
                changes = library.delete_tag(self.old) if self.new is None else library.rename_tag(self.old, self.new)
                after = library.tag_state(names)
            self.before, self.after = before, after
            return changes

        self.edits.write(f"{self.text()}: {self.old}", save, self._by())

    def undo(self) -> None:
        def put_back() -> Changes:
            if self.before is None:
                return NOTHING
            names = [self.old] if self.new is None else [self.old, self.new]
            with self.library.transaction():
                if self.library.tag_state(names).tags != self.after.tags:
                    raise ChangedElsewhere(self.old)  # papers tagged or untagged since: putting back would undo them
                return self.library.restore_tags(self.before)

        self.edits.write(f"{self.text()}: {self.old}", put_back, self._by())
