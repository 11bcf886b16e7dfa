"""Drawing a region on the conference map (desktop.docks.map): Shift+drag draws a lasso, Ctrl+drag a rectangle;
the map dock selects the lit papers inside and offers what to do with them."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal


class MapViewBox(pg.ViewBox):
    """Pans and zooms as pyqtgraph's; Shift+drag draws a lasso and Ctrl+drag a rectangle, reported as a
    polygon in map coordinates through `region_drawn`."""

    region_drawn = Signal(object)

    def __init__(self):
        super().__init__(lockAspect=True, enableMenu=False)
        self._points: list[tuple[float, float]] = []
        self._mode: str | None = None
        self.outline = pg.PlotCurveItem(pen=pg.mkPen((40, 40, 40), width=1.5, style=Qt.PenStyle.DashLine))
        self.outline.setZValue(20)
        self.addItem(self.outline, ignoreBounds=True)

    def mouseDragEvent(self, ev, axis=None):  # noqa: N802 - pyqtgraph's name
        modifiers = ev.modifiers()
        if ev.button() != Qt.MouseButton.LeftButton or not (
                modifiers & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier)):
            super().mouseDragEvent(ev, axis)
            return
        ev.accept()
        point = self.mapSceneToView(ev.scenePos())
        if ev.isStart():
            self._mode = "lasso" if modifiers & Qt.KeyboardModifier.ShiftModifier else "rectangle"
            start = self.mapSceneToView(ev.buttonDownScenePos())
            self._points = [(start.x(), start.y())]
        if self._mode == "lasso":
            self._points.append((point.x(), point.y()))
            polygon = self._points
        else:
            (x0, y0), x1, y1 = self._points[0], point.x(), point.y()
            polygon = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        closed = [*polygon, polygon[0]]
        self.outline.setData([p[0] for p in closed], [p[1] for p in closed])
        if ev.isFinish():
            self.outline.setData([], [])
            self._mode = None
            self.region_drawn.emit(polygon)
