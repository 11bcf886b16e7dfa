"""A five-star rating widget: click a star to rate, click the same star again (or press 0) to clear."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

_STAR_FULL = "★"
_STAR_EMPTY = "☆"

# the rating box's keys (when it has focus): Qt key names → the rating they set; "+1"/"-1" step it (the shortcuts
# dialog, desktop.window.shortcuts, lists them from here)
RATING_KEYS: dict[str, str] = {"0": "0", "1": "1", "2": "2", "3": "3", "4": "4", "5": "5",
                               "Right": "+1", "Plus": "+1", "Left": "-1", "Minus": "-1"}


def rating_step(key: int, rating: int) -> int | None:
    """The rating (0..5) the rating box's `key` (a Qt key) sets from `rating` (None: not a rating key)."""
    for name, effect in RATING_KEYS.items():
        if key == getattr(Qt.Key, f"Key_{name}"):
            return max(0, min(5, rating + int(effect))) if effect[0] in "+-" else int(effect)
    return None


class RatingWidget(QWidget):
    """Shows 0..5 stars. Emits `ratingChanged(int)` (0 = cleared) when the user changes the rating."""

    ratingChanged = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rating = 0
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.5)
        self.setFont(font)
        self.setToolTip(self.tr("Rating: click a star, or press 1–5 (0 clears)"))
        self._update_accessible()

    def rating(self) -> int:
        return self._rating

    def setRating(self, rating: int | None) -> None:
        """Show `rating` (None or 0 for none) without emitting ratingChanged."""
        self._rating = int(rating or 0)
        self._update_accessible()
        self.update()

    def _update_accessible(self) -> None:
        self.setAccessibleDescription(
            self.tr("%n of 5 stars", "", self._rating) if self._rating else self.tr("not rated"))

    def _user_set(self, rating: int) -> None:
        if rating != self._rating:
            self.setRating(rating)
            self.ratingChanged.emit(rating)

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        return QSize(metrics.horizontalAdvance(_STAR_FULL) * 5 + 12, metrics.height() + 6)

    def _star_at(self, x: float) -> int:
        width = self.width() / 5
        return min(5, max(1, int(x // width) + 1))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            star = self._star_at(event.position().x())
            self._user_set(0 if star == self._rating else star)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        rating = rating_step(event.key(), self._rating)
        if rating is not None:
            self._user_set(rating)
        else:
            super().keyPressEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        width = self.width() / 5
        for i in range(5):
            full = i < self._rating
            painter.setPen(self.palette().highlight().color() if full else self.palette().mid().color())
            painter.drawText(QRectF(i * width, 0, width, self.height()), Qt.AlignmentFlag.AlignCenter,
                             _STAR_FULL if full else _STAR_EMPTY)
        if self.hasFocus():
            painter.setPen(self.palette().highlight().color())
            painter.drawRect(self.rect().adjusted(0, 0, -1, -1))
