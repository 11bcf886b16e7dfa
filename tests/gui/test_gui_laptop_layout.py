"""A laptop's screen (1,366 × 768, and 1,024 px): what a new-user trial found cut or overlapping, whole now.

The progress dock beside the map dock fits the screen with nothing past its right edge and its legend under the
chart; the sidebar shows whole star rows, every count, and names cut in the middle with the whole name in the
tooltip; the map's region names never overlap; a long status message ends in "…" before the counts, whole in the
tooltip; the tag chips flow in rows."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QLocale, QRectF, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QLabel, QSpinBox

from db.library.library import Library
from db.text.render import stars
from desktop.docks.map_labels import place
from desktop.docks.sidebar_columns import COMPACT_ROLE, PADDING
from tests.helpers.records import paper_record
from tests.helpers.topics import map_topics

ALIKE = ["Computer Science - Machine Learning", "Computer Science - Computer Vision and Pattern Recognition",
         "Computer Science - Computation and Language", "Computer Science - Artificial Intelligence",
         "Computer Science - Neural and Evolutionary Computing"]
LONG_VENUES = ["International Conference on Learning Representations 2018",
               "International Conference on Machine Learning 2019"]


@pytest.fixture
def laptop_library(library_dir):
    """The test library with alike tags, long venues, all five ratings and a check with an estimate."""
    from db.triage.check import check_ids, draw_check

    with Library.open(library_dir) as library:
        ids = library.ids()
        for number, paper_id in enumerate(ids[:10]):
            library.set_rating(paper_id, number % 5 + 1)
            library.add_tags(paper_id, ALIKE[: number % 5 + 1])
        library.import_records([paper_record(title=f"A paper at {venue}", venue=venue) for venue in LONG_VENUES])
        draw_check(library, "", ids, 20, rng=random.Random(1))
        for paper_id in check_ids(library, "")[:12]:
            library.set_rating(paper_id, 2)
    return library_dir


def _laptop(make_window, qtbot, width: int = 1366):
    window = make_window()
    window.resize(width, 740)
    window.progress_dock.show()
    window.map_dock.show()
    qtbot.waitUntil(lambda: window.progress_dock.current is not None
                    and window.progress_dock.current.estimate is not None, timeout=20000)
    qtbot.waitUntil(lambda: window.map_dock.map is not None, timeout=120000)
    qtbot.wait(100)
    return window


def _assert_whole(dock) -> None:
    body = dock.widget().widget()
    assert body.width() <= dock.widget().viewport().width()
    for label in body.findChildren(QLabel):
        if label.isVisible() and label.text():
            assert label.wordWrap() or label.width() >= label.sizeHint().width(), label.text()
    for control in [*body.findChildren(QAbstractButton), *body.findChildren(QComboBox), *body.findChildren(QSpinBox)]:
        if control.isVisible():
            assert control.width() >= control.minimumSizeHint().width(), control.objectName()
            assert control.geometry().right() <= body.width(), control.objectName()
    assert not dock.legend.geometry().intersects(dock.chart.geometry())
    assert dock.legend.geometry().top() >= dock.chart.geometry().bottom()
    assert all(label.width() >= label.sizeHint().width() for label in dock.legend.labels)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_progress_dock_fits_1366_px_beside_the_map(laptop_library, make_window, qtbot, language):
    """Nothing of the dock runs past the screen's right edge: the window fits 1,366 px, every label is as wide as
    its text needs (or wraps), every button and box at least its least width, and the legend sits under the chart,
    not over its curves (the trial: "…from", "Show the ch…", the combo box's arrow gone, the legend on the
    curves); and so when the dock is dragged as narrow as it goes."""
    from desktop.common.i18n import apply_language

    app = QApplication.instance()
    try:
        assert apply_language(app, QLocale(language)) or language == "en"
        window = _laptop(make_window, qtbot)
        assert window.minimumSizeHint().width() <= 1366
        assert window.width() <= 1366
        dock = window.progress_dock
        _assert_whole(dock)
        # dragged as narrow as it goes (or a 1,024-px screen): still nothing past its edge, the words wrap
        wide = dock.width()
        window.resizeDocks([dock], [dock.minimumSizeHint().width()], Qt.Orientation.Horizontal)
        qtbot.waitUntil(lambda: dock.width() < wide - 100, timeout=5000)  # as narrow as the map dock beside lets it
        qtbot.wait(50)
        _assert_whole(dock)
    finally:
        apply_language(app, QLocale("en"))


def _shown_count(sidebar, item) -> str:
    """The count as the delegate draws it: whole, or short when the whole is wider than the column."""
    text, compact = item.text(1), item.data(1, COMPACT_ROLE)
    metrics = QFontMetrics(sidebar.font())
    if compact and metrics.horizontalAdvance(text) + PADDING > sidebar.header().sectionSize(1):
        return compact
    return text


@pytest.mark.parametrize("width", [1366, 1024])
def test_the_sidebar_stays_readable_with_docks_open(laptop_library, make_window, qtbot, width):
    """With the progress and map docks open: every count is drawn whole, every star row is whole, and names cut in
    the middle stay apart ("Computer…Learning", not five "Compu…"), each with its whole name in the tooltip."""
    window = _laptop(make_window, qtbot, width)
    sidebar = window.sidebar
    metrics = QFontMetrics(sidebar.font())
    name_width = sidebar.header().sectionSize(0)
    assert sidebar.width() >= sidebar.minimumWidth() > 0
    elided = {}
    for section in range(sidebar.topLevelItemCount()):
        top = sidebar.topLevelItem(section)
        for row in range(top.childCount()):
            item = top.child(row)
            if item.isFirstColumnSpanned():
                continue
            count = _shown_count(sidebar, item)
            assert metrics.horizontalAdvance(count) + PADDING <= sidebar.header().sectionSize(1) + 1, count
            room = name_width - 2 * sidebar.indentation()
            if item.text(0) in {stars(n) for n in range(1, 6)}:
                assert metrics.horizontalAdvance(item.text(0)) <= room, (item.text(0), room)
            shown = metrics.elidedText(item.text(0), sidebar.textElideMode(), room - 8)
            elided[item.text(0)] = shown
            if shown != item.text(0):
                assert item.text(0) in item.toolTip(0)
    alike = [elided[name] for name in ALIKE]
    assert len(set(alike)) == len(ALIKE), alike
    assert sidebar.textElideMode() == Qt.TextElideMode.ElideMiddle


def test_region_names_are_placed_without_overlaps():
    """`place`: the biggest region first; a name that would cover one placed is nudged, or left out."""
    labels = [(100, 100, 120, 16, 50), (110, 104, 120, 16, 80), (105, 100, 120, 16, 10), (400, 300, 80, 16, 5)]
    spots = place(labels, 600, 400)
    assert spots[1] == (110, 104)  # the biggest keeps its centre
    boxes = [QRectF(x - w / 2, y - h / 2, w, h) for (x, y), (_x, _y, w, h, _n) in
             ((spot, label) for spot, label in zip(spots, labels, strict=True) if spot is not None)]
    assert len(boxes) >= 3
    for i, a in enumerate(boxes):
        assert all(not a.intersects(b) for b in boxes[i + 1:])
    crowded = [(300, 200, 200, 16, n) for n in range(40)]  # forty names on one spot: some left out
    assert None in place(crowded, 600, 400)


def test_the_map_names_never_overlap_at_any_zoom(make_window, library_dir, qtbot):
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(map_topics(30))
    window = make_window()
    window.resize(1366, 740)
    dock = window.map_dock
    with qtbot.waitSignal(dock.ready, timeout=120000):
        dock.toggleViewAction().trigger()
    qtbot.wait(50)
    (x0, x1), (y0, y1) = dock.view_box.viewRange()
    for zoom in (1.0, 0.6, 0.3, 0.15):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        dock.view_box.setRange(xRange=(cx - (x1 - x0) * zoom / 2, cx + (x1 - x0) * zoom / 2),
                               yRange=(cy - (y1 - y0) * zoom / 2, cy + (y1 - y0) * zoom / 2), padding=0)
        qtbot.wait(30)
        shown = [item.sceneBoundingRect() for _level, item, _papers in dock._labels if item.isVisible()]
        assert shown, zoom
        for i, a in enumerate(shown):
            assert all(not a.intersects(b) for b in shown[i + 1:]), zoom
    dock.view_box.autoRange(padding=0.03)
    for width in (1366, 900):  # the dock narrowed: the names are placed again (they are placed in pixels)
        window.resize(width, 740)
        window.resizeDocks([dock], [dock.minimumSizeHint().width() if width < 1366 else 600], Qt.Orientation.Horizontal)
        qtbot.wait(80)
        shown = [item.sceneBoundingRect() for _level, item, _papers in dock._labels if item.isVisible()]
        assert shown, width
        for i, a in enumerate(shown):
            assert all(not a.intersects(b) for b in shown[i + 1:]), width


def test_a_long_status_message_ends_in_an_ellipsis_before_the_counts(shown_window, qtbot):
    window = shown_window
    window.resize(1366, 740)
    qtbot.wait(50)
    bar = window.statusBar()
    message = ("Could not import bad.json: the JSON is not valid at line 1, column 15; the file ends inside a value: "
               "it may have been cut short while it was written, try again when it is complete. " * 2)
    bar.showMessage(message, 60000)
    shown = bar.shown_message()
    assert shown.endswith("…") and len(shown) < len(message)
    assert bar.fontMetrics().horizontalAdvance(shown) <= bar.message_rect().width()
    assert bar.message_rect().right() < window.count_label.x()
    assert "try again when it is complete" in bar.toolTip()
    bar.showMessage("Saved", 60000)
    assert bar.shown_message() == "Saved" and bar.toolTip() == ""


def test_tag_chips_flow_in_rows(shown_window, qtbot):
    """Five tags at 1,366 px: every chip shown whole, in more than one row, with no sideways scrollbar (the trial
    saw one chip and a half and a scrollbar); no tags: no room taken."""
    window = shown_window
    window.resize(1366, 740)
    editor = window.tag_editor
    editor.setTags(["machine learning", "reinforcement learning", "GAN theory", "to read", ALIKE[0]])
    chips = editor.findChildren(QAbstractButton, "tagChip")
    qtbot.waitUntil(lambda: all(chip.isVisible() for chip in chips) and
                    all(chip.visibleRegion().boundingRect().size() == chip.size() for chip in chips), timeout=5000)
    assert len({chip.y() for chip in chips}) >= 2
    assert all(chip.width() >= chip.sizeHint().width() for chip in chips)
    assert not editor._scroll.horizontalScrollBar().isVisible()
    editor.setTags([])
    qtbot.waitUntil(lambda: editor._scroll.height() == 0, timeout=5000)
