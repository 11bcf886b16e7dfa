"""The conference map dock (issue 17, items 2 and 3): a click opens the right paper, hovering shows its label as
plain text, colours follow ratings, the search's hits are the lit set, a lasso round a topic selects its papers,
and the selection is tagged, opened as the list or queued."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from scipy.spatial import ConvexHull

from db.library.library import Library
from db.map.conference_map import RATING_COLOURS, UNRATED
from desktop.common.plain_text import as_plain
from tests.helpers.topics import map_topics as records


@pytest.fixture
def window(make_window, library_dir, qtbot):
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(records(30))
        paper = lib.papers()[0]
        lib.set_title(paper.id, "<b>bold</b> & <img src=/dev/zero> space")
    win = make_window()
    win.actions_.auto_read.setChecked(False)
    win.resize(1300, 900)
    dock = win.map_dock
    with qtbot.waitSignal(dock.ready, timeout=120000):
        dock.toggleViewAction().trigger()  # View → Conference map
    assert dock.isVisible() and dock.map is not None
    qtbot.wait(50)
    return win


def widget_point(dock, paper_id: str) -> QPoint:
    x, y = dock.map.xy[dock.map.row[paper_id]]
    scene = dock.view_box.mapViewToScene(pg_point(x, y))
    return dock.plot.mapFromScene(scene)


def pg_point(x, y):
    from PySide6.QtCore import QPointF

    return QPointF(float(x), float(y))


def lit_brush(dock, paper_id: str) -> tuple[int, int, int]:
    row = list(dock.lit_rows).index(dock.map.row[paper_id])
    colour = dock.lit.data["brush"][row].color()
    return colour.red(), colour.green(), colour.blue()


def isolated(dock, not_this: str | None) -> str:
    """A paper whose point has no other within 10 pixels (so a click on it cannot mean another)."""
    xy = dock.map.xy
    pixel = max(dock.view_box.viewPixelSize())
    for i in range(len(xy)):
        if dock.map.ids[i] == not_this:
            continue
        distance = np.hypot(*(xy - xy[i]).T)
        distance[i] = np.inf
        if distance.min() > 10 * pixel:
            return dock.map.ids[i]
    pytest.skip("no isolated point on this map")


def test_a_click_selects_the_paper_and_hover_shows_its_label_as_plain_text(window, qtbot):
    dock = window.map_dock
    assert len(dock.lit_rows) == 90  # no query: every paper is lit
    target = isolated(dock, window.current_paper_id())
    assert window.current_paper_id() != target
    where = widget_point(dock, target)
    qtbot.mouseMove(dock.plot.viewport(), where)
    qtbot.waitUntil(lambda: dock.hovered == target, timeout=5000)
    label = window.library.paper(target).label
    assert dock.hover_text(target) == as_plain(label)
    qtbot.mouseClick(dock.plot.viewport(), Qt.MouseButton.LeftButton, pos=where)
    qtbot.waitUntil(lambda: window.current_paper_id() == target, timeout=5000)
    assert window.model.paper_id(window.paper_list.currentIndex().row()) == target
    assert window.library.paper(target).abstract.split()[0] in window.reader.toPlainText()
    assert np.allclose(dock.current.getData()[0], [dock.map.xy[dock.map.row[target]][0]])
    # a click beside every point selects nothing new
    far = dock.plot.mapFromScene(dock.view_box.mapViewToScene(pg_point(*(dock.map.xy.max(axis=0) + 50))))
    qtbot.mouseClick(dock.plot.viewport(), Qt.MouseButton.LeftButton, pos=far)
    assert window.current_paper_id() == target


def test_the_title_with_markup_is_shown_literally(window):
    dock = window.map_dock
    paper = next(p for p in window.library.papers() if p.label.startswith("<b>"))
    text = dock.hover_text(paper.id)
    assert "&lt;b&gt;bold&lt;/b&gt;" in text and "<img" not in text


def test_colouring_follows_ratings(window, qtbot):
    dock = window.map_dock
    first, second = window.library.ids()[:2]
    assert lit_brush(dock, first) == UNRATED
    window.select_paper(first)
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_5)
    qtbot.waitUntil(lambda: lit_brush(dock, first) == RATING_COLOURS[5], timeout=5000)
    window.apply_changes(window.library.set_rating(second, 1))
    qtbot.waitUntil(lambda: lit_brush(dock, second) == RATING_COLOURS[1], timeout=5000)
    window.apply_changes(window.library.set_rating(first, None))
    qtbot.waitUntil(lambda: lit_brush(dock, first) == UNRATED, timeout=5000)


def test_the_search_hits_are_the_lit_set(window, qtbot):
    dock = window.map_dock
    for query in ("telescope", "oven OR violin", "nosuchwordanywhere", ""):
        window.set_query(query)
        qtbot.waitUntil(lambda query=query: window.search.query == query
                        and set(dock.lit_ids) == set(window.model.ids()), timeout=20000)
        lit = {dock.map.ids[i] for i in dock.lit_rows}
        assert lit == set(window.model.ids()) and len(dock.lit_rows) == window.model.rowCount()
        assert len(dock.lit.getData()[0]) == window.model.rowCount()


def topic_lasso(dock, window, topic: str):
    rows = [dock.map.row[p.id] for p in window.library.papers() if p.label.startswith(topic)]
    points = dock.map.xy[rows]
    hull = points[ConvexHull(points).vertices]
    centre = points.mean(axis=0)
    return [tuple(p) for p in centre + (hull - centre) * 1.05], {dock.map.ids[i] for i in rows}


def test_a_lasso_round_a_topic_selects_it_and_tags_opens_or_queues_it(window, qtbot):
    dock = window.map_dock
    lasso, kitchen = topic_lasso(dock, window, "kitchen")
    assert set(dock.select_polygon(lasso)) == kitchen
    dock.tag_selection("Baking")
    assert dict(window.library.tags())["Baking"] == 30
    assert {p.id for p in window.library.papers() if "Baking" in p.tags} == kitchen
    qtbot.waitUntil(lambda: dock.colour_by.findData("tag:Baking") >= 0, timeout=5000)

    dock.open_selection()
    assert set(window.model.ids()) == kitchen and window.model.rowCount() == 30
    assert {dock.map.ids[i] for i in dock.lit_rows} == kitchen  # the map shows the list's set

    some = sorted(kitchen)[:4]
    for paper_id in some:
        window.apply_changes(window.library.set_read(paper_id, True))
    dock.select_polygon(lasso)
    dock.queue_selection()
    assert set(window.model.ids()) == kitchen - set(some)
    assert window.current_paper_id() in kitchen - set(some)

    # a lasso only takes lit papers: with a search for violins, the kitchen lasso is empty
    window.set_query("violin")
    qtbot.waitUntil(lambda: window.search.query == "violin" and set(dock.lit_ids) == set(window.model.ids()),
                    timeout=20000)
    assert dock.select_polygon(lasso) == []


def test_export_map_writes_the_png(window, tmp_path):
    path = tmp_path / "out" / "map.png"
    window.map_dock.export_png(path)
    assert path.read_bytes()[:4] == b"\x89PNG"
    texts = [action.text() for action in window.actions_.file_menu.actions()]
    assert texts.index(window.map_dock.export_action.text()) == texts.index(window.actions_.export_action.text()) + 1


def test_the_legend_says_what_the_colours_mean(window, qtbot):
    """Issue 29: a colour legend under the map, following the colouring chosen (a tag's name as plain text)."""
    dock = window.map_dock
    assert dock.legend.isVisible()
    assert dock.legend.texts() == ["★★★★★", "★★★★", "★★★", "★★", "★", "unrated", "not in the list"]
    dock.colour_by.setCurrentIndex(dock.colour_by.findData("read"))
    assert dock.legend.texts() == ["read", "unread", "not in the list"]
    library = window.library
    window.apply_changes(library.add_tags(library.ids()[0], ["<b>mine</b>"]))
    qtbot.waitUntil(lambda: dock.colour_by.findData("tag:<b>mine</b>") >= 0, timeout=10000)
    dock.colour_by.setCurrentIndex(dock.colour_by.findData("tag:<b>mine</b>"))
    assert dock.legend.texts()[0] == "tagged <b>mine</b>"
    assert dock.legend.labels[0].textFormat() == Qt.TextFormat.PlainText


def test_region_names_stay_inside_the_view(window, qtbot):
    """Issue 29: a region name near an edge moves in rather than being cut, at any pan."""
    dock = window.map_dock
    (x0, x1), (y0, y1) = dock.view_box.viewRange()
    dock.view_box.setRange(xRange=(x0 + 0.45 * (x1 - x0), x1 + 0.45 * (x1 - x0)), padding=0)  # pan half a view
    qtbot.wait(50)
    (x0, x1), (y0, y1) = dock.view_box.viewRange()
    shown = [item for _level, item, _papers in dock._labels if item.isVisible()]
    assert shown
    view = dock.view_box.sceneBoundingRect()
    for item in shown:
        box = item.sceneBoundingRect()
        assert view.left() - 1 <= box.left() and box.right() <= view.right() + 1, (item.toPlainText(), box, view)
        assert view.top() - 1 <= box.top() and box.bottom() <= view.bottom() + 1


@pytest.mark.slow  # a first map of 900 papers, stopped half way
def test_a_first_map_shows_its_progress_and_stops_when_the_window_closes(make_window, library_dir, qtbot):
    from db.map.conference_map import MapCache
    from desktop.docks.map_worker import map_pool

    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(records(300))
    win = make_window()
    dock = win.map_dock
    steps = []
    dock.stepped.connect(steps.append)
    dock.toggleViewAction().trigger()
    qtbot.waitUntil(lambda: len(steps) >= 2, timeout=120000)  # t-SNE under way, step by step
    assert dock.bar.isVisible() and 0 < dock.bar.value() < 100 and dock.map is None
    win.close()
    assert map_pool().waitForDone(20000)  # it stopped at its next step
    assert steps[-1] < 1.0 and not MapCache(library_dir).path.exists()  # unfinished: nothing kept


def test_a_recolour_due_when_the_library_closes_reads_nothing(window, qtbot):
    """Twice under load the tests' teardown saw "Cannot operate on a closed database": a change's recolouring
    (150 ms later) came after the window's library had closed."""
    dock = window.map_dock
    library = window.library
    window.apply_changes(library.add_tags(library.ids()[0], ["late"]))
    assert dock._recolour_timer.isActive()
    window.close()  # as the tests' teardown closes a window, then its library
    library.close()
    qtbot.wait(400)  # the timer fires now
    assert not dock._recolour_timer.isActive()
