"""The window's one write path (Anki's aqt.operations is the model): every edit the window makes goes through
one method here.

Each method runs its Library mutation through the pending edits (desktop.edits.pending_edits: saved now, or kept,
shown as "Not saved yet", retried and saved in order while another process holds the library or the disk is
full), pushes an undo command (desktop.edits.undo) where a slip costs work, and has the Changes it returns applied
once by the window's `apply_changes`, carrying its initiator (the view that asked, or a name): a view that made
the edit can tell it from another's. Edits of many papers are one transaction and one undo command.

Bad input (an empty tag, an over-long title or highlight entry) raises ValueError here, before anything is kept:
an edit in the queue is one the library can take once it is free.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QUndoStack

from db.changes import Changes
from db.library.decisions import EXCLUDE, MAX_CRITERIA, check_decision, clean_reason
from db.library.library import Library
from db.paper import Paper
from db.text.cleaning import clean_tag, clean_title, tag_key
from db.text.highlight_words import clean_entry
from db.triage.check import CHECK_SIZE, draw_check
from desktop.common.i18n import tr
from desktop.edits import undo
from desktop.edits.pending_edits import PendingEdits


def _said(context: str, text: str) -> str:
    """What a kept edit is called: the words the view that asks for it shows (its menu entry or button)."""
    return QCoreApplication.translate(context, text)


AUTO_READ = "auto-read"  # the initiator of a paper marked read by being shown (desktop.edits.read_tracker)


class Operations(QObject):
    """`library`'s writes for one window. `paper_of(id)` gives the paper as the window holds it (the list's copy,
    so an edit reads no row twice; None: read it from the library)."""

    def __init__(self, library: Library, edits: PendingEdits, undo_stack: QUndoStack,
                 paper_of: Callable[[str], Paper | None] = lambda _paper_id: None, parent: QObject | None = None):
        super().__init__(parent)
        self.library = library
        self.edits = edits
        self.undo_stack = undo_stack
        self._paper_of = paper_of

    def paper(self, paper_id: str) -> Paper:
        """The paper before an edit. Raises KeyError when it is gone."""
        return self._paper_of(paper_id) or self.library.paper(paper_id)

    # ------------------------------------------------------------------ one paper's annotations (undoable)
    def rate(self, paper_id: str, rating: int | None, initiator: Any = None) -> bool:
        """Rate a paper 1..5 (0 or None clears; a rating marks it read). False when it had that rating."""
        paper = self.paper(paper_id)
        if (paper.rating or 0) == (rating or 0):
            return False
        self.undo_stack.push(undo.SetRating(self.library, paper, rating or None, self.edits, initiator))
        return True

    def decide(self, paper_id: str, decision: str | None, reason: str | None = None, initiator: Any = None) -> bool:
        """Include, exclude (with `reason`) or maybe a paper; None clears its decision (deciding marks it read).
        False when it had that decision and reason already. Raises ValueError for another decision."""
        decision = check_decision(decision)
        reason = clean_reason(reason) if decision == EXCLUDE else None
        paper = self.paper(paper_id)
        if (paper.decision, paper.reason) == (decision, reason):
            return False
        self.undo_stack.push(undo.SetDecision(self.library, paper, decision, reason, self.edits, initiator))
        return True

    def set_read(self, paper_id: str, read: bool, initiator: Any = None) -> None:
        self.undo_stack.push(undo.SetRead(self.library, self.paper(paper_id), read, self.edits, initiator))

    def toggle_read(self, paper_id: str, initiator: Any = None) -> None:
        paper = self.paper(paper_id)
        self.undo_stack.push(undo.SetRead(self.library, paper, not paper.read, self.edits, initiator))

    def set_title(self, paper_id: str, title: str | None, initiator: Any = None) -> None:
        """The user's title (None clears). Raises ValueError for one longer than db.text.cleaning allows."""
        clean_title(title)
        self.undo_stack.push(undo.SetTitle(self.library, self.paper(paper_id), title, self.edits, initiator))

    def change_tags(self, paper_id: str, add: Sequence[str] = (), remove: Sequence[str] = (),
                    initiator: Any = None) -> None:
        """Add and remove tags of one paper (adding marks it read). Raises ValueError for an empty tag."""
        for name in add:
            clean_tag(name)
        self.undo_stack.push(undo.ChangeTags(self.library, self.paper(paper_id), self.edits, add=add, remove=remove,
                                             initiator=initiator))

    def dismiss(self, paper_id: str, tag: str, initiator: Any = None) -> None:
        """Dismiss a paper from the suggestions for `tag` (Ctrl+Z takes it back)."""
        self.undo_stack.push(undo.Dismiss(self.library, self.paper(paper_id), tag, self.edits, initiator))

    def split_version(self, paper_id: str, initiator: Any = None) -> bool:
        """Take a paper out of its work (Ctrl+Z groups it again). False when it is a work of its own."""
        others = [other for other in self.library.versions(paper_id) if other != paper_id]
        if not others:
            return False
        self.undo_stack.push(undo.SplitVersion(self.library, self.paper(paper_id), others, self.edits, initiator))
        return True

    def mark_read(self, paper_id: str) -> None:
        """Mark a paper read because it was shown long enough (not undoable: the user did not ask)."""
        self.edits.write(tr("Mark read"), lambda: self.library.set_read(paper_id, True), AUTO_READ)

    # ------------------------------------------------------------------ many papers
    def tag_papers(self, ids: Sequence[str], tag: str, initiator: Any = None) -> None:
        """Give every paper of `ids` the tag: one transaction, one undo command. Raises ValueError for an empty
        tag."""
        clean_tag(tag)
        if ids:
            self.undo_stack.push(undo.TagPapers(self.library, ids, tag, self.edits, initiator))

    def delete(self, ids: Sequence[str], initiator: Any = None) -> None:
        """Delete papers (Ctrl+Z puts them back as they were)."""
        self.undo_stack.push(undo.DeletePapers(self.library, list(ids), self.edits, initiator))

    # ------------------------------------------------------------------ the library's tags and lists
    def rename_tag(self, old: str, new: str, initiator: Any = None) -> None:
        """Rename tag `old` on every paper (merging into `new` when that exists; Ctrl+Z takes either back). Raises
        ValueError for an empty or over-long new name. Nothing happens when `old` is gone by the time the library
        takes it."""
        key, old_key = tag_key(clean_tag(new)), tag_key(old)
        merge = key != old_key and any(tag_key(name) == key for name, _count in self.library.tags())
        self.undo_stack.push(undo.EditTag(self.library, self.edits, _said("Sidebar", "Merge tags" if merge
                                                                          else "Rename tag"), old, new, initiator))

    def delete_tag(self, name: str, initiator: Any = None) -> None:
        """Take tag `name` from every paper (Ctrl+Z gives it back to them, with its interest and dismissals)."""
        self.undo_stack.push(undo.EditTag(self.library, self.edits, _said("Sidebar", "Delete tag"), name,
                                          initiator=initiator))

    def set_interest(self, name: str, on: bool, initiator: Any = None) -> None:
        """Make tag `name` an interest of the triage queue, or not. Raises ValueError for an empty name."""
        clean_tag(name)
        self.edits.write(_said("Sidebar", "Use as an interest") + f": {name}",
                         lambda: self.library.set_interest(name, on), initiator)

    def set_liked_source(self, kind: str, value: str, liked: bool, initiator: Any = None) -> None:
        """Mark a venue ("venue") or an imported file ("source") as papers I like, or not."""
        self.edits.write(_said("Sidebar", "Papers I like (positives for recommendations)") + f": {value}",
                         lambda: self.library.set_liked_source(kind, value, liked), initiator)

    def set_highlight_lists(self, include: Iterable[str], exclude: Iterable[str],
                            saved: Callable[[], None], initiator: Any = None) -> None:
        """Replace the highlight word lists; `saved()` is called once the library has them (the lists belong to
        no paper, so no Changes says so). Raises ValueError for an empty or over-long entry."""
        include, exclude = list(include), list(exclude)
        for entry in include + exclude:
            clean_entry(entry)

        def save() -> Changes:
            changes = self.library.set_highlight_lists(include, exclude)
            saved()
            return changes

        self.edits.write(tr("Highlight words"), save, initiator)

    def set_exclusion_reasons(self, reasons: Iterable[str], saved: Callable[[], None], initiator: Any = None) -> None:
        """Replace the list of exclusion reasons; `saved()` is called once the library has it (the list belongs to
        no paper, so no Changes says so). Raises ValueError for an over-long reason."""
        reasons = list(reasons)
        for reason in reasons:
            if (clean_reason(reason) or "").isdigit():
                raise ValueError(f"an exclusion reason needs a word: '{reason}' would read as the list's number")

        def save() -> Changes:
            changes = self.library.set_exclusion_reasons(reasons)
            saved()
            return changes

        self.edits.write(tr("Exclusion reasons"), save, initiator)

    def rename_exclusion_reason(self, old: str, new: str, saved: Callable[[], None], initiator: Any = None) -> None:
        """Rename a reason in the list and on the papers excluded for it (their Changes are applied). Raises
        ValueError for an empty, over-long or only numeric name, or one that is another listed reason (the
        window does not merge reasons)."""
        text = clean_reason(new)
        if not text or text.isdigit():
            raise ValueError("an exclusion reason needs a word or two")
        onto = [r for r in self.library.exclusion_reasons() if r.casefold() == text.casefold() != old.casefold()]
        if onto:
            raise ValueError(f"'{onto[0]}' is an exclusion reason already")

        def save() -> Changes:
            changes = self.library.rename_exclusion_reason(old, new)
            saved()
            return changes

        self.edits.write(tr("Rename reason") + f": {old}", save, initiator)

    def set_criteria(self, text: str, initiator: Any = None) -> None:
        """Replace the inclusion criteria text. Raises ValueError for text over the library's limit."""
        if len(text) > MAX_CRITERIA:
            raise ValueError(f"the inclusion criteria have at most {MAX_CRITERIA:,} characters")
        self.edits.write(tr("Inclusion criteria"), lambda: self.library.set_criteria(text),
                         initiator)

    def take_resolutions(self, project: str, resolutions: Sequence[tuple], initiator: Any = None) -> None:
        """Put the resolutions of shared project `project` the server returned after a resolve (Resolve…) into the
        library's copy (db.sync.project_sync.take_resolutions): the papers whose resolution changed get a
        `decision` change and leave is:conflict. Not undoable here: the server holds the resolution."""
        from db.sync.project_sync import take_resolutions

        rows = [tuple(row) for row in resolutions]
        self.edits.write(_said("ResolveDialog", "Resolve the conflict"),
                         lambda: take_resolutions(self.library, project, rows), initiator)

    def save_search(self, name: str, query: str, saved: Callable[[], None]) -> None:
        """Save `query` as the saved search `name` (db.library.user_state); `saved()` once the library has it."""
        def save() -> Changes:
            changes = self.library.save_search(name, query)
            saved()
            return changes

        self.edits.write(_said("Sidebar", "Save search") + f": {name}", save)

    def remove_saved_search(self, name: str, saved: Callable[[], None]) -> None:
        def remove() -> Changes:
            changes = self.library.remove_saved_search(name)
            saved()
            return changes

        self.edits.write(_said("Sidebar", "Delete saved search") + f": {name}", remove)

    def draw_check(self, scope: str, ids: Sequence[str], ranking: Sequence[str] | None = None,
                   initiator: Any = None) -> None:
        """Draw unseen papers of the view `scope` (its papers `ids`) into its triage check: at random, or by
        `ranking` (db.triage.check.draw_check)."""
        ids = list(ids)
        self.edits.write(_said("ProgressDock", "Rate %1 unseen papers").replace("%1", str(CHECK_SIZE)),
                         lambda: draw_check(self.library, scope, ids, ranking=ranking), initiator)

    # ------------------------------------------------------------------ notes
    def save_note_now(self, paper_id: str, text: str, keep_version: bool = True, initiator: Any = None) -> Changes:
        """Save a note at once (the note session keeps, retries and rescues what the library refuses: it needs
        the refusal, so this raises LibraryError / KeyError instead of keeping the edit)."""
        return self.library.set_note(paper_id, text, keep_version=keep_version).by(initiator)
