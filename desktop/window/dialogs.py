"""Small dialogs of the window: note history, import results, search syntax (the shortcuts dialog is
desktop.window.shortcuts)."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QLocale, Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from db.library.library import ImportReport, Library
from db.text.cleaning import isolate
from db.text.render import note_to_html
from desktop.common.i18n import tr
from desktop.window.import_summary import import_details, import_summary


def local_time(stamp: str) -> str:
    """A stored ISO 8601 time (`2026-12-02T09:43:18+00:00`, UTC) in the user's time zone, written the locale's
    short way (`12/2/26 10:43 AM`, `2026/12/2 10:43`); the stamp as it is when it does not parse."""
    when = QDateTime.fromString(stamp, Qt.DateFormat.ISODate)
    return QLocale().toString(when.toLocalTime(), QLocale.FormatType.ShortFormat) if when.isValid() else stamp


class NoteHistoryDialog(QDialog):
    """Lists the saved versions of a paper's note (newest first); `chosen_text()` is the one to restore."""

    def __init__(self, library: Library, paper_id: str, current: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(tr("Note history"))
        self.resize(760, 460)
        self.versions = QListWidget(self)
        self.versions.setObjectName("noteVersions")
        self.versions.setAccessibleName(tr("Saved versions of the note"))
        self.preview = QTextBrowser(self)
        self.preview.setOpenLinks(False)
        entries = [(tr("current"), current)] + [(local_time(when), text) for when, text in
                                                reversed(library.note_history(paper_id))]
        for when, text in entries:
            first = isolate(text.strip().splitlines()[0][:60]) if text.strip() else tr("(empty)")
            item = QListWidgetItem(f"{when}  —  {first}")
            item.setData(Qt.ItemDataRole.UserRole, text)
            self.versions.addItem(item)
        self.versions.currentItemChanged.connect(
            lambda item, _old: self.preview.setHtml(note_to_html(item.data(Qt.ItemDataRole.UserRole)))
            if item else None)
        splitter = QSplitter(self)
        splitter.addWidget(self.versions)
        splitter.addWidget(self.preview)
        buttons = QDialogButtonBox(self)
        self.restore_button = buttons.addButton(tr("Restore this version"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        layout.addWidget(buttons)
        if self.versions.count():
            self.versions.setCurrentRow(min(1, self.versions.count() - 1))

    def chosen_text(self) -> str | None:
        item = self.versions.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None


def import_report_box(parent: QWidget, report: ImportReport, labels: dict[str, str], notes: list[str]) -> QMessageBox:
    """A message box with the import summary; details list what changed and what was skipped."""
    box = QMessageBox(parent)
    box.setWindowTitle(tr("Import finished"))
    box.setIcon(QMessageBox.Icon.Information if not report.skipped else QMessageBox.Icon.Warning)
    box.setText(import_summary(report))
    details = import_details(report, labels, notes)
    if details:
        box.setDetailedText("\n".join(details))
    return box


def text_dialog(parent: QWidget, title: str, text: str) -> QDialog:
    """`text` read-only, in the system's fixed-pitch font: Help → Search syntax lines up its columns with spaces."""
    dialog = QDialog(parent)
    dialog.setWindowTitle(title)
    dialog.resize(880, 540)  # the syntax's widest line, fixed-pitch, within a 1366-px screen
    view = QPlainTextEdit(dialog)
    view.setReadOnly(True)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    view.setPlainText(text)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(view)
    layout.addWidget(buttons)
    return dialog
