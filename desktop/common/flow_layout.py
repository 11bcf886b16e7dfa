"""A layout that puts its widgets in rows, left to right, starting a new row when the next one would pass the right
edge (Qt's "flow layout" example): tag chips and a dock's buttons stay whole in a narrow pane instead of being cut
or scrolled sideways. Its height follows its width (`heightForWidth`).

Like a QBoxLayout it has `insertWidget(index, widget)` and `addStretch()` (a stretch takes no room here: it only
keeps the index arithmetic of code written for a box layout true)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QSpacerItem, QWidget, QWidgetItem


def _hint(item: QLayoutItem) -> QSize:
    """An item's size hint; a widget's own while it is not shown yet (QWidgetItem says 0 × 0 then)."""
    widget = item.widget()
    return widget.sizeHint().expandedTo(widget.minimumSize()) if widget is not None else item.sizeHint()


def _hidden_on_purpose(widget: QWidget) -> bool:
    return widget.isHidden() and widget.testAttribute(Qt.WidgetAttribute.WA_WState_ExplicitShowHide)


def _least(item: QLayoutItem) -> QSize:
    widget = item.widget()
    return widget.minimumSizeHint().expandedTo(widget.minimumSize()) if widget is not None else item.minimumSize()


class FlowLayout(QLayout):
    """Rows of widgets; `spacing` pixels between them (both ways)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    # ------------------------------------------------------------------ the items
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt's name
        self._items.append(item)

    def insertWidget(self, index: int, widget: QWidget) -> None:  # noqa: N802 - QBoxLayout's name
        """Put `widget` at `index` (negative or past the end: last)."""
        self.addChildWidget(widget)
        index = len(self._items) if index < 0 or index > len(self._items) else index
        self._items.insert(index, QWidgetItem(widget))
        self.invalidate()

    def addStretch(self, _stretch: int = 0) -> None:  # noqa: N802 - QBoxLayout's name
        """An empty item (takes no room)."""
        self._items.append(QSpacerItem(0, 0, QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed))
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        if 0 <= index < len(self._items):
            item = self._items.pop(index)
            self.invalidate()
            return item
        return None

    # ------------------------------------------------------------------ sizes
    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt's name
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """As wide as the widest item, as high as the rows need at that width: the widgets around it decide how
        wide it is (all in one row, a legend held a dock at half a laptop's screen)."""
        width = self.minimumSize().width()
        return QSize(width, self.heightForWidth(width))

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt's name
        """As wide as the widest item (each on its own row)."""
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(_least(item))
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt's name
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def _shown(self) -> list[QLayoutItem]:
        # a stretch and a widget hidden on purpose take no room; a widget just added (shown with its parent, or
        # once the event loop gets to it) takes its room at once, so the rows' height is right from the start
        return [item for item in self._items
                if (not item.isEmpty() if item.widget() is None else not _hidden_on_purpose(item.widget()))]

    def _arrange(self, rect: QRect, move: bool) -> int:
        """Place the items in `rect` (when `move`); the height they take."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        x, y, row_height = area.x(), area.y(), 0
        for item in self._shown():
            hint = _hint(item)
            width = min(hint.width(), max(area.width(), _least(item).width()))
            if x > area.x() and x + width > area.right() + 1:  # does not fit after the others: a new row
                x, y, row_height = area.x(), y + row_height + self._gap, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), QSize(width, hint.height())))
            x += width + self._gap
            row_height = max(row_height, hint.height())
        return y + row_height - rect.y() + margins.bottom()
