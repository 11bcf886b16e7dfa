"""The conference map dock (View → Conference map): one point per paper, placed by text similarity
(db.map.conference_map), coloured by rating, read state or a tag; the papers the list shows are lit, the others
faint, so the map and the list always show the same set.

Hover a lit point: its label (plain text). Click: the paper becomes the current one in the list and the reader.
Shift+drag draws a lasso, Ctrl+drag a rectangle: the lit papers inside are selected, and a menu offers to tag
them, open them as the list, or queue their unread papers for triage.

The map is computed or loaded on its own worker thread (a first t-SNE of a big venue takes seconds; the shared
background pool stays free for backups and progress figures) with its own library connection; a first
computation shows its progress in a bar, and stops (saving nothing) when the window closes. A legend under the
map says what the colours mean; region names are kept inside the view, never cut at its edges. The drawing is
pyqtgraph's ScatterPlotItem: two items, the faint layer of every paper (set once per map) and the lit layer
(set anew per search), so typing in the search box redraws only the lit points
(tests/benchmarks/bench_map.py has the frame times).
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QPolygonF
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMenu,
    QProgressBar,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from db.changes import ADDED, RATING, READ, REMOVED, TAGS, Changes
from db.library.library import Library
from db.map.conference_map import COARSE, FINE, ConferenceMap, MapCache, colours
from desktop.common.i18n import tr
from desktop.common.library_settings import library_key
from desktop.common.plain_text import as_plain
from desktop.docks.map_labels import show_labels
from desktop.docks.map_legend import MapLegend
from desktop.docks.map_plot import add_to_menus, build_plot, export_dialog, export_png
from desktop.docks.map_worker import run_on_map_worker


class MapStopped(Exception):
    """The window closed while the map was computed: the work stops, and nothing is kept."""


FINE_BELOW = 0.45  # show the fine regions' names when the view spans less than this share of the map
HOVER_PIXELS = 7


class MapDock(QDockWidget):
    """The dock; `window` is the MainWindow. `ready` is emitted when a map is shown (for tests and the
    status line); `selection` holds the ids of the last region drawn."""

    ready = Signal()
    stepped = Signal(float)  # share of a first computation done (from the map's worker thread)

    def __init__(self, window):
        super().__init__(tr("Conference map"), window)
        self.w = window
        self.setObjectName("mapDock")
        self.setAccessibleName(self.tr("Conference map"))
        self.map: ConferenceMap | None = None
        self.rgb = np.zeros((0, 3), dtype=np.uint8)
        self.lit_ids: list[str] = list(window.model.ids())
        self.lit_rows = np.zeros(0, dtype=np.int64)
        self.selection: list[str] = []
        self.hovered: str | None = None
        self._busy = False
        self._again = False
        self._stale: str | None = None  # what changed while hidden: "colours", or "papers" (added or removed)
        self._labels: list[tuple[int, pg.TextItem, int]] = []  # (level, name, papers in its region)
        self._centres: list[tuple[float, float]] = []  # each label's region centre, where it goes unless cut
        self._stop = threading.Event()  # set when the window closes: a computation under way stops

        body = QWidget(self)
        layout = QVBoxLayout(body)
        row = QHBoxLayout()
        self.colour_by = QComboBox(body)
        self.colour_by.setObjectName("mapColour")
        self.colour_by.setAccessibleName(self.tr("Colour the map by"))
        # a long tag's name is cut in the box (its list shows it whole), not widening the dock
        self.colour_by.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.colour_by.setMinimumContentsLength(16)
        self.colour_by.currentIndexChanged.connect(lambda _index: self.recolour())
        row.addWidget(self.colour_by, 1)
        self.status = QLabel(body)
        self.status.setObjectName("mapStatus")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        row.addWidget(self.status, 2)
        layout.addLayout(row)
        self.bar = QProgressBar(body)
        self.bar.setObjectName("mapProgress")
        self.bar.setAccessibleName(self.tr("Computing the map"))
        self.bar.setRange(0, 100)
        self.bar.hide()
        layout.addWidget(self.bar)
        self.view_box, self.plot, self.faint, self.lit, self.current = build_plot(body)
        layout.addWidget(self.plot, 1)
        self.legend = MapLegend(body)
        layout.addWidget(self.legend)
        self.stepped.connect(self._stepped)
        self.setWidget(body)
        self._fill_colours()

        self.plot.scene().sigMouseMoved.connect(self._mouse_moved)
        self.plot.scene().sigMouseClicked.connect(self._mouse_clicked)
        self.view_box.sigRangeChanged.connect(lambda *_args: self._show_labels())
        self.view_box.region_drawn.connect(self._region_drawn)
        window.search.resultsReady.connect(self._results)
        window.libraryChanged.connect(self.library_changed)
        window.paper_list.selectionModel().currentChanged.connect(lambda *_args: self._mark_current())
        self.visibilityChanged.connect(self._visibility_changed)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self)
        self.export_action = add_to_menus(self, window)
        self._recolour_timer = QTimer(self, singleShot=True, interval=150)
        self._recolour_timer.timeout.connect(self.recolour)
        self.setVisible(window.settings.value(library_key(window.library.folder, "map/visible"), False, type=bool))

    # ------------------------------------------------------------------ computing
    def _visibility_changed(self, visible: bool) -> None:
        if self.w.property("closing"):
            self._stop.set()  # the window closes: a computation under way stops at its next step
        else:
            self.w.settings.setValue(library_key(self.w.library.folder, "map/visible"), visible)  # per library
        if visible and self.map is None:
            self.compute()
        elif visible and self._stale:  # what changed while hidden is shown now (library_changed)
            stale, self._stale = self._stale, None
            self._fill_colours()
            self.compute() if stale == "papers" else self.recolour()

    def compute(self) -> None:
        """Load or compute the map on the map's worker thread; shown when it arrives."""
        if self._busy:
            self._again = True
            return
        self._busy, self._again = True, False
        self.status.setText(self.tr("Drawing the map…"))
        self._stop = stop = threading.Event()  # this computation's own: stop() sets it
        folder, current, stepped = self.w.library.folder, self.map, self.stepped

        def step(share: float) -> None:
            if stop.is_set():
                raise MapStopped
            stepped.emit(share)

        def work() -> ConferenceMap:
            with Library.open(folder, seed=False) as library:
                return MapCache(folder).refresh(library, current, step=step)[0]

        run_on_map_worker(work, self._computed, self._failed, self)

    def _stepped(self, share: float) -> None:
        if self.map is None or not self.bar.isVisible():
            self.status.setText(self.tr("Computing the map of the papers…"))
        self.bar.setValue(round(share * 100))
        self.bar.show()

    def stop(self) -> None:
        """Stop a computation under way (it ends at its next step, keeping nothing)."""
        self._stop.set()

    def _failed(self, message: str) -> None:
        self._busy = False
        self.bar.hide()
        self.status.setText(self.tr("The map could not be drawn: %1").replace("%1", message))

    def _computed(self, conference_map: ConferenceMap) -> None:
        self._busy = False
        self.bar.hide()
        if self.w.library.closed:  # the window closed (its library with it) while the map was computed
            return
        if self._again:
            self.compute()
        self.set_map(conference_map)

    def set_map(self, conference_map: ConferenceMap) -> None:
        first = self.map is None
        self.map = conference_map
        self.lit_ids = list(self.w.model.ids())  # the list's set (the dock may have been built before the list)
        self.faint.setData(pos=conference_map.xy)
        for _level, item, _papers in self._labels:
            self.plot.removeItem(item)
        self._labels, self._centres = [], []
        for region in conference_map.regions:
            if not region.terms:
                continue
            item = pg.TextItem(region.label, color=(25, 25, 25), anchor=(0.5, 0.5),
                               fill=pg.mkBrush(255, 255, 255, 170))
            item.setPos(*region.center)
            item.setZValue(15)
            self.plot.addItem(item, ignoreBounds=True)
            self._labels.append((region.level, item, region.papers))
            self._centres.append(region.center)
        self.recolour()
        if first:
            self.view_box.autoRange(padding=0.03)
        self._show_labels()
        self._mark_current()
        self.ready.emit()

    # ------------------------------------------------------------------ what it shows
    def _fill_colours(self) -> None:
        current = self.colour_by.currentData()
        self.colour_by.blockSignals(True)
        self.colour_by.clear()
        self.colour_by.addItem(self.tr("Colour by rating"), RATING)
        self.colour_by.addItem(self.tr("Colour by read state"), "read")
        for name, _count in self.w.library.tags():
            self.colour_by.addItem(self.tr("Colour by tag: %1").replace("%1", name), f"tag:{name}")
        self.colour_by.setCurrentIndex(max(0, self.colour_by.findData(current)))
        self.colour_by.blockSignals(False)

    def recolour(self) -> None:
        """Colours from the annotations as they are now, and the lit layer anew (nothing once the window's library
        is closed: its timer may still fire while the window goes)."""
        if self.map is None or self.w.library.closed:
            return
        by, _sep, tag = (self.colour_by.currentData() or RATING).partition(":")
        self.rgb = colours(self.w.library, self.map.ids, by, tag or None)
        self.legend.show_for(by, tag or None)
        self._draw_lit()

    def _results(self, ids: list[str], _keep_place: bool) -> None:
        self.show_ids(ids)

    def show_ids(self, ids: list[str]) -> None:
        """Light up the papers `ids` (the set the list shows)."""
        self.lit_ids = list(ids)
        self._draw_lit()

    def _draw_lit(self) -> None:
        if self.map is None:
            return
        rows = self.map.rows_of(self.lit_ids)
        self.lit_rows = rows
        palette: dict[tuple, object] = {}  # a handful of colours: one QBrush each, not one per point
        brushes = [palette.get(rgb) or palette.setdefault(rgb, pg.mkBrush(*rgb)) for rgb in map(tuple, self.rgb[rows])]
        self.lit.setData(pos=self.map.xy[rows], brush=brushes)
        shown = len(rows)
        self.status.setText(self.tr("%1 of %2 papers lit").replace("%1", f"{shown:,}")
                            .replace("%2", f"{len(self.map.ids):,}"))

    def _show_labels(self) -> None:
        """Coarse region names when the whole map is in view, fine ones once zoomed in; none over another
        (desktop.docks.map_labels: the biggest regions' first, the others nudged or left out)."""
        if self.map is None or not len(self.map.xy):
            return
        (x0, x1), (y0, y1) = self.view_box.viewRange()
        spread = np.ptp(self.map.xy, axis=0).max() or 1
        show_labels(self, FINE if max(x1 - x0, y1 - y0) < FINE_BELOW * spread else COARSE)

    def _mark_current(self) -> None:
        paper_id = self.w.current_paper_id()
        if self.map is None or paper_id not in (self.map.row if self.map else {}):
            self.current.setData(pos=np.zeros((0, 2)))
            return
        self.current.setData(pos=self.map.xy[[self.map.row[paper_id]]])

    def library_changed(self, changes: Changes) -> None:
        """Follow a change while shown; while hidden, remember that one came (shown when the dock is)."""
        if not self.isVisible():
            if changes.touches(ADDED, REMOVED):
                self._stale = "papers"  # placed anew when shown
            elif changes.touches(RATING, READ, TAGS):
                self._stale = self._stale or "colours"
            return
        if changes.touches(TAGS):
            self._fill_colours()
        if changes.touches(ADDED, REMOVED):
            if self.map is not None:
                self.compute()  # new papers are placed among their neighbours (db.map.conference_map)
        elif self.map is not None and changes.touches(RATING, READ, TAGS):
            self._recolour_timer.start()

    # ------------------------------------------------------------------ pointing
    def lit_paper_at(self, x: float, y: float) -> str | None:
        """The lit paper nearest the map point (x, y), within HOVER_PIXELS on screen."""
        if self.map is None or not len(self.lit_rows):
            return None
        pixel = self.view_box.viewPixelSize()
        radius = HOVER_PIXELS * max(pixel[0], pixel[1])
        xy = self.map.xy[self.lit_rows]
        distance = np.hypot(xy[:, 0] - x, xy[:, 1] - y)
        best = int(np.argmin(distance))
        return self.map.ids[int(self.lit_rows[best])] if distance[best] <= radius else None

    def _mouse_moved(self, scene_pos) -> None:
        if self.map is None or not self.view_box.sceneBoundingRect().contains(scene_pos):
            return
        point = self.view_box.mapSceneToView(scene_pos)
        paper_id = self.lit_paper_at(point.x(), point.y())
        if paper_id == self.hovered:
            return
        self.hovered = paper_id
        if paper_id is None:
            QToolTip.hideText()
            return
        QToolTip.showText(self.plot.mapToGlobal(self.plot.mapFromScene(scene_pos)), self.hover_text(paper_id),
                          self.plot)

    def hover_text(self, paper_id: str) -> str:
        """What hovering a point shows: the paper's label, as plain text."""
        return as_plain(self.w.library.paper(paper_id).label)

    def _mouse_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self.map is None:
            return
        point = self.view_box.mapSceneToView(event.scenePos())
        paper_id = self.lit_paper_at(point.x(), point.y())
        if paper_id is not None:
            event.accept()
            self.open_paper(paper_id)

    def open_paper(self, paper_id: str) -> None:
        """Make the paper current in the list (and so in the reader)."""
        if self.w.select_paper(paper_id, by_user=True):
            self._mark_current()

    # ------------------------------------------------------------------ regions
    def select_polygon(self, polygon) -> list[str]:
        """The lit papers inside `polygon` (map coordinates), in list order; kept as `selection`."""
        if self.map is None:
            return []
        inside = set(self.map.in_polygon(polygon))
        self.selection = [paper_id for paper_id in self.lit_ids if paper_id in inside]
        return self.selection

    def _region_drawn(self, polygon) -> None:
        if not self.select_polygon(polygon):
            self.status.setText(self.tr("No lit paper in the region"))
            return
        menu = QMenu(self)
        count = str(len(self.selection))
        menu.addAction(self.tr("Tag the %1 papers…").replace("%1", count), self.tag_dialog)
        menu.addAction(self.tr("Open the %1 papers as the list").replace("%1", count), self.open_selection)
        menu.addAction(self.tr("Queue the unread ones for triage"), self.queue_selection)
        corner = QPolygonF([QPointF(*p) for p in polygon]).boundingRect().bottomRight()
        scene = self.view_box.mapViewToScene(corner)
        menu.popup(self.plot.mapToGlobal(self.plot.mapFromScene(scene)))

    def tag_dialog(self) -> None:
        name, ok = QInputDialog.getText(self, self.tr("Tag papers"), self.tr("Tag for the %1 papers:")
                                        .replace("%1", str(len(self.selection))))
        if ok and name.strip():
            self.tag_selection(name.strip())

    def tag_selection(self, name: str) -> None:
        """Add the tag `name` to every paper of the selection: one transaction and one undo command, saved now or
        kept until the library is free (desktop.edits.operations)."""
        self.w.ops.tag_papers(self.selection, name, initiator=self)

    def open_selection(self) -> None:
        """Show the selection as the list (the search box is cleared: the list is the map's region)."""
        self._show_as_list(self.selection, self.tr("%1 papers from the map"))

    def queue_selection(self) -> None:
        """Show the selection's unread papers as the list, first one current, for the triage keys."""
        unread = [paper.id for paper in self.w.library.papers(self.selection) if not paper.read]
        self._show_as_list(unread, self.tr("%1 unread papers from the map to triage"))

    def _show_as_list(self, ids: list[str], message: str) -> None:
        self.w.search_box.blockSignals(True)
        self.w.search_box.clear()
        self.w.search_box.blockSignals(False)
        self.w._show_results(list(ids), False)
        self.show_ids(ids)
        self.w.statusBar().showMessage(message.replace("%1", f"{len(ids):,}"), 8000)
        self.w.paper_list.setFocus()

    # ------------------------------------------------------------------ export
    def export_dialog(self) -> None:
        """File → Export map…: asks where, then writes the PNG (export_png)."""
        export_dialog(self)

    def export_png(self, path: Path) -> None:
        """Write the map as shown (colours, lit papers) as a PNG, as `margin map --output` draws it."""
        export_png(self, path)
