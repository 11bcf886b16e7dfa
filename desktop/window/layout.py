"""The main window's widgets and their saved layout: sidebar, search box and paper list, reader, rating, tags and
note; geometry, splitters, columns, sort, zoom and last query kept in QSettings between runs.

`build_widgets(window, …)` makes the widgets and returns them as one `Widgets` value (the window connects them);
`restore_layout(window)` and `save_layout(window)` read and write the window's QSettings; `apply_zoom(window, …)`
sizes the reader, list and note together."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QProgressBar,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from db.library.library import Library
from desktop.common.library_settings import library_key
from desktop.docks.saved_searches import SavedSearches
from desktop.docks.sidebar import Sidebar
from desktop.list.delegates import PaperDelegate, StarDelegate
from desktop.list.paper_model import LABEL, RATING, PaperTableModel
from desktop.reader.note_editor import NoteEditor
from desktop.reader.rating_widget import RatingWidget
from desktop.reader.reader_view import ReaderView
from desktop.reader.tag_editor import TagEditor
from desktop.window.status import ElidingStatusBar

COLUMN_WIDTHS = {1: 72, 2: 96, 3: 78, 4: 44, 5: 40, 6: 150}  # rating, tags, venue, year, read, authors (pixels)
# sidebar, list, reader at the default width of 1280; a wider or narrower window keeps these proportions
# (at 1000 px: 199, 461, 340; at 1400 px: 279, 645, 476), so the list always gets the most
SPLITTER_SIZES = (255, 590, 435)
# the list's least width: the sidebar gives up room first when docks take a narrow screen's (1,024 px: the list was
# squeezed to 60 px once the sidebar kept its width)
LIST_MIN_WIDTH = 220
HEADER_KEY = "list/columns"  # was "list/header" when every column was shown and titles were cut: not restored


@dataclass
class Widgets:
    """The main window's widgets (made by `build_widgets`); the window connects them. `base_list_font` and
    `base_note_font` are the list's and the note's fonts at zoom 0 (set by the first `apply_zoom`)."""

    search_box: QLineEdit
    paper_list: QTableView
    empty_label: QLabel  # over the list's viewport when the list is empty, saying why
    view_banner: QWidget  # "Similar to: <label>" and Back, above a similar-papers list
    view_label: QLabel
    back_button: QToolButton
    sidebar: Sidebar
    reader: ReaderView
    rating_widget: RatingWidget
    tag_editor: TagEditor
    note_editor: NoteEditor
    splitter: QSplitter  # sidebar | search and list | reader and annotations
    right_splitter: QSplitter  # reader over annotations
    count_label: QLabel  # the status bar's paper counts
    pending_label: QLabel  # edits kept while the library is busy or full
    progress_bar: QProgressBar  # an import's progress
    base_list_font: QFont | None = None
    base_note_font: QFont | None = None


def _column_menu(paper_list: QTableView, position) -> None:
    """The list header's context menu: show or hide the rating, tags, venue, year, read and authors columns."""
    header = paper_list.horizontalHeader()
    menu = QMenu(header)
    for column in COLUMN_WIDTHS:
        name = paper_list.model().headerData(column, Qt.Orientation.Horizontal)
        action = menu.addAction(name)
        action.setCheckable(True)
        action.setChecked(not header.isSectionHidden(column))
        action.toggled.connect(lambda shown, c=column: header.setSectionHidden(c, not shown))
    menu.exec(header.mapToGlobal(position))


def build_widgets(window: QMainWindow, model: PaperTableModel, library: Library, settings: QSettings) -> Widgets:
    """Make the widgets of `window` (the list shows `model`; the sidebar reads `library` and keeps its saved
    searches in `settings`), lay them out as its central widget and status bar, and return them. Strings are
    translated in the MainWindow context."""
    search_box = QLineEdit(window)
    search_box.setObjectName("searchBox")
    search_box.setAccessibleName(QCoreApplication.translate("MainWindow", "Search papers"))
    search_box.setPlaceholderText(QCoreApplication.translate(
        "MainWindow", "Search: words, \"a phrase\", tag:name, rating:>=4…  (/)"))
    search_box.setClearButtonEnabled(True)

    paper_list = QTableView(window)
    paper_list.setObjectName("paperList")
    paper_list.setAccessibleName(QCoreApplication.translate("MainWindow", "Papers"))
    paper_list.setModel(model)
    paper_list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    paper_list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    paper_list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    paper_list.setShowGrid(False)
    paper_list.setWordWrap(False)
    paper_list.setAlternatingRowColors(True)
    paper_list.setItemDelegateForColumn(LABEL, PaperDelegate(paper_list))
    paper_list.setItemDelegateForColumn(RATING, StarDelegate(paper_list))
    paper_list.verticalHeader().hide()
    paper_list.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    paper_list.verticalHeader().setDefaultSectionSize(PaperDelegate.row_height(paper_list.font()))
    header = paper_list.horizontalHeader()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(LABEL, QHeaderView.ResizeMode.Stretch)
    for column, width in COLUMN_WIDTHS.items():
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(column, width)
        header.setSectionHidden(column, True)  # the row's second line shows them; the header menu brings them back
    header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    header.customContextMenuRequested.connect(lambda position: _column_menu(paper_list, position))
    header.setSectionsClickable(True)
    header.setSortIndicatorShown(False)
    empty_label = QLabel(paper_list.viewport())
    empty_label.setObjectName("emptyListMessage")
    empty_label.setTextFormat(Qt.TextFormat.PlainText)
    empty_label.setWordWrap(True)
    empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    empty_label.setMargin(24)
    empty_label.hide()

    sidebar = Sidebar(library, window, saved=SavedSearches(settings, library, window.ops))
    sidebar.setObjectName("sidebar")
    sidebar.setAccessibleName(QCoreApplication.translate("MainWindow", "Library, venues, ratings and tags"))

    left = QWidget(window)
    left_layout = QVBoxLayout(left)
    left_layout.setContentsMargins(0, 6, 0, 6)
    left_layout.addWidget(search_box)
    view_banner = QWidget(left)
    banner_layout = QHBoxLayout(view_banner)
    banner_layout.setContentsMargins(2, 0, 2, 0)
    back_button = QToolButton(view_banner)
    back_button.setObjectName("backButton")
    back_button.setText(QCoreApplication.translate("MainWindow", "← Back"))
    back_button.setToolTip(QCoreApplication.translate("MainWindow", "Back to the previous view (Alt+Left)"))
    view_label = QLabel(view_banner)
    view_label.setObjectName("viewLabel")
    view_label.setTextFormat(Qt.TextFormat.PlainText)
    banner_layout.addWidget(back_button)
    banner_layout.addWidget(view_label, 1)
    view_banner.hide()
    left_layout.addWidget(view_banner)
    left_layout.addWidget(paper_list)
    left.setMinimumWidth(LIST_MIN_WIDTH)

    reader = ReaderView(window)
    reader.setObjectName("readerView")
    reader.setAccessibleName(QCoreApplication.translate("MainWindow", "Abstract"))

    rating_widget = RatingWidget(window)
    rating_widget.setObjectName("ratingWidget")
    rating_widget.setAccessibleName(QCoreApplication.translate("MainWindow", "Rating"))

    tag_editor = TagEditor(window)
    tag_editor.setObjectName("tagEditor")
    tag_editor.setAccessibleName(QCoreApplication.translate("MainWindow", "Tags"))

    note_editor = NoteEditor(window)
    note_editor.setObjectName("noteEditor")
    note_editor.setAccessibleName(QCoreApplication.translate("MainWindow", "Note"))

    annotations = QWidget(window)
    form = QFormLayout(annotations)
    form.setContentsMargins(6, 0, 6, 6)
    form.addRow(QLabel(QCoreApplication.translate("MainWindow", "Rating")), rating_widget)
    form.addRow(QLabel(QCoreApplication.translate("MainWindow", "Tags")), tag_editor)

    right_splitter = QSplitter(Qt.Orientation.Vertical, window)
    right_splitter.setObjectName("readerSplitter")
    right_splitter.addWidget(reader)
    bottom = QWidget(window)
    bottom_layout = QVBoxLayout(bottom)
    bottom_layout.setContentsMargins(0, 0, 0, 0)
    bottom_layout.addWidget(annotations)
    bottom_layout.addWidget(note_editor)
    right_splitter.addWidget(bottom)
    right_splitter.setSizes([440, 320])

    splitter = QSplitter(Qt.Orientation.Horizontal, window)
    splitter.setObjectName("mainSplitter")
    splitter.addWidget(sidebar)
    splitter.addWidget(left)
    splitter.addWidget(right_splitter)
    splitter.setSizes(list(SPLITTER_SIZES))
    splitter.setStretchFactor(0, 0)  # a dock opened takes its room from the list and the reader, not the sidebar
    splitter.setStretchFactor(1, 1)
    splitter.setStretchFactor(2, 1)
    splitter.setCollapsible(0, False)  # a dock opened beside it narrows the list and reader, not the sidebar past
    # its least width (desktop.docks.sidebar_columns: star rows and counts whole)
    window.setCentralWidget(splitter)

    window.setStatusBar(ElidingStatusBar(window))  # a long message cut with "…", never over the counts
    count_label = QLabel(window)
    count_label.setObjectName("paperCount")
    pending_label = QLabel(window)
    pending_label.setObjectName("pendingEdits")
    pending_label.setTextFormat(Qt.TextFormat.PlainText)
    pending_label.setStyleSheet("color: #b35c00; font-weight: bold;")
    pending_label.hide()
    window.statusBar().addPermanentWidget(pending_label)
    window.statusBar().addPermanentWidget(count_label)
    progress_bar = QProgressBar(window)
    progress_bar.setMaximumWidth(200)
    progress_bar.hide()
    window.statusBar().addPermanentWidget(progress_bar)
    return Widgets(search_box=search_box, paper_list=paper_list, empty_label=empty_label, view_banner=view_banner,
                   view_label=view_label, back_button=back_button, sidebar=sidebar, reader=reader,
                   rating_widget=rating_widget, tag_editor=tag_editor, note_editor=note_editor, splitter=splitter,
                   right_splitter=right_splitter, count_label=count_label, pending_label=pending_label,
                   progress_bar=progress_bar)


def fit_to_screen(window: QMainWindow) -> None:
    """The window's first size: 1280×780, or what fits a smaller screen (a laptop's 1024×600 shows the reader
    and the status bar)."""
    screen = QGuiApplication.primaryScreen()
    room = screen.availableGeometry() if screen is not None else None
    window.resize(min(1280, room.width() - 40) if room else 1280, min(780, room.height() - 60) if room else 780)


# kept per library (library_key); the window's size and the zoom are the same for every library. A library seen
# for the first time takes the splitters, columns and sort last used anywhere (the plain keys), never the query.
_PER_LIBRARY = ("window/splitter", "window/readerSplitter", HEADER_KEY, "list/columnCount", "list/sortKey",
                "list/sortDescending")


def restore_layout(window) -> None:
    """Put back the layout saved by `save_layout` on `window` (a MainWindow: its `widgets`, `settings`, `library`
    and `search`): geometry, splitters, columns, sort, zoom, last query (per library)."""
    s, w = window.settings, window.widgets
    own = partial(library_key, window.library.folder)

    def value(name: str, *default, **kind):
        return s.value(own(name), *default, **kind) if s.contains(own(name)) else s.value(name, *default, **kind)

    if s.value("window/geometry"):
        window.restoreGeometry(s.value("window/geometry"))
    if value("window/splitter"):
        w.splitter.restoreState(value("window/splitter"))
    if value("window/readerSplitter"):
        w.right_splitter.restoreState(value("window/readerSplitter"))
    if value(HEADER_KEY):
        header = w.paper_list.horizontalHeader()
        header.restoreState(value(HEADER_KEY))
        for column in COLUMN_WIDTHS:  # a column newer than the saved layout (authors) starts hidden
            if column >= value("list/columnCount", 6, type=int):
                header.setSectionHidden(column, True)
    window.search.sort_key = value("list/sortKey") or None
    window.search.sort_descending = value("list/sortDescending", False, type=bool)
    apply_zoom(window, s.value("reader/zoom", 0, type=int))
    w.search_box.blockSignals(True)
    w.search_box.setText(s.value(own("search/lastQuery"), "", type=str))
    w.search_box.blockSignals(False)


def saved_paper(window) -> str | None:
    """The paper the reader showed when the window on this library last closed (None when none was)."""
    return window.settings.value(library_key(window.library.folder, "reader/paper"), "", type=str) or None


def save_layout(window) -> None:
    """Keep `window`'s layout (what `restore_layout` puts back) and the current paper in its QSettings."""
    s, w = window.settings, window.widgets
    own = partial(library_key, window.library.folder)
    s.setValue("window/geometry", window.saveGeometry())
    values = {"window/splitter": w.splitter.saveState(), "window/readerSplitter": w.right_splitter.saveState(),
              HEADER_KEY: w.paper_list.horizontalHeader().saveState(),
              "list/columnCount": w.paper_list.model().columnCount(), "list/sortKey": window.search.sort_key or "",
              "list/sortDescending": window.search.sort_descending}
    for name in _PER_LIBRARY:
        s.setValue(name, values[name])
        s.setValue(own(name), values[name])
    s.setValue("reader/zoom", w.reader.zoom)
    s.setValue(own("search/lastQuery"), w.search_box.text())
    s.setValue(own("reader/paper"), window.current_paper_id() or "")
    s.sync()


def apply_zoom(window, steps: int) -> None:
    """View → Zoom on `window` (a MainWindow): `steps` (−5..10, 0 the default size) for the reader, the paper
    list (font and row height) and the note (editor and preview) together; one point of font size per step in the
    list and note."""
    widgets = window.widgets
    widgets.reader.set_zoom(steps)
    steps = widgets.reader.zoom  # clamped
    if widgets.base_list_font is None:
        widgets.base_list_font = widgets.paper_list.font()
        widgets.base_note_font = widgets.note_editor.editor.font()
    for widget, base in ((widgets.paper_list, widgets.base_list_font),
                         (widgets.note_editor.editor, widgets.base_note_font),
                         (widgets.note_editor.preview, widgets.base_note_font)):
        font = QFont(base)
        font.setPointSizeF(max(5.0, base.pointSizeF() + steps))
        widget.setFont(font)
    widgets.paper_list.verticalHeader().setDefaultSectionSize(PaperDelegate.row_height(widgets.paper_list.font()))
