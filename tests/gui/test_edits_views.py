"""Views update only what a change touches (issue 33): the list repaints the changed rows' changed columns and
roles, the reader re-renders only when what it shows of its paper changed, a hidden dock waits until shown."""

from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.list.paper_model import LABEL, RATING, READ, SORT_ROLE, TAGS


def test_the_list_repaints_the_changed_rows_changed_columns_and_roles_only(make_window, qtbot):
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    model = window.model
    window.select_row(2, by_user=True)
    rated = window.current_paper_id()
    repainted = []
    model.dataChanged.connect(lambda first, last, roles: repainted.append(
        (first.row(), last.row(), first.column(), last.column(), set(roles))))

    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)  # a rating, which marks the unread paper read

    display, font, spoken = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.FontRole,
                             Qt.ItemDataRole.AccessibleTextRole)
    assert sorted(repainted, key=lambda r: r[2]) == [
        (2, 2, LABEL, LABEL, {display, font}),  # its second line's stars, and bold no more
        (2, 2, RATING, RATING, {display, spoken, SORT_ROLE}), (2, 2, READ, READ, {display, SORT_ROLE})]
    assert model.data(model.index(2, RATING)) == "★★★★☆"

    # the rating column is hidden by default: the label cell, whose delegate draws the stars, is repainted
    assert window.paper_list.horizontalHeader().isSectionHidden(RATING)
    repainted.clear()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_2)  # the paper is read already: a rating alone
    assert sorted(repainted, key=lambda r: r[2]) == [(2, 2, LABEL, LABEL, {display}),
                                                     (2, 2, RATING, RATING, {display, spoken, SORT_ROLE})]

    repainted.clear()
    others = [model.paper_id(row) for row in (5, 6, 9)]
    window.ops.tag_papers(others, "neighbours")  # three papers, two of them side by side: two runs of rows
    assert sorted((r[0], r[1]) for r in repainted if r[2] == TAGS) == [(5, 6), (9, 9)]
    assert {r[2] for r in repainted} == {TAGS, LABEL} and rated not in others


def test_the_reader_is_rendered_again_only_when_what_it_shows_changed(make_window, qtbot, monkeypatch):
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    window.select_row(1, by_user=True)
    rendered = []
    set_html = window.reader.setHtml
    monkeypatch.setattr(window.reader, "setHtml", lambda html: (rendered.append(html), set_html(html)))

    qtbot.keyClick(window.paper_list, Qt.Key.Key_5)  # rating and read: the reader shows neither
    qtbot.keyClick(window.paper_list, Qt.Key.Key_R)
    assert rendered == []
    assert window.rating_widget.rating() == 5

    window.ops.change_tags(window.current_paper_id(), add=["shown in the reader"])
    assert len(rendered) == 1 and "shown in the reader" in rendered[0]


def test_a_hidden_map_follows_changes_when_shown_again(make_window, qtbot, monkeypatch):
    window = make_window()
    dock = window.map_dock
    assert not dock.isVisible()
    recoloured = []
    monkeypatch.setattr(dock, "recolour", lambda: recoloured.append(True))
    window.ops.rate(window.model.paper_id(0), 5)
    window.ops.tag_papers([window.model.paper_id(1)], "while hidden")
    assert recoloured == [] and dock.colour_by.findData("tag:while hidden") < 0  # hidden: nothing done yet

    dock.map = object()  # a map was drawn before (computing one is test_gui_map's)
    try:
        dock._visibility_changed(True)
    finally:
        dock.map = None
    assert recoloured == [True] and dock.colour_by.findData("tag:while hidden") >= 0
