"""File → Get papers… and File → Add paper…: papers from the web (db.fetch) into the library, in the background.

`FetchTask` runs one fetch on a thread of its own (a fetch can take minutes: arXiv asks for 3 s between pages),
with progress counts and a cancel; it fetches every page first (db.fetch.job.fetch_records: nothing changes when
that fails), then puts the records through the one import pipeline on its own Library connection. The window
learns of the new and updated papers from the change log, as of an import (`watcher.check`). `GetPapersDialog`
asks for a source, an id and options; `AddPaperDialog` for an identifier (DOI, arXiv id, OpenReview id or URL) or
a paper typed by hand (title, authors, venue, year, abstract). Both show the result ("5 new, 0 updated, …") or
the one-line error, and stay open so that the next venue or paper can follow.
"""

from __future__ import annotations

import re
import threading
from datetime import date
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
)

from db.errors import MarginError
from db.fetch.http import FetchCancelled
from db.fetch.job import FetchRequest, fetch_records, hand_record, import_fetched
from db.library.library import Library
from desktop.common.i18n import tr

_DOI = re.compile(r"10\.\d{4,9}/\S+")
_ARXIV = re.compile(r"(arxiv\.org/|^arxiv:|^\d{4}\.\d{4,5}(v\d+)?$|^[a-z\-]+(\.[A-Z]{2})?/\d{7}(v\d+)?$)",
                    re.IGNORECASE)


def identifier_request(text: str) -> FetchRequest:
    """The lookup an identifier asks for: a DOI (or doi.org URL) → Crossref, an arXiv id or URL → arXiv, an
    openreview.net URL or any other single word → OpenReview. Raises MarginError for text that is none of them."""
    text = text.strip()
    if _DOI.search(text):
        return FetchRequest("doi", text)
    if _ARXIV.search(text):
        return FetchRequest("arxiv-id", text)
    if "openreview.net" in text or re.fullmatch(r"[\w\-]{6,20}", text):
        return FetchRequest("openreview-id", text)
    raise MarginError(tr("not a DOI, an arXiv id or an OpenReview id: %1")
                      .replace("%1", text))


class FetchTask(QObject):
    """One fetch and import on a worker thread. `progress(done, total)` (total 0 when unknown), then
    `done(ImportResult)` or `failed(message)`, delivered on the GUI thread."""

    progress = Signal(int, int)
    done = Signal(object)
    failed = Signal(str)

    def __init__(self, folder: Path, request: FetchRequest | None = None, records=None, parent=None):
        super().__init__(parent)
        self.folder, self.request, self.records = folder, request, records
        self.cancel = threading.Event()
        self.thread = threading.Thread(target=self._run, name="margin-fetch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        try:
            records = self.records
            if records is None:
                records = fetch_records(self.request, self.cancel, lambda done, total: self.progress.emit(
                    done, total or 0))
            if self.cancel.is_set():
                raise FetchCancelled(tr("cancelled; nothing was changed"))
            with Library.open(self.folder, seed=False) as library:
                result = import_fetched(library, records)
            self._tell(self.done, result)
        except MarginError as error:
            self._tell(self.failed, str(error))
        except Exception as error:  # noqa: BLE001 - shown in the dialog in one line; nothing was changed
            self._tell(self.failed, f"{type(error).__name__}: {error}")

    @staticmethod
    def _tell(signal, value) -> None:
        try:
            signal.emit(value)
        except RuntimeError:  # the dialog was closed and deleted while this ran
            pass


class _FetchDialogBase(QDialog):
    """What both dialogs share: a status line, a progress bar, the run button and Close, one task at a time."""

    def __init__(self, window, title: str, run_text: str):
        super().__init__(window)
        self.window_ = window
        self.task: FetchTask | None = None
        self.last_result = None  # the ImportResult of the last run, or the error message (tests read it)
        self.setWindowTitle(title)
        self.layout_ = QVBoxLayout(self)
        self.status = QLabel(self)
        self.status.setObjectName("fetchStatus")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.bar.setObjectName("fetchProgress")
        self.bar.hide()
        self.buttons = QDialogButtonBox(self)
        self.run_button = QPushButton(run_text, self)
        self.run_button.setObjectName("fetchRun")
        self.run_button.setDefault(True)
        self.buttons.addButton(self.run_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.cancel_button.setObjectName("fetchCancel")
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel_or_close)

    def finish_layout(self) -> None:
        self.layout_.addWidget(self.status)
        self.layout_.addWidget(self.bar)
        self.layout_.addWidget(self.buttons)

    def start(self, request: FetchRequest | None = None, records=None) -> None:
        self.task = FetchTask(self.window_.library.folder, request, records, self)
        self.task.progress.connect(self._progress)
        self.task.done.connect(self._done)
        self.task.failed.connect(self._failed)
        self.run_button.setEnabled(False)
        self.cancel_button.setText(tr("Cancel"))
        self.bar.setRange(0, 0)
        self.bar.show()
        self.status.setText(tr("Fetching…"))
        self.window_.note_editor.flush()
        self.task.start()

    def _progress(self, done: int, total: int) -> None:
        if total:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))
            self.status.setText(tr("Fetched %1 of %2 papers…").replace("%1", f"{done:,}").replace(
                "%2", f"{total:,}"))
        else:
            self.status.setText(tr("Fetched %1 papers…").replace("%1", f"{done:,}"))

    def _ended(self) -> None:
        self.task = None
        self.bar.hide()
        self.run_button.setEnabled(True)
        self.cancel_button.setText(tr("Close"))

    def _done(self, result) -> None:
        self._ended()
        self.last_result = result
        self.status.setText(result.summary())
        self.window_.watcher.check(force=True)  # the new and updated papers, read from the change log
        self.window_.statusBar().showMessage(tr("Fetched: %1").replace("%1", result.summary()), 10000)

    def _failed(self, message: str) -> None:
        self._ended()
        self.last_result = message
        self.status.setText(message)

    def cancel_or_close(self) -> None:
        if self.task is not None:
            self.task.cancel.set()
            self.status.setText(tr("Cancelling… what was fetched is kept for the next try"))
            return
        self.reject()

    def reject(self) -> None:  # Esc or the window's close button: a running fetch is cancelled, not orphaned
        if self.task is not None:
            self.task.cancel.set()
        super().reject()

    def running(self) -> bool:
        return self.task is not None

    def stop(self, timeout: float = 60.0) -> None:
        """Cancel a running fetch and wait for its thread to end (the window is closing)."""
        task = self.task
        if task is not None:
            task.cancel.set()
            task.thread.join(timeout)


class GetPapersDialog(_FetchDialogBase):
    """File → Get papers…: a venue from OpenReview, PMLR, the ACL Anthology, DBLP, or arXiv papers."""

    SOURCES = ("openreview", "arxiv", "dblp", "pmlr", "acl")

    def __init__(self, window):
        super().__init__(window, tr("Get papers"), tr("&Get papers"))
        self.setObjectName("getPapersDialog")
        form = QFormLayout()
        self.source = QComboBox(self)
        self.source.setObjectName("fetchSource")
        labels = (tr("OpenReview venue"), tr("arXiv category or search"), tr("DBLP venue and year"),
                  tr("PMLR volume"), tr("ACL Anthology volume"))
        for name, label in zip(self.SOURCES, labels, strict=True):
            self.source.addItem(label, name)
        form.addRow(tr("&Source:"), self.source)
        self.target = QLineEdit(self)
        self.target.setObjectName("fetchTarget")
        form.addRow(tr("&Id:"), self.target)
        self.rejected_box = QCheckBox(tr("Also &rejected submissions"), self)
        self.withdrawn_box = QCheckBox(tr("Also &withdrawn submissions"), self)
        self.query = QLineEdit(self)
        self.query.setObjectName("fetchQuery")
        self.query.setPlaceholderText("ti:diffusion AND cat:cs.CV")
        self.start_date, self.end_date = QLineEdit(self), QLineEdit(self)
        for edit in (self.start_date, self.end_date):
            edit.setPlaceholderText("YYYY-MM-DD")
        self.options = QGroupBox(tr("Options"), self)
        options = QFormLayout(self.options)
        options.addRow(self.rejected_box)
        options.addRow(self.withdrawn_box)
        self.query_label, self.start_label, self.end_label = (
            QLabel(tr("Search &query:"), self), QLabel(tr("&From:"), self), QLabel(tr("&To:"), self))
        self.query_label.setBuddy(self.query)
        self.start_label.setBuddy(self.start_date)
        self.end_label.setBuddy(self.end_date)
        options.addRow(self.query_label, self.query)
        options.addRow(self.start_label, self.start_date)
        options.addRow(self.end_label, self.end_date)
        self.layout_.addLayout(form)
        self.layout_.addWidget(self.options)
        self.finish_layout()
        self.source.currentIndexChanged.connect(self._source_changed)
        self._source_changed()
        self.resize(520, self.sizeHint().height())

    def _source_changed(self) -> None:
        name = self.source.currentData()
        examples = {"openreview": "ICLR.cc/2025/Conference", "arxiv": "cs.LG", "dblp": "conf/iclr/2024",
                    "pmlr": "229", "acl": "2024.acl-long"}
        self.target.setPlaceholderText(examples[name])
        for widget in (self.rejected_box, self.withdrawn_box):
            widget.setVisible(name == "openreview")
        for widget in (self.query, self.query_label, self.start_date, self.start_label, self.end_date,
                       self.end_label):
            widget.setVisible(name == "arxiv")
        self.options.setVisible(name in ("openreview", "arxiv"))

    def request(self) -> FetchRequest:
        """The FetchRequest the form describes. Raises MarginError for a date that is not YYYY-MM-DD."""
        def day(edit: QLineEdit) -> date | None:
            text = edit.text().strip()
            if not text:
                return None
            try:
                return date.fromisoformat(text)
            except ValueError:
                raise MarginError(tr("%1 is not a date (YYYY-MM-DD)").replace("%1", text)) from None

        name = self.source.currentData()
        return FetchRequest(name, self.target.text().strip(), rejected=self.rejected_box.isChecked(),
                            withdrawn=self.withdrawn_box.isChecked(), query=self.query.text().strip() or None
                            if name == "arxiv" else None, start=day(self.start_date) if name == "arxiv" else None,
                            end=day(self.end_date) if name == "arxiv" else None)

    def run(self) -> None:
        try:
            request = self.request()
        except MarginError as error:
            self._failed(str(error))
            return
        if not (request.target or request.query):
            self._failed(tr("Give the id of what to get, e.g. %1").replace("%1", self.target.placeholderText()))
            return
        self.start(request)


class AddPaperDialog(_FetchDialogBase):
    """File → Add paper…: one paper by DOI, arXiv id or OpenReview id, or typed by hand."""

    def __init__(self, window):
        super().__init__(window, tr("Add paper"), tr("&Add paper"))
        self.setObjectName("addPaperDialog")
        form = QFormLayout()
        self.identifier = QLineEdit(self)
        self.identifier.setObjectName("addIdentifier")
        self.identifier.setPlaceholderText("10.1371/journal.pone.0033693 · 1706.03762 · openreview.net/forum?id=…")
        form.addRow(tr("DOI, arXiv or OpenReview &id:"), self.identifier)
        self.layout_.addLayout(form)
        hand = QGroupBox(tr("Or type it by hand"), self)
        fields = QFormLayout(hand)
        self.title_edit, self.authors, self.venue, self.year = (QLineEdit(self) for _ in range(4))
        for edit, name in ((self.title_edit, "addTitle"), (self.authors, "addAuthors"), (self.venue, "addVenue"),
                           (self.year, "addYear")):
            edit.setObjectName(name)
        self.authors.setPlaceholderText("Ada Lovelace; Alan Turing")
        self.abstract = QPlainTextEdit(self)
        self.abstract.setObjectName("addAbstract")
        self.abstract.setTabChangesFocus(True)
        fields.addRow(tr("&Title:"), self.title_edit)
        fields.addRow(tr("A&uthors:"), self.authors)
        fields.addRow(tr("&Venue:"), self.venue)
        fields.addRow(tr("&Year:"), self.year)
        fields.addRow(tr("A&bstract:"), self.abstract)
        self.layout_.addWidget(hand)
        self.finish_layout()
        self.resize(560, self.sizeHint().height())

    def run(self) -> None:
        try:
            if self.identifier.text().strip():
                self.start(identifier_request(self.identifier.text()))
            else:
                self.start(records=[hand_record(self.title_edit.text(), self.authors.text(), self.venue.text(),
                                                self.year.text(), self.abstract.toPlainText())])
        except MarginError as error:
            self._failed(str(error))
