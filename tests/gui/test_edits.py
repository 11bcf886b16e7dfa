"""The window's one write path (issue 33): a view updates only what a change touches, and never twice for its own
edit; a bulk edit is one transaction and one undo; a rating reads its paper's row once and writes once."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from db.library.library import Library
from db.paper import PaperRecord


def sidebar_items(tree) -> list[tuple[object, str, str]]:
    """Every item of the tree, depth first, with its two texts."""
    found = []

    def walk(item):
        for i in range(item.childCount()):
            child = item.child(i)
            found.append((child, child.text(0), child.text(1)))
            walk(child)

    walk(tree.invisibleRootItem())
    return found


def count_of(tree, name: str) -> str | None:
    return next((count for _item, text, count in sidebar_items(tree) if text == name), None)


def statements(window) -> list[str]:
    """The SQL the window's library connection runs from now on (sqlite3's trace callback)."""
    seen: list[str] = []
    window.library._conn.set_trace_callback(seen.append)
    return seen


def test_a_rating_key_moves_two_rating_counts_and_leaves_the_sidebar_items_in_place(make_window, library_dir, qtbot):
    with Library.open(library_dir) as library:
        ids = library.ids()
        library.set_rating(ids[0], 4)  # the 4★ entry is there before the key press
        library.add_tags(ids[0], ["kept"])
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    window.select_row(window.model.row_of(ids[1]), by_user=True)
    before = sidebar_items(window.sidebar)
    assert count_of(window.sidebar, "★★★★☆") == "1"

    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)
    qtbot.waitUntil(lambda: count_of(window.sidebar, "★★★★☆") == "2", timeout=5000)

    after = sidebar_items(window.sidebar)
    assert [item for item, _text, _count in after] == [item for item, _text, _count in before]  # not rebuilt
    moved = {text: (old, new) for (_item, text, old), (_same, _text, new) in zip(before, after, strict=True)
             if old != new}
    total = len(ids)
    assert moved == {
        "★★★★☆": ("1", "2"), "Unrated": (str(total - 1), str(total - 2)),  # the two rating counts
        "Unread": (str(total), str(total - 1)), "ICML 2026": (f"read 0 of {total}", f"read 1 of {total}"),  # read
    }


def papers_scanned(window, sql: list[str]) -> list[tuple[str, str]]:
    """The statements of `sql` whose query plan walks the papers table whole ((statement, plan step)): SQLite's
    EXPLAIN QUERY PLAN says `SCAN p` / `SCAN papers` (through an index or not) where no key narrows the walk (a
    COUNT or GROUP BY over every paper). Walks of the annotations (few beside the papers) are allowed."""
    walked = []
    conn = window.library._conn
    conn.set_trace_callback(None)
    for statement in {statement for statement in sql if statement.lstrip().upper().startswith("SELECT")}:
        for *_ids, step in conn.execute("EXPLAIN QUERY PLAN " + statement):
            words = step.split()
            if words[:2] in (["SCAN", "p"], ["SCAN", "papers"]):  # with or without an index: every row
                walked.append((statement, step))
    conn.set_trace_callback(sql.append)  # traced again from here on
    return walked


def test_a_tag_renamed_from_the_sidebar_refreshes_the_sidebar_once(make_window, library_dir, qtbot, monkeypatch):
    with Library.open(library_dir) as library:
        library.add_tags(library.ids()[0], ["ML theory"])
    window = make_window()
    sidebar = window.sidebar
    updates: list[str] = []
    for name in ("refresh", "apply_changes"):
        method = getattr(sidebar, name)
        monkeypatch.setattr(sidebar, name, lambda *args, _m=method, _n=name: (updates.append(_n), _m(*args))[1])

    assert sidebar.rename_tag("ML theory", "Theory") is True
    qtbot.waitUntil(lambda: bool(updates) and not window._sidebar_timer.isActive(), timeout=5000)
    qtbot.waitUntil(lambda: count_of(sidebar, "Theory") == "1", timeout=5000)
    assert updates == ["apply_changes"]
    assert count_of(sidebar, "ML theory") is None


@pytest.fixture
def big_library(library_dir):
    with Library.open(library_dir, seed=False) as library:
        library.import_records([PaperRecord(abstract=f"Paper {i} studies lasso number {i} of the map.",
                                            title=f"Lasso {i}", venue="ICML 2026", year=2026) for i in range(520)])
        return library.ids()


def test_tagging_a_500_paper_lasso_is_one_transaction_and_one_undo(make_window, big_library, qtbot):
    window = make_window()
    dock = window.map_dock
    applied = []
    window.libraryChanged.connect(applied.append)
    lasso = big_library[10:510]
    dock.selection = list(lasso)  # what select_polygon keeps of a region drawn round 500 papers
    sql = statements(window)

    dock.tag_selection("Lasso")

    assert sum(statement.startswith("BEGIN") for statement in sql) == 1
    assert sum(statement == "COMMIT" for statement in sql) <= 1  # (sqlite3 commits through the C API)
    assert len(applied) == 1 and applied[0].papers == set(lasso) and applied[0].initiator is dock
    assert dict(window.library.tags())["Lasso"] == 500
    assert window.undo_stack.count() == 1

    sql.clear()
    window.activateWindow()  # a shortcut works in the active window
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # one Ctrl+Z
    qtbot.waitUntil(lambda: "Lasso" not in dict(window.library.tags()), timeout=5000)
    assert sum(statement.startswith("BEGIN") for statement in sql) == 1
    assert len(applied) == 2 and applied[1].papers == set(lasso)


def test_a_rating_reads_its_paper_once_and_writes_once_from_key_press_to_the_list(make_window, library_dir, qtbot):
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    window.select_row(3, by_user=True)
    paper_id = window.current_paper_id()
    qtbot.waitUntil(lambda: window.model.cached(paper_id) is not None, timeout=5000)  # the list shows its row
    reads: list[list[str]] = []
    papers = window.library.papers
    window.library.papers = lambda ids=None: (reads.append(list(ids or [])), papers(ids))[1]
    sql = statements(window)

    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)
    qtbot.waitUntil(lambda: not window._sidebar_timer.isActive(), timeout=5000)
    window.paper_list.viewport().repaint()  # the row painted again: back in the list
    assert window.model.data(window.model.index(3, 1)) == "★★★★☆"

    assert [ids for ids in reads if paper_id in ids] == [[paper_id]]  # the row read once (after the write)
    assert sum(statement.startswith("BEGIN") for statement in sql) == 1  # one write transaction
    assert any(statement.startswith("UPDATE annotations SET rating") for statement in sql)
    assert window.rating_widget.rating() == 4 and window.library.paper(paper_id).read


def test_a_rating_counts_the_read_papers_without_counting_every_paper_by_venue(make_window, qtbot):
    """Marking a paper read (here: by rating it) moves "read R of M" in the status bar by one, from a count of
    the read annotations; the number of papers is as it was, so no GROUP BY over every paper runs (issue 28:
    that ran twice per rating, 129 ms at 100k papers under load)."""
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    total = window.model.rowCount()
    window.select_row(2, by_user=True)
    assert window.count_label.text().endswith(f"read 0 of {total}")
    qtbot.waitUntil(lambda: window.docks.made("map") is not None, timeout=30000)  # made after the first paint
    sql = statements(window)

    qtbot.keyClick(window.paper_list, Qt.Key.Key_3)
    qtbot.waitUntil(lambda: window.count_label.text().endswith(f"read 1 of {total}"), timeout=5000)
    qtbot.waitUntil(lambda: not window._sidebar_timer.isActive(), timeout=5000)
    assert not [statement for statement in sql if "FROM papers GROUP BY" in statement]
    assert not papers_scanned(window, sql)
    sql.clear()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_R)  # r: unread again
    qtbot.waitUntil(lambda: window.count_label.text().endswith(f"read 0 of {total}"), timeout=5000)
    qtbot.waitUntil(lambda: not window._sidebar_timer.isActive(), timeout=5000)
    assert not papers_scanned(window, sql)


def test_a_read_change_made_while_the_worker_counts_is_not_undone_by_its_answer(make_window, library_dir, qtbot,
                                                                                 monkeypatch):
    """The sidebar's counts of every paper come from the search worker; a paper marked read while that count is
    under way (it may have read the library before the change) must not be taken back when the count arrives."""
    import threading

    from db.library import facets as facets_module
    from desktop.list import search_worker

    window = make_window()
    window.actions_.auto_read.setChecked(False)
    total = len(window.library.ids())
    qtbot.waitUntil(lambda: count_of(window.sidebar, "Unread") == str(total), timeout=5000)
    entered, release = threading.Event(), threading.Event()
    counted = facets_module.facets

    def counted_before_the_change(library):
        answer = counted(library)  # read now, answered later: the change below is not in it
        if not entered.is_set():
            entered.set()
            release.wait(10)
        return answer

    monkeypatch.setattr(search_worker.facets, "facets", counted_before_the_change)
    window._recount()
    assert entered.wait(5)
    window.select_row(0, by_user=True)
    window.toggle_read()
    qtbot.waitUntil(lambda: count_of(window.sidebar, "Unread") == str(total - 1), timeout=5000)
    answered = []
    window.search_service.worker.facets_counted.connect(lambda request, _counts: answered.append(request))
    release.set()  # the stale answer arrives, and any count asked after it
    qtbot.waitUntil(lambda: bool(answered) and answered[-1] == window.search_service._facets_counter, timeout=5000)
    qtbot.wait(50)  # queued to the GUI thread after our own connection's call
    assert count_of(window.sidebar, "Unread") == str(total - 1)
    assert window.status.counts == (1, total)
