"""Highlight word lists in the window (issue 16, item 4): Edit → Highlight words… edits the include (green)
and exclude (red) lists kept in the library (db.text.highlight_words); the reader marks them and counts them."""

from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
)

from db.paper import Paper
from db.text.highlight_words import EXCLUDE, INCLUDE, HighlightLists, count, mark
from desktop.common.i18n import tr
from desktop.common.plain_text import as_plain


def reader_html(window, body: str, paper: Paper) -> str:
    """The reader's HTML for `paper` with the window's highlight words marked, and a line counting them under
    the title (nothing when both lists are empty)."""
    lists: HighlightLists = window.highlight_lists
    if not lists:
        return body
    counts = count("\n".join(part for part in (paper.label, paper.abstract) if part), lists)
    words = tr("highlight words")  # outside the f-string, where pyside6-lupdate finds it
    line = (f'<p class="highlight-counts">'
            f'<span style="color: #2e7d32">✓ {counts[INCLUDE]}</span> · '
            f'<span style="color: #c62828">✗ {counts[EXCLUDE]}</span> '
            f'{html.escape(words)}</p>')
    marked = mark(body, lists)
    end = marked.find("</h2>")
    return marked[: end + 5] + line + marked[end + 5 :] if end >= 0 else line + marked


class HighlightDialog(QDialog):
    """Two lists, one word or phrase per line (`*` at the end matches any ending)."""

    def __init__(self, lists: HighlightLists, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Highlight words"))
        self.setObjectName("highlightDialog")
        layout = QGridLayout(self)
        layout.addWidget(QLabel(self.tr("Include (green): one word or phrase a line; reinforc* matches any ending"),
                                self), 0, 0)
        layout.addWidget(QLabel(self.tr("Exclude (red)"), self), 0, 1)
        self.include = QPlainTextEdit("\n".join(lists.include), self)
        self.include.setObjectName("highlightInclude")
        self.exclude = QPlainTextEdit("\n".join(lists.exclude), self)
        self.exclude.setObjectName("highlightExclude")
        layout.addWidget(self.include, 1, 0)
        layout.addWidget(self.exclude, 1, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons, 2, 0, 1, 2)
        self.resize(640, 360)

    def entries(self) -> tuple[list[str], list[str]]:
        return ([line for line in self.include.toPlainText().splitlines() if line.strip()],
                [line for line in self.exclude.toPlainText().splitlines() if line.strip()])


def edit_highlight_words(window, include: list[str] | None = None, exclude: list[str] | None = None) -> bool:
    """Edit → Highlight words…: ask for the lists (or take `include`/`exclude` as given, for tests), save them
    through the window's write path (kept and saved later when the library is busy) and re-render the reader once
    saved. False when cancelled or refused."""
    if include is None or exclude is None:
        dialog = HighlightDialog(window.highlight_lists, window)
        if not dialog.exec():
            return False
        include, exclude = dialog.entries()

    def saved() -> None:
        window.highlight_lists = window.library.highlight_lists()
        window.show_current()

    try:
        window.ops.set_highlight_lists(include, exclude, saved, initiator="highlight words")
    except ValueError as error:
        QMessageBox.warning(window, tr("Highlight words"), as_plain(str(error)))
        return False
    return True
