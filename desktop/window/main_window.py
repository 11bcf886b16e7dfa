"""Margin's main window: sidebar, search box and paper list, reader pane and annotation panel.

The window is made of parts with their own classes: the search session (desktop.list.search_session: query, sort,
results), the note session (desktop.reader.note_session: the note being written), the read tracker
(desktop.edits.read_tracker: when a paper counts as read), the change watcher (desktop.edits.change_watcher: what other
processes changed) and the actions (desktop.window.actions: menus). Every change, the window's own or another
process's, arrives as one db.changes.Changes value at `apply_changes`, which updates what it touches.
"""

from __future__ import annotations

import gc
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelectionModel, QLocale, QModelIndex, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import QMainWindow, QMessageBox

from db.changes import ADDED, BIBLIOGRAPHIC, NOTE, OUTSIDE, READ, REMOVED, TAGS, TITLE, Changes
from db.changes import RATING as RATING_CHANGE
from db.errors import MarginError
from db.exporters.registry import write_export
from db.library.backup import backup_folder_if_due, write_backup
from db.library.library import Library
from db.text.render import paper_to_html
from desktop.common.background import run_in_background, wait_for_background
from desktop.common.i18n import number, plural
from desktop.common.plain_text import as_plain
from desktop.edits.change_watcher import ChangeWatcher
from desktop.edits.operations import Operations
from desktop.edits.pending_edits import PendingEdits
from desktop.edits.read_tracker import ReadTracker
from desktop.list.paper_model import COLUMNS, PaperTableModel
from desktop.list.search_session import SearchSession
from desktop.reader.highlight_view import reader_html
from desktop.reader.note_session import NoteSession
from desktop.reader.reader_labels import reader_labels
from desktop.window.actions import WindowActions
from desktop.window.layout import build_widgets, restore_layout, save_layout
from desktop.window.shortcuts import EVERY_PANE, qt_key, triage_bindings

BACKUP_CHECK_MS = 60 * 60 * 1000  # look once an hour whether the daily backup is due
BACKUP_FIRST_CHECK_MS = 30 * 1000
SIDEBAR_DELAY_MS = 250  # sidebar counts are recounted once a burst of changes is over
READER_SHOWS = frozenset({TAGS, TITLE, BIBLIOGRAPHIC, ADDED, REMOVED})  # what the reader's HTML shows of a paper


def settle_heap() -> None:
    """Take what the window and the search index have built so far out of the cyclic garbage collector's
    scans (gc.freeze): they live as long as the window. Its full collections otherwise walk every one of those
    objects, holding the interpreter lock meanwhile: 140 ms at 100k papers, a stall of the window whichever
    thread it runs on; with them frozen, the longest collection while typing took 10 ms. Frozen objects are
    still freed when no longer referenced; only a reference cycle among them would stay."""
    gc.freeze()


class AfterFirstPaint(QObject):
    """Calls `then()` once, from the event loop, after `widget` was first painted."""

    def __init__(self, widget, then) -> None:
        super().__init__(widget)
        self._then = then
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint and self._then is not None:
            then, self._then = self._then, None
            watched.removeEventFilter(self)
            QTimer.singleShot(0, then)
        return False


class MainWindow(QMainWindow):
    """The window on one library. Every edit is saved through the Library at once and applied as the Changes it
    returns; searching and indexing run on the search session's worker thread; imports in a child process."""

    libraryChanged = Signal(object)  # every change applied, the window's own and other processes' (Changes)

    def __init__(self, library: Library, settings: QSettings | None = None):
        super().__init__()
        self.library = library
        self.settings = settings or QSettings()
        self.setWindowTitle(str(library.folder))  # Qt adds " — Margin", the application's display name
        screen = QGuiApplication.primaryScreen()
        room = screen.availableGeometry() if screen is not None else None
        # 1280×780, or what fits a smaller screen (a laptop's 1024×600 shows the reader and the status bar)
        self.resize(min(1280, room.width() - 40) if room else 1280, min(780, room.height() - 60) if room else 780)
        self.setAcceptDrops(True)
        self.undo_stack = QUndoStack(self)
        self._current_id: str | None = None
        self._reader_paper: str | None = None  # the paper the reader shows (its scroll place is kept)
        self._selecting = False  # True while the program, not the user, moves the selection
        self._closed = False
        self._back: list[tuple[str, str | None]] = []  # (query, current paper) of the views Back returns to
        self._return_to: str | None = None  # the paper Back selects when its view's results arrive

        self.highlight_lists = library.highlight_lists()  # Edit → Highlight words… (desktop.reader.highlight_view)
        self.model = PaperTableModel(library, self)
        self.edits = PendingEdits(library, self.apply_changes, self)  # the library's write wait becomes short
        self.ops = Operations(library, self.edits, self.undo_stack, self.model.cached, self)  # the one write path
        self._sidebar_changes = Changes()  # what the sidebar has still to count (SIDEBAR_DELAY_MS)
        build_widgets(self)
        self.search = SearchSession(library, self.search_box, self, new_library=library.created)
        self.search_service = self.search.service
        self.notes = NoteSession(library, self.note_editor, self.apply_changes, self,
                                 write_note=partial(self.ops.save_note_now, initiator=self.note_editor))
        self.reading = ReadTracker(self.ops.mark_read, lambda: self.setting("autoRead", True),
                                   self.isActiveWindow, self)
        self.watcher = ChangeWatcher(library, self)
        self.actions_ = WindowActions(self)
        self._connect()
        self._build_triage_keys()
        self._docks: dict[str, object] = {}
        # the docks' pyqtgraph, numpy and scipy take 0.4-0.8 s to import: they are made just after the first
        # paint of the list (or when first asked for), not before it
        self._first_paint = AfterFirstPaint(self.paper_list.viewport(), self._build_docks)

        self._backup_timer = QTimer(self, interval=BACKUP_CHECK_MS)
        self._backup_timer.timeout.connect(self._backup_if_due)
        self._backup_timer.start()
        QTimer.singleShot(BACKUP_FIRST_CHECK_MS, self._backup_if_due)
        self._sidebar_timer = QTimer(self, singleShot=True, interval=SIDEBAR_DELAY_MS)
        self._sidebar_timer.timeout.connect(self._count_in_sidebar)
        self._counts = (0, 0)
        self._recount()
        restore_layout(self)
        self.model.set_ids(self.search.ordered(self.search.all_ids))
        self._update_status()
        if self.model.rowCount():
            self.select_row(0)
        if self.search_box.text().strip():
            self.search.start()
        self.notes.recover_rescued()  # notes a closing window could not save, last time
        self.paper_list.setFocus()  # the triage keys work at once

    # ------------------------------------------------------------------ building
    @property
    def progress_dock(self):
        """View → Triage progress (desktop.docks.progress.ProgressDock)."""
        if "progress" not in self._docks:
            from desktop.docks.progress import ProgressDock

            self._docks["progress"] = ProgressDock(self)
        return self._docks["progress"]

    @property
    def map_dock(self):
        """View → Conference map, File → Export map… (desktop.docks.map.MapDock; its menu entry goes before
        the progress view's, so that one is made first)."""
        if "map" not in self._docks:
            from desktop.docks.map import MapDock

            self._build_docks(map_too=False)
            self._docks["map"] = MapDock(self)
        return self._docks["map"]

    def _build_docks(self, map_too: bool = True) -> None:
        if not self._closed:
            _ = self.progress_dock
            if map_too:
                _ = self.map_dock
                settle_heap()


    def _connect(self) -> None:
        self.search_service.worker.ready.connect(settle_heap)
        self.search.resultsReady.connect(self._show_results)
        self.search.message.connect(self._show_hint)
        self.search_service.worker.status.connect(self._show_message)
        self.search_service.worker.failed.connect(self._search_failed)
        self.notes.message.connect(lambda text, ms: self.statusBar().showMessage(text, ms))
        self.edits.waiting.connect(self._edits_waiting)
        self.watcher.changed.connect(self.apply_changes)  # their initiator: OUTSIDE
        self.watcher.reloadNeeded.connect(self._reload)
        self.paper_list.selectionModel().currentRowChanged.connect(self._current_changed)
        self.paper_list.horizontalHeader().sectionClicked.connect(self._header_clicked)
        self.sidebar.filterRequested.connect(self.search.add_filter)
        self.sidebar.queryRequested.connect(self.go_to)  # a saved search (Back returns)
        self.sidebar.ops = self.ops  # its tag, venue and interest edits go the window's one write path
        self.reader.action_requested.connect(self._reader_action)
        self.rating_widget.ratingChanged.connect(
            lambda rating: self.rate_current(rating, initiator=self.rating_widget))
        self.tag_editor.tagAdded.connect(self._add_tag)
        self.tag_editor.tagRemoved.connect(self._remove_tag)
        self.back_button.clicked.connect(self.go_back)

    def _build_triage_keys(self) -> None:
        """Triage keys (desktop.window.shortcuts.TRIAGE_KEYS) work while the list or the reader has focus (not while
        typing in a text field); the search key also from the sidebar and the note preview."""
        self._triage_keys = triage_bindings(self)
        self._every_pane = {qt_key(name) for name in EVERY_PANE}
        self._key_panes = (self.paper_list, self.reader)
        self._other_panes = (self.sidebar, self.note_editor.preview)
        for pane in self._key_panes + self._other_panes:
            pane.installEventFilter(self)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self,
                  context=Qt.ShortcutContext.WindowShortcut).activated.connect(self.paper_list.setFocus)

    def focus_search(self) -> None:
        self.search_box.setFocus()
        self.search_box.selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.KeyPress and (
                watched in self._key_panes or (watched in self._other_panes and event.key() in self._every_pane)):
            modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            action = self._triage_keys.get(event.key())
            letter = Qt.Key.Key_A <= event.key() <= Qt.Key.Key_Z  # Shift+N is a capital typed, not "note"
            if action is not None and (modifiers == Qt.KeyboardModifier.NoModifier or (
                    modifiers == Qt.KeyboardModifier.ShiftModifier and not letter)):
                action()
                return True
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.reading.window_activated()
        super().changeEvent(event)

    def setting(self, name: str, default: bool) -> bool:
        return self.settings.value(f"triage/{name}", default, type=bool)

    # ------------------------------------------------------------------ changes
    def apply_changes(self, changes: Changes, outside: bool = False) -> None:
        """Hand a change to the views that show what it touched, once (Anki's op_executed): the list repaints
        the changed rows' changed columns, the reader re-renders only when what it shows of its paper changed
        (a rating sets the rating widget, unless the widget made it), the sidebar moves the counts it changed
        (after a burst), the index catches up on the worker, the docks (libraryChanged) when shown.
        `outside` (or the initiator OUTSIDE): another process made the change (a note there is offered, not
        loaded)."""
        if not changes or self._closed:  # saved while closing (a note, a waiting edit): nothing left to show
            return
        outside = outside or changes.initiator == OUTSIDE
        self.model.refresh_papers(changes.papers, changes)
        self.search.changed(changes, outside)
        if outside and changes.touches(NOTE):
            for paper_id in changes.papers:
                if NOTE in changes.kinds_of(paper_id):
                    self.notes.outside_change(paper_id)
        self._show_change(changes)
        if changes.touches(RATING_CHANGE, READ, TAGS, BIBLIOGRAPHIC, ADDED, REMOVED):
            self._sidebar_changes |= changes
            self._sidebar_timer.start()
        if changes.touches(READ, ADDED, REMOVED):
            self._recount()
        self.libraryChanged.emit(changes)

    def _show_change(self, changes: Changes) -> None:
        """The current paper's part of a change: the reader, the rating widget, the tag editor."""
        kinds = changes.kinds_of(self._current_id)
        if kinds & READER_SHOWS:
            self.show_current()
        elif RATING_CHANGE in kinds and changes.initiator is not self.rating_widget:
            paper = self.model.paper_of(self._current_id)
            self.rating_widget.setRating(paper.rating if paper is not None else 0)

    def _count_in_sidebar(self) -> None:
        changes, self._sidebar_changes = self._sidebar_changes, Changes()
        self.sidebar.apply_changes(changes)

    def _reload(self) -> None:
        """The change log no longer reaches back to what this window saw: read everything afresh."""
        self.model.refresh_all()
        self.search.reload()
        self._sidebar_changes = Changes()
        self.sidebar.refresh()
        self._recount()
        if self._current_id:
            self.notes.outside_change(self._current_id)
            self.show_current()

    # ------------------------------------------------------------------ selection and reading
    def select_row(self, row: int, by_user: bool = False) -> None:
        """Make `row` the current paper; `by_user` when the user's key asked for it (only then can it be
        marked read by being shown)."""
        index = self.model.index(row, 0)
        if not index.isValid():
            return
        self._selecting = not by_user
        try:
            self.paper_list.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.paper_list.scrollTo(index)
        finally:
            self._selecting = False

    def select_paper(self, paper_id: str, by_user: bool = False) -> bool:
        row = self.model.row_of(paper_id)
        if row is None:
            return False
        self.select_row(row, by_user)
        return True

    def move_selection(self, step: int) -> None:
        current = self.paper_list.currentIndex().row()
        self.select_row(max(0, min(self.model.rowCount() - 1, current + step)), by_user=True)

    def current_paper_id(self) -> str | None:
        return self._current_id

    def selected_ids(self) -> list[str]:
        rows = sorted({index.row() for index in self.paper_list.selectionModel().selectedRows()})
        return [self.model.paper_id(row) for row in rows]

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        paper_id = self.model.paper_id(current.row()) if current.isValid() else None
        if paper_id == self._current_id:
            return  # the same paper in a new list (a search, a refresh): nothing to reload
        self._current_id = paper_id
        self.show_current()
        self.reading.shown(paper_id, by_user=not self._selecting)

    def show_current(self) -> None:
        """Show the current paper in the reader and the annotation panel. The note editor keeps what it holds
        when it holds this paper already (desktop.reader.note_session)."""
        paper = self.library.paper(self._current_id) if self._current_id else None
        if paper is None:
            self._reader_paper = None
            self.reader.setHtml("<p>" + self.tr("No paper selected.") + "</p>")
            self.rating_widget.setRating(0)
            self.tag_editor.setTags([])
            self.notes.show(None)
            return
        scroll = self.reader.verticalScrollBar().value()
        interest = self.search.interest.get(paper.id)
        # the rating is the rating widget's to show: a rating then re-renders nothing (READER_SHOWS)
        self.reader.setHtml(reader_html(self, paper_to_html(
            replace(paper, rating=None), self.search.highlight, why=self.search.why.get(paper.id), labels={
                "similar": self.tr("Similar papers"),
                "why": self.tr("For the interest “%1”: ").replace("%1", interest) if interest
                else self.tr("Recommended for: "), **reader_labels()}), paper))
        if paper.id == self._reader_paper:
            self.reader.verticalScrollBar().setValue(scroll)
        self._reader_paper = paper.id
        self.rating_widget.setRating(paper.rating)
        self.tag_editor.setTags(paper.tags)
        self.tag_editor.setCompletions([name for name, _count in self.library.tags()])
        self.notes.show(paper)

    # ------------------------------------------------------------------ annotating
    # (the bodies are desktop.edits.operations': the window's one write path; these name the current paper)
    def rate_current(self, rating: int, from_key: bool = False, initiator=None) -> None:
        if self._current_id is None:
            return
        self.ops.rate(self._current_id, rating, initiator)
        if from_key and rating and self.setting("rateAndAdvance", False):
            self.move_selection(1)

    def toggle_read(self) -> None:
        if self._current_id is not None:
            self.reading.stop()
            self.ops.toggle_read(self._current_id)

    def set_title(self, title: str | None) -> bool:
        """Give the current paper the user's title (None clears it). False, with a message, when refused."""
        if self._current_id is None:
            return False
        try:
            self.ops.set_title(self._current_id, title)
        except ValueError as error:
            QMessageBox.warning(self, self.tr("Set title"), as_plain(str(error)))
            return False
        return True

    def _add_tag(self, name: str) -> None:
        if self._current_id is None:
            return
        try:
            self.ops.change_tags(self._current_id, add=[name], initiator=self.tag_editor)
        except ValueError:
            self.statusBar().showMessage(self.tr("A tag must have 1 to 200 characters"), 5000)

    def _remove_tag(self, name: str) -> None:
        if self._current_id is not None:
            self.ops.change_tags(self._current_id, remove=[name], initiator=self.tag_editor)

    # ------------------------------------------------------------------ searching and sorting
    def set_query(self, text: str) -> None:
        """Put `text` in the search box and search at once."""
        self.search.set_query(text)

    def sort_by(self, key: str | None, descending: bool = False) -> None:
        """Sort the list by a facets.SORT_KEYS key, or by relevance (library order without a query) for None."""
        header = self.paper_list.horizontalHeader()
        if key in COLUMNS:
            header.setSortIndicatorShown(True)
            header.setSortIndicator(COLUMNS.index(key), Qt.SortOrder.DescendingOrder if descending
                                    else Qt.SortOrder.AscendingOrder)
        else:
            header.setSortIndicatorShown(False)
        self.search.sort_by(key, descending)

    def _header_clicked(self, column: int) -> None:
        key = COLUMNS[column]
        descending = (not self.search.sort_descending if key == self.search.sort_key
                      else key in ("rating", "year"))
        self.sort_by(key, descending)

    def show_similar(self, paper_id: str | None = None) -> None:
        """Show the papers most like `paper_id` (the current paper when None): the paper itself first, under
        "Similar to: <label>"; Back (Alt+Left) returns to the view before, with its paper selected."""
        paper_id = paper_id or self._current_id
        if paper_id:
            self.go_to(f"similar:{paper_id}")

    def go_to(self, query: str) -> None:
        """Show `query`, remembering the view shown now for Back."""
        if query != self.search_box.text():
            self._back.append((self.search_box.text(), self._current_id))
            del self._back[:-50]
        self.set_query(query)

    def go_back(self) -> bool:
        """Back to the view before the last `go_to` (False when there is none)."""
        if not self._back:
            return False
        query, paper_id = self._back.pop()
        self._return_to = paper_id
        self.set_query(query)
        return True

    def _update_banner(self) -> None:
        similar = self.search.similar_to
        if similar is not None and self.model.row_of(similar) is not None:
            label = self.model.paper(self.model.row_of(similar)).label
            self.view_label.setText(self.tr("Similar to: %1").replace("%1", label))
            self.view_label.setToolTip(as_plain(label))
        else:
            self.view_label.setText("")
        self.back_button.setEnabled(bool(self._back))
        self.view_banner.setVisible(similar is not None or (bool(self._back) and bool(self.search.query)))

    def accept_suggestion(self) -> None:
        """Add the suggested tag (in the interests queue: the paper's interest) to the current paper and go on
        to the next suggestion."""
        tag = self.search.suggestion_tag(self._current_id)
        if tag and self._current_id:
            self.ops.change_tags(self._current_id, add=[tag])
            self._next_suggestion()

    def dismiss_suggestion(self) -> None:
        """Dismiss the current paper from the suggestions for the tag (kept in the library: the tag's model
        learns it as a negative; Ctrl+Z takes it back) and show the next; the rest of the list keeps its order."""
        tag = self.search.suggestion_tag(self._current_id)
        if tag and self._current_id:
            self.ops.dismiss(self._current_id, tag)
            self._next_suggestion()

    def _next_suggestion(self) -> None:
        row = self.paper_list.currentIndex().row()
        self.model.remove_ids([self._current_id])
        if self.model.rowCount():
            self.select_row(min(row, self.model.rowCount() - 1))
        self._update_status()

    def _show_results(self, ids: list[str], keep_place: bool) -> None:
        """Show a search's results. The current paper stays selected when it is among them; with `keep_place`
        (the same query again) the list also keeps its scroll position."""
        keep = self._return_to or self._current_id
        self._return_to = None
        row = self.paper_list.currentIndex().row()
        scroll = self.paper_list.verticalScrollBar().value()
        self.model.set_ids(ids)
        if keep is not None and self.select_paper(keep):
            if keep_place:
                self.paper_list.verticalScrollBar().setValue(scroll)
            self.show_current()  # the words to highlight may be new
        elif self.model.rowCount() and keep_place and row >= 0:  # the paper left the view: stay at its row
            self.select_row(min(row, self.model.rowCount() - 1))
            self.paper_list.verticalScrollBar().setValue(scroll)
        elif self.model.rowCount():
            self.select_row(0)
        else:
            self._current_id = None
            self.reading.stop()
            self.show_current()
        self._update_status()
        self._update_banner()

    def _reader_action(self, action: str, argument: str) -> None:
        """A `margin:` link in the reader: similar papers, or a tag to filter by."""
        if action == "similar":
            self.show_similar(argument)
        elif action == "tag":
            self.search.add_filter(f'tag:"{argument}"')

    def _show_message(self, message: str) -> None:
        self.statusBar().showMessage(message, 5000)

    def _show_hint(self, hint: str, milliseconds: int) -> None:
        if hint:
            self.statusBar().showMessage(hint, milliseconds)
        else:
            self.statusBar().clearMessage()  # an old hint no longer applies

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
        if self.search.complete:
            counted = plural(self.tr("%1 of %Ln paper(s) · read %2 of %3", "", total), total).replace(
                "%1", number(shown))
        else:  # the list shows the first page of a search; the rest and the count follow
            counted = plural(self.tr("counting… of %Ln paper(s) · read %2 of %3", "", total), total)
        self.count_label.setText(counted.replace("%2", number(read)).replace("%3", number(total)))
        query = self.search.query.strip()
        if shown == 0 and (query or total == 0):
            self.empty_label.setText(self.tr("No papers match “%1”.").replace("%1", query) if query
                                     else self.tr("The library has no papers yet: File → Import…"))
            self.empty_label.resize(self.paper_list.viewport().size())
            self.empty_label.show()
        else:
            self.empty_label.hide()

    def _edits_waiting(self, count: int, reason: str) -> None:
        """Show how many edits wait to be saved (the library is busy or full), or that they all were."""
        if count:
            self.pending_label.setText(self.tr("Not saved yet: %1").replace("%1", QLocale().toString(count)))
            self.pending_label.setToolTip(as_plain(self.tr("Margin keeps these and saves them as soon as the "
                                                           "library can take them:\n%1\n\n%2").replace(
                "%1", "\n".join(self.edits.descriptions())).replace("%2", reason)))
            self.pending_label.show()
            self.statusBar().showMessage(self.tr("Not saved yet, Margin will try again: %1").replace("%1", reason),
                                         10000)
        else:
            self.pending_label.hide()
            self.statusBar().showMessage(self.tr("All changes are saved"), 5000)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self.empty_label.isVisible():
            self.empty_label.resize(self.paper_list.viewport().size())

    # ------------------------------------------------------------------ import and export
    def export_notes_to(self, path: Path, fmt: str = "markdown") -> int:
        """Write every annotated paper to `path` now (on this thread). Returns the number of papers written."""
        self.notes.flush()
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
        folder = str(self.library.folder)

        def work():  # in a child process: at 100k papers the backup is seconds of Python (stalls of 0.2-0.5 s)
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as child:
                return child.submit(backup_folder_if_due, folder).result()

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
    def ask_close_during_import(self) -> bool:
        """Closing while an import runs: True to cancel the import and close, False to keep the window open."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("An import is running"), as_plain(self.tr(
            "An import is still running. Cancel it and close Margin? Nothing of the import will be saved "
            "(unless it has just saved its papers: then Margin closes when it has finished).")), parent=self)
        cancel = box.addButton(self.tr("Cancel the import and close"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(box.addButton(self.tr("Keep Margin open"), QMessageBox.ButtonRole.RejectRole))
        box.exec()
        return box.clickedButton() is cancel

    def _save_pending_edits(self) -> None:
        """On close: save the edits still waiting, waiting for the library as long as the command line does;
        say which could not be saved (they are lost: the library refused them for the whole time)."""
        if not len(self.edits):
            return
        self.statusBar().showMessage(self.tr("Saving changes that are still waiting…"))
        lost = self.edits.flush()
        if lost:
            text = self.tr("These changes could not be saved (%1):\n%2").replace("%1", self.edits.reason).replace(
                "%2", "\n".join(lost))
            print(f"margin: {' '.join(text.split())}", file=sys.stderr)
            if self.isVisible():
                QMessageBox.warning(self, self.tr("Changes not saved"), as_plain(text))

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closed:  # closed once already (e.g. close() and then the test harness): nothing left to save
            super().closeEvent(event)
            return
        job = self.actions_.import_job
        if job is not None:
            if not self.ask_close_during_import():
                event.ignore()
                return
            job.cancel_and_wait()  # nothing of it saved, or (when it was saved already) finished
            print("margin: the window was closed during an import: "
                  + ("it had saved its papers and finished" if job.worker.finished_saving else
                     "the import was cancelled; nothing was imported"), file=sys.stderr)
        self._closed = True
        self.setProperty("closing", True)  # docks hidden by closing keep their saved visibility
        self.reading.stop()
        self._backup_timer.stop()
        self._sidebar_timer.stop()
        self.watcher.stop()
        self.notes.close()
        self._save_pending_edits()
        save_layout(self)
        self.search.stop()
        wait_for_background()
        try:
            write_backup(self.library)
        except (MarginError, OSError) as error:
            print(f"margin: could not write the backup: {error}", file=sys.stderr)
        super().closeEvent(event)
