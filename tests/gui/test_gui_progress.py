"""The triage progress dock (issue 16, item 1): chart and figures for the view the list shows."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt

from db.triage.progress import progress

VENUE = 'venue:"ICML 2026"'


@pytest.fixture
def window(make_window):
    win = make_window()
    win.actions_.auto_read.setChecked(False)
    return win


def _shown(qtbot, window, check=lambda result: True):
    dock = window.progress_dock
    qtbot.waitUntil(lambda: dock.current is not None and check(dock.current), timeout=60000)
    return dock.current


def test_progress_chart_for_a_venue_matches_the_library(window, qtbot):
    library = window.library
    ids = library.ids()
    for paper_id, rating in zip(ids[:7], (5, 2, 4, 1, 5, 2, 2), strict=True):
        library.set_rating(paper_id, rating)
    window.set_query(VENUE)
    qtbot.waitUntil(lambda: window.search.query == VENUE, timeout=60000)
    window.actions_.view_menu.actions()[-1].trigger()  # View → Triage progress
    dock = window.progress_dock
    assert dock.isVisible()
    shown = _shown(qtbot, window)
    truth = progress(library, ids, VENUE)
    assert (shown.total, shown.screened, shown.found) == (truth.total, truth.screened, truth.found) == (38, 7, 3)
    xs, ys = dock.found_line.getData()
    assert list(xs) == list(range(8)) and list(ys) == [0, 1, 1, 2, 2, 3, 3, 3]
    random_xs, random_ys = dock.random_line.getData()
    assert list(random_xs) == [0, 38] and random_ys[-1] == pytest.approx(3)  # found so far, spread evenly
    assert dock.figures.text().startswith('venue:"ICML 2026": screened 7 of 38 papers · liked 3')
    assert dock.chart.isVisible() and dock.chart.objectName() == "progressChart"

    # a rating in the window moves the curve without a new search of the list
    before = window.search_service.latest_request
    window.select_paper(ids[10])
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)
    shown = _shown(qtbot, window, lambda result: result.screened == 8)
    assert shown.found == 4 and dock.found_line.getData()[1][-1] == 4
    assert window.search_service.latest_request == before
    qtbot.keyClick(window.paper_list, Qt.Key.Key_1)  # read already: only the rating changes
    shown = _shown(qtbot, window, lambda result: result.found == 3)
    assert shown.screened == 8

    # the random check: drawn, listed, rated from the keyboard, then the estimate and its band appear
    qtbot.mouseClick(dock.check_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.search.query == f"is:check {VENUE}", timeout=60000)
    check = window.model.ids()
    assert len(check) == 20 and not set(check) & set(ids[:7] + [ids[10]])
    assert dock.scope == VENUE  # the check's list is the same view
    for paper_id in check:
        window.select_paper(paper_id)
        qtbot.keyClick(window.paper_list, Qt.Key.Key_2)
    shown = _shown(qtbot, window, lambda result: result.estimate is not None and result.estimate.rated == 20)
    estimate = progress(library, ids, VENUE).estimate
    assert (shown.estimate.low, shown.estimate.high) == (estimate.low, estimate.high)
    assert shown.estimate.low == 0 and shown.estimate.population == 30
    assert dock.band.isVisible()
    assert dock.band.getRegion() == pytest.approx((3 + estimate.low, 3 + estimate.high))
    assert "Liked papers still unseen: about 0 (0–" in dock.figures.text()


def test_dock_visibility_is_kept_between_runs(make_window, qtbot):
    first = make_window()
    assert not first.progress_dock.isVisible()
    first.progress_dock.show()
    first.close()
    first.library.close()
    second = make_window()
    assert second.progress_dock.isVisible()
    _shown(qtbot, second)


def test_progress_of_one_interest(window, qtbot):
    library = window.library
    ids = library.ids()
    library.add_tags(ids[0], ["agents"])
    window.apply_changes(library.set_interest("agents"))
    for paper_id in ids[1:5]:
        window.apply_changes(library.set_read(paper_id, True))
    window.apply_changes(library.add_tags(ids[2], ["agents"]) | library.set_rating(ids[3], 5))
    window.set_query(VENUE)
    qtbot.waitUntil(lambda: window.search.query == VENUE, timeout=60000)
    dock = window.progress_dock
    dock.show()
    shown = _shown(qtbot, window, lambda result: result.screened == 4)
    assert shown.found == 1 and shown.interest is None  # the 5-star paper
    dock.liked.setCurrentIndex(dock.liked.findData("agents"))
    shown = _shown(qtbot, window, lambda result: result.interest == "agents")
    assert (shown.screened, shown.found) == (4, 1)  # the paper accepted into "agents" (ids[0] was never screened)
    assert "in “agents” 1" in dock.figures.text()


def test_a_ranked_check_in_the_dock_the_band_leaves_the_axes_to_the_curve(window, qtbot):
    """Issue 29: a check drawn by rank from the dock, rated with real keys; the axes follow the found curve, the
    interval's band is cut at the top with its upper end written there; the stopping target is the user's."""
    library = window.library
    ids = library.ids()
    for paper_id, rating in zip(ids[:6], (5, 1, 4, 1, 5, 2), strict=True):
        library.set_rating(paper_id, rating)
    window.set_query(VENUE)
    qtbot.waitUntil(lambda: window.search.query == VENUE, timeout=60000)
    dock = window.progress_dock
    dock.show()
    _shown(qtbot, window, lambda result: result.screened == 6)
    dock.target.setValue(80)
    assert window.settings.value("progress/target", type=int) == 80
    _shown(qtbot, window, lambda result: result.stop is not None and result.stop.target == 0.8)
    dock.design.setCurrentIndex(dock.design.findData("ranked"))
    qtbot.mouseClick(dock.check_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.search.query == f"is:check {VENUE}", timeout=60000)
    check = window.model.ids()
    assert len(check) == 20 and not set(check) & set(ids[:6])
    assert library.check_design(library.latest_check(VENUE)) == "ranked"
    for paper_id in check:
        window.select_paper(paper_id)
        qtbot.keyClick(window.paper_list, Qt.Key.Key_2)
    shown = _shown(qtbot, window, lambda result: result.estimate is not None and result.estimate.rated == 20)
    estimate = shown.estimate
    assert estimate.design == "ranked" and estimate == progress(library, ids, VENUE, target=0.8).estimate
    (x_low, x_high), (y_low, y_high) = dock.chart.viewRange()
    assert x_high < 38  # the screened papers fill the width, not the whole venue
    assert y_high < 3 + estimate.high and y_high <= 3 * 1.25 + 1 + 1  # the band does not set the height
    assert dock.band.isVisible() and dock.band.getRegion() == pytest.approx((3 + estimate.low, 3 + estimate.high))
    assert dock.band_top.isVisible() and dock.band_top.toPlainText() == f"up to {3 + estimate.high}"
    text = dock.figures.text()
    assert "drawn by rank" in text and "95% of checks drawn this way hold the true number" in text
    assert f"The check found none: up to {estimate.none_floor} could still be unseen" in text
    assert "Go on: with 95% confidence at least" in text and "to show 80%" in text


def test_the_dock_counts_one_in_the_singular_and_in_chinese(window):
    """The dock's figures with Qt's %n plural forms: "1 unseen paper", never "1 unseen papers"; Chinese's one form."""
    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QApplication

    from desktop.common.i18n import apply_language
    from tests.unit.triage.test_plurals import ONE_PLURAL, one_of_everything

    dock = window.docks.progress
    for result in (one_of_everything(), one_of_everything(with_estimate=False)):
        text = dock.text(result)
        assert not ONE_PLURAL.findall(text) and "(s)" not in text, text
    text = dock.text(one_of_everything())
    assert "Not covered: 1 unseen paper added after the check" in text
    assert "About 1 more check rating would roughly halve it." in text
    assert "find 1 more liked paper or rate about 1 more check paper." in text
    app = QApplication.instance()
    try:
        assert apply_language(app, QLocale("zh_CN"))
        for result in (one_of_everything(), one_of_everything(with_estimate=False)):
            text = dock.text(result)
            assert "(s)" not in text and not re.search(r"\b(?:papers?|ratings?|check)\b", text), text
    finally:
        apply_language(app, QLocale("en"))


def test_the_dock_controls_are_whole_at_1366_px_with_the_map_open(library_dir, make_window, qtbot):
    """A laptop screen (1,366 × 768), the map dock open below, a check with an estimate (seven lines of figures,
    Chinese wrapping them): the stopping rule and the check's buttons were cut off at the dock's bottom (the trial
    found them clipped); the chart gives up height first now."""
    import random

    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QApplication

    from db.library import Library
    from db.triage.check import check_ids, draw_check
    from desktop.common.i18n import apply_language

    with Library.open(library_dir) as library:
        ids = library.ids()
        for number, paper_id in enumerate(ids[:8]):
            library.set_rating(paper_id, number % 5 + 1)
        draw_check(library, "", ids, 20, rng=random.Random(1))
        for paper_id in check_ids(library, "")[:12]:
            library.set_rating(paper_id, 2)
    app = QApplication.instance()
    try:
        assert apply_language(app, QLocale("zh_CN"))
        window = make_window()
        window.resize(1366, 740)
        window.progress_dock.show()
        window.map_dock.show()
        dock = window.progress_dock
        window.resizeDocks([dock, window.map_dock], [442, 250], Qt.Orientation.Vertical)  # as at 1,366 × 768
        qtbot.waitUntil(lambda: dock.current is not None and dock.current.estimate is not None, timeout=20000)
        controls = (dock.target, dock.check_button, dock.design, dock.show_button)

        def whole() -> bool:
            return all(control.visibleRegion().boundingRect().size() == control.size() for control in controls)

        qtbot.waitUntil(whole, timeout=5000)
    finally:
        apply_language(app, QLocale("en"))


def test_the_chart_ticks_count_whole_papers(window):
    """Both axes count papers: ticks at whole numbers only, on a short range too (pyqtgraph put some at halves)."""
    dock = window.progress_dock
    for name in ("left", "bottom"):
        axis = dock.chart.getAxis(name)
        for top, pixels in ((3, 300), (5, 150), (10, 300), (1, 200), (250, 300)):
            levels = axis.tickValues(0, top, pixels)
            values = [value for _spacing, ticks in levels for value in ticks]
            assert values and all(float(value).is_integer() for value in values), (name, top, levels)
            assert {0, top} <= set(values) or top > 10  # the ends of a short range are labelled
