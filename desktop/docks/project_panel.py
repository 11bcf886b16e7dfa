"""The shared project's part of the screening criteria dock (issue 27): which project this library screens for and
whether it is blind, the agreement figures between its members (percent agreement and Cohen's kappa per pair,
Fleiss' kappa for three or more: db.triage.agreement over the others' decisions the server let this member read
at the last sync and this member's own decisions as they are now), the conflicts and the maybe list, and *Show
conflicts*, which lists `is:conflict`; Resolve… on a conflicting paper for its owner or a resolver
(desktop.docks.resolve_dialog) and the PRISMA counts per member and for the project (desktop.docks.project_counts).

Hidden while the library has joined no project. Updated from the Changes the window applies (a `decision`
change: the member's own decision, or a sync that brought others' decisions) and after each sync (the project's
criteria and reasons may have changed); a member who does not own the project reads its criteria, not edits them.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from db.changes import DECISION, Changes
from db.errors import MarginError
from db.library.library import Library
from db.library.shared_projects import owning_project
from db.triage.project_prisma import project_figures
from desktop.common.background import run_in_background
from desktop.common.i18n import plural
from desktop.common.plain_text import plain_label
from desktop.docks.project_counts import ProjectCounts
from desktop.docks.resolve_dialog import resolvable
from desktop.docks.shared_notes import SharedNotesView

CONFLICT_QUERY = "is:conflict"


class ProjectPanel(QWidget):
    """The panel; `dock` is the CriteriaDock it sits in, `window` the MainWindow. `counted` is emitted when the
    figures counted on the background pool are shown."""

    counted = Signal()

    def __init__(self, dock, window):
        super().__init__(dock)
        self.dock, self.w = dock, window
        self.setObjectName("projectPanel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.summary = plain_label(self, name="projectSummary", selectable=True)
        self.figures = plain_label(self, name="projectAgreement", selectable=True)
        self.show_conflicts = QPushButton(self)
        self.show_conflicts.setObjectName("projectConflicts")
        self.show_conflicts.setToolTip(self.tr("List the papers whose decisions conflict (%1)")
                                       .replace("%1", CONFLICT_QUERY))
        self.show_conflicts.clicked.connect(lambda: self.w.set_query(CONFLICT_QUERY))
        self.paper = plain_label(self, name="projectPaperDecisions", selectable=True)
        self.counts = ProjectCounts(self)  # PRISMA counts per member and for the project
        self.resolve_button = QPushButton(self.tr("Resolve…"), self)  # owner or resolver: desktop.docks.resolve_dialog
        self.resolve_button.setObjectName("projectResolve")
        self.resolve_button.setToolTip(self.tr("Decide this conflicting paper for the project (key V); the reviewers' "
                                               "decisions stay"))
        self.resolve_button.clicked.connect(self.resolve)
        self.blind_note = plain_label(self, name="projectBlindCounts", selectable=True)
        self.shared = SharedNotesView(self, window)  # the others' shared tags and notes on the current paper
        for widget in (self.summary, self.figures, self.show_conflicts, self.paper, self.resolve_button,
                       self.shared, self.counts, self.blind_note):
            layout.addWidget(widget)
        self.report: dict | None = None
        self.conflicts: set[str] = set()  # is:conflict as of the last refresh
        self.dialog = None  # the open ResolveDialog
        self._triggers = None
        self._busy = self._again = False  # a count on the background pool; another asked for meanwhile
        window.libraryChanged.connect(self.library_changed)
        window.list_controller.currentChanged.connect(lambda _paper_id, _by_user: self.show_paper())
        window.sync.finished.connect(lambda _result: self.synced())
        self.refresh()

    def library_changed(self, changes: Changes) -> None:
        if changes.touches(DECISION):
            self.refresh()

    def synced(self) -> None:
        """After a sync: the figures, and the project's criteria and reasons into the dock."""
        self.refresh()
        self.dock.reload_setup()

    def refresh(self) -> None:
        """Show the joined project(s) (hidden with none), and count their agreement figures and PRISMA counts on
        the background pool with a Library of its own (they read every decision of the project: ~0.5 s at 20,000
        papers, once per decision key otherwise); one count at a time, a change meanwhile asks for one more."""
        try:
            joined = self.w.library.project_book.projects()
        except MarginError:
            joined = []
        self.setVisible(bool(joined))
        owning = owning_project(joined)  # whose criteria and reasons a member reads (None: this library edits them)
        self._editable(owning is None, owning and owning["owner"])
        if not joined:
            return
        if self._busy:
            self._again = True
            return
        self._busy, self._again = True, False
        folder = self.w.library.folder

        def work():
            with Library.open(folder, seed=False) as library:
                return project_figures(library)

        run_in_background(self, work, self._show_figures, self._failed)

    def _failed(self, message: str) -> None:
        self._busy = False
        self.figures.setText(self.tr("The project's figures could not be counted: %1").replace("%1", message))
        if self._again:
            self.refresh()

    def _show_figures(self, result) -> None:
        self._busy = False
        if self._again:  # a decision changed while these were counted: they are out of date
            self.refresh()
            return
        found, conflict_ids = result
        lines, figures, counted = [], [], []
        for item in found:
            project = item.project
            name, owner = project["name"], project["owner"] or "?"
            if project["blind"]:
                lines.append(self.tr("Project “%1” (owner %2) is blind: no member reads another's decisions until "
                                     "the owner unblinds it.").replace("%1", name).replace("%2", owner))
            else:
                lines.append(self.tr("Project “%1” (owner %2), unblinded: every member reads every member's "
                                     "decisions.").replace("%1", name).replace("%2", owner))
            self.report = item.report
            figures += self._figures(item.report)
            counted.append((name, item.counts))
        self.conflicts = set(conflict_ids)
        self.show_paper()
        self.summary.setText("\n".join(lines))
        self.figures.setText("\n".join(figures))
        self.counts.show_counts(counted)
        self.blind_note.setText(self.tr("Blind: the counts are your own; the others' and the project's show once the "
                                        "owner unblinds.") if any(c.blind for _n, c in counted) else "")
        self.blind_note.setVisible(any(c.blind for _n, c in counted))
        self.show_conflicts.setText(self.tr("Show conflicts (%1)").replace("%1", f"{len(self.conflicts):,}"))
        self.counted.emit()

    def _editable(self, on: bool, owner: str | None = None) -> None:
        """Let the criteria and the reason list be edited here (a library in no project, or the project's owner),
        or only read (a member: the next sync would put the project's back; `owner` edits them)."""
        from PySide6.QtWidgets import QAbstractItemView, QPushButton

        dock = self.dock
        dock.reasons_heading.setText(
            self.tr("Exclusion reasons (double-click to rename, drag to order)") if on else
            self.tr("Exclusion reasons (the project's owner, %1, edits them; Exclude… picks one)").replace(
                "%1", owner or "?"))
        dock.criteria.setReadOnly(not on)
        dock.criteria.setToolTip("" if on else self.tr("The project's criteria: its owner edits them"))
        dock.reasons.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove if on
                                     else QAbstractItemView.DragDropMode.NoDragDrop)
        if self._triggers is None:
            self._triggers = dock.reasons.editTriggers()  # the list's own (double-click, F2)
        dock.reasons.setEditTriggers(self._triggers if on else QAbstractItemView.EditTrigger.NoEditTriggers)
        dock.new_reason.setEnabled(on)
        for name in ("criteriaAddReason", "criteriaRemoveReason"):
            button = dock.findChild(QPushButton, name)
            if button is not None:
                button.setEnabled(on)

    def show_paper(self) -> None:
        """Every member's decision on the current paper this member may read (and a resolution), for resolving
        a conflict with all of them in view: the others' as the last sync copied them, this member's as the
        library holds it now. Reads that one paper's rows only (it runs on every move in the list)."""
        paper_id = self.w.current_paper_id()
        book = self.w.library.project_book
        parts = []
        for project in book.projects() if paper_id else []:
            name, role = project["name"], project["role"]
            found = {reviewer: (decision, reason) for reviewer, decision, reason
                     in book.paper_decisions(name, paper_id)}
            if book.in_project(name, paper_id):
                found.pop(role, None)
                mine = self.w.library.decision(paper_id)
                if mine and mine[0]:
                    found[role] = (mine[0], mine[1] or "")
            for reviewer, (decision, reason) in sorted(found.items()):
                parts.append(f"{reviewer}: {decision}" + (f" ({reason})" if decision == "exclude" and reason else ""))
            resolved = book.resolution(name, paper_id)
            if resolved:
                parts.append(self.tr("resolved by %1: %2").replace("%1", resolved[0]).replace("%2", resolved[1]))
        self.paper.setText(self.tr("Decisions on this paper: %1").replace("%1", " · ".join(parts)) if parts else "")
        self.paper.setVisible(bool(parts))
        self.resolve_button.setVisible(resolvable(self.w.library, self.conflicts, paper_id) is not None)

    def _figures(self, report: dict) -> list[str]:
        lines = []
        for pair in report["pairs"]:
            kappa = pair["cohen_kappa"]
            lines.append(plural(self.tr("%1 & %2: %Ln paper(s), %3% agree, Cohen's κ %4", "", pair["papers"]),
                                pair["papers"])
                         .replace("%1", pair["reviewers"][0]).replace("%2", pair["reviewers"][1])
                         .replace("%3", f"{pair['percent_agreement'] * 100:.1f}")
                         .replace("%4", self.tr("undefined") if kappa is None else f"{kappa:.3f}"))
        if report["fleiss_kappa"] is not None:
            lines.append(plural(self.tr("Fleiss' κ over %Ln paper(s) all decided: %1", "", report["fleiss_papers"]),
                                report["fleiss_papers"]).replace("%1", f"{report['fleiss_kappa']:.3f}"))
        if not report["pairs"]:
            lines.append(self.tr("No agreement figures yet: they need two members' decisions on the same papers "
                                 "(readable once the owner unblinds)."))
        lines.append(self.tr("Conflicts: %1 · on the maybe list: %2 · agreed: %3 · awaiting a second decision: %4")
                     .replace("%1", f"{len(report['conflicts']):,}").replace("%2", f"{len(report['maybe']):,}")
                     .replace("%3", f"{report['agreed']:,}").replace("%4", f"{report['awaiting']:,}"))
        return lines

    def resolve(self) -> None:
        """Resolve… the current paper (the button, the V key): desktop.docks.resolve_dialog.open_resolve."""
        from desktop.docks.resolve_dialog import open_resolve

        self.dialog = open_resolve(self)
