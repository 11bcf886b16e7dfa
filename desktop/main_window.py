"""Margin's main window: sidebar, search box and paper list, reader pane and annotation panel."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QMainWindow,
    QMessageBox,
)

from db.backup import backup_if_due, write_backup
from db.errors import MarginError
from db.export import write_export
from db.library import Library, clean_title
from db.render import paper_to_html
from db.searching import RECOMMENDATION
from desktop import undo
from desktop.background import run_in_background, wait_for_background
from desktop.paper_model import PaperTableModel
from desktop.search_worker import SearchService
from desktop.window_actions import WindowActions
from desktop.window_layout import WindowLayout
from desktop.window_notes import WindowNotes
from desktop.window_search import WindowSearch

SEARCH_DELAY_MS = 40  # coalesces key repeats; the worker also skips searches a newer keystroke replaced
AUTO_READ_MS = 2000
EXTERNAL_CHECK_MS = 2000  # how often to look for changes made by another process (the command line)
BACKUP_CHECK_MS = 60 * 60 * 1000  # look once an hour whether the daily backup is due
BACKUP_FIRST_CHECK_MS = 30 * 1000


class MainWindow(WindowLayout, WindowSearch, WindowNotes, QMainWindow):
    """The window on one library. Every edit is saved through the Library at once; searching and indexing
    run on the SearchService's thread; imports on their own thread."""

    def __init__(self, library: Library, settings: QSettings | None = None):
        super().__init__()
        self.library = library
        self.settings = settings or QSettings()
        self.setWindowTitle(self.tr("Margin — %1").replace("%1", str(library.folder)))
        self.resize(1280, 780)
        self.setAcceptDrops(True)
        self._query = ""
        self._highlight: list[str] = []
        self._why: dict[str, list[str]] = {}
        self._current_id: str | None = None
        self._sort_key: str | None = None  # None: relevance for a query, library order without one
        self._sort_descending = False
        self.undo_stack = QUndoStack(self)
        self._closed = False

        self.model = PaperTableModel(library, self)
        self._build_widgets()
        self.actions_ = WindowActions(self)
        self._build_triage_keys()

        self.search_service = SearchService(library.folder, self, new_library=library.created)
        self.search_service.worker.results.connect(self._show_results)
        self.search_service.worker.status.connect(self._show_message)
        self.search_service.worker.failed.connect(self._search_failed)
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._start_search)
        self._read_timer = QTimer(self, singleShot=True, interval=AUTO_READ_MS)
        self._read_timer.timeout.connect(self._auto_mark_read)
        self._backup_timer = QTimer(self, interval=BACKUP_CHECK_MS)
        self._backup_timer.timeout.connect(self._backup_if_due)
        self._backup_timer.start()
        QTimer.singleShot(BACKUP_FIRST_CHECK_MS, self._backup_if_due)

        self._note_session: tuple[str | None, float] = (None, 0.0)  # paper and time of the last note save
        self._unsaved_notes: dict[str, str] = {}  # notes the library could not take yet, by paper id
        self._note_baseline: dict[str, str] = {}  # the note text as this window last loaded or saved it
        self._data_version = self._library_data_version()
        self._watch_timer = QTimer(self, interval=EXTERNAL_CHECK_MS)
        self._watch_timer.timeout.connect(self._check_external_changes)
        self._watch_timer.start()
        self._retry_timer = QTimer(self, singleShot=True, interval=3000)
        self._retry_timer.timeout.connect(self._retry_unsaved_notes)
        self._sidebar_timer = QTimer(self, singleShot=True, interval=250)
        self._sidebar_timer.timeout.connect(self.sidebar.refresh)
        self._all_ids = library.ids()  # library order, refreshed after an import
        self._counts = (0, 0)
        self._recount()
        self._restore_settings()
        self.model.set_ids(self._ordered(self._all_ids))
        self._update_status()
        if self.model.rowCount():
            self.select_row(0)
        if self.search_box.text().strip():
            self._start_search()
        self.paper_list.setFocus()  # the triage keys work at once

    # ------------------------------------------------------------------ building
    def _build_triage_keys(self) -> None:
        """Triage keys work while the list or the reader has focus (not while typing in a text field)."""
        self._triage_keys = {
            Qt.Key.Key_J: lambda: self.move_selection(1), Qt.Key.Key_K: lambda: self.move_selection(-1),
            Qt.Key.Key_T: self.tag_editor.setFocus, Qt.Key.Key_N: self.note_editor.setFocus,
            Qt.Key.Key_R: self.toggle_read, Qt.Key.Key_Slash: self.search_box.setFocus,
            Qt.Key.Key_S: self.show_similar, Qt.Key.Key_A: self.accept_suggestion,
            Qt.Key.Key_X: self.dismiss_suggestion,
        }
        for digit in range(6):
            self._triage_keys[Qt.Key.Key_0 + digit] = lambda d=digit: self.rate_current(d, from_key=True)
        self.paper_list.installEventFilter(self)
        self.reader.installEventFilter(self)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self,
                  context=Qt.ShortcutContext.WindowShortcut).activated.connect(self.paper_list.setFocus)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.KeyPress and watched in (self.paper_list, self.reader):
            modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            action = self._triage_keys.get(event.key())
            if action is not None and modifiers in (Qt.KeyboardModifier.NoModifier,
                                                    Qt.KeyboardModifier.ShiftModifier):
                action()
                return True
        return super().eventFilter(watched, event)

    # ------------------------------------------------------------------ settings
    # ------------------------------------------------------------------ selection and reading
    def select_row(self, row: int) -> None:
        index = self.model.index(row, 0)
        if index.isValid():
            self.paper_list.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.paper_list.scrollTo(index)

    def select_paper(self, paper_id: str) -> bool:
        row = self.model.row_of(paper_id)
        if row is None:
            return False
        self.select_row(row)
        return True

    def move_selection(self, step: int) -> None:
        current = self.paper_list.currentIndex().row()
        self.select_row(max(0, min(self.model.rowCount() - 1, current + step)))

    def current_paper_id(self) -> str | None:
        return self._current_id

    def selected_ids(self) -> list[str]:
        rows = sorted({index.row() for index in self.paper_list.selectionModel().selectedRows()})
        return [self.model.paper_id(row) for row in rows]

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.note_editor.flush()
        self._current_id = self.model.paper_id(current.row()) if current.isValid() else None
        self.show_current()
        if self._current_id and self.setting("autoRead", True):
            self._read_timer.start()

    def _auto_mark_read(self) -> None:
        if self._current_id and not self.library.paper(self._current_id).read:
            self.library.set_read(self._current_id, True)
            self.paper_changed(self._current_id)

    def show_current(self, reload_note: bool = True) -> None:
        paper = self.library.paper(self._current_id) if self._current_id else None
        if paper is None:
            self.reader.setHtml("<p>" + self.tr("No paper selected.") + "</p>")
            self.rating_widget.setRating(0)
            self.tag_editor.setTags([])
            if reload_note:
                self.note_editor.load(None, "")
            return
        scroll = self.reader.verticalScrollBar().value()
        self.reader.setHtml(paper_to_html(paper, self._highlight, why=self._why.get(paper.id), labels={
            "similar": self.tr("Similar papers"), "why": self.tr("Recommended for: ")}))
        if not reload_note:
            self.reader.verticalScrollBar().setValue(scroll)
        self.rating_widget.setRating(paper.rating)
        self.tag_editor.setTags(paper.tags)
        self.tag_editor.setCompletions([name for name, _count in self.library.tags()])
        if reload_note:
            self.note_editor.load(paper.id, paper.note)
            self._note_baseline[paper.id] = paper.note

    # ------------------------------------------------------------------ annotating
    def paper_changed(self, paper_id: str) -> None:
        """After an edit: repaint the row, catch the index up (worker thread), refresh pane and sidebar."""
        self.model.refresh(paper_id)
        self.search_service.sync()
        if paper_id == self._current_id:
            self.show_current(reload_note=False)
        self._sidebar_timer.start()
        self._recount()
        if RECOMMENDATION.search(self._query):
            self._search_timer.start()  # recommendations depend on ratings and tags: recompute

    def rate_current(self, rating: int, from_key: bool = False) -> None:
        if self._current_id is None:
            return
        paper_id = self._current_id
        if (self.library.paper(paper_id).rating or 0) != rating:
            self.undo_stack.push(undo.SetRating(self.library, paper_id, rating or None, self.paper_changed))
        if from_key and rating and self.setting("rateAndAdvance", False):
            self.move_selection(1)

    def toggle_read(self) -> None:
        if self._current_id is not None:
            self._read_timer.stop()
            paper = self.library.paper(self._current_id)
            self.undo_stack.push(undo.SetRead(self.library, paper.id, not paper.read, self.paper_changed))

    def set_title(self, title: str | None) -> bool:
        """Give the current paper the user's title (None clears it). False, with a message, when refused."""
        if self._current_id is None:
            return False
        try:
            clean_title(title)
        except ValueError as error:
            QMessageBox.warning(self, self.tr("Set title"), str(error))
            return False
        self.undo_stack.push(undo.SetTitle(self.library, self._current_id, title, self.paper_changed))
        return True

    def _add_tag(self, name: str) -> None:
        if self._current_id is None:
            return
        if not " ".join(name.split()) or len(" ".join(name.split())) > 200:
            self.statusBar().showMessage(self.tr("A tag must have 1 to 200 characters"), 5000)
            return
        self.undo_stack.push(undo.ChangeTags(self.library, self._current_id, self.paper_changed, add=[name]))

    def _remove_tag(self, name: str) -> None:
        if self._current_id is not None:
            self.undo_stack.push(undo.ChangeTags(self.library, self._current_id, self.paper_changed,
                                                 remove=[name]))

    def _tags_changed(self) -> None:
        self.model.refresh_all()
        self.search_service.sync()
        self._sidebar_timer.start()
        self.show_current(reload_note=False)

    # ------------------------------------------------------------------ searching and sorting
    def _reader_action(self, action: str, argument: str) -> None:
        """A `margin:` link in the reader: similar papers, or a tag to filter by."""
        if action == "similar":
            self.show_similar(argument)
        elif action == "tag":
            self.add_filter(f'tag:"{argument}"')

    def _show_message(self, message: str) -> None:
        self.statusBar().showMessage(message, 5000)

    def _search_failed(self, message: str) -> None:
        self.statusBar().showMessage(self.tr("Search problem: %1").replace("%1", message), 10000)

    def _recount(self) -> None:
        """Count read papers anew (after an edit or import) and show the counts."""
        counts = self.library.read_counts().values()
        self._counts = (sum(read for read, _total in counts), sum(total for _read, total in counts))
        self._update_status()

    def _update_status(self) -> None:
        read, total = self._counts
        shown = self.model.rowCount()
        self.count_label.setText(
            self.tr("%1 of %2 papers · read %3 of %2").replace("%1", f"{shown:,}").replace("%2", f"{total:,}")
            .replace("%3", f"{read:,}"))

    # ------------------------------------------------------------------ import and export
    def library_changed(self) -> None:
        """After an import (in another process): read the index afresh, recount, and search again."""
        self._all_ids = self.library.ids()
        self._data_version = self._library_data_version()
        self.model.refresh_all()
        self.search_service.reopen()  # reopening also catches up with queued changes
        self.sidebar.refresh()
        self._recount()
        self._start_search()

    def export_notes_to(self, path: Path, fmt: str = "markdown") -> int:
        """Write every annotated paper to `path` now (on this thread). Returns the number of papers written."""
        self.note_editor.flush()
        return write_export(self.library.papers(self.library.annotated_ids()), fmt, Path(path),
                            history=self.library.note_history)

    def ids_for_scope(self, scope: str) -> list[str]:
        """Paper ids for an export scope: annotated, all, search (the list as shown) or selected."""
        if scope == "all":
            return self.library.ids()
        if scope == "search":
            return self.model.ids()
        if scope == "selected":
            return self.selected_ids()
        return self.library.annotated_ids()

    def _backup_if_due(self) -> None:
        folder = self.library.folder

        def work():
            with Library.open(folder, seed=False) as library:
                return backup_if_due(library)

        run_in_background(self, work, lambda path: None, self._show_message)

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.mimeData().hasUrls() and all(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt's name
        paths = [Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.actions_.start_import(paths)

    # ------------------------------------------------------------------ closing
    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closed:  # closed once already (e.g. close() and then the test harness): nothing left to save
            super().closeEvent(event)
            return
        self._closed = True
        self._read_timer.stop()
        self._search_timer.stop()
        self._backup_timer.stop()
        self._sidebar_timer.stop()
        self._retry_timer.stop()
        self._watch_timer.stop()
        self.note_editor.flush()
        self._retry_unsaved_notes()
        if self._unsaved_notes:  # last resort: never drop words the user typed
            self._write_rescue_file()
        self.save_settings()
        self.search_service.stop()
        wait_for_background()
        try:
            write_backup(self.library)
        except (MarginError, OSError) as error:
            print(f"margin: could not write the backup: {error}", file=sys.stderr)
        super().closeEvent(event)
