"""The main window's status bar and the list's empty message: how many papers the list shows and how many of the
library's are read ("12 of 38 papers · read 3 of 38"; "counting…" while a search's count is still coming), why
the list is empty, how many edits wait to be saved ("Not saved yet: 2"), and short messages (hints, search
problems)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QLocale, QObject, QRect, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QAbstractItemView, QLabel, QStatusBar, QStyle, QStyleOption, QWidget

from db.library.library import Library
from db.library.unwritable import DISK_FULL
from db.text.cleaning import isolate
from desktop.common.i18n import number, plural
from desktop.common.plain_text import as_plain
from desktop.edits.pending_edits import PendingEdits
from desktop.list.paper_model import PaperTableModel
from desktop.list.search_session import SearchSession

MESSAGE_MS = 5000  # how long a passing message stays (ms)
PROBLEM_MS = 10000  # a search problem or a waiting edit, which the user should not miss


class ElidingStatusBar(QStatusBar):
    """A status bar whose passing message is cut with "…" before the permanent widgets (the counts), its whole
    text in the bar's tooltip: QStatusBar drew a long one cut short with no sign of it, into the counts (the trial
    saw "…it may ha1 / 1,696 篇文献")."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.messageChanged.connect(self._message_changed)

    def message_rect(self) -> QRect:
        """Where the message goes: from the left edge to the first permanent widget shown (QStatusBar's own)."""
        right = self.width() - 12
        permanent = [widget for widget in self.findChildren(QWidget) if widget.parent() is self and
                     widget.isVisible() and self._is_permanent(widget)]
        if permanent:
            right = min(right, min(widget.x() for widget in permanent) - 8)
        return QRect(6, 0, max(0, right - 6), self.height())

    def _is_permanent(self, widget) -> bool:
        return bool(widget.property("permanentStatus"))

    def addPermanentWidget(self, widget, stretch: int = 0) -> None:  # noqa: N802 - Qt's name
        widget.setProperty("permanentStatus", True)
        super().addPermanentWidget(widget, stretch)

    def shown_message(self) -> str:
        """The message as drawn: whole, or cut with "…" to fit `message_rect`."""
        return self.fontMetrics().elidedText(self.currentMessage(), Qt.TextElideMode.ElideRight,
                                             self.message_rect().width())

    def _message_changed(self, message: str) -> None:
        self.setToolTip(as_plain(message) if message and self.shown_message() != message else "")

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._message_changed(self.currentMessage())

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if not self.currentMessage():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, option, painter, self)
        painter.setPen(self.palette().windowText().color())
        painter.drawText(self.message_rect(), Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter
                         | Qt.TextFlag.TextSingleLine, self.shown_message())
        painter.end()


class WindowStatus(QObject):
    """The status bar `bar` with its permanent `count_label` and `pending_label`, and `empty_label` over the
    paper list `view`. Counts come from `library` (read papers), `model` (rows shown) and `search` (whether its
    count is complete, the query); waiting edits from `edits`."""

    def __init__(self, bar: QStatusBar, count_label: QLabel, pending_label: QLabel, empty_label: QLabel,
                 view: QAbstractItemView, library: Library, model: PaperTableModel, search: SearchSession,
                 edits: PendingEdits, parent=None):
        super().__init__(parent)
        self.bar = bar
        self.count_label, self.pending_label, self.empty_label = count_label, pending_label, empty_label
        self.view = view
        self.library, self.model, self.search, self.edits = library, model, search, edits
        self.counts = (0, 0)  # (read, total) papers of the library
        self.active_filters: Callable[[str], list[str]] = lambda query: []  # the sidebar's names of them
        # the message follows the viewport's size: a message shown before the window was laid out (a window built
        # hidden, View → Language) otherwise kept the size the viewport had then, too small to read
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and watched is self.view.viewport():
            self.fit_empty_label()
        return False

    def recount(self) -> None:
        """Count read papers and all papers anew and show the counts (a GROUP BY over every paper: the window
        takes its counts from the sidebar's, `set_counts`)."""
        counts = self.library.read_counts().values()
        self.set_counts(sum(read for read, _total in counts), sum(total for _read, total in counts))

    def set_counts(self, read: int, total: int) -> None:
        """Show these counts of the library's papers: `read` of `total` (counted for the sidebar, at start and on
        the search worker after an import or a deletion)."""
        self.counts = (read, total)
        self.update()

    def recount_read(self) -> None:
        """Count read papers anew (a paper was marked read or unread: the number of papers is as it was)."""
        self.counts = (self.library.read_total(), self.counts[1])
        self.update()

    def update(self) -> None:
        """Show the counts for the list as it is now, and the empty-list message when it shows nothing."""
        read, total = self.counts
        shown = self.model.rowCount()
        if self.search.complete:
            counted = plural(self.tr("%1 of %Ln paper(s) · read %2 of %3", "", total), total).replace(
                "%1", number(shown))
        else:  # the list shows the first page of a search; the rest and the count follow
            counted = plural(self.tr("counting… of %Ln paper(s) · read %2 of %3", "", total), total)
        self.count_label.setText(counted.replace("%2", number(read)).replace("%3", number(total)))
        query = self.search.query.strip()
        if shown == 0 and self.search.complete and (query or total == 0 or self.search.kind.recommendation):
            filters = self.active_filters(query) if query else []
            text = (self.tr("No papers match “%1”.").replace("%1", isolate(query)) if query
                    else self.tr("The library has no papers yet: File → Import…"))
            if filters:  # every filter that is on, by name
                text += "\n" + self.tr("Filters on: %1. All papers clears them.").replace(
                    "%1", " · ".join(map(isolate, filters)))
            self.empty_label.setText(text)
            self.fit_empty_label()
            self.empty_label.show()
        else:
            self.empty_label.hide()

    def fit_empty_label(self) -> None:
        """Make the empty-list message cover the list's viewport (shown, or the viewport resized)."""
        self.empty_label.resize(self.view.viewport().size())

    def edits_waiting(self, count: int, reason: str) -> None:
        """Show how many edits wait to be saved (the library is busy or full: `reason`), or that they all were
        (`count` 0)."""
        if count:
            self.pending_label.setText(self.tr("Not saved yet: %1").replace("%1", QLocale().toString(count)))
            self.pending_label.setToolTip(as_plain(self.tr("Margin keeps these and saves them as soon as the "
                                                           "library can take them:\n%1\n\n%2").replace(
                "%1", "\n".join(self.edits.descriptions())).replace("%2", reason)))
            self.pending_label.show()
            self.bar.showMessage(self.tr("Not saved yet, Margin will try again: %1").replace("%1", reason),
                                 PROBLEM_MS)
        else:
            self.pending_label.hide()
            self.bar.showMessage(self.tr("All changes are saved"), MESSAGE_MS)

    def edit_refused(self, text: str) -> None:
        """An undo or redo was not made: what it would overwrite was changed elsewhere since (`text`: the edit,
        e.g. "Set rating: GLEAN…")."""
        self.bar.showMessage(self.tr("Not undone: “%1” was changed elsewhere since (the command line, another "
                                     "window or a sync); that change is kept").replace("%1", text), PROBLEM_MS)

    def preparing(self, query: str) -> None:
        """A recommendation query was sent (Ctrl+R, Recommended): until its answer comes, the list shows no paper
        of the previous view but says the recommendations are being prepared."""
        self.model.set_ids([])
        self.empty_label.setText(self.tr("Preparing “%1”…").replace("%1", isolate(query)))
        self.fit_empty_label()
        self.empty_label.show()

    def show_unwritable(self, reason: str) -> None:
        """Say in the status bar, for as long as the window is open, that the library cannot be written (`reason`:
        db.library.unwritable's READ_ONLY or DISK_FULL); the edits made meanwhile wait as "Not saved yet"."""
        text = (self.tr("The disk is full: changes can't be saved") if reason == DISK_FULL
                else self.tr("Read-only: changes can't be saved"))
        label = QLabel(text, self.bar)
        label.setObjectName("unwritableLabel")
        label.setToolTip(as_plain(self.library.refusal or text))
        self.bar.addPermanentWidget(label)

    def show_message(self, message: str) -> None:
        """A passing message (the worker's status, a failed backup)."""
        self.bar.showMessage(message, MESSAGE_MS)

    def show_hint(self, hint: str, milliseconds: int) -> None:
        """The search's hint for `milliseconds`; an empty hint clears the bar (an old hint no longer applies)."""
        if hint:
            self.bar.showMessage(hint, milliseconds)
        else:
            self.bar.clearMessage()

    def search_failed(self, message: str) -> None:
        self.bar.showMessage(self.tr("Search problem: %1").replace("%1", message), PROBLEM_MS)
