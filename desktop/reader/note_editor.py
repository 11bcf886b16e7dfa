"""The Markdown note editor with a rendered preview. It saves a moment after typing stops, and at least once a
second during steady typing (so a crash loses at most about the last second)."""

from __future__ import annotations

import html

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from db.text.render import AS_TEXT, CUT, LINK_BRACKETS_MAX, NO_LINKS, PREVIEW_MAX_CHARS, note_preview

AUTOSAVE_MS = 700
SYNC_PREVIEW_CHARS = 20_000  # a note this short renders on the GUI thread (milliseconds); longer ones off it
MAX_UNSAVED_MS = 1000  # steady typing never pauses for AUTOSAVE_MS: save this long after the first unsaved key


class NoteEditor(QWidget):
    """Emits `noteChanged(paper_id, text)` when the note should be saved: a moment after typing stops, at
    the latest MAX_UNSAVED_MS after the first unsaved keystroke, and at once on `flush()` (switching papers,
    closing).

    Nothing but `load()` (another paper) and `replace_text()` (an undoable edit the user asked for) changes
    the text: a save never touches the text, the cursor or the undo history. `offer_outside_change()` shows a
    bar saying the note was changed elsewhere, with Show theirs / Keep mine (`showTheirs`, `keepMine`).
    `orphan()`: the note's paper was deleted elsewhere while the user wrote in it — the text stays, read-only and
    saved nowhere, under a bar saying so, until its Close button (`orphanClosed`) or `load()`."""

    noteChanged = Signal(str, str)
    showTheirs = Signal()
    keepMine = Signal()
    orphanClosed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget(self)
        self.editor = QPlainTextEdit(self)
        self.editor.setObjectName("noteText")
        self.editor.setAccessibleName(self.tr("Note (Markdown)"))
        self.editor.setPlaceholderText(self.tr("Write a note in Markdown. It is saved as you type."))
        self.preview = QTextBrowser(self)
        self.preview.setObjectName("notePreview")
        self.preview.setAccessibleName(self.tr("Note preview"))
        self.preview.setOpenLinks(False)
        self.preview.setOpenExternalLinks(False)
        self.tabs.addTab(self.editor, self.tr("Note"))
        self.tabs.addTab(self.preview, self.tr("Preview"))
        self.tabs.currentChanged.connect(self._render_preview)
        self._preview_pool = QThreadPool(self)
        self._preview_pool.setMaxThreadCount(1)
        self._rendered = _Rendered(self)
        self._rendered.done.connect(self._show_rendered)
        self._rendering = False
        self._wanted: str | None = None
        self._previewed: str | None = None
        self.show_theirs_button = QPushButton(self.tr("Show theirs"))
        self.keep_mine_button = QPushButton(self.tr("Keep mine"))
        self.show_theirs_button.clicked.connect(self.showTheirs)
        self.keep_mine_button.clicked.connect(self.keepMine)
        self.outside_bar, self.outside_message = self._bar(
            "noteChangedElsewhere",
            self.tr("This note was changed elsewhere. Both versions are kept in the note history."),
            [self.show_theirs_button, self.keep_mine_button])
        self.outside_bar.hide()
        layout.addWidget(self.outside_bar)
        self.close_orphan_button = QPushButton(self.tr("Close"))
        self.close_orphan_button.clicked.connect(self.orphanClosed)
        self.gone_bar, _message = self._bar(
            "notePaperDeletedElsewhere",
            self.tr("This note's paper was deleted elsewhere (the command line, another window or a sync). What you "
                    "wrote is kept here to copy; it is not saved anywhere."),
            [self.close_orphan_button])
        self.gone_bar.hide()
        layout.addWidget(self.gone_bar)
        layout.addWidget(self.tabs)
        self.setFocusProxy(self.editor)
        self._paper_id: str | None = None
        self.read_only = False  # the library's (set_read_only); an orphaned note is read-only besides
        self._saved = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(AUTOSAVE_MS)
        self._timer.timeout.connect(self.flush)
        self._deadline = QTimer(self)
        self._deadline.setSingleShot(True)
        self._deadline.setInterval(MAX_UNSAVED_MS)
        self._deadline.timeout.connect(self.flush)
        self.editor.textChanged.connect(self._typed)

    def _bar(self, name: str, text: str, buttons: list[QPushButton]) -> tuple[QFrame, QLabel]:
        """A bar above the note: `text` (plain) on a line of its own, `buttons` under it on the right. Beside the
        buttons a wrapped message was squeezed to a few characters a line in a narrow reader (two a line in
        Chinese, which wraps anywhere)."""
        bar = QFrame(self)
        bar.setObjectName(name)
        bar.setFrameShape(QFrame.Shape.StyledPanel)
        rows = QVBoxLayout(bar)
        rows.setContentsMargins(6, 2, 6, 2)
        message = QLabel(text, bar)
        message.setTextFormat(Qt.TextFormat.PlainText)
        message.setWordWrap(True)
        rows.addWidget(message)
        row = QHBoxLayout()
        row.addStretch(1)
        for button in buttons:
            button.setParent(bar)
            row.addWidget(button)
        rows.addLayout(row)
        return bar, message

    def set_read_only(self, read_only: bool) -> None:
        """A library that cannot be written (db.library.unwritable): every note can be read, none typed into."""
        self.read_only = read_only
        self.editor.setReadOnly(read_only)

    def paper_id(self) -> str | None:
        """The paper whose note the editor holds."""
        return self._paper_id

    def load(self, paper_id: str | None, text: str) -> None:
        """Show the note of `paper_id` (saving the previous paper's pending changes first)."""
        self.flush()
        self.outside_bar.hide()
        self.gone_bar.hide()
        self._paper_id = paper_id
        self._saved = text
        self.editor.blockSignals(True)
        self.editor.setPlainText(text)
        self.editor.blockSignals(False)
        self.editor.setReadOnly(self.read_only)
        self.editor.setEnabled(paper_id is not None)
        self._render_preview()

    def orphan(self) -> None:
        """The paper whose note this is was deleted elsewhere: keep the text (read-only, saved nowhere: the
        paper's last saved note went with it, and comes back with an undelete) under the bar saying so."""
        self._timer.stop()
        self._deadline.stop()
        self._paper_id = None
        self.outside_bar.hide()
        self.editor.setReadOnly(True)
        self.gone_bar.show()

    def is_orphaned(self) -> bool:
        return self.gone_bar.isVisibleTo(self)

    def is_dirty(self) -> bool:
        """True while the editor holds text that was not handed over for saving yet."""
        return self._paper_id is not None and self.editor.toPlainText() != self._saved

    def text(self) -> str:
        return self.editor.toPlainText()

    def has_user_edits(self) -> bool:
        """True once the user has typed in this paper's note since it was loaded (its undo history)."""
        return self.is_dirty() or self.editor.document().isUndoAvailable()

    def replace_text(self, text: str) -> None:
        """Replace the whole note by `text` as one edit the user can undo (Ctrl+Z brings the old text back)."""
        cursor = QTextCursor(self.editor.document())
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        self._render_preview()

    def offer_outside_change(self, shown: bool = True) -> None:
        """Show (or hide) the bar saying the note was changed elsewhere."""
        self.outside_bar.setVisible(shown)

    def _typed(self) -> None:
        self._timer.start()
        if not self._deadline.isActive():
            self._deadline.start()

    def flush(self) -> None:
        """Save now if the text differs from what was last saved."""
        self._timer.stop()
        self._deadline.stop()
        text = self.editor.toPlainText()
        if self._paper_id is not None and text != self._saved:
            self._saved = text
            self.noteChanged.emit(self._paper_id, text)

    def _render_preview(self, *_args) -> None:
        """Render the note into the Preview tab when it is shown, on a worker thread (a long or odd note
        takes up to a second to render; db.text.render.note_preview keeps it there): one rendering at a time, the
        newest text wins."""
        if self.tabs.currentWidget() is not self.preview:
            return
        text = self.editor.toPlainText()
        if text == self._previewed:
            return
        self._wanted = text
        if self._rendering:
            return  # when the running one ends, the newest text is rendered
        if len(text) <= SYNC_PREVIEW_CHARS and text.count("[") <= LINK_BRACKETS_MAX:  # a few ms: no flicker
            self._show_rendered(text, *note_preview(text))
            return
        self._rendering = True
        self.preview.setPlainText(self.tr("Rendering the preview…"))  # never the previous paper's note meanwhile
        self._preview_pool.start(_PreviewTask(text, self._rendered))

    def _show_rendered(self, text: str, body: str, notices: list) -> None:
        self._rendering = False
        if text == self._wanted:
            words = {CUT: self.tr("The preview shows the first %1 characters of this note.").replace(
                         "%1", f"{PREVIEW_MAX_CHARS:,}"),
                     NO_LINKS: self.tr("This note has too many “[” to look for links in it: brackets are shown "
                                       "as written."),
                     AS_TEXT: self.tr("This note is nested too deeply to render: it is shown as text.")}
            notice = "".join(f'<p class="notice"><i>{html.escape(words[code])}</i></p>' for code in notices)
            self.preview.setHtml(notice + body)
            self._previewed = text
        self._render_preview()  # the text changed meanwhile: render the newest

    def preview_rendered(self) -> bool:
        """True when the preview shows the editor's current text (for tests)."""
        return not self._rendering and self._previewed == self.editor.toPlainText()


class _Rendered(QObject):
    done = Signal(str, str, list)  # the text rendered, its HTML, the notices (db.text.render.note_preview)


class _PreviewTask(QRunnable):
    def __init__(self, text: str, signals: _Rendered):
        super().__init__()
        self.text = text
        self.signals = signals

    def run(self) -> None:
        body, notices = note_preview(self.text)
        self.signals.done.emit(self.text, body, notices)
