"""Edit → Copy citation in a CSL style (issue 30): the selected papers (else the current one) as a bibliography in
APA, IEEE, Chicago author-date or Nature (db.exporters.citation), put on the clipboard as plain text. The style
last chosen is kept in QSettings (STYLE_KEY) and used by "Copy citation" (Ctrl+Alt+C); Copy citation (BibTeX)
stays beside it."""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication

from db.exporters.citation import DEFAULT_STYLE, STYLES, cite
from desktop.common.background import run_in_background
from desktop.common.i18n import plural, tr

STYLE_KEY = "edit/citation_style"


def style_label(style: str) -> str:
    """A style's name as menus show it (translated)."""
    labels = {"apa": tr("APA 7th edition"), "ieee": tr("IEEE"), "chicago-author-date": tr("Chicago author-date"),
              "nature": tr("Nature")}
    return labels.get(style, STYLES.get(style, style))


class CitationMenu:
    """The Edit menu's "Copy citation (STYLE)" action and its "Citation style" submenu, on `window` (MainWindow)."""

    def __init__(self, window, menu):
        self.w = window
        self.copied: str | None = None  # the last citation put on the clipboard (for tests)
        self.copy_action = QAction(window)
        self.copy_action.setShortcut(QKeySequence("Ctrl+Alt+C"))
        self.copy_action.setObjectName("copyCitationAction")
        self.copy_action.triggered.connect(lambda _=False: self.copy())
        menu.addAction(self.copy_action)
        self.styles_menu = menu.addMenu(tr("Citation st&yle"))
        group = QActionGroup(window)
        self.style_actions: dict[str, QAction] = {}
        for style in STYLES:
            action = QAction(style_label(style), window)
            action.setCheckable(True)
            action.triggered.connect(lambda _=False, style=style: self.copy(style))
            group.addAction(action)
            self.styles_menu.addAction(action)
            self.style_actions[style] = action
        self._show(self.style())

    def style(self) -> str:
        """The style last chosen (DEFAULT_STYLE the first time)."""
        style = str(self.w.settings.value(STYLE_KEY, DEFAULT_STYLE))
        return style if style in STYLES else DEFAULT_STYLE

    def _show(self, style: str) -> None:
        self.style_actions[style].setChecked(True)
        self.copy_action.setText(tr("Copy &citation (%1)").replace("%1", style_label(style)))

    def copy(self, style: str | None = None) -> bool:
        """Put the selected papers' (else the current paper's) citation in `style` (default: the last chosen) on
        the clipboard, remember the style, and say so in the status bar. The formatting runs on the background
        pool (citeproc-py takes about 15 ms a paper: a long selection would stall the window); `copied` holds
        the last text put on the clipboard. Returns False when there is no paper."""
        style = style or self.style()
        self.w.settings.setValue(STYLE_KEY, style)
        self._show(style)
        current = self.w.current_paper_id()
        ids = self.w.selected_ids() or ([current] if current else [])
        if not ids:
            return False
        self.w.note_editor.flush()
        papers = self.w.library.papers(ids)

        def done(text: str) -> None:
            self.copied = text
            QApplication.clipboard().setText(text)
            self.w.statusBar().showMessage(plural(tr("Copied the %1 citation of %Ln paper(s)", "", len(ids)),
                                                  len(ids)).replace("%1", style_label(style)), 5000)

        def failed(message: str) -> None:
            self.w.statusBar().showMessage(message, 8000)

        run_in_background(self.w, lambda: cite(papers, style), done, failed)
        return True
