"""The shared project's PRISMA counts in the criteria dock (issue 27): a compact table, one row per member and one
for the project after resolution (db.triage.project_prisma.library_prisma), columns screened, included, excluded,
maybe, awaiting; each row's exclusions by reason beneath it (collapsed for members, open for the project). Plain
text only. While the project is blind only this member's own row is shown (the server lets them read no one
else's decisions) and a line says so.

The panel (desktop.docks.project_panel) calls `show_counts` when the decisions change (a `decision` Change) and
after each sync.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem

from db.library.decisions import Prisma
from db.triage.project_prisma import REASONS_DIFFER, ProjectPrisma


class ProjectCounts(QTreeWidget):
    """The table; `shown` holds the ProjectPrisma of each project last shown (by project name)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("projectPrisma")
        self.setAccessibleName(self.tr("PRISMA counts per member and for the project"))
        heads = [(self.tr("Member"), ""), (self.tr("Screened"), self.tr("Papers this member decided")),
                 (self.tr("Incl."), self.tr("Included")), (self.tr("Excl."), self.tr("Excluded (by reason beneath)")),
                 (self.tr("Maybe"), self.tr("On the maybe list")),
                 (self.tr("Awaiting"), self.tr("A member: papers without their decision. The project: papers awaiting "
                                               "a second decision or a resolution"))]
        self.setHeaderLabels([text for text, _tip in heads])
        for column, (_text, tip) in enumerate(heads):
            self.headerItem().setToolTip(column, tip)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(heads)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setUniformRowHeights(True)
        self.setIndentation(12)
        self.shown: dict[str, ProjectPrisma] = {}

    def show_counts(self, counted: list[tuple[str, ProjectPrisma]]) -> None:
        """Show (project name, counts) of each joined project; the name prefixes the rows when there are several."""
        self.clear()
        self.shown = dict(counted)
        several = len(counted) > 1
        for name, counts in counted:
            for who, member in counts.members.items():
                self._row(f"{name}: {who}" if several else who, member, expanded=False)
            if counts.project is not None:
                label = self.tr("Project (after resolution)")
                self._row(f"{name}: {label}" if several else label, counts.project, expanded=True, bold=True)
        rows = sum(1 + len(c.members) for _name, c in counted)
        self.setFixedHeight(self.header().sizeHint().height() + 6 + self.sizeHintForRow(0) * (rows + 3))

    def _row(self, who: str, counts: Prisma, expanded: bool, bold: bool = False) -> None:
        item = QTreeWidgetItem(self, [who, *(f"{n:,}" for n in (counts.screened, counts.included, counts.excluded,
                                                                 counts.maybe, counts.undecided))])
        item.setToolTip(0, who)
        for column in range(1, 6):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight)
        if bold:
            font = item.font(0)
            font.setBold(True)
            for column in range(6):
                item.setFont(column, font)
        for reason, number in counts.excluded_by_reason.items():
            text = (self.tr("(no reason given)") if not reason
                    else self.tr("(reasons differ)") if reason == REASONS_DIFFER else reason)
            child = QTreeWidgetItem(item, [text, "", "", f"{number:,}", "", ""])
            child.setToolTip(0, text)
            child.setTextAlignment(3, Qt.AlignmentFlag.AlignRight)
        item.setExpanded(expanded)
