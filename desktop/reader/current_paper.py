"""The current paper in the reader pane and the annotation panel (rating box, tags, note), and what of a change
they show again.

The window (desktop.window.main_window) owns the parts; this shows one paper in them. The reader's HTML is
rendered again only when what it shows of the paper changed (READER_SHOWS): a rating sets the rating box
alone, and not even that when the rating box made the change. The strings keep the MainWindow translation
context (QCoreApplication.translate with that name), where they were translated when this was the window's.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QCoreApplication

from db.changes import ADDED, BIBLIOGRAPHIC, RATING, REMOVED, TAGS, TITLE, VERSIONS, Changes
from db.text.render import paper_to_html
from desktop.reader.highlight_view import reader_html
from desktop.reader.reader_labels import reader_labels

# what the reader's HTML shows of a paper
READER_SHOWS = frozenset({TAGS, TITLE, BIBLIOGRAPHIC, ADDED, REMOVED, VERSIONS})


class CurrentPaper:
    """Shows `window.current_paper_id()` in `window.reader`, `rating_widget`, `tag_editor` and `notes`, with
    the search's marks (`window.search`) and the window's highlight words."""

    def __init__(self, window) -> None:
        self.w = window
        self.shown: str | None = None  # the paper the reader shows (its scroll place is kept)

    def show(self) -> None:
        """Show the current paper (or "No paper selected."). The note editor keeps what it holds when it holds
        this paper already (desktop.reader.note_session)."""
        w = self.w
        paper_id = w.current_paper_id()
        try:
            paper = w.library.paper(paper_id) if paper_id else None
        except KeyError:  # deleted (here, or by another process) before the list moved on from it
            paper = None
        if paper is None:
            self.shown = None
            w.reader.setHtml("<p>" + QCoreApplication.translate("MainWindow", "No paper selected.") + "</p>")
            w.rating_widget.setRating(0)
            w.tag_editor.setTags([])
            w.notes.show(None)
            return
        scroll = w.reader.verticalScrollBar().value()
        interest = w.search.interest.get(paper.id)
        versions = w.library.versions(paper.id)  # the other versions of its work: their venues and links
        versions = w.library.papers(versions) if len(versions) > 1 else None
        # the rating is the rating box's to show: a rating then re-renders nothing (READER_SHOWS)
        w.reader.setHtml(reader_html(w, paper_to_html(
            replace(paper, rating=None), w.search.marks, why=w.search.why.get(paper.id), labels={
                "similar": QCoreApplication.translate("MainWindow", "Similar papers"),
                "why": QCoreApplication.translate("MainWindow", "For the interest “%1”: ").replace("%1", interest)
                if interest else QCoreApplication.translate("MainWindow", "Recommended for: "),
                **reader_labels()}, versions=versions), paper))
        if paper.id == self.shown:
            w.reader.verticalScrollBar().setValue(scroll)
        self.shown = paper.id
        w.rating_widget.setRating(paper.rating)
        w.tag_editor.setTags(paper.tags)
        w.tag_editor.setCompletions([name for name, _count in w.library.tags()])
        w.notes.show(paper)

    def show_change(self, changes: Changes) -> None:
        """The current paper's part of a change: the reader and the panel when what they show changed, else the
        rating box for a rating it did not make itself."""
        w = self.w
        kinds = changes.kinds_of(w.current_paper_id())
        if kinds & READER_SHOWS:
            self.show()
        elif RATING in kinds and changes.initiator is not w.rating_widget:
            paper = w.model.paper_of(w.current_paper_id())
            w.rating_widget.setRating(paper.rating if paper is not None else 0)
