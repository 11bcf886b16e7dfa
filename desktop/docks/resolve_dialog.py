"""Resolve… (issue 27): the owner's or a resolver's final decision on a shared project's conflicting paper, made in
the window — include, exclude with one of the project's reasons, or maybe. Offered by the project panel
(desktop.docks.project_panel, the V key) only to the owner or a resolver, once the project is unblinded, on a paper
in conflict or resolved already (then the resolution is changed).

The resolution is written on the server (db.sync.project_sync.resolve_paper) on the background worker, never on
the GUI thread; the dialog says so meanwhile and takes no input. The server's write is one transaction: when the
server is unreachable or refuses, nothing is kept anywhere and the dialog says why and stays open. Once the server
kept it, the resolutions it returned go into the library's copy through the window's one write path
(Operations.take_resolutions): the reviewers' decisions stay, the paper leaves is:conflict and the views update
from that change alone.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QVBoxLayout,
)

from db.sync.server import SyncError, SyncUnreachable
from desktop.common.background import run_in_background
from desktop.common.plain_text import plain_label

DECISIONS = ("include", "exclude", "maybe")


def resolvable(library, conflicts: set[str], paper_id: str | None) -> dict | None:
    """The joined project (a ProjectBook.projects() dict) whose conflict on `paper_id` this member may resolve, or
    whose resolution change: unblinded, they own it or resolve for it (as the last sync said), and the paper is in
    `conflicts` (is:conflict) or was resolved by them (the server lets a resolver change only their own
    resolution). None otherwise: Resolve… is not offered."""
    book = library.project_book
    for project in book.projects() if paper_id else []:
        if not book.may_resolve(project["name"]) or not book.in_project(project["name"], paper_id):
            continue  # several joined projects: only the one the paper belongs to
        earlier = book.resolution(project["name"], paper_id)
        if earlier[0] == project["role"] if earlier else paper_id in conflicts:
            return project
    return None


def open_resolve(panel) -> ResolveDialog | None:
    """Open the dialog on the window's current paper from the project `panel` when it is offered; else say why not
    in the status bar (the V key by a plain reviewer) and return None."""
    window = panel.w
    paper_id = window.current_paper_id()
    project = resolvable(window.library, panel.conflicts, paper_id)
    if project is None:
        window.statusBar().showMessage(why_not(window.library, paper_id), 5000)
        return None
    dialog = ResolveDialog(window, project, paper_id, panel.paper.text())
    dialog.open()
    return dialog


def why_not(library, paper_id: str | None) -> str:
    """Why Resolve… is not offered on `paper_id` (`resolvable` said None), in one status-bar line that fits a
    1024 px window: who resolves the paper's project (the owner, and up to 3 resolvers by name), that it is blind,
    or that the paper is in no conflict."""
    translate = QCoreApplication.translate
    book = library.project_book
    project = next((item for item in book.projects() if paper_id and book.in_project(item["name"], paper_id)), None)
    if project is None:
        return translate("ResolveDialog", "Resolve: this paper is in no shared project")
    owner, resolvers = project["owner"] or "?", [name for name in project["resolvers"] if name != project["owner"]]
    if project["role"] != owner and project["role"] not in resolvers:
        names = [translate("ResolveDialog", "%1 (owner)").replace("%1", owner), *resolvers[:3]]
        if len(resolvers) > 3:
            names[-1] = translate("ResolveDialog", "%1 more").replace("%1", str(len(resolvers) - 2))
        return translate("ResolveDialog", "Conflicts in “%1” are resolved by %2 only").replace(
            "%1", project["name"]).replace("%2", ", ".join(names))
    if project["blind"]:
        return translate("ResolveDialog", "Resolve: “%1” is blind until its owner %2 unblinds it").replace(
            "%1", project["name"]).replace("%2", owner)
    return translate("ResolveDialog", "Resolve: no conflict on this paper in “%1”").replace("%1", project["name"])


class ResolveDialog(QDialog):
    """The dialog for `paper_id` of `project` (a ProjectBook.projects() dict); `decisions` is the text of every
    member's decision on it (the panel's). `resolved(paper_id)` once the library holds the resolution; `failed(text)`
    when the server could not keep it (for tests)."""

    resolved = Signal(str)
    failed = Signal(str)

    def __init__(self, window, project: dict, paper_id: str, decisions: str, parent=None):
        super().__init__(parent or window)
        self.w, self.project, self.paper_id = window, project, paper_id
        self.busy = False
        self.setObjectName("resolveDialog")
        self.setWindowTitle(self.tr("Resolve the conflict"))
        layout = QVBoxLayout(self)
        paper = window.model.paper_of(paper_id) or window.library.paper(paper_id)
        title = plain_label(self, paper.title or paper.label or paper_id, "resolvePaper")
        title.setStyleSheet("font-weight: bold")
        layout.addWidget(title)
        layout.addWidget(plain_label(self, decisions, "resolveDecisions"))
        earlier = window.library.project_book.resolution(project["name"], paper_id)
        if earlier:
            layout.addWidget(plain_label(self, self.tr("Resolved by %1 as %2: choosing again changes it.")
                                         .replace("%1", earlier[0]).replace("%2", self._word(earlier[1]))))
        layout.addWidget(plain_label(
            self, self.tr("The project's decision on this paper (the reviewers' decisions stay):")))
        self.choices = QButtonGroup(self)
        row = QHBoxLayout()
        for index, (name, text) in enumerate((("include", self.tr("&Include")), ("exclude", self.tr("&Exclude")),
                                              ("maybe", self.tr("&Maybe")))):
            button = QRadioButton(text, self)
            button.setObjectName(f"resolve_{name}")
            self.choices.addButton(button, index)
            row.addWidget(button)
        layout.addLayout(row)
        self.reason = QComboBox(self)
        self.reason.setObjectName("resolveReason")
        self.reason.setAccessibleName(self.tr("Exclusion reason"))
        for reason in project["reasons"]:
            self.reason.addItem(reason, reason)
        self.reason.addItem(self.tr("(no reason given)"), "")
        reason_row = QHBoxLayout()
        reason_label = QLabel(self.tr("&Reason:"), self)
        reason_label.setBuddy(self.reason)
        reason_row.addWidget(reason_label)
        reason_row.addWidget(self.reason, 1)
        layout.addLayout(reason_row)
        self.status = plain_label(self, name="resolveStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.ok = self.buttons.addButton(self.tr("Resolve"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.ok.setObjectName("resolveOk")
        self.ok.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.choices.idToggled.connect(lambda _id, _on: self._enable())
        chosen = DECISIONS.index(earlier[1]) if earlier and earlier[1] in DECISIONS else 0
        self.choices.button(chosen).setChecked(True)
        if earlier and earlier[1] == "exclude":
            self.reason.setCurrentIndex(max(0, self.reason.findData(earlier[2])))
        self.choices.button(chosen).setFocus()
        self.setMinimumWidth(420)

    def _word(self, decision: str) -> str:
        return {"include": self.tr("include"), "exclude": self.tr("exclude"), "maybe": self.tr("maybe")}.get(
            decision, decision)

    def _enable(self) -> None:
        self.reason.setEnabled(not self.busy and self.decision() == "exclude")
        for button in self.choices.buttons():
            button.setEnabled(not self.busy)
        self.ok.setEnabled(not self.busy)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setEnabled(not self.busy)

    def decision(self) -> str:
        return DECISIONS[max(0, self.choices.checkedId())]

    def reason_text(self) -> str:
        return (self.reason.currentData() or "") if self.decision() == "exclude" else ""

    # ------------------------------------------------------------------ resolving
    def accept(self) -> None:
        """Write the resolution on the server (worker thread), then into the library; the dialog closes when both
        hold it, and stays open saying why when the server could not keep it."""
        if self.busy:
            return
        self.busy = True
        self._enable()
        self.status.setText(self.tr("Resolving on the server…"))
        server, name, paper_id = self.project["server"], self.project["name"], self.paper_id
        decision, reason = self.decision(), self.reason_text()

        def work():
            from db.sync.project_sync import resolve_paper
            from db.sync.projects import Projects

            try:
                with Projects(server) as projects:
                    return resolve_paper(projects, name, paper_id, decision, reason)
            except SyncError as error:  # said in the dialog's words, nothing kept
                return error

        run_in_background(self, work, self._done, lambda message: self._refused(message))

    def _done(self, outcome) -> None:
        if isinstance(outcome, SyncUnreachable):
            self._refused(self.tr("The project's server is unreachable: %1").replace("%1", str(outcome)), True)
            return
        if isinstance(outcome, SyncError):
            self._refused(str(outcome))
            return
        self.w.ops.take_resolutions(self.project["name"], outcome, initiator=self)
        self.busy = False
        self.w.statusBar().showMessage(self.tr("Resolved %1 as %2").replace("%1", self.paper_id)
                                       .replace("%2", self._word(self.decision())), 5000)
        self.resolved.emit(self.paper_id)
        super().accept()

    def _refused(self, text: str, unreachable: bool = False) -> None:
        self.busy = False
        self._enable()
        tail = (self.tr("Nothing was resolved; try again when the server is reachable.") if unreachable
                else self.tr("Nothing was resolved."))
        self.status.setText(f"{text}\n{tail}")
        self.failed.emit(text)

    def reject(self) -> None:
        if not self.busy:  # the server's answer is awaited: it is applied, or said, before the dialog goes
            super().reject()
