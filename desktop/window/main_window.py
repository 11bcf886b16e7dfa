"""Margin's main window: sidebar, search box and paper list, reader pane and annotation panel.

The window is an assembly of parts with their own classes: the widgets (desktop.window.layout.Widgets), the
search session (desktop.list.search_session: query, sort, results), the list controller
(desktop.list.list_controller: selection, results, sort, Back), the status bar (desktop.window.status: counts,
waiting edits, messages), the note session (desktop.reader.note_session: the note being written), the read
tracker (desktop.edits.read_tracker: when a paper counts as read), the change watcher
(desktop.edits.change_watcher: what other processes changed), the triage keys (desktop.window.shortcuts) and the
actions (desktop.window.actions: menus). Every change, the window's own or another process's, arrives as one
db.changes.Changes value at `apply_changes`, which updates what it touches.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QEvent, QSettings, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QUndoStack
from PySide6.QtWidgets import QMainWindow, QMessageBox

from db.changes import ADDED, BIBLIOGRAPHIC, DECISION, NOTE, OUTSIDE, READ, REMOVED, TAGS, TITLE, VERSIONS, Changes
from db.changes import RATING as RATING_CHANGE
from db.library.library import Library
from desktop.common.after_paint import AfterNextPaint
from desktop.common.background import wait_for_background
from desktop.common.plain_text import as_plain
from desktop.edits.change_watcher import ChangeWatcher
from desktop.edits.operations import Operations
from desktop.edits.pending_edits import PendingEdits
from desktop.edits.read_tracker import ReadTracker
from desktop.list.list_controller import ListController
from desktop.list.paper_model import PaperTableModel
from desktop.list.search_session import SearchSession
from desktop.reader.current_paper import CurrentPaper
from desktop.reader.note_session import NoteSession
from desktop.reader.screening_keys import ScreeningKeys
from desktop.window.actions import WindowActions
from desktop.window.backups import BackupSchedule
from desktop.window.closing import ask_close_during_import, save_pending_edits, stop_import
from desktop.window.embedding import BackgroundEmbedding
from desktop.window.layout import build_widgets, fit_to_screen, restore_layout, save_layout, saved_paper
from desktop.window.lazy_docks import AfterFirstPaint, LazyDocks, settle_heap
from desktop.window.shortcuts import TriageKeys
from desktop.window.status import WindowStatus
from desktop.window.sync import SyncSchedule

SIDEBAR_DELAY_MS = 250  # sidebar counts are recounted once a burst of changes is over
OPEN_INDEX_LATEST_MS = 1000  # the search index is opened after the list's first paint, or this long after start


class MainWindow(QMainWindow):
    """The window on one library. Every edit is saved through the Library at once and applied as the Changes it
    returns; searching and indexing run on the search session's worker thread; imports in a child process."""

    libraryChanged = Signal(object)  # every change applied, the window's own and other processes' (Changes)

    def __init__(self, library: Library, settings: QSettings | None = None,
                 open_window: Callable[[Path], QMainWindow] | None = None):
        """`open_window(folder)` makes a window on another library (the app's create_window): File → Open
        library and View → Language use it."""
        super().__init__()
        self.library = library
        self.settings = settings or QSettings()
        self.open_window = open_window
        self.setWindowTitle(str(library.folder))  # Qt adds " — Margin", the application's display name
        fit_to_screen(self)
        self.setAcceptDrops(True)
        self.undo_stack = QUndoStack(self)
        self._closed = False

        self.highlight_lists = library.highlight_lists()  # Edit → Highlight words… (desktop.reader.highlight_view)
        self.model = PaperTableModel(library, self)
        self.edits = PendingEdits(library, self.apply_changes, self)  # the library's write wait becomes short
        self.ops = Operations(library, self.edits, self.undo_stack, self.model.cached, self)  # the one write path
        self._sidebar_changes = Changes()  # what the sidebar has still to count (SIDEBAR_DELAY_MS)
        self._facets_pending = False  # a count of every paper asked of the search worker, not yet answered
        self.widgets = w = build_widgets(self, self.model, library, self.settings)
        # the widgets the window's parts, the docks and tests reach through the window
        self.search_box, self.paper_list, self.empty_label = w.search_box, w.paper_list, w.empty_label
        self.view_banner, self.view_label, self.back_button = w.view_banner, w.view_label, w.back_button
        self.sidebar, self.reader, self.rating_widget = w.sidebar, w.reader, w.rating_widget
        self.tag_editor, self.note_editor, self.splitter = w.tag_editor, w.note_editor, w.splitter
        self.count_label, self.pending_label, self.progress_bar = w.count_label, w.pending_label, w.progress_bar
        self.search = SearchSession(library, self.search_box, self, new_library=library.created)
        self.search_service = self.search.service
        self.list_controller = ListController(self.model, self.paper_list, self.search, self.search_box,
                                              self.view_banner, self.view_label, self.back_button, self)
        self.status = WindowStatus(self.statusBar(), self.count_label, self.pending_label, self.empty_label,
                                   self.paper_list, library, self.model, self.search, self.edits, self)
        self.status.active_filters = self.sidebar.mark_active  # every filter that is on, marked and named
        if library.unwritable:  # a read-only medium or a full disk: said once, for as long as the window is open
            self.status.show_unwritable(library.unwritable)
            # a note typed here could be saved nowhere (not even its rescue file, beside the library): the note
            # can be read and copied, not typed into
            self.note_editor.set_read_only(True)
            self.note_editor.editor.setToolTip(self.tr("This library can't be changed: notes can be read, not "
                                                       "written"))
        # the list's commands and the counts, under the names the menus, the triage keys, the docks, the annotating
        # commands and tests call on the window
        lc = self.list_controller
        self.select_row, self.select_paper, self.move_selection = lc.select_row, lc.select_paper, lc.move_selection
        self.selected_ids, self.sort_by, self.show_similar = lc.selected_ids, lc.sort_by, lc.show_similar
        self.go_to, self.go_back, self._show_results = lc.go_to, lc.go_back, lc.show_results
        self._header_clicked, self._update_status = lc.header_clicked, self.status.update
        self.notes = NoteSession(library, self.note_editor, self.apply_changes, self,
                                 write_note=partial(self.ops.save_note_now, initiator=self.note_editor))
        self.current_paper = CurrentPaper(self)  # the reader and the annotation panel show the current paper
        self.reading = ReadTracker(self.ops.mark_read, lambda: self.setting("autoRead", True),
                                   self.isActiveWindow, self)
        self.watcher = ChangeWatcher(library, self)
        self.sync = SyncSchedule(self)  # File → Sync now and the automatic sync (desktop.window.sync)
        self.actions_ = WindowActions(self)
        self.screening = ScreeningKeys(self)  # include / exclude / maybe (issue 29), bound below as triage keys
        self._connect()
        # triage keys work while the list or the reader has focus (not while typing in a text field); the search
        # key also from the sidebar and the note preview; Esc goes back to the list
        self.triage_keys = TriageKeys(self, (self.paper_list, self.reader), (self.sidebar, self.note_editor.preview))
        self._triage_keys = self.triage_keys.bindings
        self.docks = LazyDocks(self, self.paper_list.viewport())
        # the search worker opens the index once the list is painted (or at the first search, if sooner); made
        # after the docks' filter, so asked before the docks are made (the filter installed last runs first)
        self._open_index = AfterFirstPaint(self.paper_list.viewport(), self.search_service.open)
        QTimer.singleShot(OPEN_INDEX_LATEST_MS, self.search_service, self.search_service.open)  # not shown: too
        self.backups = BackupSchedule(library, self.status.show_message, self)
        self.embedding = BackgroundEmbedding(library.folder, self.statusBar(), self)  # semantic vectors (issue 32)
        self.embedding.start()
        # a search's results: the reader follows after the list's paint (not again with the same marks)
        self._show_after_paint = AfterNextPaint(self.paper_list.viewport(), self.current_paper.show_if_new, self)
        self._sidebar_timer = QTimer(self, singleShot=True, interval=SIDEBAR_DELAY_MS)
        self._sidebar_timer.timeout.connect(self._count_in_sidebar)
        self.status.set_counts(self.sidebar.counts.read, self.sidebar.counts.total)  # counted once, at start
        restore_layout(self)
        self.model.set_ids(self.search.ordered(self.search.all_ids))
        self._update_status()
        if self.model.rowCount() and not self.select_paper(saved_paper(self) or ""):  # where the reader was
            self.select_row(0)
        if self.search_box.text().strip():
            self.search.start()
        self.notes.recover_rescued()  # notes a closing window could not save, last time
        self.paper_list.setFocus()  # the triage keys work at once

    # ------------------------------------------------------------------ building
    # the docks, made just after the first paint or when first asked for (desktop.window.lazy_docks)
    progress_dock = property(lambda self: self.docks.progress, doc="View → Triage progress (a ProgressDock)")
    map_dock = property(lambda self: self.docks.map, doc="View → Conference map (a MapDock)")
    criteria_dock = property(lambda self: self.docks.criteria, doc="View → Screening criteria (a CriteriaDock)")

    def _connect(self) -> None:
        self.search_service.worker.ready.connect(settle_heap)
        self.list_controller.currentChanged.connect(self._current_changed)
        self.list_controller.refreshCurrent.connect(self._show_current_soon)
        self.list_controller.resultsShown.connect(lambda: self.sidebar.mark_active(self.search.query))
        self.search.preparing.connect(self.status.preparing)  # Ctrl+R shows what it names, or says it is coming
        self.list_controller.resultsShown.connect(self.status.update)
        self.search.message.connect(self.status.show_hint)
        self.search_service.worker.status.connect(self.status.show_message)
        self.search_service.worker.failed.connect(self.status.search_failed)
        self.notes.message.connect(lambda text, ms: self.statusBar().showMessage(text, ms))
        self.edits.waiting.connect(self.status.edits_waiting)
        self.edits.refused.connect(self.status.edit_refused)
        self.watcher.changed.connect(self.apply_changes)  # their initiator: OUTSIDE
        self.watcher.reloadNeeded.connect(self._reload)
        self.sidebar.filterRequested.connect(self.search.add_filter)
        self.sidebar.queryRequested.connect(self.go_to)  # a saved search (Back returns)
        self.sidebar.tagRenamed.connect(self.search.tag_renamed)  # the box's tag filter follows a rename
        self.sidebar.ops = self.ops  # its tag, venue and interest edits go the window's one write path
        self.sidebar.count_later = self._recount  # papers added, removed or re-described: counted on the worker
        self.search_service.worker.facets_counted.connect(self._counted)
        self.reader.action_requested.connect(self.list_controller.follow_link)
        self.reader.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.rating_widget.ratingChanged.connect(
            lambda rating: self.rate_current(rating, initiator=self.rating_widget))
        self.tag_editor.tagAdded.connect(self._add_tag)
        self.tag_editor.tagRemoved.connect(self._remove_tag)

    def focus_search(self) -> None:
        self.search_box.setFocus()
        self.search_box.selectAll()

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
        if outside and changes.touches(REMOVED):  # before the list moves on: a note being written stays put
            self.notes.papers_removed([paper_id for paper_id in changes.papers
                                       if REMOVED in changes.kinds_of(paper_id)])
        if changes.touches(VERSIONS):  # works grouped or split: one row per work again, the current paper kept
            current = self._current_id
            self.model.set_works(self.library.works_of())
            if current is not None and not self.list_controller.select_paper(current):
                with contextlib.suppress(KeyError):  # the row of its work: a version the list does not show
                    any(map(self.list_controller.select_paper, self.library.versions(current)))
        self.model.refresh_papers(changes.papers, changes)
        self.search.changed(changes, outside)
        if outside and changes.touches(NOTE):
            for paper_id in changes.papers:
                if NOTE in changes.kinds_of(paper_id):
                    self.notes.outside_change(paper_id)
        self.current_paper.show_change(changes)
        if changes.touches(RATING_CHANGE, READ, TAGS, BIBLIOGRAPHIC, ADDED, REMOVED, DECISION):  # DECISION: Conflicts
            self._sidebar_changes |= changes
            self._sidebar_timer.start()
        if changes.touches(ADDED, TITLE, BIBLIOGRAPHIC):
            self.embedding.changed()
        if changes.touches(ADDED, REMOVED):
            self._recount()  # on the worker: the status bar's and the sidebar's counts follow
        elif self._facets_pending and changes.touches(RATING_CHANGE, READ, TAGS, BIBLIOGRAPHIC):
            self._recount()  # the count under way may have read the library before this change: ask again
        elif changes.touches(READ):  # the number of papers is as it was: no GROUP BY over every paper
            self.status.recount_read()
        self.libraryChanged.emit(changes)

    def _recount(self) -> None:
        """Count the library's papers anew (added or removed: a GROUP BY over every paper) on the search worker;
        the sidebar and the status bar show the counts when they come (`_counted`)."""
        self._facets_request = self.search_service.count_facets()
        self._facets_pending = True

    def _counted(self, request: int, counts) -> None:
        if request == getattr(self, "_facets_request", None) and not self._closed:  # else newer ones follow
            self._facets_pending = False
            self.sidebar.refresh(counts)
            self.status.set_counts(counts.read, counts.total)

    def _count_in_sidebar(self) -> None:
        changes, self._sidebar_changes = self._sidebar_changes, Changes()
        self.sidebar.apply_changes(changes)

    def _reload(self) -> None:
        """The change log no longer reaches back to what this window saw: read everything afresh."""
        self.model.refresh_all()
        self.search.reload()
        self._sidebar_changes = Changes()
        self._recount()
        if self._current_id:
            self.notes.outside_change(self._current_id)
            self.show_current()

    # ------------------------------------------------------------------ the list (desktop.list.list_controller)
    def current_paper_id(self) -> str | None:
        """The id of the paper the list has current and the reader shows (None: no paper)."""
        return self.list_controller.current_id

    @property
    def _current_id(self) -> str | None:  # the name the annotating commands read
        return self.list_controller.current_id

    def set_query(self, text: str) -> None:
        """Put `text` in the search box and search at once."""
        self.search.set_query(text)

    # ------------------------------------------------------------------ reading
    def _current_changed(self, paper_id: str | None, by_user: bool) -> None:
        if self.list_controller.showing_results:
            self._show_current_soon()  # a search's results: the reader follows in an event of its own
        else:
            self.show_current()
        self.reading.shown(paper_id, by_user=by_user)

    def _show_current_soon(self) -> None:
        """Show the current paper once the list a keystroke's results changed has painted, in an event-loop turn
        of its own (desktop.common.after_paint): the reader's HTML (2-25 ms) and the list's paint (10-17 ms at
        100k papers) are two stalls, not one; keystrokes in between make it once, with the paper current then."""
        self._show_after_paint.arm()

    def show_current(self) -> None:
        """Show the current paper in the reader and the annotation panel (desktop.reader.current_paper)."""
        self.current_paper.show()

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

    # ------------------------------------------------------------------ suggestions
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

    # ------------------------------------------------------------------ export, window events
    def export_notes_to(self, path: Path, fmt: str = "markdown") -> int:
        """Write every annotated paper to `path` now (on this thread). Returns the number of papers written."""
        from db.exporters.registry import write_export  # (its writers' imports are not needed to open the window)

        self.notes.flush()
        return write_export(self.library.papers(self.library.annotated_ids()), fmt, Path(path),
                            history=self.library.note_history)

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
        return ask_close_during_import(self, self.actions_.import_job)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closed:  # closed once already (e.g. close() and then the test harness): nothing left to save
            super().closeEvent(event)
            return
        if not stop_import(self.actions_.import_job, self.ask_close_during_import):
            event.ignore()
            return
        self.actions_.stop_fetches()  # File → Get papers… / Add paper… still running: cancelled, waited for
        self._closed = True
        self.setProperty("closing", True)  # docks hidden by closing keep their saved visibility
        self.reading.stop()
        self.backups.stop()
        self.sync.stop()
        self.embedding.stop()
        self._sidebar_timer.stop()
        self._show_after_paint.stop()
        self.watcher.stop()
        self.notes.close()
        self.docks.save_typing()  # the criteria text typed just now (issue 29)
        save_pending_edits(self.edits, self.statusBar(), self)
        save_layout(self)
        self.search.stop()
        self.current_paper.wait()  # a long abstract still being rendered
        wait_for_background()
        self.backups.write_now()
        super().closeEvent(event)
