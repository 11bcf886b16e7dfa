"""The shared project's PRISMA counts in the criteria dock (issue 27): a compact table with the library's PRISMA rows
(screened; excluded, by reason beneath; maybe; included; awaiting) and a column per member and one for the project
after resolution (db.triage.project_prisma.library_prisma), so that it fits a narrow dock. Plain text only. While
the project is blind only this member's own column is shown (the server lets them read no one else's decisions).

The panel (desktop.docks.project_panel) calls `show_counts` when the decisions change (a `decision` Change) and
after each sync.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem

from db.library.decisions import Prisma
from db.triage.project_prisma import REASONS_DIFFER, ProjectPrisma
from desktop.common.plain_text import as_plain


class ProjectCounts(QTreeWidget):
    """The table; `shown` holds the ProjectPrisma of each project last shown (by project name)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("projectPrisma")
        self.setAccessibleName(self.tr("PRISMA counts per member and for the project"))
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setUniformRowHeights(True)
        self.setIndentation(10)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.shown: dict[str, ProjectPrisma] = {}

    def column(self, name: str) -> dict[str, str]:
        """{row label: text} of the column headed `name` (a member, or "Project"), for tests and readers."""
        index = next(i for i in range(self.columnCount()) if self.headerItem().text(i) == name)
        rows = {}
        for top in range(self.topLevelItemCount()):
            item = self.topLevelItem(top)
            rows[item.text(0)] = item.text(index)
            for child in range(item.childCount()):
                rows[f"{item.text(0)} / {item.child(child).text(0)}"] = item.child(child).text(index)
        return rows

    def show_counts(self, counted: list[tuple[str, ProjectPrisma]]) -> None:
        """Show (project name, counts) of each joined project: a column per member, then the project's (the
        project's name heads it when there are several)."""
        self.clear()
        self.shown = dict(counted)
        columns: list[tuple[str, Prisma]] = []
        for name, counts in counted:
            columns += list(counts.members.items())
            if counts.project is not None:
                columns.append((self.tr("Project") if len(counted) == 1 else name, counts.project))
        self.setColumnCount(1 + len(columns))
        self.setHeaderLabels(["", *(who for who, _counts in columns)])
        if columns:
            self.headerItem().setToolTip(len(columns), self.tr("The project's decisions after resolution"))
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for index in range(1, len(columns) + 1):
            header.setSectionResizeMode(index, QHeaderView.ResizeMode.ResizeToContents)
            self.headerItem().setTextAlignment(index, Qt.AlignmentFlag.AlignRight)
        rows = [(self.tr("Screened"), lambda c: c.screened, self.tr("Papers decided")),
                (self.tr("Excluded"), lambda c: c.excluded, self.tr("Excluded, by reason beneath")),
                (self.tr("Maybe"), lambda c: c.maybe, self.tr("On the maybe list")),
                (self.tr("Included"), lambda c: c.included, ""),
                (self.tr("Awaiting"), lambda c: c.undecided,
                 self.tr("A member: papers without their decision. The project: papers awaiting a second decision "
                         "or a resolution"))]
        for index, (label, number, tip) in enumerate(rows):
            item = self._row(self, label, [number(c) for _who, c in columns], tip)
            if index == 1:  # excluded: by reason beneath
                reasons = list(dict.fromkeys(r for _who, c in columns for r in c.excluded_by_reason))
                for reason in reasons:
                    text = (self.tr("(no reason)") if not reason
                            else self.tr("(reasons differ)") if reason == REASONS_DIFFER else reason)
                    self._row(item, text, [c.excluded_by_reason.get(reason, 0) for _who, c in columns], text)
                item.setExpanded(True)
        tops = [self.topLevelItem(i) for i in range(self.topLevelItemCount())]
        shown = len(tops) + sum(top.childCount() for top in tops)
        self.setFixedHeight(self.header().sizeHint().height() + self.sizeHintForRow(0) * shown + 2 * self.frameWidth())

    @staticmethod
    def _row(parent, label: str, numbers: list[int], tip: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [label, *(f"{n:,}" for n in numbers)])
        item.setToolTip(0, as_plain(tip or label))  # a reason is user text
        for index in range(1, len(numbers) + 1):
            item.setTextAlignment(index, Qt.AlignmentFlag.AlignRight)
        return item
