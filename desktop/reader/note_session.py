"""The note the user is writing: which paper's note the editor holds, saving it, and changes made to it elsewhere.

The editor is the user's. A save never touches its text, cursor or undo history, and showing the same paper
again (after a rating, a search, a change elsewhere) never reloads it. A change to that note by another
process is kept (the library's note history holds both versions) and offered in a bar, never typed over what
the user wrote. A note the library cannot take (busy, disk full) is kept, retried, and on closing written to a
rescue file as a last resort, merged with what an earlier rescue left there.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from db.changes import Changes
from db.errors import MarginError
from db.library.library import Library
from db.paper import Paper
from db.system.fileio import write_atomically
from desktop.reader.note_editor import NoteEditor

NOTE_VERSION_SECONDS = 60  # note saves closer together than this are one version in the note history
RETRY_MS = 3000
RESCUE_FILE = "unsaved-notes.json"


class NoteSession(QObject):
    """Binds `editor` to the library. `show(paper)` when the shown paper changes; `outside_change(id)` when
    another process changed a note; `close()` on closing. Saved notes go to `apply` as Changes;
    `message(text, milliseconds)` is for the status bar."""

    message = Signal(str, int)

    def __init__(self, library: Library, editor: NoteEditor, apply: Callable[[Changes], None], parent=None, *,
                 write_note: Callable[..., Changes]):
        super().__init__(parent)
        self.library = library
        # the window's write path (desktop.edits.operations.save_note_now): it raises what the library refuses,
        # for the retry and rescue here
        self._write_note = write_note
        self.editor = editor
        self._apply = apply
        self._last_save: tuple[str | None, float] = (None, 0.0)  # paper and time of the last save
        self.unsaved: dict[str, str] = {}  # notes the library could not take yet, by paper id
        self._baseline: dict[str, str] = {}  # each note as this window last loaded or saved it
        self._closing = False
        self.retry_timer = QTimer(self, singleShot=True, interval=RETRY_MS)
        self.retry_timer.timeout.connect(self.retry)
        editor.noteChanged.connect(self.save)
        editor.showTheirs.connect(self._show_theirs)
        editor.keepMine.connect(self._keep_mine)
        editor.orphanClosed.connect(self._close_orphan)
        self._after_orphan: list[Paper | None] = []  # the paper the list moved to when the note was orphaned

    def show(self, paper: Paper | None) -> None:
        """Hold `paper`'s note in the editor, unless the editor holds it already (then nothing changes). While
        the editor holds a note whose paper was deleted elsewhere (`papers_removed`), the paper the list moved to
        on its own waits (the user's next keys must not go into its note); another paper ends that."""
        paper_id = paper.id if paper is not None else None
        if self.editor.is_orphaned():
            waiting = self._after_orphan[0].id if self._after_orphan and self._after_orphan[0] else None
            if not self._after_orphan or paper_id == waiting:
                self._after_orphan[:] = [paper]
                return
        elif paper_id is not None and paper_id == self.editor.paper_id():
            return
        self.editor.load(paper_id, paper.note if paper is not None else "")
        if paper is not None:
            self._baseline[paper.id] = paper.note

    def save(self, paper_id: str, text: str) -> bool:
        """Save a note; when the library cannot take it now (busy, disk full), keep it and retry.

        Saves less than NOTE_VERSION_SECONDS after the previous save of the same paper's note belong to one
        editing session: the note history keeps the version from before the session, not one per second.
        A note changed elsewhere since this window last saw it is kept in the history too."""
        session_paper, last_save = self._last_save
        keep_version = session_paper != paper_id or time.monotonic() - last_save > NOTE_VERSION_SECONDS
        try:
            stored = self.library.paper(paper_id).note
            if paper_id in self._baseline and stored != self._baseline[paper_id]:
                keep_version = True  # changed elsewhere meanwhile: that version goes into the history
                self.message.emit(self.tr("This note was also changed outside this window; that version is in "
                                          "Edit → Note history"), 15000)
                if paper_id == self.editor.paper_id():
                    self.editor.offer_outside_change(False)
            # once a save is waiting, later ones only look whether the library is free (typing never stalls)
            with self.library.waiting_at_most(0 if self.unsaved and not self._closing else None):
                changes = self._write_note(paper_id, text, keep_version=keep_version)
        except KeyError:
            return True  # the paper is gone: nothing to keep
        except (MarginError, OSError, sqlite3.Error) as error:
            self.unsaved[paper_id] = text
            self.retry_timer.start()
            self.message.emit(self.tr("The note could not be saved yet (%1); Margin keeps it and tries again")
                              .replace("%1", str(error)), 10000)
            return False
        self._last_save = (paper_id, time.monotonic())
        self._baseline[paper_id] = text
        self.unsaved.pop(paper_id, None)
        self._apply(changes)
        return True

    def papers_removed(self, paper_ids: list[str]) -> None:
        """Another process deleted papers. When one is the paper whose note the user is writing (typed in it, or
        the editor has the keyboard), the editor keeps the text under a bar saying so, read-only, rather than
        moving to the next paper with the keys still going into the note — they went into that paper's note."""
        if self.editor.paper_id() in paper_ids and (self.editor.has_user_edits() or self.editor.editor.hasFocus()):
            self.editor.orphan()
            self._after_orphan = []

    def _close_orphan(self) -> None:
        """The orphaned note's bar closed: show the note of the paper the list holds now."""
        waiting = self._after_orphan[0] if self._after_orphan else None
        self._after_orphan = []
        self.editor.load(None, "")
        self.show(waiting)

    def outside_change(self, paper_id: str) -> None:
        """Another process changed the note of `paper_id`: if the editor holds it, show the new text when the
        user has not written in it, else offer it (the user's text stays)."""
        if paper_id != self.editor.paper_id():
            self._baseline.pop(paper_id, None)  # loaded afresh when shown
            return
        try:
            stored = self.library.paper(paper_id).note
        except KeyError:
            return
        if stored == self.editor.text():
            self._baseline[paper_id] = stored
            self.editor.offer_outside_change(False)
        elif not self.editor.has_user_edits():
            self.editor.load(paper_id, stored)
            self._baseline[paper_id] = stored
            self._last_save = (None, 0.0)  # their text is no part of the user's editing session
        else:
            self.editor.offer_outside_change(True)

    def _show_theirs(self) -> None:
        """Show the version written elsewhere (one undoable edit: Ctrl+Z brings the user's text back)."""
        paper_id = self.editor.paper_id()
        if paper_id is None:
            return
        self.editor.flush()  # the user's text is saved first, so the history holds it
        stored = self.library.paper(paper_id).note
        history = self.library.note_history(paper_id)
        theirs = history[-1][1] if history and stored == self.editor.text() else stored
        self.editor.offer_outside_change(False)
        self._last_save = (None, 0.0)  # a new editing session: the next save (Ctrl+Z) keeps theirs in history
        self.editor.replace_text(theirs)
        self.editor.flush()
        self._last_save = (None, 0.0)

    def _keep_mine(self) -> None:
        """Save the user's text over the version written elsewhere (which stays in the note history)."""
        self.editor.offer_outside_change(False)
        paper_id = self.editor.paper_id()
        if paper_id is None:
            return
        self.editor.flush()
        if self.library.paper(paper_id).note != self.editor.text():  # nothing was pending: save it anyway
            self.save(paper_id, self.editor.text())

    def flush(self) -> None:
        self.editor.flush()

    def retry(self) -> None:
        for paper_id, text in list(self.unsaved.items()):
            if self.save(paper_id, text):
                self.message.emit(self.tr("The note was saved"), 5000)

    def close(self) -> None:
        """Save what is pending; what the library still cannot take goes to the rescue file."""
        self._closing = True  # the last tries wait as long as the window does
        self.retry_timer.stop()
        self.editor.flush()
        self.retry()
        if self.unsaved:  # last resort: never drop words the user typed
            self._write_rescue_file()

    def recover_rescued(self) -> int:
        """Put the notes a closing window could not save (the rescue file) back into the library, each as a
        save the user made (the version it replaces stays in the note history), then remove the file. Returns
        how many notes were put back; a note the library still cannot take stays in the file."""
        rescue = self.library.folder / RESCUE_FILE
        try:
            notes = json.loads(rescue.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return 0
        if not isinstance(notes, dict):
            return 0
        left, recovered = {}, 0
        for paper_id, text in notes.items():
            try:
                if self.library.paper(paper_id).note != text:
                    self._apply(self._write_note(paper_id, str(text)))
                    recovered += 1
            except KeyError:
                continue  # the paper is gone
            except (MarginError, sqlite3.Error):
                left[paper_id] = text
        try:
            if left:
                write_atomically(rescue, json.dumps(left, ensure_ascii=False, indent=1))
            else:
                rescue.unlink()
        except (OSError, MarginError):
            pass
        if recovered:
            self.message.emit(self.tr("Recovered %1 notes that could not be saved last time (the versions they "
                                      "replace are in Edit → Note history)").replace("%1", str(recovered)), 20000)
        return recovered

    def _write_rescue_file(self) -> None:
        rescue = self.library.folder / RESCUE_FILE
        try:
            earlier = json.loads(rescue.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            earlier = {}
        notes = (earlier if isinstance(earlier, dict) else {}) | self.unsaved
        try:
            write_atomically(rescue, json.dumps(notes, ensure_ascii=False, indent=1))
            print(f"margin: notes that could not be saved were written to {rescue}", file=sys.stderr)
        except MarginError as error:
            print(f"margin: notes could not be saved ({error}):", json.dumps(self.unsaved), file=sys.stderr)
