"""The reader pane: a QTextBrowser that never navigates, never loads a resource, and opens http(s) links
in the system browser."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QTextBrowser

from db.paper import DOCUMENT_SUFFIXES

STYLE = """
h2 { margin-bottom: 4px; }
p.meta, p.authors, p.links { color: palette(mid); }
span.tag { background: palette(midlight); }
a.tag { text-decoration: none; color: palette(text); }
span.hit { background: #ffe27a; color: black; }
p.abstract { line-height: 140%; }
span.math { font-family: serif; }
span.upright { font-style: normal; }
"""


class ReaderView(QTextBrowser):
    """Shows HTML made by db.text.render. Links with http/https open externally; `margin:ACTION/ARGUMENT` links
    (written by db.text.render, never taken from paper text) emit `action_requested`; nothing else is followed."""

    action_requested = Signal(str, str)
    notice = Signal(str)  # a line for the status bar (a linked file that cannot be opened)
    rendered = Signal(str)  # a long abstract's HTML, rendered off the GUI thread, is shown (its paper's id)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.document().setDefaultStyleSheet(STYLE)
        self.anchorClicked.connect(self._open_link)
        self.opened_links: list[str] = []  # what was handed to the system browser (for tests)
        self.opened_files: list[str] = []  # linked files handed to the system's viewer (for tests)
        self.zoom = 0  # steps from the default font size

    def set_zoom(self, steps: int) -> None:
        """Zoom to `steps` (−5..10) from the default size; 0 resets."""
        steps = max(-5, min(10, int(steps)))
        if steps > self.zoom:
            self.zoomIn(steps - self.zoom)
        elif steps < self.zoom:
            self.zoomOut(self.zoom - steps)
        self.zoom = steps

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802 - Qt's name
        return None  # no remote images, no local files: the pane shows only the text it was given

    def _open_link(self, url: QUrl) -> None:
        if url.scheme() == "margin":
            action, _slash, argument = url.path().partition("/")
            if action == "file":
                self.open_file(QUrl.fromPercentEncoding(argument.encode()))
            else:
                self.action_requested.emit(action, QUrl.fromPercentEncoding(argument.encode()))
        elif url.scheme() in ("http", "https"):
            self.opened_links.append(url.toString())
            QDesktopServices.openUrl(url)

    def open_file(self, path: str) -> bool:
        """Open a file the paper's imported entry linked (db.paper.linked_files) with the system's viewer. Only
        documents (db.paper.DOCUMENT_SUFFIXES) that exist are opened — a link in a file someone sent is never a
        program to run; otherwise `notice` says why. Returns whether it was handed to the viewer."""
        target = Path(path).expanduser()
        if target.suffix.lower() not in DOCUMENT_SUFFIXES:
            self.notice.emit(self.tr("Not opened: %1 is not a document").replace("%1", path))
            return False
        if not target.is_file():
            self.notice.emit(self.tr("The linked file is not on this computer: %1").replace("%1", path))
            return False
        self.opened_files.append(str(target))
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(target)))
        return True
