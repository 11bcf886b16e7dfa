"""The triage progress chart's legend (desktop.docks.progress): a row of line samples with their words under the
chart, wrapping in a narrow dock. It was pyqtgraph's legend inside the plot, which covered the curves once the
plot was small (a laptop's 1,366 × 768 with the map dock open: the trial saw it over the found curve)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from desktop.common.flow_layout import FlowLayout

SAMPLE = (22, 12)  # a sample's size (pixels)


def line_sample(colour: tuple[int, int, int], width: int, dashed: bool = False) -> QPixmap:
    """A short line in `colour`, as the chart draws it."""
    pixmap = QPixmap(*SAMPLE)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor(*colour), width)
    if dashed:
        pen.setStyle(Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.drawLine(QPointF(0, SAMPLE[1] / 2), QPointF(SAMPLE[0], SAMPLE[1] / 2))
    painter.end()
    return pixmap


def band_sample(rgba: tuple[int, int, int, int]) -> QPixmap:
    """A filled box in `rgba` (the band of liked papers in all)."""
    pixmap = QPixmap(*SAMPLE)
    pixmap.fill(QColor(*rgba))
    return pixmap


class ChartLegend(QWidget):
    """Entries of (sample, words), in rows as wide as the dock lets them be."""

    def __init__(self, parent: QWidget, entries: list[tuple[QPixmap, str]]):
        super().__init__(parent)
        self.setObjectName("progressLegend")
        self.flow = FlowLayout(self, spacing=4)
        self.labels: list[QLabel] = []
        for pixmap, words in entries:
            entry = QWidget(self)
            row = QHBoxLayout(entry)
            row.setContentsMargins(0, 0, 8, 0)
            row.setSpacing(4)
            sample = QLabel(entry)
            sample.setPixmap(pixmap)
            text = QLabel(words, entry)
            text.setTextFormat(Qt.TextFormat.PlainText)
            row.addWidget(sample)
            row.addWidget(text)
            self.flow.addWidget(entry)
            self.labels.append(text)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self.flow.heightForWidth(width)

    def texts(self) -> list[str]:
        """The words shown, in order (for tests and screen readers)."""
        return [label.text() for label in self.labels]
