"""The main window's note saving and its watch for changes made by other processes (mixed into
desktop.main_window.MainWindow).

A note is never dropped: a save the library refuses (busy, disk full) is kept and retried, and written to a
rescue file on closing as a last resort; a note changed elsewhere meanwhile is kept in the note history.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time

from PySide6.QtCore import QCoreApplication

from db.errors import MarginError

NOTE_VERSION_SECONDS = 60  # note saves closer together than this are one version in the note history


class WindowNotes:
    """Note saving, retrying and outside-change handling of the main window.

    Strings are translated in the MainWindow context, where this code runs."""

    def _save_note(self, paper_id: str, text: str) -> bool:
        """Save a note; when the library cannot take it now (busy, disk full), keep it and retry.

        Saves less than NOTE_VERSION_SECONDS after the previous save of the same paper's note belong to one
        editing session: the note history keeps the version from before the session, not one per second."""
        session_paper, last_save = self._note_session
        keep_version = session_paper != paper_id or time.monotonic() - last_save > NOTE_VERSION_SECONDS
        try:
            stored = self.library.paper(paper_id).note
            if paper_id in self._note_baseline and stored != self._note_baseline[paper_id]:
                keep_version = True  # changed elsewhere meanwhile (command line): keep that version in history
                self.statusBar().showMessage(QCoreApplication.translate("MainWindow",
                    "This note was also changed outside this window; that version is in Edit → Note history"),
                    15000)
            self.library.set_note(paper_id, text, keep_version=keep_version)
        except KeyError:
            return True  # the paper is gone: nothing to keep
        except (MarginError, OSError, sqlite3.Error) as error:
            self._unsaved_notes[paper_id] = text
            self._retry_timer.start()
            message = QCoreApplication.translate(
                "MainWindow", "The note could not be saved yet (%1); Margin keeps it and tries again")
            self.statusBar().showMessage(message.replace("%1", str(error)), 10000)
            return False
        self._note_session = (paper_id, time.monotonic())
        self._note_baseline[paper_id] = text
        self._unsaved_notes.pop(paper_id, None)
        self.model.refresh(paper_id)
        self.search_service.sync()
        return True

    def _library_data_version(self) -> int:
        """SQLite's data_version: it changes when another connection commits to the library."""
        return self.library.rows("PRAGMA data_version")[0][0]

    def _check_external_changes(self) -> None:
        """Show changes another process (e.g. `main.py annotate` or an import) committed to the library."""
        try:
            version = self._library_data_version()
        except Exception:  # noqa: BLE001 - a closed or busy library: look again later
            return
        if version == self._data_version:
            return
        self._data_version = version
        self._all_ids = self.library.ids()
        self.model.refresh_all()
        self._sidebar_timer.start()
        self._recount()
        self.search_service.reopen()  # the other process may have written to the index; this also catches up
        self.show_current(reload_note=not self.note_editor.is_dirty())
        if self._query.strip() and self.search_box.text() == self._query:
            self._search_timer.start()
        elif not self._query.strip() and self.model.rowCount() != len(self._all_ids):
            self._apply_ids(self._all_ids)

    def _retry_unsaved_notes(self) -> None:
        for paper_id, text in list(self._unsaved_notes.items()):
            if self._save_note(paper_id, text):
                self.statusBar().showMessage(QCoreApplication.translate("MainWindow", "The note was saved"), 5000)

    def _write_rescue_file(self) -> None:
        rescue = self.library.folder / "unsaved-notes.json"
        try:
            rescue.write_text(json.dumps(self._unsaved_notes, ensure_ascii=False, indent=1), encoding="utf-8")
            print(f"margin: notes that could not be saved were written to {rescue}", file=sys.stderr)
        except OSError as error:
            print(f"margin: notes could not be saved ({error}):", json.dumps(self._unsaved_notes), file=sys.stderr)
