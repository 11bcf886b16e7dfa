"""The conference map dock's plot, its menu entries and its PNG export (desktop.docks.map's MapDock).

The strings keep the MapDock translation context (QCoreApplication.translate with that name), where the
translations were made when these parts were the dock's own methods.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QSize
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QWidget

from db.map.conference_map import render_png
from desktop.docks.map_lasso import MapViewBox

FAINT = (170, 170, 182, 170)  # visible on the light and the dark theme, behind the lit points
PREFERRED = (440, 320)  # the plot's preferred size (pixels): the dock's width beside the window on a laptop


class MapPlotWidget(pg.PlotWidget):
    """The plot, asking for PREFERRED (QGraphicsView asks for 640 px: the map dock took half a laptop's screen and
    squeezed the sidebar, the list and the reader)."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(*PREFERRED)


def build_plot(parent: QWidget) -> tuple[MapViewBox, pg.PlotWidget, pg.ScatterPlotItem, pg.ScatterPlotItem,
                                         pg.ScatterPlotItem]:
    """The plot and its three layers: (view box, plot widget, faint points, lit points, the current paper's
    ring). Axes and buttons are hidden; the view box draws lassos (desktop.docks.map_lasso)."""
    view_box = MapViewBox()
    plot = MapPlotWidget(parent, viewBox=view_box, background=None)
    plot.setObjectName("mapPlot")
    plot.setAccessibleName(QCoreApplication.translate("MapDock", "Map of the papers by text similarity"))
    plot.setToolTip(QCoreApplication.translate(
        "MapDock", "Click a point to open its paper; Shift+drag: lasso, Ctrl+drag: rectangle"))
    plot.setMinimumSize(260, 160)  # stacked under two other docks on a 768-px screen
    plot.hideAxis("left")
    plot.hideAxis("bottom")
    plot.hideButtons()
    faint = pg.ScatterPlotItem(size=5, pen=None, brush=pg.mkBrush(*FAINT), hoverable=False)
    lit = pg.ScatterPlotItem(size=7, pen=None, hoverable=False)
    current = pg.ScatterPlotItem(size=15, pen=pg.mkPen((20, 20, 20), width=2), brush=None)
    current.setZValue(10)
    for item in (faint, lit, current):
        plot.addItem(item)
    return view_box, plot, faint, lit, current


def add_to_menus(dock, window) -> QAction:
    """View → Conference map (before Triage progress, which tests find as the View menu's last) and File →
    Export map… (after Export…). Returns the export action."""
    action = dock.toggleViewAction()
    action.setText(QCoreApplication.translate("MapDock", "Conference &map"))
    action.setShortcut("Ctrl+Shift+M")
    progress = getattr(window, "progress_dock", None)
    if progress is not None:
        window.actions_.view_menu.insertAction(progress.toggleViewAction(), action)
    else:
        window.actions_.view_menu.addAction(action)
    file_menu = window.actions_.file_menu
    export_action = QAction(QCoreApplication.translate("MapDock", "Export &map…"), dock)
    export_action.triggered.connect(dock.export_dialog)
    file_menu.insertAction(window.actions_.export_action, export_action)
    file_menu.insertAction(export_action, window.actions_.export_action)  # after Export…
    return export_action


def export_dialog(dock) -> None:
    """File → Export map…: asks where, then writes the PNG (export_png)."""
    path, _filter = QFileDialog.getSaveFileName(dock.w, QCoreApplication.translate("MapDock", "Export map"),
                                                "map.png", QCoreApplication.translate("MapDock", "PNG image (*.png)"))
    if path:
        dock.export_png(Path(path))


def export_png(dock, path: Path) -> None:
    """Write the map as the dock shows it (colours, lit papers) as a PNG at `path`, as `margin map --output`
    draws it; a message in the status bar says where, or why it could not be written."""
    window = dock.w
    if dock.map is None:
        window.statusBar().showMessage(QCoreApplication.translate("MapDock", "Open View → Conference map first"), 5000)
        return
    lit = None if len(dock.lit_rows) == len(dock.map.ids) else list(dock.lit_ids)
    query = window.search.query
    title = f"{len(dock.map.ids):,} papers" + (f" · {len(dock.lit_rows):,} matching {query}" if lit and query
                                              else "")
    try:
        render_png(dock.map, dock.rgb, path, lit, title=title)
    except OSError as error:
        window.statusBar().showMessage(QCoreApplication.translate("MapDock", "Could not write %1: %2").replace(
            "%1", str(path)).replace("%2", error.strerror or str(error)), 8000)
        return
    window.statusBar().showMessage(QCoreApplication.translate("MapDock", "Map written to %1").replace(
        "%1", str(path)), 5000)
