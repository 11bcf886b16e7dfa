"""The screening criteria dock (View → Screening criteria, issue 29), beside the reader: the current paper's
decision with Include / Exclude / Maybe buttons (the I, E, M keys), the inclusion criteria text, the editable list of
exclusion reasons, and the PRISMA-style counts of the library (records, screened, excluded by reason, maybe,
included, not screened yet), which *Save counts as CSV…* writes as `margin progress --prisma-csv` does.

The counts and the current paper's decision are updated from the Changes the window applies (a `decision`,
`added` or `removed` change), never by polling; the reason list and the criteria belong to no paper, so the dock
shows its own edits of them once the library has them (and reloads the list when another process's decision
changes arrive: a rename there renames papers' reasons too). Every edit goes through the window's one write path.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from db.changes import ADDED, DECISION, OUTSIDE, REMOVED, Changes
from db.errors import MarginError
from db.library.decisions import Prisma
from db.system.fileio import write_atomically
from desktop.common.plain_text import as_plain, plain_label
from desktop.common.theme import scrolling
from desktop.reader.screening_keys import decision_text

SAVE_DELAY_MS = 600  # the criteria are saved once typing pauses this long (and when the dock is hidden)


class CriteriaDock(QDockWidget):
    """The dock; `window` is the MainWindow. `counted` is emitted with each Prisma shown (for tests)."""

    counted = Signal(object)

    def __init__(self, window):
        super().__init__(QCoreApplication.translate("CriteriaDock", "Screening criteria"), window)
        self.w = window
        self.setObjectName("criteriaDock")
        self.setAccessibleName(self.tr("Screening criteria"))
        self.current: Prisma | None = None
        body = QWidget(self)
        layout = QVBoxLayout(body)

        self.paper_decision = plain_label(body, name="criteriaPaperDecision")
        layout.addWidget(self.paper_decision)
        self.project_panel = None  # the shared project's figures (issue 27), made once the criteria text exists
        buttons = QHBoxLayout()
        screening = window.screening
        for name, text, tip, command in (
                ("criteriaInclude", self.tr("Include"), self.tr("Include this paper (key I)"), screening.include),
                ("criteriaExclude", self.tr("Exclude…"), self.tr("Exclude this paper with a reason (key E)"),
                 screening.exclude),
                ("criteriaMaybe", self.tr("Maybe"), self.tr("Decide later (key M)"), screening.maybe)):
            button = QPushButton(text, body)
            button.setObjectName(name)
            button.setToolTip(tip)
            button.clicked.connect(command)
            buttons.addWidget(button)
        layout.addLayout(buttons)

        layout.addWidget(plain_label(body, self.tr("Inclusion criteria")))
        self.criteria = QPlainTextEdit(body)
        self.criteria.setObjectName("criteriaText")
        self.criteria.setAccessibleName(self.tr("Inclusion criteria"))
        self.criteria.setPlaceholderText(self.tr("Write what a paper must have to be included…"))
        self.criteria.setPlainText(window.library.criteria())
        self.criteria.textChanged.connect(self._criteria_typed)
        layout.addWidget(self.criteria, 2)
        self._save_timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._save_timer.timeout.connect(self.save_criteria)

        self.reasons_heading = plain_label(body, self.tr("Exclusion reasons (double-click to rename, drag to order)"),
                                           name="criteriaReasonsHeading")  # a member's says who edits them
        layout.addWidget(self.reasons_heading)
        self.reasons = QListWidget(body)
        self.reasons.setObjectName("criteriaReasons")
        self.reasons.setAccessibleName(self.tr("Exclusion reasons"))
        self.reasons.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.reasons.itemChanged.connect(self._reason_edited)
        self.reasons.model().rowsMoved.connect(lambda *_args: self._save_reasons(self._listed()))
        layout.addWidget(self.reasons, 1)
        row = QHBoxLayout()
        self.new_reason = QLineEdit(body)
        self.new_reason.setObjectName("criteriaNewReason")
        self.new_reason.setAccessibleName(self.tr("New exclusion reason"))
        self.new_reason.setPlaceholderText(self.tr("New reason"))
        self.new_reason.returnPressed.connect(self.add_reason)
        add = QPushButton(self.tr("Add"), body)
        add.setObjectName("criteriaAddReason")
        add.clicked.connect(self.add_reason)
        remove = QPushButton(self.tr("Remove"), body)
        remove.setObjectName("criteriaRemoveReason")
        remove.clicked.connect(self.remove_reason)
        for widget in (self.new_reason, add, remove):
            row.addWidget(widget)
        layout.addLayout(row)

        layout.addWidget(plain_label(body, self.tr("PRISMA counts (whole library)")))
        self.counts = QTreeWidget(body)
        self.counts.setObjectName("prismaCounts")
        self.counts.setAccessibleName(self.tr("PRISMA counts"))
        self.counts.setHeaderLabels([self.tr("Stage"), self.tr("Papers")])
        self.counts.setRootIsDecorated(True)
        header = self.counts.header()  # the stage takes the room, the number column fits its numbers
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.counts, 2)
        save = QPushButton(self.tr("Save counts as CSV…"), body)
        save.setObjectName("prismaSaveCsv")
        save.setToolTip(self.tr("Stage, reason, count rows (as progress --prisma-csv)"))
        save.clicked.connect(self.save_counts)
        layout.addWidget(save)
        self.setWidget(scrolling(body))
        from desktop.docks.project_panel import ProjectPanel

        self.project_panel = ProjectPanel(self, window)
        layout.insertWidget(0, self.project_panel)

        self.load_reasons()
        self.recount()
        self.show_paper()
        window.libraryChanged.connect(self.library_changed)
        # the current paper's decision, while the dock is shown (shown again, it reads it then): hidden, it loaded the
        # paper for every search's results, on the window's thread
        window.list_controller.currentChanged.connect(lambda _id, _by_user: self.isVisible() and self.show_paper())
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self)
        action = self.toggleViewAction()
        action.setText(self.tr("Screening &criteria"))
        action.setShortcut("Ctrl+Shift+D")
        progress = window.docks.made("progress")  # Triage progress stays the View menu's last entry (tests find it)
        if progress is not None:
            window.actions_.view_menu.insertAction(progress.toggleViewAction(), action)
        else:
            window.actions_.view_menu.addAction(action)
        self.visibilityChanged.connect(self._visibility_changed)
        self.setVisible(window.settings.value("criteria/visible", False, type=bool))

    # ------------------------------------------------------------------ what a change moves
    def library_changed(self, changes: Changes) -> None:
        """Recount when decisions or the set of papers changed; show the current paper's decision again when it
        changed; reload the reasons when another process changed decisions (it may have renamed one)."""
        if not changes.touches(DECISION, ADDED, REMOVED):
            return
        self.recount()
        if DECISION in changes.kinds_of(self.w.current_paper_id()):
            self.show_paper()
        if changes.initiator == OUTSIDE and changes.touches(DECISION):
            self.load_reasons()

    def recount(self) -> None:
        """Show the library's PRISMA counts (one count of papers and one GROUP BY of the decisions)."""
        counts = self.current = self.w.library.prisma_counts()
        self.counts.clear()

        def row(text: str, number: int, parent=None) -> QTreeWidgetItem:
            item = QTreeWidgetItem(parent or self.counts, [text, f"{number:,}"])
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
            return item

        row(self.tr("Records"), counts.records)
        screened = row(self.tr("Screened"), counts.screened)
        excluded = row(self.tr("Excluded"), counts.excluded, screened)
        for reason, number in counts.excluded_by_reason.items():
            row(reason or self.tr("(no reason)"), number, excluded)
        row(self.tr("Maybe"), counts.maybe, screened)
        row(self.tr("Included"), counts.included, screened)
        row(self.tr("Not screened yet"), counts.undecided)
        self.counts.expandAll()
        self.counted.emit(counts)

    def save_counts(self) -> None:
        """Ask for a file and write the PRISMA counts shown there as CSV (db.library.decisions.Prisma.to_csv)."""
        path, _filter = QFileDialog.getSaveFileName(self, self.tr("Save PRISMA counts"), "prisma.csv",
                                                    self.tr("CSV files (*.csv)"))
        if not path or self.current is None:
            return
        try:
            write_atomically(Path(path), self.current.to_csv())
        except MarginError as error:
            QMessageBox.warning(self, self.tr("Save PRISMA counts"), as_plain(str(error)))
            return
        self.w.statusBar().showMessage(self.tr("Saved %1").replace("%1", path), 5000)

    def show_paper(self) -> None:
        paper_id = self.w.current_paper_id()
        paper = self.w.model.paper_of(paper_id) if paper_id else None
        if paper is None:
            self.paper_decision.setText(self.tr("No paper selected."))
            return
        self.paper_decision.setText(self.tr("This paper: %1").replace("%1", decision_text(paper.decision,
                                                                                           paper.reason)))

    # ------------------------------------------------------------------ the reasons
    def load_reasons(self) -> None:
        """Show the library's exclusion reasons (after an edit of them was saved)."""
        self.reasons.blockSignals(True)
        self.reasons.clear()
        for reason in self.w.library.exclusion_reasons():
            item = QListWidgetItem(reason)
            item.setData(Qt.ItemDataRole.UserRole, reason)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            self.reasons.addItem(item)
        self.reasons.blockSignals(False)

    def _listed(self) -> list[str]:
        return [self.reasons.item(row).data(Qt.ItemDataRole.UserRole) for row in range(self.reasons.count())]

    def _save_reasons(self, reasons: list[str]) -> None:
        try:
            self.w.ops.set_exclusion_reasons(reasons, self.load_reasons, initiator=self)
        except ValueError as error:
            self.w.statusBar().showMessage(str(error), 5000)
            self.load_reasons()

    def add_reason(self) -> None:
        text = " ".join(self.new_reason.text().split())
        if text:
            self.new_reason.clear()
            self._save_reasons([*self._listed(), text])

    def remove_reason(self) -> None:
        """Take the selected reason off the list (papers excluded for it keep it)."""
        item = self.reasons.currentItem()
        if item is not None:
            gone = item.data(Qt.ItemDataRole.UserRole)
            self._save_reasons([reason for reason in self._listed() if reason != gone])

    def _reason_edited(self, item: QListWidgetItem) -> None:
        old, new = item.data(Qt.ItemDataRole.UserRole), " ".join(item.text().split())
        if new == old:
            return
        try:
            self.w.ops.rename_exclusion_reason(old, new, self.load_reasons, initiator=self)
        except ValueError as error:
            self.w.statusBar().showMessage(str(error), 5000)
            self.load_reasons()

    # ------------------------------------------------------------------ the criteria
    def _criteria_typed(self) -> None:
        self._save_timer.start()

    def save_criteria(self) -> None:
        """Save the criteria text now (when typing paused, or the dock is hidden)."""
        self._save_timer.stop()
        try:
            self.w.ops.set_criteria(self.criteria.toPlainText(), initiator=self)
        except ValueError as error:
            self.w.statusBar().showMessage(str(error), 5000)

    def save_typing(self) -> None:
        """Save the criteria now when typing has not paused long enough to save them yet."""
        if self._save_timer.isActive():
            self.save_criteria()

    def reload_setup(self) -> None:
        """Show the library's criteria and reasons again (a sync brought a shared project's), unless the criteria
        are being typed."""
        text = self.w.library.criteria()
        if not self.criteria.hasFocus() and not self._save_timer.isActive() and text != self.criteria.toPlainText():
            self.criteria.blockSignals(True)
            self.criteria.setPlainText(text)
            self.criteria.blockSignals(False)
        self.load_reasons()

    def _visibility_changed(self, visible: bool) -> None:
        if visible:
            self.show_paper()
        self.save_typing()
        if not self.w.property("closing"):
            self.w.settings.setValue("criteria/visible", visible)
