"""Margin's main window: search box and paper list beside the reader pane and the annotation panel."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from db.cli import write_atomically
from db.errors import MarginError
from db.export import export_markdown
from db.library import Library
from db.render import paper_to_html
from db.search_index import highlight_terms
from desktop.note_editor import NoteEditor
from desktop.paper_model import LABEL, PaperTableModel
from desktop.rating_widget import RatingWidget
from desktop.reader_view import ReaderView
from desktop.search_worker import SearchService
from desktop.tag_editor import TagEditor

SEARCH_DELAY_MS = 150


class MainWindow(QMainWindow):
    """The window on one library. Every edit is saved through the Library at once; searching and indexing
    run on the SearchService's thread."""

    def __init__(self, library: Library):
        super().__init__()
        self.library = library
        self.setWindowTitle(self.tr("Margin — %1").replace("%1", str(library.folder)))
        self.resize(1200, 760)
        self._query = ""
        self._highlight: list[str] = []
        self._current_id: str | None = None

        self.model = PaperTableModel(library, self)
        self._build_widgets()
        self._build_menus()
        self._build_shortcuts()

        self.search_service = SearchService(library.folder, self)
        self.search_service.worker.results.connect(self._show_results)
        self.search_service.worker.status.connect(self._show_message)
        self.search_service.worker.failed.connect(self._search_failed)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._start_search)

        self.model.set_ids(library.ids())
        self._update_status()
        if self.model.rowCount():
            self.select_row(0)

    # ------------------------------------------------------------------ building
    def _build_widgets(self) -> None:
        self.search_box = QLineEdit(self)
        self.search_box.setObjectName("searchBox")
        self.search_box.setAccessibleName(self.tr("Search papers"))
        self.search_box.setPlaceholderText(self.tr("Search: words, \"a phrase\", tag:name, author:name…  (/)"))
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
        self.paper_list.verticalHeader().hide()
        self.paper_list.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.paper_list.horizontalHeader()
        header.setSectionResizeMode(LABEL, QHeaderView.ResizeMode.Stretch)
        for column, width in ((1, 72), (2, 100), (3, 78), (4, 44), (5, 40)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)
        self.paper_list.selectionModel().currentRowChanged.connect(self._current_changed)

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(6, 6, 0, 6)
        left_layout.addWidget(self.search_box)
        left_layout.addWidget(self.paper_list)

        self.reader = ReaderView(self)
        self.reader.setObjectName("readerView")
        self.reader.setAccessibleName(self.tr("Abstract"))

        self.rating_widget = RatingWidget(self)
        self.rating_widget.setObjectName("ratingWidget")
        self.rating_widget.setAccessibleName(self.tr("Rating"))
        self.rating_widget.ratingChanged.connect(self._rate_current)

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

        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(self.reader)
        bottom = QWidget(self)
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(annotations)
        bottom_layout.addWidget(self.note_editor)
        right.addWidget(bottom)
        right.setSizes([430, 330])

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setSizes([640, 560])
        self.setCentralWidget(self.splitter)

        self.count_label = QLabel(self)
        self.count_label.setObjectName("paperCount")
        self.statusBar().addPermanentWidget(self.count_label)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self.export_action = QAction(self.tr("&Export notes…"), self)
        self.export_action.setShortcut(QKeySequence(self.tr("Ctrl+E")))
        self.export_action.triggered.connect(self._export_dialog)
        file_menu.addAction(self.export_action)
        file_menu.addSeparator()
        quit_action = QAction(self.tr("&Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)

        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        shortcuts = QAction(self.tr("&Keyboard shortcuts"), self)
        shortcuts.triggered.connect(self._show_shortcuts)
        help_menu.addAction(shortcuts)
        about = QAction(self.tr("&About Margin"), self)
        about.triggered.connect(lambda: QMessageBox.about(
            self, self.tr("About Margin"),
            self.tr("Margin: read, triage and annotate research-paper abstracts.")))
        help_menu.addAction(about)

    def _build_shortcuts(self) -> None:
        """Triage keys work while the list or the reader has focus (not while typing in a text field)."""
        self._triage_keys = {
            Qt.Key.Key_J: lambda: self.move_selection(1), Qt.Key.Key_K: lambda: self.move_selection(-1),
            Qt.Key.Key_T: self.tag_editor.setFocus, Qt.Key.Key_N: self.note_editor.setFocus,
            Qt.Key.Key_R: self._toggle_read, Qt.Key.Key_Slash: self.search_box.setFocus,
        }
        for digit in range(6):
            self._triage_keys[Qt.Key.Key_0 + digit] = lambda d=digit: self._rate_current(d, from_key=True)
        self.paper_list.installEventFilter(self)
        self.reader.installEventFilter(self)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self,
                  context=Qt.ShortcutContext.WindowShortcut).activated.connect(self.paper_list.setFocus)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self).activated.connect(self.search_box.setFocus)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.KeyPress and watched in (self.paper_list, self.reader):
            modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            action = self._triage_keys.get(event.key())
            if action is not None and modifiers in (Qt.KeyboardModifier.NoModifier,
                                                    Qt.KeyboardModifier.ShiftModifier):
                action()
                return True
        return super().eventFilter(watched, event)

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

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.note_editor.flush()
        self._current_id = self.model.paper_id(current.row()) if current.isValid() else None
        self._show_current()

    def _show_current(self, reload_note: bool = True) -> None:
        paper = self.library.paper(self._current_id) if self._current_id else None
        if paper is None:
            self.reader.setHtml("<p>" + self.tr("No paper selected.") + "</p>")
            self.rating_widget.setRating(0)
            self.tag_editor.setTags([])
            if reload_note:
                self.note_editor.load(None, "")
            return
        scroll = self.reader.verticalScrollBar().value()
        self.reader.setHtml(paper_to_html(paper, self._highlight))
        if not reload_note:
            self.reader.verticalScrollBar().setValue(scroll)
        self.rating_widget.setRating(paper.rating)
        self.tag_editor.setTags(paper.tags)
        self.tag_editor.setCompletions([name for name, _count in self.library.tags()])
        if reload_note:
            self.note_editor.load(paper.id, paper.note)

    # ------------------------------------------------------------------ annotating
    def _changed(self, paper_id: str) -> None:
        """After an edit: repaint the row, catch the index up (worker thread), refresh the pane."""
        self.model.refresh(paper_id)
        self.search_service.sync()
        if paper_id == self._current_id:
            self._show_current(reload_note=False)
        self._update_status()

    def _rate_current(self, rating: int, from_key: bool = False) -> None:
        if self._current_id is None:
            return
        self.library.set_rating(self._current_id, rating or None)
        self._changed(self._current_id)

    def _add_tag(self, name: str) -> None:
        if self._current_id is None:
            return
        try:
            self.library.add_tags(self._current_id, [name])
        except ValueError as error:
            self.statusBar().showMessage(str(error), 5000)
            return
        self._changed(self._current_id)

    def _remove_tag(self, name: str) -> None:
        if self._current_id is not None:
            self.library.remove_tags(self._current_id, [name])
            self._changed(self._current_id)

    def _save_note(self, paper_id: str, text: str) -> None:
        try:
            self.library.set_note(paper_id, text)
        except KeyError:
            return
        self.model.refresh(paper_id)
        self.search_service.sync()

    def _toggle_read(self) -> None:
        if self._current_id is not None:
            paper = self.library.paper(self._current_id)
            self.library.set_read(paper.id, not paper.read)
            self._changed(paper.id)

    # ------------------------------------------------------------------ searching
    def set_query(self, text: str) -> None:
        """Put `text` in the search box and search at once (without the typing delay)."""
        self.search_box.setText(text)
        self._search_timer.stop()
        self._start_search()

    def _start_search(self) -> None:
        text = self.search_box.text()
        if not text.strip():
            self._query = ""
            self._highlight = []
            self.search_service.search("")  # makes any search still running stale
            self._apply_ids(self.library.ids())
            return
        self.search_service.search(text)

    def _show_results(self, request: int, text: str, ids: list) -> None:
        if request != self.search_service.latest_request:
            return  # a newer search is on its way
        self._query = text
        self._highlight = highlight_terms(text) if text.strip() else []
        self._apply_ids(ids if text.strip() else self.library.ids())

    def _apply_ids(self, ids: list[str]) -> None:
        keep = self._current_id
        self.model.set_ids(ids)
        if keep is not None and self.select_paper(keep):
            self._show_current(reload_note=False)
        elif self.model.rowCount():
            self.select_row(0)
        else:
            self.note_editor.flush()
            self._current_id = None
            self._show_current()
        self._update_status()

    def _show_message(self, message: str) -> None:
        self.statusBar().showMessage(message, 5000)

    def _search_failed(self, message: str) -> None:
        self.statusBar().showMessage(self.tr("Search problem: %1").replace("%1", message), 10000)

    def _update_status(self) -> None:
        total = self.library.count()
        shown = self.model.rowCount()
        read = sum(r for r, _t in self.library.read_counts().values())
        self.count_label.setText(
            self.tr("%1 of %2 papers · read %3 of %2").replace("%1", f"{shown:,}").replace("%2", f"{total:,}")
            .replace("%3", f"{read:,}"))

    # ------------------------------------------------------------------ export
    def export_notes_to(self, path: Path) -> int:
        """Write every annotated paper as Markdown to `path`. Returns the number of papers written."""
        self.note_editor.flush()
        papers = self.library.papers(self.library.annotated_ids())
        write_atomically(Path(path), export_markdown(papers))
        return len(papers)

    def _export_dialog(self) -> None:
        name, _filter = QFileDialog.getSaveFileName(
            self, self.tr("Export notes"), str(Path.home() / "margin-notes.md"), self.tr("Markdown (*.md)"))
        if not name:
            return
        try:
            count = self.export_notes_to(Path(name))
        except MarginError as error:
            QMessageBox.warning(self, self.tr("Export failed"), str(error))
            return
        self.statusBar().showMessage(self.tr("Exported %1 papers to %2").replace("%1", str(count))
                                     .replace("%2", name), 8000)

    def _show_shortcuts(self) -> None:
        QMessageBox.information(self, self.tr("Keyboard shortcuts"), self.tr(
            "j / ↓  next paper\nk / ↑  previous paper\n1–5  rate\n0  clear the rating\n"
            "t  edit tags\nn  edit the note\nr  toggle read\n/  search\nEsc  back to the list\n"
            "Ctrl+E  export notes"))

    # ------------------------------------------------------------------ closing
    def closeEvent(self, event: QCloseEvent) -> None:
        self.note_editor.flush()
        self.search_service.stop()
        super().closeEvent(event)
