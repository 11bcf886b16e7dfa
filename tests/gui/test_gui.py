"""The window, driven as a user would: keys and clicks, offscreen."""

import re
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QTextBrowser

from db.library.library import Library
from desktop.app import create_window


def wait_for_search(qtbot, window, text):
    window.set_query(text)
    qtbot.waitUntil(lambda: window.search.query == text.strip() or (not text.strip()), timeout=10000)


def test_object_names_and_accessible_names(make_window):
    window = make_window()
    for name, kind in (("searchBox", QLineEdit), ("paperList", QAbstractItemView), ("readerView", QTextBrowser)):
        widget = window.findChild(kind, name)
        assert widget is not None, name
        assert widget.accessibleName() == {"searchBox": "Search papers", "paperList": "Papers",
                                           "readerView": "Abstract"}[name]
    for name in ("tagEditor", "ratingWidget", "noteEditor"):
        widget = window.findChild(object, name)
        names = {"tagEditor": "Tags", "ratingWidget": "Rating", "noteEditor": "Note"}
        assert widget is not None and widget.accessibleName() == names[name], name


def test_list_shows_38_labels_and_reader_renders_latex(make_window, qtbot):
    window = make_window()
    assert window.model.rowCount() == 38
    labels = [window.model.index(row, 0).data() for row in range(38)]
    assert labels == [paper.label for paper in window.library.papers()]  # every row named, in library order
    assert sum(label.startswith("CFlower: ") for label in labels) == 1
    window.select_paper("9342e12f8e8d")
    text = window.reader.toPlainText()
    assert "Ω(n)" in text and "$" not in text and "\\Omega" not in text
    window.select_paper("c9c83c252bec")
    html = window.reader.toHtml()
    assert "font-weight:700" in html or "font-weight:600" in html  # \textbf rendered bold
    assert "\\textbf" not in window.reader.toPlainText()


def test_j_and_k_move_through_the_list(make_window, qtbot):
    window = make_window()
    window.paper_list.setFocus()
    window.select_row(0)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_J)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_J)
    assert window.paper_list.currentIndex().row() == 2
    qtbot.keyClick(window.paper_list, Qt.Key.Key_K)
    assert window.current_paper_id() == window.model.paper_id(1)


def test_typing_in_search_box_filters_and_ranks(make_window, qtbot):
    window = make_window()
    qtbot.keyClicks(window.search_box, "reasoning")
    qtbot.waitUntil(lambda: window.search.query == "reasoning", timeout=10000)
    assert 0 < window.model.rowCount() < 38
    assert "9342e12f8e8d" in window.model.ids()[:3]
    # the reader follows the results once the list has painted them (desktop.common.after_paint)
    qtbot.waitUntil(lambda: "background-color:" in window.reader.toHtml(), timeout=10000)
    marked = re.findall(r'background-color:[^"]*;">([^<]+)</span>', window.reader.toHtml())
    assert marked and {word.lower() for word in marked} == {"reasoning"}, marked  # the searched word, marked
    wait_for_search(qtbot, window, '"graph reachability"')
    assert window.model.ids() == ["9342e12f8e8d"]
    window.set_query("")
    assert window.model.rowCount() == 38


def test_rating_tag_and_note_survive_a_new_window_and_are_searchable(make_window, qtbot, library_dir, tmp_path):
    window = make_window()
    window.select_paper("3b32771a6bb5")
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)
    assert window.rating_widget.rating() == 4
    window.tag_editor.input.setFocus()
    qtbot.keyClicks(window.tag_editor.input, "offline RL")
    qtbot.keyClick(window.tag_editor.input, Qt.Key.Key_Return)
    window.note_editor.editor.setFocus()
    qtbot.keyClicks(window.note_editor.editor, "Check the platypus ablation; costs $50")
    qtbot.waitUntil(lambda: Library.open(library_dir).paper("3b32771a6bb5").note != "", timeout=5000)
    window.close()

    again = make_window()
    again.select_paper("3b32771a6bb5")
    assert again.rating_widget.rating() == 4
    assert again.tag_editor.tags() == ["offline RL"]
    assert again.note_editor.text() == "Check the platypus ablation; costs $50"
    wait_for_search(qtbot, again, "platypus")
    assert again.model.ids() == ["3b32771a6bb5"]
    wait_for_search(qtbot, again, 'tag:"offline RL"')
    assert again.model.ids() == ["3b32771a6bb5"]

    out = tmp_path / "notes.md"
    assert again.export_notes_to(out) == 1
    text = out.read_text(encoding="utf-8")
    assert "## CFlower:" in text and "platypus ablation; costs $50" in text and "`offline RL`" in text
    assert "ICML 2026" in text and "★★★★☆" in text


def test_clicking_a_star_and_removing_a_tag(make_window, qtbot):
    window = make_window()
    pid = window.current_paper_id()
    stars = window.rating_widget
    qtbot.mouseClick(stars, Qt.MouseButton.LeftButton, pos=QPoint(int(stars.width() * 0.5), stars.height() // 2))
    assert window.library.paper(pid).rating == 3
    qtbot.mouseClick(stars, Qt.MouseButton.LeftButton, pos=QPoint(int(stars.width() * 0.5), stars.height() // 2))
    assert window.library.paper(pid).rating is None
    window.library.add_tags(pid, ["a, b"])
    window.show_current()
    chip = window.tag_editor.findChild(object, "tagChip")
    qtbot.mouseClick(chip, Qt.MouseButton.LeftButton)
    assert window.library.paper(pid).tags == []


def test_note_is_saved_when_switching_papers(make_window, qtbot):
    window = make_window()
    first = window.current_paper_id()
    window.note_editor.editor.setFocus()
    qtbot.keyClicks(window.note_editor.editor, "quick thought")
    window.select_row(5)  # before the autosave timer fires
    assert window.library.paper(first).note == "quick thought"
    assert window.note_editor.text() == ""


def test_links_open_externally_and_pane_stays(make_window, qtbot, monkeypatch):
    opened = []
    monkeypatch.setattr("desktop.reader.reader_view.QDesktopServices.openUrl",
                        lambda url: opened.append(url.toString()))
    window = make_window()
    window.select_paper("5fb4a7a3f3e7")
    before = window.reader.toPlainText()
    assert "https://github.com/jjwang8/PolyNeXt" in window.reader.toHtml()
    window.reader.anchorClicked.emit(QUrl("https://github.com/jjwang8/PolyNeXt"))
    window.reader.anchorClicked.emit(QUrl("javascript:alert(1)"))
    window.reader.anchorClicked.emit(QUrl("file:///etc/passwd"))
    assert opened == ["https://github.com/jjwang8/PolyNeXt"]
    assert window.reader.toPlainText() == before
    assert window.reader.loadResource(2, QUrl("http://example.com/a.png")) is None


def test_status_bar_counts(make_window, qtbot):
    window = make_window()
    assert window.count_label.text() == "38 of 38 papers · read 0 of 38"
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_R)
    assert window.count_label.text() == "38 of 38 papers · read 1 of 38"


def test_window_builds_on_a_path_object(qtbot, tmp_path):
    window = create_window(Path(tmp_path / "other"))
    qtbot.addWidget(window)
    assert window.model.rowCount() == 38
    window.close()


def test_a_note_the_library_cannot_take_is_kept_and_saved_later(make_window, qtbot, monkeypatch):
    from db.errors import LibraryError

    window = make_window()
    paper_id = window.current_paper_id()
    real_set_note = window.library.set_note
    calls = []

    def busy(pid, text, **_options):
        calls.append(text)
        raise LibraryError("the library is busy")

    monkeypatch.setattr(window.library, "set_note", busy)
    window.note_editor.editor.setPlainText("an idea worth keeping")
    window.note_editor.flush()
    window.select_row(3)  # moving on must not lose it
    assert calls == ["an idea worth keeping"]
    assert "could not be saved" in window.statusBar().currentMessage()
    monkeypatch.setattr(window.library, "set_note", real_set_note)
    window.notes.retry_timer.setInterval(10)
    window.notes.retry_timer.start()
    qtbot.waitUntil(lambda: window.library.paper(paper_id).note == "an idea worth keeping", timeout=5000)
    assert window.notes.unsaved == {}


def test_steady_typing_makes_one_history_version(make_window, qtbot):
    window = make_window()
    paper_id = window.current_paper_id()
    window.apply_changes(window.library.set_note(paper_id, "before today"), outside=True)  # as from the CLI
    window.note_editor.editor.setFocus()
    window.note_editor.editor.moveCursor(QTextCursor.MoveOperation.End)
    for word in ("one ", "two ", "three"):
        qtbot.keyClicks(window.note_editor.editor, word)
        window.note_editor.flush()
    assert window.library.paper(paper_id).note == "before todayone two three"
    assert [text for _when, text in window.library.note_history(paper_id)] == ["before today"]
