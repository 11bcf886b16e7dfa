"""The triage progress dock (View → Triage progress): liked papers found against papers screened, for the
view the list shows, with the random-order line, the estimate of liked papers still unseen and the stopping rule
(db.triage.progress computes them; the figures are those of `margin progress QUERY`).

The axes follow the found curve (screened so far and a little more; liked found and a little more): the
interval of liked papers in all is a band behind it, cut at the top when it reaches higher, with its upper end
written there, so a wide interval never squeezes the curve into a corner.

The chart is pyqtgraph's: a plain QGraphicsView-based plot that works on PySide6-Essentials (Qt Charts would
need the PySide6-Addons wheel, about 160 MB more, pinned to the same Qt version). The view's ids come from the
search worker; the figures are computed on the background pool with their own library connection and shown
when they arrive, so rating a paper never waits for them.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from db.changes import ADDED, RATING, READ, REMOVED, TAGS, TRIAGE, Changes
from db.library.library import Library
from db.triage.check import ranking_for
from db.triage.progress import CHECK_SIZE, TARGET, Progress, progress, scope_of
from desktop.common.background import run_in_background
from desktop.common.flow_layout import FlowLayout
from desktop.common.i18n import plural, tr
from desktop.common.theme import scrolling
from desktop.docks.progress_legend import ChartLegend, band_sample, line_sample

RECOUNT_DELAY_MS = 400  # figures are recomputed once a burst of ratings pauses
# the chart gives up height first: below it, the legend, the stopping rule and the check's buttons stay whole in a
# dock of a laptop screen (1,366 × 768) shared with the map dock, with seven lines of figures (was 220, then 140:
# the legend moved out from inside the chart, under it)
CHART_MIN_HEIGHT = 110
# the dock's narrowest: its words wrap, its buttons flow into rows and the chart narrows, so a laptop's 1,366 px
# keep the sidebar, the list and the reader readable beside it (the trial saw the dock run past the screen's edge)
CHART_MIN_WIDTH = 220
DOCK_WIDTH = 440  # the dock's preferred width: its legend and buttons in one row each
RANDOM_PEN, FOUND_PEN, BAND_BRUSH = ((150, 150, 150), 2), ((33, 110, 200), 3), (76, 175, 80, 90)


class CountAxis(pg.AxisItem):
    """An axis of papers counted: ticks at whole numbers only (pyqtgraph's own put some at halves and fifths)."""

    def tickValues(self, minVal, maxVal, size):  # noqa: N802, N803 - pyqtgraph's names
        levels = [(spacing, whole) for spacing, values in super().tickValues(minVal, maxVal, size)
                  if spacing >= 1 and (whole := [value for value in values if float(value).is_integer()])]
        if not levels:  # a range of a few papers: each whole number
            levels = [(1.0, [float(value) for value in range(math.ceil(minVal), math.floor(maxVal) + 1)])]
        return levels


class _Body(QWidget):
    """The dock's content, asking for DOCK_WIDTH (it may get less or more: it wraps), not for its figures' lines
    unwrapped (the dock took half a laptop's screen)."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(max(DOCK_WIDTH, self.minimumSizeHint().width()), super().sizeHint().height())


class ProgressDock(QDockWidget):
    """The dock; `window` is the MainWindow. `updated` is emitted with each Progress shown (for tests)."""

    updated = Signal(object)

    def __init__(self, window):
        super().__init__(QCoreApplication.translate("ProgressDock", "Triage progress"), window)
        self.w = window
        self.setObjectName("progressDock")
        self.setAccessibleName(self.tr("Triage progress"))
        self.scope: str | None = None
        self.ids: list[str] | None = None
        self.current: Progress | None = None
        self._request = 0
        self._busy = False
        self._again = False

        body = _Body(self)
        layout = QVBoxLayout(body)
        self.liked = QComboBox(body)  # what counts as liked: 4–5 stars, or accepted into one interest
        self.liked.setObjectName("progressInterest")
        self.liked.setAccessibleName(self.tr("What counts as liked"))
        self.liked.addItem(self.tr("Liked: rated 4–5★"), None)
        # a long interest's name is cut in the box (its list shows it whole), never the box's arrow
        self.liked.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.liked.setMinimumContentsLength(12)
        self.liked.currentIndexChanged.connect(lambda _index: self.recompute())
        layout.addWidget(self.liked)
        self.chart = pg.PlotWidget(body, background=None, axisItems={"left": CountAxis("left"),
                                                                     "bottom": CountAxis("bottom")})
        self.chart.setObjectName("progressChart")
        self.chart.setAccessibleName(self.tr("Liked papers found against papers screened"))
        self.chart.setMinimumSize(CHART_MIN_WIDTH, CHART_MIN_HEIGHT)
        self.chart.setMenuEnabled(False)
        self.chart.setMouseEnabled(False, False)
        self.chart.hideButtons()
        self.chart.showGrid(x=True, y=True, alpha=0.2)
        self.chart.setLabel("bottom", self.tr("papers screened (read or rated)"))
        self.chart.setLabel("left", self.tr("liked (4–5★)"))
        self.band = pg.LinearRegionItem(orientation="horizontal", movable=False,
                                        brush=pg.mkBrush(76, 175, 80, 50), pen=pg.mkPen(None))
        self.band.setZValue(-10)
        self.band.setToolTip(self.tr("Liked papers in all, likely (95%): those found and those still unseen"))
        self.band.hide()
        self.chart.addItem(self.band)
        self.band_top = pg.TextItem("", color=(56, 142, 60), anchor=(1, 0))  # the band's upper end when cut
        self.band_top.hide()
        self.chart.addItem(self.band_top)
        self.random_line = self.chart.plot([], [], pen=pg.mkPen(RANDOM_PEN[0], width=RANDOM_PEN[1],
                                                                style=Qt.PenStyle.DashLine))
        self.found_line = self.chart.plot([], [], pen=pg.mkPen(FOUND_PEN[0], width=FOUND_PEN[1]))
        layout.addWidget(self.chart, 1)
        # the legend under the chart, never over its curves
        self.legend = ChartLegend(body, [(line_sample(*RANDOM_PEN, dashed=True), self.tr("random order")),
                                         (line_sample(*FOUND_PEN), self.tr("found")),
                                         (band_sample(BAND_BRUSH), self.tr("liked in all, likely (95%)"))])
        layout.addWidget(self.legend)
        self.figures = QLabel(body)
        self.figures.setObjectName("progressFigures")
        self.figures.setTextFormat(Qt.TextFormat.PlainText)
        self.figures.setWordWrap(True)
        self.figures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.figures)
        rule = QHBoxLayout()
        self.rule_label = QLabel(self.tr("Stop when, with 95% confidence, found at least"), body)
        self.rule_label.setWordWrap(True)
        rule.addWidget(self.rule_label, 1)
        self.target = QSpinBox(body)
        self.target.setObjectName("progressTarget")
        self.target.setAccessibleName(self.tr("Share of the liked papers to find"))
        self.target.setRange(50, 100)
        self.target.setSuffix("%")
        self.target.setValue(window.settings.value("progress/target", round(TARGET * 100), type=int))
        self.target.valueChanged.connect(self._target_changed)
        rule.addWidget(self.target, 0, Qt.AlignmentFlag.AlignVCenter)
        layout.addLayout(rule)
        buttons = FlowLayout()  # in rows when the dock is narrow
        self.design = QComboBox(body)  # how the check is drawn
        self.design.setObjectName("progressDesign")
        self.design.setAccessibleName(self.tr("How the check is drawn"))
        self.design.addItem(self.tr("at random"), "random")
        self.design.addItem(self.tr("by rank"), "ranked")
        self.design.setToolTip(self.tr("At random: an exact interval. By rank: the top fifth of the recommended "
                                       "order and the rest, each at random; measured on ICLR 2018 it is no "
                                       "narrower than at random"))
        self.check_button = QPushButton(self.tr("Rate %1 unseen papers").replace("%1", str(CHECK_SIZE)), body)
        self.check_button.setObjectName("progressCheck")
        self.check_button.setToolTip(self.tr("Draws papers of this view that you have not seen; rating them tells "
                                             "how many papers you would like are still unseen"))
        self.check_button.clicked.connect(self.draw_check)
        self.show_button = QPushButton(self.tr("Show the check"), body)
        self.show_button.setObjectName("progressShowCheck")
        self.show_button.clicked.connect(self.show_check)
        buttons.addWidget(self.check_button)
        buttons.addWidget(self.design)
        buttons.addWidget(self.show_button)
        layout.addLayout(buttons)
        self.setWidget(scrolling(body))

        self._timer = QTimer(self, singleShot=True, interval=RECOUNT_DELAY_MS)
        self._timer.timeout.connect(self.recompute)
        window.search.resultsReady.connect(lambda _ids, _keep: self.follow_query(window.search.query))
        window.search_service.worker.ids_found.connect(self._ids_found)
        window.libraryChanged.connect(self.library_changed)
        self.visibilityChanged.connect(self._visibility_changed)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self)
        action = self.toggleViewAction()
        action.setText(self.tr("Triage &progress"))
        action.setShortcut("Ctrl+Shift+P")
        window.actions_.view_menu.addAction(action)
        self.setVisible(window.settings.value("progress/visible", False, type=bool))

    # ------------------------------------------------------------------ what it follows
    def follow_query(self, query: str) -> None:
        """The list shows `query`: show the progress of its view (the query less its recommendation part)."""
        scope = scope_of(query)
        if scope == self.scope and self.ids is not None:
            return
        self.scope, self.ids = scope, None
        if self.isVisible():
            self._request = self.w.search_service.find_ids(scope)

    def _ids_found(self, request: int, _text: str, ids) -> None:
        if request != self._request:
            return
        self.ids = ids
        if ids is None:
            self.figures.setText(self.tr("No figures for this view (its search failed)."))
            return
        self.recompute()

    @property
    def interest(self) -> str | None:
        """The interest whose progress is shown (None: liked means rated 4–5)."""
        return self.liked.currentData()

    def _fill_interests(self) -> None:
        names = self.w.library.interests()
        current = self.interest
        self.liked.blockSignals(True)
        while self.liked.count() > 1:
            self.liked.removeItem(1)
        for name in names:
            self.liked.addItem(self.tr("Interest: %1").replace("%1", name), name)
        self.liked.setCurrentIndex(max(0, self.liked.findData(current)) if current in names else 0)
        self.liked.blockSignals(False)

    def library_changed(self, changes: Changes) -> None:
        """Follow a change while shown; hidden, the dock fills its interests and recomputes when shown again
        (`_visibility_changed`), so a change costs it nothing but forgetting a view whose papers changed."""
        if not self.isVisible():
            if changes.touches(ADDED, REMOVED):
                self.ids = None
            return
        if changes.touches(TRIAGE, TAGS):
            self._fill_interests()
        if changes.touches(ADDED, REMOVED):
            self.ids = None
            self.follow_query(self.w.search.query)
        elif changes.touches(RATING, READ, TRIAGE, TAGS) and self.isVisible():
            self._timer.start()

    def _visibility_changed(self, visible: bool) -> None:
        if not self.w.property("closing"):
            self.w.settings.setValue("progress/visible", visible)
        if visible:
            self._fill_interests()
            if self.scope is None:
                self.scope = scope_of(self.w.search.query)
            if self.ids is None:
                self._request = self.w.search_service.find_ids(self.scope)
            else:
                self.recompute()

    # ------------------------------------------------------------------ figures
    def recompute(self) -> None:
        """Compute the figures on the background pool (one computation at a time; a change meanwhile asks
        for one more)."""
        if self.ids is None:
            return
        if self._busy:
            self._again = True
            return
        self._busy, self._again = True, False
        folder, ids, scope, interest = self.w.library.folder, list(self.ids), self.scope or "", self.interest
        target = self.target.value() / 100

        def work() -> Progress:
            with Library.open(folder, seed=False) as library:
                return progress(library, ids, scope, interest, target)

        run_in_background(self, work, self._show, self._failed)

    def _failed(self, message: str) -> None:
        self._busy = False
        self.figures.setText(self.tr("Progress could not be computed: %1").replace("%1", message))

    def _show(self, result: Progress) -> None:
        self._busy = False
        if self._again:
            self.recompute()
        if result.scope != (self.scope or "") or result.interest != self.interest:
            return
        self.current = result
        xs = list(range(result.screened + 1))
        self.found_line.setData(xs, [0, *result.curve])
        self.random_line.setData([0, result.total], [0, result.random_line * result.total])
        estimate = result.estimate
        # the axes follow the found curve; the band shows what fits and names its top when cut
        right = min(max(result.total, 1), max(10, round(result.screened * 1.15) + 1))
        top = max(5.0, result.found * 1.25 + 1)
        if estimate is not None:
            low, high = result.found + estimate.low, result.found + estimate.high
            if low < top:  # the band's lower edge in sight: make room for a little of it
                top = max(top, min(high, low * 1.1 + 1))
            self.band.setRegion((low, high))
            self.band.show()
            self.band_top.setText(self.tr("up to %1").replace("%1", f"{high:,}") if high > top else "")
            self.band_top.setPos(right, top)
            self.band_top.setVisible(high > top)
        else:
            self.band.hide()
            self.band_top.hide()
        self.chart.setXRange(0, right, padding=0.02)
        self.chart.setYRange(0, top, padding=0)
        self.figures.setText(self.text(result))
        self.check_button.setEnabled(result.unseen > 0)
        self.show_button.setEnabled(bool(result.check_to_rate) or estimate is not None)
        self.show_button.setText(self.tr("Show the check (%1 to rate)").replace("%1", str(len(result.check_to_rate)))
                                 if result.check_to_rate else self.tr("Show the check"))
        self.updated.emit(result)

    def _target_changed(self, value: int) -> None:
        self.w.settings.setValue("progress/target", value)
        self.recompute()

    def text(self, p: Progress) -> str:
        """The figures as lines of plain text (translated; module-level tr: the empty context, where lupdate files
        these strings)."""
        view = p.scope or tr("all papers")
        liked = tr("in “%1”").replace("%1", p.interest) if p.interest else tr("liked")
        lines = [tr("%1: screened %2 of %3 papers · %5 %4").replace("%1", view).replace("%2", f"{p.screened:,}")
                 .replace("%3", f"{p.total:,}").replace("%4", f"{p.found:,}").replace("%5", liked)]
        e = p.estimate
        if e is not None:
            how = tr("drawn by rank") if e.design == "ranked" else tr("drawn at random")
            rated = plural(tr("%Ln check paper(s) rated", "", e.rated), e.rated)
            lines.append(tr("Liked papers still unseen: about %1 (%2–%3, 95% interval), from %4, %6 (%5 liked)")
                         .replace("%1", f"{e.remaining:,}").replace("%2", f"{e.low:,}").replace("%3", f"{e.high:,}")
                         .replace("%4", rated).replace("%5", str(e.liked)).replace("%6", how))
            lines.append(tr("95% of checks drawn this way hold the true number inside their interval."))
            if e.none_floor is not None:
                lines.append(tr("The check found none: up to %1 could still be unseen (spread evenly, that many escape "
                                "%2 draws more than 5% of the time, however drawn).").replace("%1", f"{e.none_floor:,}")
                             .replace("%2", str(e.rated)))
            if e.halve is not None:
                lines.append(plural(tr("About %Ln more check rating(s) would roughly halve it.", "", e.halve), e.halve))
            if e.not_covered:
                lines.append(plural(tr("Not covered: %Ln unseen paper(s) added after the check", "", e.not_covered),
                                    e.not_covered))
        lines.append(self.suggestion(p))
        return "\n".join(lines)

    def suggestion(self, p: Progress) -> str:
        """The stopping rule's sentence, translated (db.triage.progress.suggestion says the rest)."""
        stop = p.stop
        if not p.total or not p.unseen or not p.found:
            return (tr("No papers in this view.") if not p.total else tr("Every paper of this view has been screened.")
                    if not p.unseen else tr("Rate the papers you like 4 or 5 stars; progress is counted from the "
                                            "first one."))
        if p.estimate is None or stop is None or stop.recall_low is None:
            n = len(p.check_to_rate) or CHECK_SIZE
            text = plural(tr("Rate %Ln more paper(s) of the check to estimate what is left.", "", n) if p.check_to_rate
                          else tr("Draw a check of %Ln unseen paper(s) and rate them to estimate how many liked "
                                  "papers are left.", "", n), n)
            if p.knee_stop:
                text += " " + tr("The knee method suggests you can stop: the recent papers held few you liked.")
            return text
        target = f"{stop.target:.0%}"
        if stop.stop:
            return tr("Stop now: with 95% confidence at least %1 of the liked papers are found.").replace("%1", target)
        ways = []
        if stop.more_liked is not None:
            ways.append(plural(tr("find %Ln more liked paper(s)", "", stop.more_liked), stop.more_liked))
        if stop.more_ratings:
            ways.append(plural(tr("rate about %Ln more check paper(s)", "", stop.more_ratings), stop.more_ratings))
        how = tr(" or ").join(ways) if ways else tr("screen on (the check cannot show it by itself)")
        return (tr("Go on: with 95% confidence at least %1 of the liked papers are found; to show %2, %3.")
                .replace("%1", f"{stop.recall_low:.0%}").replace("%2", target).replace("%3", how))

    # ------------------------------------------------------------------ the check
    def draw_check(self) -> None:
        """Draw unseen papers of the view into its check (at random, or by the recommender's ranking, computed
        on the background pool first) and show them in the list."""
        if self.ids is None:
            return
        scope, ids = self.scope or "", list(self.ids)
        if self.design.currentData() != "ranked":
            self.w.ops.draw_check(scope, ids, initiator=self)
            self.show_check()
            return
        folder = self.w.library.folder
        self.check_button.setEnabled(False)

        def work():
            with Library.open(folder, seed=False) as library:
                return ranking_for(library, ids)

        def ranked(ranking) -> None:
            self.check_button.setEnabled(True)
            self.w.ops.draw_check(scope, ids, ranking=ranking, initiator=self)
            self.show_check()

        run_in_background(self, work, ranked, self._failed)

    def show_check(self) -> None:
        self.w.set_query(f"is:check {self.scope or ''}".strip())
