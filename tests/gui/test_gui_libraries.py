"""The window: Delete key with undo, File → New/Open/recent library in the same session, View → Language,
the window's icon and the desktop entry."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from db.cli import desktop_entry
from db.library.library import Library
from db.system.resources import ICONS_DIR
from desktop.window.library_menu import recent_libraries

FIRST = "9342e12f8e8d"


def _select(window, paper_id):
    assert window.select_paper(paper_id)
    window.paper_list.setFocus()


def test_delete_key_deletes_the_selected_paper_and_undo_brings_it_back(qtbot, make_window, library_dir):
    window = make_window()
    window.library.set_rating(FIRST, 3)
    _select(window, FIRST)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_Delete)
    assert FIRST not in window.model.ids()  # gone from the list at once
    # English plurals (a new user's trial saw "Deleted 1 paper(s)"), in the status bar and the Edit menu
    assert window.statusBar().currentMessage().startswith("Deleted 1 paper; ")
    assert window.undo_stack.undoText() == "Delete 1 paper"
    assert window.model.rowCount() == 37
    assert window.current_paper_id() not in (None, FIRST)  # a neighbour is shown
    with Library.open(library_dir) as other:  # saved: another process sees it
        assert FIRST not in other.ids()
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: FIRST in window.model.ids(), timeout=10000)  # back after the search comes in
    assert window.library.paper(FIRST).rating == 3
    window.undo_stack.redo()
    assert FIRST not in window.library.ids()


def test_delete_in_a_text_field_is_not_a_paper_delete(qtbot, make_window):
    window = make_window()
    _select(window, FIRST)
    window.search_box.setFocus()
    window.search_box.setText("ab")
    qtbot.keyClick(window.search_box, Qt.Key.Key_Home)
    qtbot.keyClick(window.search_box, Qt.Key.Key_Delete)
    assert FIRST in window.library.ids()


def test_opening_a_second_library_in_the_same_session(qtbot, make_window, tmp_path):
    window = make_window()
    window.library.set_note(FIRST, "a note in the first library")
    first_folder = window.library.folder
    second_folder = tmp_path / "second"
    new = window.actions_.library_actions.new_library(second_folder)
    assert new is not None and new is not window
    qtbot.addWidget(new)
    try:
        assert new.library.folder == second_folder and new.library.count() == 0  # a new library is empty
        assert not window.isVisible() and new.isVisible()
        assert (first_folder / "backups").is_dir()  # the old window closed as closing always does
        assert recent_libraries(new.settings)[:2] == [second_folder.resolve(), first_folder.resolve()]
        # File → Open recent lists the first library; opening it comes back to its papers and note
        recent = [action.text() for action in new.actions_.library_actions.recent_menu.actions()]
        assert recent == [str(first_folder.resolve())]
        again = new.actions_.library_actions.open_library(first_folder)
        qtbot.addWidget(again)
        assert again.library.count() == 38 and again.library.paper(FIRST).note == "a note in the first library"
        again.close()
        again.library.close()
    finally:
        new.close()


def test_open_library_refuses_a_folder_without_a_library(qtbot, make_window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    told = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *args: told.append(args[2]))
    window = make_window()
    assert window.actions_.library_actions.open_library(tmp_path) is None
    assert window.isVisible() and len(told) == 1 and "library.db" in told[0]


def test_view_language_shows_the_window_in_chinese_and_back(qtbot, make_window):
    window = make_window()
    chinese = window.actions_.library_actions.set_language("zh_CN")
    qtbot.addWidget(chinese)
    try:
        assert [action.text() for action in chinese.menuBar().actions()][0] == "文件(&F)"
        assert chinese.settings.value("view/language") == "zh_CN"
        english = chinese.actions_.library_actions.set_language("en")
        qtbot.addWidget(english)
        assert [action.text() for action in english.menuBar().actions()][0] == "&File"
        english.close()
        english.library.close()
    finally:
        from desktop.window.library_menu import apply_language, language_locale

        apply_language(QApplication.instance(), language_locale("en"))


def test_the_window_has_the_margin_icon(make_window):
    assert not make_window().windowIcon().isNull()


def test_install_desktop_writes_an_entry_and_icons(tmp_path):
    written = desktop_entry.install(tmp_path, ["/opt/my apps/margin"])
    entry = (tmp_path / "applications" / "margin.desktop").read_text(encoding="utf-8")
    assert 'Exec="/opt/my apps/margin"' in entry and "Icon=margin" in entry and "Type=Application" in entry
    assert (tmp_path / "icons/hicolor/scalable/apps/margin.svg").read_bytes() == (ICONS_DIR / "margin.svg").read_bytes()
    assert (tmp_path / "icons/hicolor/256x256/apps/margin.png").read_bytes()[:4] == b"\x89PNG"
    assert len(desktop_entry.remove(tmp_path)) == len(written)
    assert not (tmp_path / "applications" / "margin.desktop").exists()


def test_deleting_the_only_paper_of_a_view_updates_the_sidebar_and_the_status_bar(qtbot, make_window):
    """Del on the one paper a search shows: the reader, the sidebar's counts and the status bar follow (the reader
    asked the library for the deleted paper, and the KeyError stopped every view after it)."""
    window = make_window()
    window.library.set_rating(FIRST, 3)
    window.library.add_tags(FIRST, ["only here"])
    window.set_query('tag:"only here"')
    qtbot.waitUntil(lambda: window.model.ids() == [FIRST], timeout=10000)
    _select(window, FIRST)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: not window._sidebar_timer.isActive(), timeout=5000)
    texts = {}

    def walk(item):
        for i in range(item.childCount()):
            texts[item.child(i).text(0)] = item.child(i).text(1)
            walk(item.child(i))

    walk(window.sidebar.invisibleRootItem())
    assert texts["All papers"] == "37" and "only here" not in texts and "★★★☆☆" not in texts
    assert "of 37 papers" in window.count_label.text()
    assert window.reader.toPlainText() == "No paper selected."


def test_ctrl_shift_z_redoes(qtbot, make_window):
    """Redo holds Ctrl+Shift+Z and the platform's redo keys, each once: where the platform's redo is Ctrl+Shift+Z
    (Linux desktops; run with QT_QPA_PLATFORM=xcb under xvfb-run to see it), the same key twice on one action was
    an ambiguous shortcut that Qt never triggered."""
    from PySide6.QtGui import QKeySequence

    window = make_window()
    keys = window.actions_.redo_action.shortcuts()
    platform = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
    assert len(keys) == len(set(keys)) and set(keys) == {QKeySequence("Ctrl+Shift+Z"), *platform}
    window.actions_.auto_read.setChecked(False)
    window.activateWindow()  # a shortcut works in the active window
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    _select(window, FIRST)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.library.paper(FIRST).rating is None
    qtbot.keyClick(window.paper_list, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.library.paper(FIRST).rating == 4


def test_a_checkout_without_compiled_translations_still_shows_chinese(tmp_path, monkeypatch):
    """A fresh clone run as `python main.py` (no scripts/setup.sh) has the .ts but no .qm: the language chosen
    must still be shown (compiled into the user's cache), not silently English."""
    import shutil

    from PySide6.QtCore import QCoreApplication, QLocale

    from db.system.resources import TRANSLATIONS_DIR
    from desktop.common.i18n import apply_language

    folder = tmp_path / "translations"
    folder.mkdir()
    shutil.copy(TRANSLATIONS_DIR / "margin_zh_CN.ts", folder)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    app = QApplication.instance()
    try:
        assert apply_language(app, QLocale("zh_CN"), folder)
        assert QCoreApplication.translate("", "&Get papers…") == "获取文献(&G)…"
    finally:
        apply_language(app, QLocale("en"))


def test_three_docks_open_fit_a_laptop_screen(shown_window, qtbot):
    """Triage progress, Screening criteria and the Conference map stacked on the right: their contents scroll,
    so the window still fits a 1366×768 screen (it used to need 834 px, pushing the status bar off screen)."""
    for name in ("progress", "criteria", "map"):
        getattr(shown_window.docks, name).show()
    qtbot.waitUntil(lambda: all(getattr(shown_window.docks, name).isVisible()
                                for name in ("progress", "criteria", "map")))
    assert shown_window.minimumSizeHint().height() <= 768 - 60
