"""The current paper in the reader pane and the annotation panel (rating box, tags, note), and what of a change
they show again.

The window (desktop.window.main_window) owns the parts; this shows one paper in them. The reader's HTML is
rendered again only when what it shows of the paper changed (READER_SHOWS): a rating sets the rating box
alone, and not even that when the rating box made the change. The strings keep the MainWindow translation
context (QCoreApplication.translate with that name), where they were translated when this was the window's.
"""

from __future__ import annotations

import html
from dataclasses import replace

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal

from db.changes import ADDED, BIBLIOGRAPHIC, RATING, REMOVED, TAGS, TITLE, VERSIONS, Changes
from db.text.cleaning import isolate
from db.text.render import paper_to_html
from desktop.reader.highlight_view import reader_html
from desktop.reader.reader_labels import reader_labels

# what the reader's HTML shows of a paper
READER_SHOWS = frozenset({TAGS, TITLE, BIBLIOGRAPHIC, ADDED, REMOVED, VERSIONS})
# characters of label and abstract from which the reader's HTML is rendered off the GUI thread: an abstract's
# markup, math (latex2mathml) and highlight marks cost ~7 ms at a usual 1,500 characters, 100 ms and more at tens
# of thousands; below this the HTML is shown at once (no flash of a placeholder while typing a query). 6,000 let a
# 5,000-character abstract take 30 ms of the window's thread at every keystroke that made it the current paper
LONG_TEXT = 3000


class _Signals(QObject):
    done = Signal(str)


class _Render(QRunnable):
    """Runs `render()` (the reader's HTML: plain Python, no widget touched) on the reader's thread."""

    def __init__(self, render, signals: _Signals) -> None:
        super().__init__()
        self.render, self.signals = render, signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            body = self.render()
        except Exception as error:  # noqa: BLE001 - shown in the reader rather than lost on a thread
            body = "<p>" + html.escape(str(error)) + "</p>"
        try:
            self.signals.done.emit(body)
        except RuntimeError:  # the window was deleted while this ran: nobody is left to tell
            pass


class CurrentPaper:
    """Shows `window.current_paper_id()` in `window.reader`, `rating_widget`, `tag_editor` and `notes`, with
    the search's marks (`window.search`) and the window's highlight words."""

    def __init__(self, window) -> None:
        self.w = window
        self.shown: str | None = None  # the paper the reader shows (its scroll place is kept)
        self._marked: tuple | None = None  # what of the search the reader shows marked: (marks, why, interest)
        self._rendering = 0  # the number of the last rendering asked for: an older one's HTML is dropped
        self._pool = QThreadPool(window)  # the reader's own thread: never queued behind a backup or a sync
        self._pool.setMaxThreadCount(1)

    def _set_html(self, body: str, scroll: int | None) -> None:
        self.w.reader.setHtml(body)
        if scroll is not None:  # the same paper again: its scroll place kept
            self.w.reader.verticalScrollBar().setValue(scroll)

    def _rendered(self, number: int, paper_id: str, body: str, scroll: int | None) -> None:
        """A long abstract's HTML, rendered on the reader's thread: shown unless another paper (or the same one
        again) was asked for meanwhile."""
        if number == self._rendering and paper_id == self.shown:
            self._set_html(body, scroll)
            self.w.reader.rendered.emit(paper_id)

    def wait(self, msecs: int = 30000) -> bool:
        """Wait for a long abstract's rendering (on closing)."""
        return self._pool.waitForDone(msecs)

    def show_if_new(self) -> None:
        """`show`, unless the reader shows the current paper already with the search's marks as they are: a
        search's results came (its first page, then the rest) and the current paper stayed in them. Rendering
        its HTML again (a few ms; tens for a long abstract) would change nothing."""
        w = self.w
        paper_id = w.current_paper_id()
        if paper_id is None or paper_id != self.shown or self._marks_for(paper_id) != self._marked:
            self.show()

    def _marks_for(self, paper_id: str) -> tuple:
        search = self.w.search
        return tuple(search.marks), search.why.get(paper_id), search.interest.get(paper_id)

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
            self._rendering += 1
            w.reader.setHtml("<p>" + QCoreApplication.translate("MainWindow", "No paper selected.") + "</p>")
            w.rating_widget.setRating(0)
            w.tag_editor.setTags([])
            w.notes.show(None)
            return
        scroll = w.reader.verticalScrollBar().value()
        interest = w.search.interest.get(paper.id)
        versions = w.library.versions(paper.id)  # the other versions of its work: their venues and links
        versions = w.library.papers(versions) if len(versions) > 1 else None
        labels = {"similar": QCoreApplication.translate("MainWindow", "Similar papers"),
                  "why": QCoreApplication.translate("MainWindow", "For the interest “%1”: ").replace(
                      "%1", isolate(interest))
                  if interest else QCoreApplication.translate("MainWindow", "Recommended for: "),
                  **reader_labels()}
        marks, why = list(w.search.marks), w.search.why.get(paper.id)
        direction = "rtl" if w.isRightToLeft() else "ltr"  # the lines composed of fields: the window's direction

        def render() -> str:  # the rating is the rating box's to show: a rating then re-renders nothing
            return reader_html(w, paper_to_html(replace(paper, rating=None), marks, why=why, labels=labels,
                                                versions=versions, direction=direction), paper)

        same = paper.id == self.shown
        self.shown = paper.id
        self._marked = self._marks_for(paper.id)
        self._rendering += 1
        if len(paper.abstract) + len(paper.label) < LONG_TEXT:
            self._set_html(render(), scroll if same else None)
        else:  # a long abstract (its markup and math take tens of ms and more): rendered on the reader's thread
            w.reader.setHtml("<p>" + html.escape(paper.label[:300]) + "</p><p>…</p>")
            number, signals = self._rendering, _Signals(w)
            signals.done.connect(lambda body: self._rendered(number, paper.id, body, scroll if same else None))
            signals.done.connect(signals.deleteLater)
            self._pool.start(_Render(render, signals))
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
