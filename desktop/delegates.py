"""Item delegates for the paper list: the rating column drawn as stars."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from desktop.paper_model import SORT_ROLE


class StarDelegate(QStyledItemDelegate):
    """Paints the rating (SORT_ROLE gives 0..5) as five stars, filled in the highlight colour."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        rating = index.data(SORT_ROLE) or 0
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else None
        if style:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        if not rating:
            return
        painter.save()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        full = option.palette.highlightedText().color() if selected else option.palette.highlight().color()
        empty = option.palette.mid().color()
        metrics = painter.fontMetrics()
        width = metrics.horizontalAdvance("★")
        x = option.rect.x() + 4
        for i in range(5):
            painter.setPen(full if i < rating else empty)
            painter.drawText(QRect(x + i * width, option.rect.y(), width, option.rect.height()),
                             Qt.AlignmentFlag.AlignVCenter, "★" if i < rating else "☆")
        painter.restore()
