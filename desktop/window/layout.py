"""The main window's widgets and their saved layout: sidebar, search box and paper list, reader, rating, tags and
note; geometry, splitters, columns, sort, zoom and last query kept in QSettings between runs.

`build_widgets(window)` makes the widgets as attributes of the window (the window connects them);
`restore_layout(window)` and `save_layout(window)` read and write the window's QSettings."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.docks.saved_searches import SavedSearches
from desktop.docks.sidebar import Sidebar
from desktop.list.delegates import PaperDelegate, StarDelegate
from desktop.list.paper_model import LABEL, RATING
from desktop.reader.note_editor import NoteEditor
from desktop.reader.rating_widget import RatingWidget
from desktop.reader.reader_view import ReaderView
from desktop.reader.tag_editor import TagEditor

COLUMN_WIDTHS = {1: 72, 2: 96, 3: 78, 4: 44, 5: 40, 6: 150}  # rating, tags, venue, year, read, authors (pixels)
# sidebar, list, reader at the default width of 1280; a wider or narrower window keeps these proportions
# (at 1000 px: 199, 461, 340; at 1400 px: 279, 645, 476), so the list always gets the most
SPLITTER_SIZES = (255, 590, 435)
HEADER_KEY = "list/columns"  # was "list/header" when every column was shown and titles were cut: not restored


def _column_menu(window, position) -> None:
    """The list header's context menu: show or hide the rating, tags, venue, year, read and authors columns."""
    header = window.paper_list.horizontalHeader()
    menu = QMenu(header)
    for column in COLUMN_WIDTHS:
        name = window.model.headerData(column, Qt.Orientation.Horizontal)
        action = menu.addAction(name)
        action.setCheckable(True)
        action.setChecked(not header.isSectionHidden(column))
        action.toggled.connect(lambda shown, c=column: header.setSectionHidden(c, not shown))
    menu.exec(header.mapToGlobal(position))


def build_widgets(window) -> None:
    """Make the widgets of `window` (a MainWindow, whose `model` and `library` exist). Strings are translated
    in the MainWindow context."""
    window.search_box = QLineEdit(window)
    window.search_box.setObjectName("searchBox")
    window.search_box.setAccessibleName(QCoreApplication.translate("MainWindow", "Search papers"))
    window.search_box.setPlaceholderText(QCoreApplication.translate(
        "MainWindow", "Search: words, \"a phrase\", tag:name, rating:>=4…  (/)"))
    window.search_box.setClearButtonEnabled(True)

    window.paper_list = QTableView(window)
    window.paper_list.setObjectName("paperList")
    window.paper_list.setAccessibleName(QCoreApplication.translate("MainWindow", "Papers"))
    window.paper_list.setModel(window.model)
    window.paper_list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    window.paper_list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    window.paper_list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    window.paper_list.setShowGrid(False)
    window.paper_list.setWordWrap(False)
    window.paper_list.setAlternatingRowColors(True)
    window.paper_list.setItemDelegateForColumn(LABEL, PaperDelegate(window.paper_list))
    window.paper_list.setItemDelegateForColumn(RATING, StarDelegate(window.paper_list))
    window.paper_list.verticalHeader().hide()
    window.paper_list.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    window.paper_list.verticalHeader().setDefaultSectionSize(PaperDelegate.row_height(window.paper_list.font()))
    header = window.paper_list.horizontalHeader()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(LABEL, QHeaderView.ResizeMode.Stretch)
    for column, width in COLUMN_WIDTHS.items():
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(column, width)
        header.setSectionHidden(column, True)  # the row's second line shows them; the header menu brings them back
    header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    header.customContextMenuRequested.connect(lambda position: _column_menu(window, position))
    header.setSectionsClickable(True)
    header.setSortIndicatorShown(False)
    window.empty_label = QLabel(window.paper_list.viewport())
    window.empty_label.setObjectName("emptyListMessage")
    window.empty_label.setTextFormat(Qt.TextFormat.PlainText)
    window.empty_label.setWordWrap(True)
    window.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    window.empty_label.setMargin(24)
    window.empty_label.hide()

    window.sidebar = Sidebar(window.library, window, saved=SavedSearches(window.settings, window.library.folder))
    window.sidebar.setObjectName("sidebar")
    window.sidebar.setAccessibleName(QCoreApplication.translate("MainWindow", "Library, venues, ratings and tags"))

    left = QWidget(window)
    left_layout = QVBoxLayout(left)
    left_layout.setContentsMargins(0, 6, 0, 6)
    left_layout.addWidget(window.search_box)
    window.view_banner = QWidget(left)  # "Similar to: <label>" and Back, above a similar-papers list
    banner_layout = QHBoxLayout(window.view_banner)
    banner_layout.setContentsMargins(2, 0, 2, 0)
    window.back_button = QToolButton(window.view_banner)
    window.back_button.setObjectName("backButton")
    window.back_button.setText(QCoreApplication.translate("MainWindow", "← Back"))
    window.back_button.setToolTip(QCoreApplication.translate("MainWindow", "Back to the previous view (Alt+Left)"))
    window.view_label = QLabel(window.view_banner)
    window.view_label.setObjectName("viewLabel")
    window.view_label.setTextFormat(Qt.TextFormat.PlainText)
    banner_layout.addWidget(window.back_button)
    banner_layout.addWidget(window.view_label, 1)
    window.view_banner.hide()
    left_layout.addWidget(window.view_banner)
    left_layout.addWidget(window.paper_list)

    window.reader = ReaderView(window)
    window.reader.setObjectName("readerView")
    window.reader.setAccessibleName(QCoreApplication.translate("MainWindow", "Abstract"))

    window.rating_widget = RatingWidget(window)
    window.rating_widget.setObjectName("ratingWidget")
    window.rating_widget.setAccessibleName(QCoreApplication.translate("MainWindow", "Rating"))

    window.tag_editor = TagEditor(window)
    window.tag_editor.setObjectName("tagEditor")
    window.tag_editor.setAccessibleName(QCoreApplication.translate("MainWindow", "Tags"))

    window.note_editor = NoteEditor(window)
    window.note_editor.setObjectName("noteEditor")
    window.note_editor.setAccessibleName(QCoreApplication.translate("MainWindow", "Note"))

    annotations = QWidget(window)
    form = QFormLayout(annotations)
    form.setContentsMargins(6, 0, 6, 6)
    form.addRow(QLabel(QCoreApplication.translate("MainWindow", "Rating")), window.rating_widget)
    form.addRow(QLabel(QCoreApplication.translate("MainWindow", "Tags")), window.tag_editor)

    window.right_splitter = QSplitter(Qt.Orientation.Vertical, window)
    window.right_splitter.setObjectName("readerSplitter")
    window.right_splitter.addWidget(window.reader)
    bottom = QWidget(window)
    bottom_layout = QVBoxLayout(bottom)
    bottom_layout.setContentsMargins(0, 0, 0, 0)
    bottom_layout.addWidget(annotations)
    bottom_layout.addWidget(window.note_editor)
    window.right_splitter.addWidget(bottom)
    window.right_splitter.setSizes([440, 320])

    window.splitter = QSplitter(Qt.Orientation.Horizontal, window)
    window.splitter.setObjectName("mainSplitter")
    window.splitter.addWidget(window.sidebar)
    window.splitter.addWidget(left)
    window.splitter.addWidget(window.right_splitter)
    window.splitter.setSizes(list(SPLITTER_SIZES))
    window.setCentralWidget(window.splitter)

    window.count_label = QLabel(window)
    window.count_label.setObjectName("paperCount")
    window.pending_label = QLabel(window)  # edits kept while the library is busy or full
    window.pending_label.setObjectName("pendingEdits")
    window.pending_label.setTextFormat(Qt.TextFormat.PlainText)
    window.pending_label.setStyleSheet("color: #b35c00; font-weight: bold;")
    window.pending_label.hide()
    window.statusBar().addPermanentWidget(window.pending_label)
    window.statusBar().addPermanentWidget(window.count_label)
    window.progress_bar = QProgressBar(window)
    window.progress_bar.setMaximumWidth(200)
    window.progress_bar.hide()
    window.statusBar().addPermanentWidget(window.progress_bar)


def restore_layout(window) -> None:
    """Put back the layout saved by `save_layout`: geometry, splitters, columns, sort, zoom, last query."""
    s = window.settings
    if s.value("window/geometry"):
        window.restoreGeometry(s.value("window/geometry"))
    if s.value("window/splitter"):
        window.splitter.restoreState(s.value("window/splitter"))
    if s.value("window/readerSplitter"):
        window.right_splitter.restoreState(s.value("window/readerSplitter"))
    if s.value(HEADER_KEY):
        header = window.paper_list.horizontalHeader()
        header.restoreState(s.value(HEADER_KEY))
        for column in COLUMN_WIDTHS:  # a column newer than the saved layout (authors) starts hidden
            if column >= s.value("list/columnCount", 6, type=int):
                header.setSectionHidden(column, True)
    window.search.sort_key = s.value("list/sortKey") or None
    window.search.sort_descending = s.value("list/sortDescending", False, type=bool)
    apply_zoom(window, s.value("reader/zoom", 0, type=int))
    window.search_box.blockSignals(True)
    window.search_box.setText(s.value("search/lastQuery", "", type=str))
    window.search_box.blockSignals(False)


def save_layout(window) -> None:
    s = window.settings
    s.setValue("window/geometry", window.saveGeometry())
    s.setValue("window/splitter", window.splitter.saveState())
    s.setValue("window/readerSplitter", window.right_splitter.saveState())
    s.setValue(HEADER_KEY, window.paper_list.horizontalHeader().saveState())
    s.setValue("list/columnCount", window.model.columnCount())
    s.setValue("list/sortKey", window.search.sort_key or "")
    s.setValue("list/sortDescending", window.search.sort_descending)
    s.setValue("reader/zoom", window.reader.zoom)
    s.setValue("search/lastQuery", window.search_box.text())
    s.sync()


def apply_zoom(window, steps: int) -> None:
    """View → Zoom: `steps` (−5..10, 0 the default size) for the reader, the paper list (font and row height)
    and the note (editor and preview) together; one point of font size per step in the list and note."""
    window.reader.set_zoom(steps)
    steps = window.reader.zoom  # clamped
    if not hasattr(window, "_base_list_font"):
        window._base_list_font = window.paper_list.font()
        window._base_note_font = window.note_editor.editor.font()
    for widget, base in ((window.paper_list, window._base_list_font),
                         (window.note_editor.editor, window._base_note_font),
                         (window.note_editor.preview, window._base_note_font)):
        font = base.__class__(base)
        font.setPointSizeF(max(5.0, base.pointSizeF() + steps))
        widget.setFont(font)
    window.paper_list.verticalHeader().setDefaultSectionSize(PaperDelegate.row_height(window.paper_list.font()))
