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

from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from db.changes import DECISION, Changes
from db.errors import MarginError
from db.triage.agreement import agreement_report
from db.triage.project_prisma import library_prisma, project_rows
from desktop.common.i18n import plural
from desktop.common.plain_text import plain_label
from desktop.docks.project_counts import ProjectCounts
from desktop.docks.resolve_dialog import resolvable
from desktop.docks.shared_notes import SharedNotesView

CONFLICT_QUERY = "is:conflict"


class ProjectPanel(QWidget):
    """The panel; `dock` is the CriteriaDock it sits in, `window` the MainWindow."""

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
        """Show the joined project(s) and their agreement figures (hidden with none)."""
        try:
            joined = self.w.library.project_book.projects()
        except MarginError:
            joined = []
        self.setVisible(bool(joined))
        if not joined:
            self._editable(True)
            return
        lines, figures, counted = [], [], []
        for project in joined:
            name, owner = project["name"], project["owner"] or "?"
            if project["blind"]:
                lines.append(self.tr("Project “%1” (owner %2) is blind: no member reads another's decisions until "
                                     "the owner unblinds it.").replace("%1", name).replace("%2", owner))
            else:
                lines.append(self.tr("Project “%1” (owner %2), unblinded: every member reads every member's "
                                     "decisions.").replace("%1", name).replace("%2", owner))
            rows = project_rows(self.w.library, project)  # read once for the figures and the counts
            report = self.report = agreement_report(rows.by_paper(), rows.resolutions)
            figures += self._figures(report)
            counted.append((project["name"], library_prisma(self.w.library, project, rows)))
        self.conflicts = set(self.w.library.project_book.conflict_ids())
        self.show_paper()
        self.summary.setText("\n".join(lines))
        self.figures.setText("\n".join(figures))
        self.counts.show_counts(counted)
        self.blind_note.setText(self.tr("Blind: the counts are your own; the others' and the project's show once the "
                                        "owner unblinds.") if any(c.blind for _n, c in counted) else "")
        self.blind_note.setVisible(any(c.blind for _n, c in counted))
        conflicts = len(self.conflicts)
        self.show_conflicts.setText(self.tr("Show conflicts (%1)").replace("%1", f"{conflicts:,}"))
        self._editable(len(joined) == 1 and joined[0]["role"] == joined[0]["owner"])

    def _editable(self, on: bool) -> None:
        """Let the criteria and the reason list be edited here (a library in no project, or the project's owner),
        or only read (a member: the next sync would put the project's back)."""
        from PySide6.QtWidgets import QAbstractItemView, QPushButton

        dock = self.dock
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
        a conflict with all of them in view."""
        paper_id = self.w.current_paper_id()
        parts = []
        for project in self.w.library.project_book.projects() if paper_id else []:
            for reviewer, decision in sorted(self._decisions(project).get(paper_id, {}).items()):
                reason = next((row[3] for row in self.w.library.project_book.decisions(project["name"])
                               if row[0] == paper_id and row[1] == reviewer), "") if reviewer != project["role"] \
                    else (self.w.library.decision(paper_id) or ("", ""))[1] or ""
                parts.append(f"{reviewer}: {decision}" + (f" ({reason})" if decision == "exclude" and reason else ""))
            resolved = self.w.library.project_book.resolutions(project["name"]).get(paper_id)
            if resolved:
                parts.append(self.tr("resolved by %1: %2").replace("%1", resolved[0]).replace("%2", resolved[1]))
        self.paper.setText(self.tr("Decisions on this paper: %1").replace("%1", " · ".join(parts)) if parts else "")
        self.paper.setVisible(bool(parts))
        self.resolve_button.setVisible(resolvable(self.w.library, self.conflicts, paper_id) is not None)

    def _decisions(self, project: dict) -> dict[str, dict[str, str]]:
        """{paper: {reviewer: decision}}: the others' as the last sync brought them, this member's as they are
        here now (a decision just made counts at once; it reaches the server at the next sync)."""
        book, role = self.w.library.project_book, project["role"]
        found = book.by_paper(project["name"])
        papers = book.papers(project["name"])
        mine = self.w.library.decisions(papers)
        for paper_id in papers:
            by = found.setdefault(paper_id, {})
            by.pop(role, None)
            if paper_id in mine:
                by[role] = mine[paper_id][0]
        return {paper_id: by for paper_id, by in found.items() if by}

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
