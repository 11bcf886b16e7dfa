"""Margin's main window: sidebar, search box and paper list, reader pane and annotation panel."""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from db import facets
from db.backup import backup_if_due, write_backup
from db.errors import MarginError
from db.export import write_export
from db.library import Library, clean_title
from db.render import paper_to_html
from db.search_index import highlight_terms
from db.searching import RECOMMENDATION
from desktop import undo
from desktop.background import run_in_background, wait_for_background
from desktop.delegates import StarDelegate
from desktop.note_editor import NoteEditor
from desktop.paper_model import COLUMNS, LABEL, RATING, PaperTableModel
from desktop.rating_widget import RatingWidget
from desktop.reader_view import ReaderView
from desktop.search_worker import SearchService
from desktop.sidebar import Sidebar
from desktop.tag_editor import TagEditor
from desktop.window_actions import WindowActions

SEARCH_DELAY_MS = 40  # coalesces key repeats; the worker also skips searches a newer keystroke replaced
AUTO_READ_MS = 2000
EXTERNAL_CHECK_MS = 2000  # how often to look for changes made by another process (the command line)
NOTE_VERSION_SECONDS = 60  # note saves closer together than this are one version in the note history
BACKUP_CHECK_MS = 60 * 60 * 1000  # look once an hour whether the daily backup is due
BACKUP_FIRST_CHECK_MS = 30 * 1000


class MainWindow(QMainWindow):
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
    def _build_widgets(self) -> None:
        self.search_box = QLineEdit(self)
        self.search_box.setObjectName("searchBox")
        self.search_box.setAccessibleName(self.tr("Search papers"))
        self.search_box.setPlaceholderText(self.tr("Search: words, \"a phrase\", tag:name, rating:>=4…  (/)"))
        self.search_box.setClearButtonEnabled(True)
        self.search_box.textChanged.connect(lambda _text: self._search_timer.start())

        self.paper_list = QTableView(self)
        self.paper_list.setObjectName("paperList")
        self.paper_list.setAccessibleName(self.tr("Papers"))
        self.paper_list.setModel(self.model)
        self.paper_list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.paper_list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.paper_list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.paper_list.setShowGrid(False)
        self.paper_list.setWordWrap(False)
        self.paper_list.setAlternatingRowColors(True)
        self.paper_list.setItemDelegateForColumn(RATING, StarDelegate(self.paper_list))
        self.paper_list.verticalHeader().hide()
        self.paper_list.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.paper_list.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.paper_list.horizontalHeader()
        header.setSectionResizeMode(LABEL, QHeaderView.ResizeMode.Stretch)
        for column, width in ((1, 72), (2, 96), (3, 78), (4, 44), (5, 40)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(False)
        header.sectionClicked.connect(self._header_clicked)
        self.paper_list.selectionModel().currentRowChanged.connect(self._current_changed)

        self.sidebar = Sidebar(self.library, self)
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setAccessibleName(self.tr("Library, venues, ratings and tags"))
        self.sidebar.filterRequested.connect(self.add_filter)
        self.sidebar.tagsChanged.connect(self._tags_changed)

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 6, 0, 6)
        left_layout.addWidget(self.search_box)
        left_layout.addWidget(self.paper_list)

        self.reader = ReaderView(self)
        self.reader.setObjectName("readerView")
        self.reader.setAccessibleName(self.tr("Abstract"))
        self.reader.action_requested.connect(self._reader_action)

        self.rating_widget = RatingWidget(self)
        self.rating_widget.setObjectName("ratingWidget")
        self.rating_widget.setAccessibleName(self.tr("Rating"))
        self.rating_widget.ratingChanged.connect(lambda rating: self.rate_current(rating))

        self.tag_editor = TagEditor(self)
        self.tag_editor.setObjectName("tagEditor")
        self.tag_editor.setAccessibleName(self.tr("Tags"))
        self.tag_editor.tagAdded.connect(self._add_tag)
        self.tag_editor.tagRemoved.connect(self._remove_tag)

        self.note_editor = NoteEditor(self)
        self.note_editor.setObjectName("noteEditor")
        self.note_editor.setAccessibleName(self.tr("Note"))
        self.note_editor.noteChanged.connect(self._save_note)

        annotations = QWidget(self)
        form = QFormLayout(annotations)
        form.setContentsMargins(6, 0, 6, 6)
        form.addRow(QLabel(self.tr("Rating")), self.rating_widget)
        form.addRow(QLabel(self.tr("Tags")), self.tag_editor)

        self.right_splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.right_splitter.setObjectName("readerSplitter")
        self.right_splitter.addWidget(self.reader)
        bottom = QWidget(self)
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(annotations)
        bottom_layout.addWidget(self.note_editor)
        self.right_splitter.addWidget(bottom)
        self.right_splitter.setSizes([440, 320])

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.right_splitter)
        self.splitter.setSizes([235, 575, 470])
        self.setCentralWidget(self.splitter)

        self.count_label = QLabel(self)
        self.count_label.setObjectName("paperCount")
        self.statusBar().addPermanentWidget(self.count_label)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setMaximumWidth(200)
        self.progress_bar.hide()
        self.statusBar().addPermanentWidget(self.progress_bar)

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
    def _restore_settings(self) -> None:
        s = self.settings
        if s.value("window/geometry"):
            self.restoreGeometry(s.value("window/geometry"))
        if s.value("window/splitter"):
            self.splitter.restoreState(s.value("window/splitter"))
        if s.value("window/readerSplitter"):
            self.right_splitter.restoreState(s.value("window/readerSplitter"))
        if s.value("list/header"):
            self.paper_list.horizontalHeader().restoreState(s.value("list/header"))
        self._sort_key = s.value("list/sortKey") or None
        self._sort_descending = s.value("list/sortDescending", False, type=bool)
        self.reader.set_zoom(s.value("reader/zoom", 0, type=int))
        self.search_box.blockSignals(True)
        self.search_box.setText(s.value("search/lastQuery", "", type=str))
        self.search_box.blockSignals(False)

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/splitter", self.splitter.saveState())
        s.setValue("window/readerSplitter", self.right_splitter.saveState())
        s.setValue("list/header", self.paper_list.horizontalHeader().saveState())
        s.setValue("list/sortKey", self._sort_key or "")
        s.setValue("list/sortDescending", self._sort_descending)
        s.setValue("reader/zoom", self.reader.zoom)
        s.setValue("search/lastQuery", self.search_box.text())
        s.sync()

    def setting(self, name: str, default: bool) -> bool:
        return self.settings.value(f"triage/{name}", default, type=bool)

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
                self.statusBar().showMessage(self.tr(
                    "This note was also changed outside this window; that version is in Edit → Note history"),
                    15000)
            self.library.set_note(paper_id, text, keep_version=keep_version)
        except KeyError:
            return True  # the paper is gone: nothing to keep
        except (MarginError, OSError, sqlite3.Error) as error:
            self._unsaved_notes[paper_id] = text
            self._retry_timer.start()
            self.statusBar().showMessage(self.tr("The note could not be saved yet (%1); Margin keeps it and "
                                                 "tries again").replace("%1", str(error)), 10000)
            return False
        self._note_session = (paper_id, time.monotonic())
        self._note_baseline[paper_id] = text
        self._unsaved_notes.pop(paper_id, None)
        self.model.refresh(paper_id)
        self.search_service.sync()
        return True

    def _write_rescue_file(self) -> None:
        rescue = self.library.folder / "unsaved-notes.json"
        try:
            rescue.write_text(json.dumps(self._unsaved_notes, ensure_ascii=False, indent=1), encoding="utf-8")
            print(f"margin: notes that could not be saved were written to {rescue}", file=sys.stderr)
        except OSError as error:
            print(f"margin: notes could not be saved ({error}):", json.dumps(self._unsaved_notes), file=sys.stderr)

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
        self.search_service.reopen()  # the other process may have written to the index too
        self.search_service.sync()
        self.show_current(reload_note=not self.note_editor.is_dirty())
        if self._query.strip() and self.search_box.text() == self._query:
            self._search_timer.start()
        elif not self._query.strip() and self.model.rowCount() != len(self._all_ids):
            self._apply_ids(self._all_ids)

    def _retry_unsaved_notes(self) -> None:
        for paper_id, text in list(self._unsaved_notes.items()):
            if self._save_note(paper_id, text):
                self.statusBar().showMessage(self.tr("The note was saved"), 5000)

    def _tags_changed(self) -> None:
        self.model.refresh_all()
        self.search_service.sync()
        self._sidebar_timer.start()
        self.show_current(reload_note=False)

    # ------------------------------------------------------------------ searching and sorting
    def set_query(self, text: str) -> None:
        """Put `text` in the search box and search at once (without the typing delay)."""
        self.search_box.setText(text)
        self._search_timer.stop()
        self._start_search()

    def add_filter(self, fragment: str) -> None:
        """Add a sidebar filter to the query (an empty fragment clears the query)."""
        current = self.search_box.text().strip()
        if not fragment:
            self.set_query("")
        elif fragment not in current:
            self.set_query(f"{current} {fragment}".strip())

    def _start_search(self) -> None:
        text = self.search_box.text()
        if not text.strip():
            self._query = ""
            self._highlight = []
            self.search_service.search("")  # makes any search still running stale
            self._apply_ids(self._all_ids)
            return
        self.search_service.search(text)

    def _show_results(self, request: int, text: str, result) -> None:
        if request != self.search_service.latest_request:
            return  # a newer search is on its way
        self._query = text
        found = RECOMMENDATION.search(text)
        self._why = result.why if found and not found.group(2) else {}  # "recommended for" is not for look-alikes
        self._highlight = (result.terms or highlight_terms(text)) if text.strip() else []
        if result.hint:
            self.statusBar().showMessage(result.hint, 8000)
        else:
            self.statusBar().clearMessage()  # an old hint no longer applies
        self._apply_ids(result.ids if text.strip() else self._all_ids)

    def show_similar(self, paper_id: str | None = None) -> None:
        """Show the papers most like `paper_id` (the current paper when None)."""
        paper_id = paper_id or self._current_id
        if paper_id:
            self.set_query(f"similar:{paper_id}")

    def suggestion_tag(self) -> str | None:
        """The tag whose suggestions the list shows (`similar-tag:"NAME"`), else None."""
        found = RECOMMENDATION.search(self._query)
        return (found.group(3) or found.group(4)) if found and (found.group(3) or found.group(4)) else None

    def accept_suggestion(self) -> None:
        """Add the suggested tag to the current paper and go on to the next suggestion."""
        tag = self.suggestion_tag()
        if tag and self._current_id:
            self.undo_stack.push(undo.ChangeTags(self.library, self._current_id, self.paper_changed, add=[tag]))
            self.dismiss_suggestion()

    def dismiss_suggestion(self) -> None:
        """Take the current paper off the suggestion list (for this session) and show the next."""
        if self.suggestion_tag() and self._current_id:
            row = self.paper_list.currentIndex().row()
            ids = [i for i in self.model.ids() if i != self._current_id]
            self._current_id = None
            self.model.set_ids(ids)
            if ids:
                self.select_row(min(row, len(ids) - 1))
            self._update_status()

    def sort_by(self, key: str | None, descending: bool = False) -> None:
        """Sort the list by a facets.SORT_KEYS key, or by relevance (library order without a query) for None."""
        self._sort_key, self._sort_descending = key, descending
        header = self.paper_list.horizontalHeader()
        if key in COLUMNS:
            header.setSortIndicatorShown(True)
            header.setSortIndicator(COLUMNS.index(key), Qt.SortOrder.DescendingOrder if descending
                                    else Qt.SortOrder.AscendingOrder)
        else:
            header.setSortIndicatorShown(False)
        self._start_search()

    def _header_clicked(self, column: int) -> None:
        key = COLUMNS[column]
        descending = not self._sort_descending if key == self._sort_key else key in ("rating", "year")
        self.sort_by(key, descending)

    def _ordered(self, ids: list[str]) -> list[str]:
        return facets.order_ids(self.library, ids, self._sort_key, self._sort_descending) if self._sort_key else ids

    def _apply_ids(self, ids: list[str]) -> None:
        keep = self._current_id
        self.model.set_ids(self._ordered(ids))
        if keep is not None and self.select_paper(keep):
            self.show_current(reload_note=False)
        elif self.model.rowCount():
            self.select_row(0)
        else:
            self.note_editor.flush()
            self._current_id = None
            self.show_current()
        self._update_status()

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
        self.search_service.reopen()
        self.search_service.sync()
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
