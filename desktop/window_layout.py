"""The main window's widgets and their saved layout (mixed into desktop.main_window.MainWindow): sidebar, search
box and paper list, reader, rating, tags and note; geometry, splitters, columns, sort, zoom and last query kept in
QSettings between runs."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.delegates import StarDelegate
from desktop.note_editor import NoteEditor
from desktop.paper_model import LABEL, RATING
from desktop.rating_widget import RatingWidget
from desktop.reader_view import ReaderView
from desktop.sidebar import Sidebar
from desktop.tag_editor import TagEditor


class WindowLayout:
    """Builds the main window's widgets and saves and restores their layout.

    Strings are translated in the MainWindow context, where this code runs."""

    def _build_widgets(self) -> None:
        self.search_box = QLineEdit(self)
        self.search_box.setObjectName("searchBox")
        self.search_box.setAccessibleName(QCoreApplication.translate("MainWindow", "Search papers"))
        self.search_box.setPlaceholderText(QCoreApplication.translate(
            "MainWindow", "Search: words, \"a phrase\", tag:name, rating:>=4…  (/)"))
        self.search_box.setClearButtonEnabled(True)
        self.search_box.textChanged.connect(lambda _text: self._search_timer.start())

        self.paper_list = QTableView(self)
        self.paper_list.setObjectName("paperList")
        self.paper_list.setAccessibleName(QCoreApplication.translate("MainWindow", "Papers"))
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
        self.sidebar.setAccessibleName(QCoreApplication.translate("MainWindow", "Library, venues, ratings and tags"))
        self.sidebar.filterRequested.connect(self.add_filter)
        self.sidebar.tagsChanged.connect(self._tags_changed)

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 6, 0, 6)
        left_layout.addWidget(self.search_box)
        left_layout.addWidget(self.paper_list)

        self.reader = ReaderView(self)
        self.reader.setObjectName("readerView")
        self.reader.setAccessibleName(QCoreApplication.translate("MainWindow", "Abstract"))
        self.reader.action_requested.connect(self._reader_action)

        self.rating_widget = RatingWidget(self)
        self.rating_widget.setObjectName("ratingWidget")
        self.rating_widget.setAccessibleName(QCoreApplication.translate("MainWindow", "Rating"))
        self.rating_widget.ratingChanged.connect(lambda rating: self.rate_current(rating))

        self.tag_editor = TagEditor(self)
        self.tag_editor.setObjectName("tagEditor")
        self.tag_editor.setAccessibleName(QCoreApplication.translate("MainWindow", "Tags"))
        self.tag_editor.tagAdded.connect(self._add_tag)
        self.tag_editor.tagRemoved.connect(self._remove_tag)

        self.note_editor = NoteEditor(self)
        self.note_editor.setObjectName("noteEditor")
        self.note_editor.setAccessibleName(QCoreApplication.translate("MainWindow", "Note"))
        self.note_editor.noteChanged.connect(self._save_note)

        annotations = QWidget(self)
        form = QFormLayout(annotations)
        form.setContentsMargins(6, 0, 6, 6)
        form.addRow(QLabel(QCoreApplication.translate("MainWindow", "Rating")), self.rating_widget)
        form.addRow(QLabel(QCoreApplication.translate("MainWindow", "Tags")), self.tag_editor)

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
