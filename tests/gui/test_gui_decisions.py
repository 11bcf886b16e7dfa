"""Screening decisions in the window (issue 29): include / exclude with a reason / maybe by real key events in the
triage loop, undone by Ctrl+Z; the criteria panel's reasons, criteria and PRISMA counts, moved by Changes only."""

from __future__ import annotations

from PySide6.QtCore import Qt

from db.library.library import Library
from db.text.cleaning import strip_bidi  # the list isolates each field (FSI … PDI)
from desktop.list.paper_model import DETAIL_ROLE
from tests.helpers.window import search


def _key(qtbot, window, key, modifier=Qt.KeyboardModifier.NoModifier):
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, key, modifier)


def _pick(qtbot, window, key):
    """Press `key` in the open reason picker (a popup menu: it takes the keys while open)."""
    qtbot.waitUntil(lambda: window.screening.picker is not None and window.screening.picker.isVisible())
    qtbot.keyClick(window.screening.picker, key)
    qtbot.waitUntil(lambda: window.screening.picker is None)


def test_include_exclude_with_a_reason_maybe_and_undo_by_keys(make_window, qtbot):
    window = make_window()
    library = window.library
    window.select_row(0)
    first = window.current_paper_id()
    _key(qtbot, window, Qt.Key.Key_I)
    paper = library.paper(first)
    assert (paper.decision, paper.reason, paper.read) == ("include", None, True)

    window.select_row(1)
    second = window.current_paper_id()
    _key(qtbot, window, Qt.Key.Key_E)
    qtbot.waitUntil(lambda: window.screening.picker is not None and window.screening.picker.isVisible())
    window.select_row(5)  # the list moves on (another view's doing) while the picker is open
    _pick(qtbot, window, Qt.Key.Key_2)  # the second reason of the list
    reasons = library.exclusion_reasons()
    assert (library.paper(second).decision, library.paper(second).reason) == ("exclude", reasons[1])
    assert library.paper(first).decision == "include"
    assert library.paper(window.current_paper_id()).decision is None  # the picker decides for its own paper
    detail = strip_bidi(window.model.index(1, 0).data(DETAIL_ROLE))  # the list's second line names the decision
    assert detail.endswith(f"excluded: {reasons[1]}")
    assert strip_bidi(window.model.index(0, 0).data(DETAIL_ROLE)).endswith("included")

    window.select_row(2)
    third = window.current_paper_id()
    _key(qtbot, window, Qt.Key.Key_E)
    qtbot.waitUntil(lambda: window.screening.picker is not None and window.screening.picker.isVisible())
    qtbot.keyClick(window.screening.picker, Qt.Key.Key_Escape)  # cancelled: no decision
    qtbot.waitUntil(lambda: window.screening.picker is None)
    assert library.paper(third).decision is None
    _key(qtbot, window, Qt.Key.Key_M)
    assert library.paper(third).decision == "maybe"
    _key(qtbot, window, Qt.Key.Key_E)
    _pick(qtbot, window, Qt.Key.Key_0)  # exclude without a reason
    assert (library.paper(third).decision, library.paper(third).reason) == ("exclude", None)

    window.undo_stack.undo()
    assert library.paper(third).decision == "maybe"
    window.undo_stack.undo()
    assert library.paper(third).decision is None and not library.paper(third).read
    _key(qtbot, window, Qt.Key.Key_U)  # nothing to clear: no edit
    window.select_row(1)
    _key(qtbot, window, Qt.Key.Key_U)
    assert library.paper(second).decision is None
    window.undo_stack.undo()
    assert library.paper(second).reason == reasons[1]
    # the search finds the decisions once the index caught up with them
    search(qtbot, window, "decision:exclude")
    assert window.model.ids() == [second]
    search(qtbot, window, f'reason:"{reasons[1].upper()}"')
    assert window.model.ids() == [second]
    search(qtbot, window, "decision:include")
    assert window.model.ids() == [first]


def test_the_criteria_panel_edits_reasons_and_criteria_and_counts_from_changes(make_window, qtbot):
    window = make_window()
    library = window.library
    dock = window.criteria_dock
    dock.show()
    qtbot.waitUntil(dock.isVisible)
    counts = dock.counts
    assert _count(counts, "Screened") == 0 and _count(counts, "Records") == library.count()

    # a reason typed into the panel: added to the list the picker offers
    qtbot.keyClicks(dock.new_reason, "not a benchmark")
    qtbot.keyClick(dock.new_reason, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: library.exclusion_reasons()[-1] == "not a benchmark")
    assert dock.reasons.item(dock.reasons.count() - 1).text() == "not a benchmark"

    # excluding by keys moves the counts (a Changes), the picker lists the new reason under its number
    window.select_row(0)
    first = window.current_paper_id()
    _key(qtbot, window, Qt.Key.Key_E)
    number = len(library.exclusion_reasons())
    _pick(qtbot, window, getattr(Qt.Key, f"Key_{number}"))
    assert library.paper(first).reason == "not a benchmark"
    assert _count(counts, "Excluded") == 1 and _count(counts, "not a benchmark") == 1
    assert dock.paper_decision.text().endswith("not a benchmark")
    window.select_row(1)
    _key(qtbot, window, Qt.Key.Key_I)
    assert _count(counts, "Included") == 1 and _count(counts, "Screened") == 2
    assert _count(counts, "Not screened yet") == library.count() - 2

    # renaming a reason in the list renames it on its papers; the counts follow the Changes
    item = dock.reasons.item(dock.reasons.count() - 1)
    item.setText("no benchmark")
    qtbot.waitUntil(lambda: library.paper(first).reason == "no benchmark")
    assert _count(counts, "no benchmark") == 1 and _find(counts, "not a benchmark") is None
    # removing it from the list keeps the paper's decision
    dock.reasons.setCurrentRow(dock.reasons.count() - 1)
    qtbot.mouseClick(_button(dock, "criteriaRemoveReason"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "no benchmark" not in library.exclusion_reasons())
    assert library.paper(first).reason == "no benchmark" and _count(counts, "no benchmark") == 1

    # the criteria: typed, saved once typing pauses, there again in a new window
    dock.criteria.setFocus()
    qtbot.keyClicks(dock.criteria, "Agents that use tools.")
    qtbot.waitUntil(lambda: library.criteria() == "Agents that use tools.")


def test_the_panel_saves_the_prisma_counts_as_csv(make_window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    window = make_window()
    library = window.library
    dock = window.criteria_dock
    dock.show()
    qtbot.waitUntil(dock.isVisible)
    ids = library.ids()
    window.select_row(0)
    _key(qtbot, window, Qt.Key.Key_I)
    window.select_row(1)
    _key(qtbot, window, Qt.Key.Key_E)
    _pick(qtbot, window, Qt.Key.Key_1)
    target = tmp_path / "prisma.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(target), ""))
    qtbot.mouseClick(_button(dock, "prismaSaveCsv"), Qt.MouseButton.LeftButton)
    rows = target.read_bytes().decode("utf-8-sig").splitlines()
    reason = library.exclusion_reasons()[0]
    assert rows[:5] == ["stage,reason,count", f"records identified,,{len(ids)}", "records screened,,2",
                        "records excluded,,1", f"records excluded,{reason},1"]
    assert rows[-2:] == ["records included,,1", f"not screened yet,,{len(ids) - 2}"]


def test_criteria_typed_just_before_closing_are_saved(make_window, qtbot, library_dir):
    window = make_window()
    dock = window.criteria_dock
    dock.show()
    dock.criteria.setFocus()
    qtbot.keyClicks(dock.criteria, "Only RL papers")
    window.close()
    with Library.open(library_dir) as library:
        assert library.criteria() == "Only RL papers"


def test_a_decision_from_another_process_moves_the_counts(make_window, qtbot, library_dir):
    window = make_window()
    dock = window.criteria_dock
    with Library.open(library_dir) as other:
        paper_id = other.ids()[3]
        other.set_decision(paper_id, "exclude", "duplicate")
    qtbot.waitUntil(lambda: _count(dock.counts, "duplicate") == 1, timeout=10000)


def _button(dock, name):
    from PySide6.QtWidgets import QPushButton

    return dock.findChild(QPushButton, name)


def _find(tree, text):
    from PySide6.QtWidgets import QTreeWidgetItemIterator

    found = QTreeWidgetItemIterator(tree)
    while found.value() is not None:
        if found.value().text(0) == text:
            return found.value()
        found += 1
    return None


def _count(tree, text) -> int | None:
    item = _find(tree, text)
    return int(item.text(1).replace(",", "")) if item is not None else None


def test_a_decision_by_keys_is_every_versions_and_undo_restores_each(make_window, qtbot, library_dir):
    with Library.open(library_dir) as library:
        iclr, nips = library.ids()[:2]
        library.group_versions([iclr, nips])  # one work, two versions: the list shows one row
    window = make_window()
    library = window.library
    window.select_row(next(row for row, paper_id in enumerate(window.model.ids()) if paper_id in (iclr, nips)))
    _key(qtbot, window, Qt.Key.Key_E)
    _pick(qtbot, window, Qt.Key.Key_1)
    reason = library.exclusion_reasons()[0]
    assert {paper_id: library.paper(paper_id).reason for paper_id in (iclr, nips)} == {iclr: reason, nips: reason}
    dock = window.criteria_dock
    assert _count(dock.counts, "Excluded") == 2 and _count(dock.counts, "Not screened yet") == library.count() - 2
    window.undo_stack.undo()
    assert library.decisions([iclr, nips]) == {} and _count(dock.counts, "Screened") == 0


def test_the_panel_refuses_to_rename_a_reason_onto_another(make_window, qtbot):
    window = make_window()
    library = window.library
    dock = window.criteria_dock
    dock.show()
    qtbot.waitUntil(dock.isVisible)
    paper_id = library.ids()[0]
    reasons = library.exclusion_reasons()
    library.set_decision(paper_id, "exclude", reasons[0])
    dock.reasons.item(1).setText(reasons[0].upper())  # the second reason renamed as the first: refused
    qtbot.waitUntil(lambda: "already" in window.statusBar().currentMessage())
    assert library.exclusion_reasons() == reasons and dock.reasons.item(1).text() == reasons[1]
    assert library.paper(paper_id).reason == reasons[0]
