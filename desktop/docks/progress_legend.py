"""The triage progress chart's legend (desktop.docks.progress): a row of line samples with their words under the
chart, wrapping in a narrow dock. It was pyqtgraph's legend inside the plot, which covered the curves once the
plot was small (a laptop's 1,366 × 768 with the map dock open: the trial saw it over the found curve)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QWidget

from desktop.common.swatch_legend import SwatchLegend

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


class ChartLegend(SwatchLegend):
    """The chart's (sample, words) entries, in rows as wide as the dock lets them be."""

    def __init__(self, parent: QWidget, entries: list[tuple[QPixmap, str]]):
        super().__init__(parent, "progressLegend")
        self.set_entries(entries)
