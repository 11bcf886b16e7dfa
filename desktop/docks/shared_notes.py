"""The other members' tags and notes on the current paper, in the criteria dock's project part (issue 27): what the
last project sync copied into the library (db.library.shared_annotations) — readable only once the project's owner
unblinded it and shares tags or notes (the server's rule, db.sync.project_schema).

Everything is shown as plain text, exactly as written: each member's name and project, their tags, and their
note's Markdown source (a note is another person's text: no HTML of it is ever interpreted). Updated when the
current paper changes and from the Changes the window applies (a `shared` change: a sync brought others' tags or
notes; a `decision` change: a project left); hidden when there is nothing to show.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from db.changes import DECISION, SHARED, Changes
from db.errors import MarginError


class SharedNotesView(QWidget):
    """The view; `window` is the MainWindow (library, current paper, libraryChanged)."""

    def __init__(self, parent: QWidget, window):
        super().__init__(parent)
        self.w = window
        self.setObjectName("projectSharedNotes")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(self.tr("Tags and notes other members shared on this paper:"), self)
        self.title.setWordWrap(True)
        self.text = QPlainTextEdit(self)  # plain text by construction: no markup is ever interpreted
        self.text.setObjectName("projectSharedNotesText")
        self.text.setReadOnly(True)
        self.text.setToolTip(self.tr("As each member wrote them (notes as their Markdown source). A project shares "
                                     "tags and notes only when its owner turns that on, and they are readable once "
                                     "the owner unblinds it."))
        self.text.setMaximumHeight(self.fontMetrics().lineSpacing() * 12)
        layout.addWidget(self.title)
        layout.addWidget(self.text)
        self.paper_id: str | None = None
        window.libraryChanged.connect(self.library_changed)
        window.list_controller.currentChanged.connect(lambda _paper_id, _by_user: self.show_paper())
        self.show_paper()

    def library_changed(self, changes: Changes) -> None:
        if changes.touches(SHARED, DECISION) and self.paper_id in changes.papers:
            self.show_paper()

    def show_paper(self) -> None:
        """Show what the other members shared on the window's current paper (hidden with nothing)."""
        self.paper_id = self.w.current_paper_id()
        try:
            rows = self.w.library.project_book.shared_on(self.paper_id) if self.paper_id else []
        except MarginError:
            rows = []
        several = len({row["project"] for row in rows}) > 1
        blocks = []
        for row in rows:
            who = (self.tr("%1 (project “%2”)").replace("%1", row["reviewer"]).replace("%2", row["project"])
                   if several else row["reviewer"])
            lines = [who]
            if row["tags"]:
                lines.append(self.tr("Tags: %1").replace("%1", ", ".join(row["tags"])))
            if row["note"].strip():
                lines += [self.tr("Note:"), row["note"]]
            blocks.append("\n".join(lines))
        text = "\n\n".join(blocks)
        if self.text.toPlainText() != text:
            self.text.setPlainText(text)
        self.setVisible(bool(blocks))
