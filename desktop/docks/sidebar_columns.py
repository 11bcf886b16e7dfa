"""How the sidebar (desktop.docks.sidebar) shares its width between names and counts.

Names are cut in the middle ("Computer…Learning"), so alike names stay apart, with the whole name in the
tooltip. The name column has priority down to NAME_MIN_CHARS characters and never less than a star row needs
whole ("★★★★☆"); counts are always shown: whole ("read 44 of 995") when that leaves the names their room, else
short ("44/995", `COMPACT_ROLE`). A dock opened beside the window used to squeeze the names to "★…" and, at
1,024 px, the counts away (the trial's screenshots).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics, QTextLayout
from PySide6.QtWidgets import QStyledItemDelegate, QTreeWidget, QTreeWidgetItem

from db.text.render import stars

COMPACT_ROLE = Qt.ItemDataRole.UserRole + 20  # a count's short form ("44/995"), shown when the whole one does not fit
NAME_MIN_CHARS = 12  # the names' room before counts go short: about this many average characters
PADDING = 14  # a cell's margins and the gap between the columns (pixels)


class CountDelegate(QStyledItemDelegate):
    """Column 1: the count as written, or its short form when that is wider than the column."""

    def initStyleOption(self, option, index) -> None:  # noqa: N802 - Qt's name
        super().initStyleOption(option, index)
        compact = index.data(COMPACT_ROLE)
        if compact and option.fontMetrics.horizontalAdvance(option.text) + PADDING > option.rect.width():
            option.text = compact

    def sizeHint(self, option, index) -> QSize:  # noqa: N802 - Qt's name
        """As tall as the whole count needs, whichever form the column's width shows now: a row sized while
        the short form ("2/1,009") was shown kept that height when the column widened, and the whole Chinese
        one ("已读 2/1,009": CJK lines are taller) lost the bottom of its glyphs (a comma read as a full stop)."""
        size = super().sizeHint(option, index)
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if not text:
            return size
        layout = QTextLayout(str(text), option.font)
        layout.beginLayout()
        line = layout.createLine()
        layout.endLayout()
        return QSize(size.width(), max(size.height(), math.ceil(line.height()) + 2))


def _rows(tree: QTreeWidget) -> list[tuple[QTreeWidgetItem, int]]:
    """Every entry with its depth (0: a section)."""
    rows = []
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        rows.append((top, 0))
        rows.extend((top.child(j), 1) for j in range(top.childCount()))
    return rows


def widths(tree: QTreeWidget) -> tuple[int, int, int]:
    """(least name width, count width, least sidebar width) for the tree's entries as they are now (pixels).
    The count width is that of the whole counts when they leave the names `name_min`, else the short ones'."""
    metrics = QFontMetrics(tree.font())
    indent = tree.indentation()
    name_min = 2 * indent + max(metrics.horizontalAdvance(stars(5)), metrics.averageCharWidth() * NAME_MIN_CHARS) \
        + PADDING  # an entry sits two indentations in (its section's and the root's)
    whole = short = 0
    for item, depth in _rows(tree):
        if depth and not item.isFirstColumnSpanned() and item.text(1):
            width = metrics.horizontalAdvance(item.text(1)) + PADDING
            whole = max(whole, width)
            short = max(short, metrics.horizontalAdvance(item.data(1, COMPACT_ROLE) or item.text(1)) + PADDING)
    star_row = indent * 2 + metrics.horizontalAdvance(stars(5)) + PADDING
    room = tree.viewport().width()
    count = whole if room - whole >= name_min else short
    least = star_row + short + tree.verticalScrollBar().sizeHint().width() + 2 * tree.frameWidth()
    return name_min, count, least


def fit(tree: QTreeWidget) -> None:
    """Size the count column for the tree's width now, and keep the tree at least as wide as a star row and the
    short counts need."""
    _name_min, count, least = widths(tree)
    header = tree.header()
    if header.sectionSize(1) != count:
        header.resizeSection(1, count)
    if tree.minimumWidth() != least:
        tree.setMinimumWidth(least)
