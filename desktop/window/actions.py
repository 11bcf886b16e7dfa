"""The main window's menus (File, Edit, View, Help) and the actions behind them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QActionGroup, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from db.library.backup import backup_folder
from db.library.library import Library
from db.text.cleaning import isolate
from db.text.translatable import QT_TRANSLATE_NOOP
from desktop.common import theme
from desktop.common.background import run_in_background
from desktop.common.i18n import plural, tr
from desktop.common.plain_text import as_plain
from desktop.reader.highlight_view import edit_highlight_words
from desktop.window.citation_menu import CitationMenu
from desktop.window.dialogs import NoteHistoryDialog, import_report_box, text_dialog
from desktop.window.import_summary import import_summary
from desktop.window.importing import ImportJob
from desktop.window.layout import apply_zoom
from desktop.window.library_menu import LibraryActions
from desktop.window.shortcuts import shortcuts_dialog
from desktop.window.vault_menu import VaultKeeper

IMPORT_FILTER = QT_TRANSLATE_NOOP(
    "", "Paper lists (*.txt *.json *.jsonl *.csv *.bib *.bibtex *.biblatex *.ris *.xml *.atom);;All files (*)")
UNREAD_FILTER = "read:no"
IMPORT_ANNOTATIONS_KEY = "import/annotations"



class WindowActions:
    """Builds the menu bar of `window` (a MainWindow) and runs what its actions start."""

    def __init__(self, window):
        self.w = window
        self.import_job: ImportJob | None = None
        self.last_import = None  # (report, notes) of the last finished import, for tests
        self.last_export = None  # (papers written or None, output or error message)
        bar = window.menuBar()

        file_menu = self.file_menu = bar.addMenu(tr("&File"))
        self.import_action = self._action(file_menu, tr("&Import…"), self.import_dialog, "Ctrl+I")
        self.get_papers_action = self._action(file_menu, tr("&Get papers…"), self.get_papers_dialog)
        self.add_paper_action = self._action(file_menu, tr("&Add paper…"), self.add_paper_dialog)
        self.import_annotations = self._toggle(  # the files' own marks (issue 30); kept between runs
            file_menu, tr("Import the files' tags, ratings, read marks and notes"),
            window.settings.value(IMPORT_ANNOTATIONS_KEY, True, type=bool),
            lambda on: window.settings.setValue(IMPORT_ANNOTATIONS_KEY, on))
        self.export_action = self._action(file_menu, tr("&Export…"), self.export_dialog, "Ctrl+E")
        self.vault_keeper = VaultKeeper(window, file_menu)  # an Obsidian vault kept updated (issue 30)
        self.back_up = self._action(file_menu, tr("&Back up now"), self.back_up_now)
        self.sync_action = self._action(file_menu, tr("S&ync now"), window.sync.sync_now)  # desktop.window.sync
        file_menu.addSeparator()
        self._action(file_menu, tr("&Quit"), window.close, QKeySequence.StandardKey.Quit)

        edit_menu = bar.addMenu(tr("&Edit"))
        self.undo_action = window.undo_stack.createUndoAction(window, tr("&Undo"))
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = window.undo_stack.createRedoAction(window, tr("&Redo"))
        # Ctrl+Shift+Z and the platform's redo keys, each once: on Linux the platform's redo is Ctrl+Shift+Z too,
        # and the same key twice on one action is an ambiguous shortcut that Qt then never triggers
        redo_keys = [QKeySequence("Ctrl+Shift+Z")]
        redo_keys += [key for key in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo) if key not in redo_keys]
        self.redo_action.setShortcuts(redo_keys)
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        self._action(edit_menu, tr("Set &title…"), self.title_dialog, "F2")
        self._action(edit_menu, tr("Note &history…"), self.note_history_dialog)
        self.split_action = self._action(edit_menu, tr("Split from other &versions"), self.split_version)
        self._action(edit_menu, tr("&Copy citation (BibTeX)"), self.copy_citation, "Ctrl+Shift+C")
        self.citation_menu = CitationMenu(window, edit_menu)  # in a CSL style (issue 30)
        self._action(edit_menu, tr("&Find"), window.search_box.setFocus, QKeySequence.StandardKey.Find)
        self._action(edit_menu, tr("Sa&ve search…"), lambda: window.sidebar.save_search(window.search_box.text()))
        self._action(edit_menu, tr("&Similar papers"), window.show_similar, "Ctrl+Shift+S")
        self._action(edit_menu, tr("Re&commended papers"), lambda: window.set_query("is:recommended"), "Ctrl+R")
        self._action(edit_menu, tr("&Interests queue"), lambda: window.set_query("is:interests"), "Ctrl+Shift+R")
        self._action(edit_menu, tr("&Highlight words…"), lambda: edit_highlight_words(window), "Ctrl+H")

        view_menu = self.view_menu = bar.addMenu(tr("&View"))
        # the reader, the list and the note zoom together (desktop.window.layout.apply_zoom)
        self._action(view_menu, tr("Zoom &in"), lambda: apply_zoom(window, window.reader.zoom + 1),
                     QKeySequence.StandardKey.ZoomIn, extra=["Ctrl+="])
        self._action(view_menu, tr("Zoom &out"), lambda: apply_zoom(window, window.reader.zoom - 1),
                     QKeySequence.StandardKey.ZoomOut)
        self._action(view_menu, tr("&Reset zoom"), lambda: apply_zoom(window, 0), "Ctrl+0")
        self._action(view_menu, tr("Re&fresh list"), window.search.refresh, "F5")
        self.back_action = self._action(view_menu, tr("&Back"), window.go_back, "Alt+Left")
        view_menu.addSeparator()
        self.unread_only = self._toggle(view_menu, tr("&Unread papers only"), False, self._unread_only)
        sort_menu = view_menu.addMenu(tr("&Sort by"))
        group = QActionGroup(window)
        for key, label, descending in ((None, tr("Relevance"), False), ("label", tr("Label"), False),
                                       ("rating", tr("Rating"), True), ("added", tr("Date added"), True),
                                       ("year", tr("Year"), True), ("venue", tr("Venue"), False),
                                       ("authors", tr("First author"), False)):
            action = sort_menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(key == window.search.sort_key)
            action.triggered.connect(lambda _=False, k=key, d=descending: window.sort_by(k, d))
            group.addAction(action)
        theme_menu = view_menu.addMenu(tr("&Theme"))
        themes = QActionGroup(window)
        current = window.settings.value("view/theme", "system", type=str)
        for name, label in (("system", tr("System")), ("light", tr("Light")), ("dark", tr("Dark"))):
            action = theme_menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(name == current)
            action.triggered.connect(lambda _=False, n=name: self.set_theme(n))
            themes.addAction(action)
        if current != "system":
            theme.apply_theme(current)
        view_menu.addSeparator()
        self.rate_and_advance = self._toggle(
            view_menu, tr("Rate and &advance"), window.setting("rateAndAdvance", False),
            lambda on: window.settings.setValue("triage/rateAndAdvance", on))
        self.auto_read = self._toggle(view_menu, tr("&Mark read when shown"), window.setting("autoRead", True),
                                      lambda on: window.settings.setValue("triage/autoRead", on))

        # New/Open/recent library, Delete papers, Language
        self.library_actions = LibraryActions(window, window.open_window, file_menu, edit_menu, view_menu)

        help_menu = bar.addMenu(tr("&Help"))
        self._action(help_menu, tr("&Keyboard shortcuts"), lambda: shortcuts_dialog(window).exec())
        self._action(help_menu, tr("&Search syntax"),
                     lambda: text_dialog(window, tr("Search syntax"), search_syntax()).exec())
        self._action(help_menu, tr("Open &backups folder"), self.open_backups)
        self._action(help_menu, tr("&About Margin"), lambda: QMessageBox.about(
            window, tr("About Margin"), tr("Margin: read, triage and annotate research-paper abstracts.\n\n"
                                           "Library: %1").replace("%1", str(window.library.folder))))

    def _action(self, menu, text, slot, shortcut=None, extra=()) -> QAction:
        action = QAction(text, self.w)
        if shortcut is not None:
            shortcuts = [QKeySequence(shortcut)] + [QKeySequence(s) for s in extra]
            action.setShortcuts(shortcuts)
        action.triggered.connect(lambda _=False: slot())
        menu.addAction(action)
        return action

    def _toggle(self, menu, text, checked: bool, slot) -> QAction:
        action = QAction(text, self.w)
        action.setCheckable(True)
        action.setChecked(checked)
        action.toggled.connect(slot)
        menu.addAction(action)
        return action

    # ------------------------------------------------------------------ view
    def _unread_only(self, on: bool) -> None:
        query = self.w.search_box.text().replace(UNREAD_FILTER, " ")
        self.w.set_query(" ".join(f"{query} {UNREAD_FILTER}".split()) if on else " ".join(query.split()))

    def set_theme(self, name: str) -> None:
        applied = theme.apply_theme(name)
        self.w.settings.setValue("view/theme", applied)
        self.w.show_current()

    # ------------------------------------------------------------------ edit
    def title_dialog(self) -> None:
        paper_id = self.w.current_paper_id()
        if paper_id is None:
            return
        paper = self.w.library.paper(paper_id)
        text, ok = QInputDialog.getText(self.w, tr("Set title"), tr("Title (empty to use the file's or the "
                                                                    "derived label):"), text=paper.label)
        if ok:
            self.w.set_title(text.strip() or None)

    def split_version(self) -> None:
        """Edit → Split from other versions: the current paper becomes a work of its own (undoable)."""
        paper_id = self.w.current_paper_id()
        if paper_id is not None and not self.w.ops.split_version(paper_id):
            self.w.statusBar().showMessage(tr("This paper has no other versions."), 5000)

    def copy_citation(self) -> None:
        """The selected papers (else the current one) as BibTeX entries on the clipboard (db.exporters.bibtex)."""
        from PySide6.QtWidgets import QApplication

        from db.exporters.bibtex import export_bibtex

        ids = self.w.selected_ids() or ([self.w.current_paper_id()] if self.w.current_paper_id() else [])
        if not ids:
            return
        self.w.note_editor.flush()
        QApplication.clipboard().setText(export_bibtex(self.w.library.papers(ids)))
        self.w.statusBar().showMessage(plural(tr("Copied the BibTeX entry of %Ln paper(s)", "", len(ids)),
                                              len(ids)), 5000)

    def note_history_dialog(self) -> None:
        paper_id = self.w.current_paper_id()
        if paper_id is None:
            return
        self.w.note_editor.flush()
        dialog = NoteHistoryDialog(self.w.library, paper_id, self.w.note_editor.text(), self.w)
        if dialog.exec() and dialog.chosen_text() is not None:
            self.w.note_editor.replace_text(dialog.chosen_text())  # undoable: Ctrl+Z gives the text back
            self.w.note_editor.flush()

    # ------------------------------------------------------------------ import and export
    def import_dialog(self) -> None:
        names, _filter = QFileDialog.getOpenFileNames(self.w, tr("Import paper lists"), str(Path.home()),
                                                      tr(IMPORT_FILTER))
        if names:
            self.start_import([Path(name) for name in names])

    def start_import(self, paths: list[Path]) -> bool:
        """Import `paths` on a worker thread with progress in the status bar. False if one is running."""
        if self.import_job is not None:
            self.w.statusBar().showMessage(tr("An import is already running"), 5000)
            return False
        self.w.note_editor.flush()
        job = ImportJob(self.w.library.folder, paths, self.w, self.import_annotations.isChecked())
        job.progress.connect(self._import_progress)
        job.done.connect(self._import_done)
        job.failed.connect(self._import_failed)
        self.import_job = job
        self.w.progress_bar.setRange(0, 0)
        self.w.progress_bar.show()
        self.w.statusBar().showMessage(tr("Importing %1…").replace("%1", ", ".join(isolate(p.name) for p in paths)))
        job.start()
        return True

    def _import_progress(self, done: int, total: int) -> None:
        self.w.progress_bar.setRange(0, total)
        self.w.progress_bar.setValue(done)

    def _finish_job(self) -> None:
        self.w.progress_bar.hide()
        if self.import_job is not None:
            self.import_job.deleteLater()
        self.import_job = None

    def _import_done(self, report, notes: list) -> None:
        self._finish_job()
        self.last_import = (report, notes)
        self.w.watcher.check(force=True)  # the import's changes, read from the change log like any other
        self.w.statusBar().showMessage(tr("Import: %1").replace("%1", import_summary(report)), 10000)
        if self.w.isVisible() and not self.w.property("quietImport") and not self.w.property("askingToClose"):
            ids = report.new[:500] + report.updated[:500]
            labels = {p.id: p.label for p in self.w.library.papers(ids)}
            import_report_box(self.w, report, labels, notes).open()

    def _import_failed(self, message: str) -> None:
        self._finish_job()
        self.last_import = (None, [message])
        self.w.statusBar().showMessage(tr("Import failed: %1").replace("%1", message), 15000)
        if self.w.isVisible() and not self.w.property("quietImport") and not self.w.property("askingToClose"):
            QMessageBox.warning(self.w, tr("Import failed"), as_plain(tr("Nothing was imported.\n\n%1").replace(
                "%1", message)))

    def get_papers_dialog(self):
        """File → Get papers… (desktop.window.fetch_dialog), one dialog kept while it is open."""
        from desktop.window.fetch_dialog import GetPapersDialog

        return self._fetch_dialog("get_papers", GetPapersDialog)

    def add_paper_dialog(self):
        """File → Add paper…: by DOI, arXiv id, OpenReview id or by hand."""
        from desktop.window.fetch_dialog import AddPaperDialog

        return self._fetch_dialog("add_paper", AddPaperDialog)

    def stop_fetches(self) -> None:
        """On closing: cancel a running fetch and wait for its thread (a fetch stops at its next request or
        wait; an import it had begun finishes first, so the library is never left half-written)."""
        for name in ("get_papers_window", "add_paper_window"):
            dialog = getattr(self, name, None)
            if dialog is not None:
                dialog.stop()

    def _fetch_dialog(self, name: str, kind):
        dialog = getattr(self, f"{name}_window", None)
        if dialog is None:
            dialog = kind(self.w)
            setattr(self, f"{name}_window", dialog)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def export_dialog(self) -> None:
        from desktop.window.export_dialog import ExportDialog, ask_output  # (the exporters: not needed at start)

        dialog = ExportDialog(self.w, has_query=bool(self.w.search_box.text().strip()),
                              selected=len(self.w.selected_ids()))
        if not dialog.exec():
            return
        fmt, scope, include_abstract = dialog.choice()
        output = ask_output(self.w, fmt)
        if output is not None:
            self.start_export(self.ids_for_scope(scope), fmt, output, include_abstract)

    def ids_for_scope(self, scope: str) -> list[str] | None:
        """Paper ids for an export scope: all, search (the list's papers in its order, every version of a work,
        as `margin export --query` exports them) or selected; None for the annotated papers, which depend on the
        format and are read on the export's thread (db.library.backup.annotated_export_ids)."""
        if scope == "all":
            return self.w.library.ids()
        if scope == "search":
            return self.w.model.given_ids()
        if scope == "selected":
            return self.w.selected_ids()
        return None

    def start_export(self, ids: list[str] | None, fmt: str, output: Path, include_abstract: bool = True) -> None:
        """Export papers `ids` (None: the annotated papers, as `margin export` chooses them for `fmt`) on the
        background thread (own library connection); report in the status bar."""
        from db.exporters.registry import write_export  # (imported here, on the window's thread)
        from db.library.backup import annotated_export_ids

        self.w.note_editor.flush()
        folder = self.w.library.folder

        def work() -> int:
            with Library.open(folder, seed=False) as library:
                chosen = ids if ids is not None else annotated_export_ids(library, fmt)
                return write_export(library.papers(chosen), fmt, output, history=library.note_history,
                                    include_abstract=include_abstract,
                                    state=library.user_state() if fmt == "json" else None)

        def done(count: int) -> None:
            self.last_export = (count, str(output))
            self.w.statusBar().showMessage(plural(tr("Exported %Ln paper(s) to %1", "", count), count)
                                           .replace("%1", str(output)), 8000)

        def failed(message: str) -> None:
            self.last_export = (None, message)
            self.w.statusBar().showMessage(tr("Export failed: %1").replace("%1", message), 15000)
            if self.w.isVisible() and not self.w.property("quietImport"):
                QMessageBox.warning(self.w, tr("Export failed"), as_plain(message))

        self.w.statusBar().showMessage(tr("Exporting the annotated papers…") if ids is None else
                                       plural(tr("Exporting %Ln paper(s)…", "", len(ids)), len(ids)))
        run_in_background(self.w, work, done, failed)

    def back_up_now(self) -> None:
        """Help → Back up now: a backup of every annotation and the user state, said in the status bar."""
        if self.w.library.unwritable:
            self.w.statusBar().showMessage(self.w.library.refusal or "", 8000)
            return
        self.w.note_editor.flush()  # the words typed a moment ago are in it too
        self.w.statusBar().showMessage(tr("Backing up…"))
        self.w.backups.back_up_now(lambda path: self.w.statusBar().showMessage(
            tr("Backed up to %1").replace("%1", str(path)), 8000))

    def open_backups(self) -> None:
        folder = backup_folder(self.w.library)
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))


def search_syntax() -> str:
    from db.search import SEARCH_SYNTAX_HELP

    return tr(SEARCH_SYNTAX_HELP) + "\n\n" + tr(RECOMMEND_HELP)


RECOMMEND_HELP = QT_TRANSLATE_NOOP(
    "",
    "is:recommended — unread papers like the ones you rated 4–5 stars (and unlike those rated 1–2)\n"
    "similar:ID — papers like one paper (press s in the list, or click “Similar papers” in the reader)\n"
    "similar-tag:\"NAME\" — untagged papers like those carrying a tag; a adds the tag, x dismisses\n"
    "is:interests — one queue across your interests (tags: right-click → Use as an interest); a accepts the paper "
    "into its interest, x dismisses it (kept: that interest learns from it)\n"
    "is:check — the papers of the random check of a view (View → Triage progress)\n"
    "is:conflict — a shared project's papers whose decisions conflict, once its owner unblinded it")
