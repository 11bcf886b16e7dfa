"""The triage loop, sidebar, undo, settings and import in the window, driven by keys and clicks (issue 5)."""

import time

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDropEvent, QPalette
from PySide6.QtWidgets import QApplication, QMessageBox, QTableView

from db.library.library import Library
from db.library.store import now
from desktop.common import theme
from desktop.list.paper_model import PaperTableModel
from tests.helpers.window import let_checks_run


def action(window, text):
    for found in window.findChildren(type(window.actions_.import_action)):
        if found.text().replace("&", "") == text:
            return found
    raise LookupError(text)


def test_model_passes_qtmodeltester(qtmodeltester, library):
    model = PaperTableModel(library)
    model.set_ids(library.ids())
    qtmodeltester.check(model)


def test_fifty_thousand_rows_open_and_scroll_without_loading_all(qtbot, tmp_path):
    library = Library.open(tmp_path / "big", seed=False)
    stamp = now()
    with library.transaction() as conn:
        conn.executemany(
            "INSERT INTO papers (id, position, abstract, label, added_at, updated_at) VALUES (?,?,?,?,?,?)",
            [(f"{i:012x}", i, f"abstract {i}", f"Paper number {i}", stamp, stamp) for i in range(50_000)])
    model = PaperTableModel(library)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(800, 600)
    started = time.process_time()  # CPU time: a busy machine slows the clock, not the work
    model.set_ids(library.ids())
    view.show()
    qtbot.waitExposed(view)
    qtbot.wait(50)
    assert model.rowCount() == 50_000
    first_loaded = model.loaded_rows
    assert 0 < first_loaded <= 400
    view.scrollToBottom()
    qtbot.wait(50)
    assert view.indexAt(QPoint(5, 5)).row() > 49_000
    assert model.index(49_999, 0).data() == "Paper number 49999"
    assert model.loaded_rows <= 1_000
    assert time.process_time() - started < 30
    library.close()


def test_rate_and_advance_moves_on(make_window, qtbot):
    window = make_window()
    window.actions_.rate_and_advance.setChecked(True)
    window.select_row(0)
    first = window.current_paper_id()
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_3)
    assert window.library.paper(first).rating == 3
    assert window.paper_list.currentIndex().row() == 1
    window.actions_.rate_and_advance.setChecked(False)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_5)
    assert window.paper_list.currentIndex().row() == 1


def test_paper_is_marked_read_after_a_moment(make_window, short_delays, qtbot):
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.reading.timer.setInterval(50)
    window.select_row(4, by_user=True)
    paper_id = window.current_paper_id()
    qtbot.waitUntil(lambda: window.library.paper(paper_id).read, timeout=3000)
    window.actions_.auto_read.setChecked(False)
    window.select_row(6, by_user=True)
    let_checks_run(window, qtbot, 5)  # several dwell times
    assert window.library.paper(window.current_paper_id()).read is False


def test_undo_and_redo_rating_tags_read_and_title(make_window, qtbot):
    window = make_window()
    window.reading.timer.stop()
    window.actions_.auto_read.setChecked(False)
    paper_id = window.current_paper_id()
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)  # rating it marks it read …
    assert window.library.paper(paper_id).read is True
    qtbot.keyClick(window.paper_list, Qt.Key.Key_R)  # … r marks it unread, a tag read again
    assert window.library.paper(paper_id).read is False
    window.tag_editor.input.setText("Theory")
    qtbot.keyClick(window.tag_editor.input, Qt.Key.Key_Return)
    window.set_title("A better title")
    paper = window.library.paper(paper_id)
    assert (paper.rating, paper.read, paper.tags, paper.label) == (4, True, ["Theory"], "A better title")
    undo, redo = window.actions_.undo_action, window.actions_.redo_action
    for _ in range(4):
        undo.trigger()
    paper = window.library.paper(paper_id)
    assert (paper.rating, paper.read, paper.tags, paper.user_title) == (None, False, [], None)
    redo.trigger()
    assert window.library.paper(paper_id).read is True  # the rating, and the read mark it brought
    redo.trigger()
    paper = window.library.paper(paper_id)
    assert (paper.rating, paper.read, paper.tags) == (4, False, [])
    assert window.rating_widget.rating() == 4


def test_clicking_a_column_header_sorts(make_window, qtbot):
    window = make_window()
    ids = window.library.ids()
    window.library.set_rating(ids[7], 5)
    window.library.set_rating(ids[3], 2)
    header = window.paper_list.horizontalHeader()
    header.setSectionHidden(1, False)  # the rating column is hidden by default (the row shows the stars)
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(header.sectionViewportPosition(1) + 10, header.height() // 2))
    qtbot.waitUntil(lambda: window.model.ids()[:2] == [ids[7], ids[3]], timeout=10000)  # sorted on the worker
    window.sort_by("label")

    def by_label() -> bool:
        labels = [window.library.paper(i).label.casefold() for i in window.model.ids()]
        return labels == sorted(labels)

    qtbot.waitUntil(by_label, timeout=10000)
    window.sort_by(None)
    assert window.model.ids() == ids  # the library's order at once


def test_layout_query_and_zoom_persist(make_window, qtbot):
    window = make_window()
    window.splitter.setSizes([150, 600, 530])
    sizes = window.splitter.sizes()
    action(window, "Zoom in").trigger()
    action(window, "Zoom in").trigger()
    window.search_box.setText("reasoning")
    window.close()
    again = make_window()
    restored = again.splitter.sizes()
    assert [round(x / sum(restored), 2) for x in restored] == pytest.approx(
        [round(x / sum(sizes), 2) for x in sizes], abs=0.02)
    assert again.reader.zoom == 2
    assert again.search_box.text() == "reasoning"
    qtbot.waitUntil(lambda: again.search.query == "reasoning", timeout=10000)
    assert again.model.rowCount() < 38
    action(again, "Reset zoom").trigger()
    assert again.reader.zoom == 0


def test_sidebar_counts_filters_and_tag_admin(make_window, qtbot, monkeypatch):
    window = make_window()
    ids = window.library.ids()
    window.library.add_tags(ids[0], ["ml"])
    window.library.add_tags(ids[1], ["ML theory"])
    window.library.add_tags(ids[2], ["ml"])
    window.sidebar.refresh()
    tags = {window.sidebar.topLevelItem(3).child(i).text(0): window.sidebar.topLevelItem(3).child(i).text(1)
            for i in range(window.sidebar.topLevelItem(3).childCount())}
    assert tags == {"ml": "2", "ML theory": "1"}
    venue = window.sidebar.topLevelItem(1).child(0)
    assert (venue.text(0), venue.text(1)) == ("ICML 2026", "read 0 of 38")
    tag_item = window.sidebar.topLevelItem(3).child(0)
    rect = window.sidebar.visualItemRect(tag_item)
    qtbot.mouseClick(window.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.search_box.text() == 'tag:"ml"'
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    assert window.sidebar.rename_tag("ML theory", "ML") is True
    assert window.library.tags() == [("ml", 3)]
    assert window.sidebar.delete_tag("ml", confirm=True) is True
    assert window.library.tags() == []
    assert window.library.paper(ids[0]).tags == []


def test_a_tag_holding_a_quote_clicked_in_the_sidebar_lists_its_paper(make_window, qtbot):
    """The sidebar dropped the quote (`tag:"say  hi "`) and listed nothing; a doubled quote keeps it."""
    window = make_window()
    tagged = window.library.ids()[7]
    window.library.add_tags(tagged, ['say "hi"'])
    window.sidebar.refresh()
    tags = window.sidebar.topLevelItem(3)
    item = next(tags.child(i) for i in range(tags.childCount()) if tags.child(i).text(0) == 'say "hi"')
    window.sidebar.scrollToItem(item)
    qtbot.mouseClick(window.sidebar.viewport(), Qt.MouseButton.LeftButton,
                     pos=window.sidebar.visualItemRect(item).center())
    assert window.search_box.text() == 'tag:"say ""hi"""'
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=10000)
    assert window.model.paper_id(0) == tagged


def test_tag_completion_offers_existing_tags(make_window):
    window = make_window()
    window.library.add_tags(window.library.ids()[5], ["Machine Learning"])
    window.select_row(1)
    assert "Machine Learning" in window.tag_editor.input.completer().model().stringList()
    window.tag_editor.input.setText("machine learning")
    window.tag_editor.input.returnPressed.emit()
    assert window.library.paper(window.current_paper_id()).tags == ["Machine Learning"]


def test_import_and_drop_run_in_background(make_window, qtbot, tmp_path):
    window = make_window()
    corpus = tmp_path / "extra.txt"
    corpus.write_text("NeurIPS 2025 Papers\n\nA new abstract about quokkas.\n\nAnother about wombats.\n")
    assert window.actions_.start_import([corpus]) is True
    qtbot.waitUntil(lambda: window.actions_.last_import is not None, timeout=10000)
    report, _notes = window.actions_.last_import
    assert (len(report.new), len(report.unchanged)) == (2, 0)
    qtbot.waitUntil(lambda: window.model.rowCount() == 40, timeout=10000)  # the new rows come from the search worker
    window.actions_.last_import = None
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(corpus))])
    drop = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                      Qt.KeyboardModifier.NoModifier)
    window.dropEvent(drop)
    qtbot.waitUntil(lambda: window.actions_.last_import is not None, timeout=10000)
    assert len(window.actions_.last_import[0].unchanged) == 2
    window.actions_.last_import = None
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\x00\x01binary")
    window.actions_.start_import([bad])
    qtbot.waitUntil(lambda: window.actions_.last_import is not None, timeout=10000)
    assert window.actions_.last_import[0] is None and "bad.txt" in window.actions_.last_import[1][0]
    assert window.library.count() == 40


def test_note_history_restores_an_earlier_version(make_window, qtbot, monkeypatch):
    from desktop.window.dialogs import NoteHistoryDialog

    window = make_window()
    paper_id = window.current_paper_id()
    for text in ("v1", "v2", "v3"):  # three saved versions (as from three editing sessions elsewhere)
        window.apply_changes(window.library.set_note(paper_id, text), outside=True)
    dialog = NoteHistoryDialog(window.library, paper_id, window.note_editor.text(), window)
    assert [dialog.versions.item(i).data(Qt.ItemDataRole.UserRole) for i in range(dialog.versions.count())] == [
        "v3", "v2", "v1"]
    monkeypatch.setattr(NoteHistoryDialog, "exec", lambda self: 1)
    monkeypatch.setattr(NoteHistoryDialog, "chosen_text", lambda self: "v1")
    window.actions_.note_history_dialog()
    assert window.library.paper(paper_id).note == "v1"
    assert [t for _w, t in window.library.note_history(paper_id)] == ["v1", "v2", "v3"]


def test_dark_theme_and_back(make_window):
    window = make_window()
    window.actions_.set_theme("dark")
    assert theme.is_dark(QApplication.instance().palette())
    assert QSettings().value("view/theme") == "dark"
    window.actions_.set_theme("light")
    assert not theme.is_dark(QApplication.instance().palette())
    assert window.palette().color(QPalette.ColorRole.Window).lightness() > 128


def test_every_main_widget_has_an_accessible_name(make_window):
    names = {"searchBox": "Search papers", "paperList": "Papers", "readerView": "Abstract", "ratingWidget": "Rating",
             "tagEditor": "Tags", "noteEditor": "Note", "sidebar": "Library, venues, ratings and tags",
             "tagInput": "New tag", "noteText": "Note (Markdown)"}
    window = make_window()
    for widget in (window.search_box, window.paper_list, window.reader, window.rating_widget, window.tag_editor,
                   window.note_editor, window.sidebar, window.tag_editor.input, window.note_editor.editor):
        assert widget.accessibleName() == names[widget.objectName()], widget.objectName()
