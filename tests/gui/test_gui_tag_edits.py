"""A new user's trial of the sidebar's tags and the tag chips: renaming, merging and deleting a tag is undone by
Ctrl+Z (and redone), "&" in a tag is shown as typed, and "Suggest papers for this tag" shows the tag's suggestions
whatever the search box held."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QToolButton

from db.library.library import Library


def every_papers_tags(window) -> dict[str, list[str]]:
    return {paper.id: paper.tags for paper in window.library.papers()}


def press(window, qtbot, key, modifiers=Qt.KeyboardModifier.ControlModifier) -> None:
    window.activateWindow()  # a shortcut works in the active window
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, key, modifiers)


def tag_some(library_dir) -> list[str]:
    with Library.open(library_dir) as library:
        ids = library.ids()
        library.add_tags(ids[0], ["alpha", "kept"])
        library.add_tags(ids[1], ["alpha", "beta"])
        library.add_tags(ids[2], ["beta"])
        library.set_interest("alpha")
        library.set_dismissed(ids[3], "alpha")
        return ids


def sidebar_tags(window) -> list[str]:
    return list(window.sidebar._tags)


def test_a_merge_from_the_sidebar_is_undone_and_redone_with_ctrl_z(make_window, library_dir, qtbot, monkeypatch):
    ids = tag_some(library_dir)
    window = make_window()
    before = every_papers_tags(window)
    monkeypatch.setattr(QMessageBox, "question", lambda *args: QMessageBox.StandardButton.Yes)  # "Merge …?" Yes

    assert window.sidebar.rename_tag("alpha", "beta") is True
    qtbot.waitUntil(lambda: "alpha" not in sidebar_tags(window), timeout=5000)
    merged = every_papers_tags(window)
    assert merged[ids[0]] == ["beta", "kept"] and window.library.dismissed("alpha") == []
    assert window.undo_stack.canUndo()
    assert window.undo_stack.undoText() == "Merge tags"

    press(window, qtbot, Qt.Key.Key_Z)
    qtbot.waitUntil(lambda: "alpha" in sidebar_tags(window), timeout=5000)
    assert every_papers_tags(window) == before
    assert window.library.interests() == ["alpha"] and window.library.dismissed("alpha") == [ids[3]]
    assert window.sidebar._tags["alpha"].text(1) == "2" and window.sidebar._tags["beta"].text(1) == "2"

    press(window, qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: "alpha" not in sidebar_tags(window), timeout=5000)
    assert every_papers_tags(window) == merged


def test_a_deleted_tag_comes_back_with_ctrl_z(make_window, library_dir, qtbot):
    ids = tag_some(library_dir)
    window = make_window()
    before = every_papers_tags(window)

    assert window.sidebar.delete_tag("alpha", confirm=False) is True
    qtbot.waitUntil(lambda: "alpha" not in sidebar_tags(window), timeout=5000)
    assert window.undo_stack.undoText() == "Delete tag"

    press(window, qtbot, Qt.Key.Key_Z)
    qtbot.waitUntil(lambda: "alpha" in sidebar_tags(window), timeout=5000)
    assert every_papers_tags(window) == before
    assert window.library.interests() == ["alpha"] and window.library.dismissed("alpha") == [ids[3]]

    window.undo_stack.redo()
    qtbot.waitUntil(lambda: "alpha" not in sidebar_tags(window), timeout=5000)
    assert window.library.interests() == []


def test_an_ampersand_in_a_tag_chip_is_shown_not_made_a_shortcut(make_window, qtbot):
    window = make_window()
    editor = window.tag_editor
    editor.setTags(["<b>x</b> &amp;", "R&D"])
    chips = [chip for chip in editor.findChildren(QToolButton) if chip.objectName() == "tagChip"]
    assert [chip.text() for chip in chips] == ["<b>x</b> &&amp;  ×", "R&&D  ×"]  # && shows one &, no mnemonic


def test_suggest_papers_for_a_tag_replaces_the_query(make_window, library_dir, qtbot):
    tag_some(library_dir)
    window = make_window()
    window.search_box.setText('中文文本 tag:"alpha"')
    asked: list[str] = []
    window.sidebar.queryRequested.connect(asked.append)
    window.sidebar.filterRequested.connect(lambda fragment, _add: asked.append(f"filter {fragment}"))

    window.sidebar.suggest_for_tag("alpha")

    assert asked == ['similar-tag:"alpha"']
    qtbot.waitUntil(lambda: window.search_box.text() == 'similar-tag:"alpha"', timeout=5000)


def test_a_tag_added_and_undone_in_the_window_does_not_keep_its_spelling(make_window, qtbot):
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    window.select_row(0, by_user=True)
    editor = window.tag_editor
    editor.input.setText("machine learning")
    qtbot.keyClick(editor.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: editor.tags() == ["machine learning"], timeout=5000)
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: editor.tags() == [], timeout=5000)

    editor.input.setText("Machine Learning")
    qtbot.keyClick(editor.input, Qt.Key.Key_Return)

    qtbot.waitUntil(lambda: editor.tags() == ["Machine Learning"], timeout=5000)
    qtbot.waitUntil(lambda: sidebar_tags(window) == ["Machine Learning"], timeout=5000)


def test_a_recent_library_with_an_ampersand_is_listed_as_named(make_window, tmp_path):
    from desktop.window.library_menu import remember_library

    other = tmp_path / "R&D"
    Library.open(other, seed=False).close()
    window = make_window()
    remember_library(window.settings, other)
    window.actions_.library_actions._fill_recent()
    texts = [action.text() for action in window.actions_.library_actions.recent_menu.actions()]
    assert str(other.resolve()).replace("&", "&&") in texts


def test_the_search_box_follows_a_tag_renamed_in_the_sidebar(make_window, library_dir, qtbot, monkeypatch):
    """Renaming the tag the list was filtered by left the old name in the box ("No papers match") and the
    sidebar showed another tag as chosen (a new user's trial)."""
    ids = tag_some(library_dir)
    window = make_window()
    item = window.sidebar._tags["alpha"]
    qtbot.mouseClick(window.sidebar.viewport(), Qt.MouseButton.LeftButton,
                     pos=window.sidebar.visualItemRect(item).center())
    assert window.search_box.text() == 'tag:"alpha"'
    qtbot.waitUntil(lambda: sorted(window.model.ids()) == sorted(ids[:2]), timeout=5000)
    assert window.sidebar.rename_tag("alpha", "gamma ray") is True
    qtbot.waitUntil(lambda: window.search_box.text() == 'tag:"gamma ray"', timeout=5000)
    qtbot.waitUntil(lambda: sorted(window.model.ids()) == sorted(ids[:2]), timeout=5000)
    qtbot.waitUntil(lambda: "gamma ray" in sidebar_tags(window), timeout=5000)
    chosen = [item.text(0) for item in window.sidebar.selectedItems()]
    assert chosen in ([], ["gamma ray"])  # never another tag

    window.search_box.setText("graph")  # typed over: the sidebar no longer shows a filter as chosen
    qtbot.waitUntil(lambda: window.search.query == "graph", timeout=5000)
    assert window.sidebar.selectedItems() == []
