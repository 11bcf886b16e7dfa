"""Window behaviour a newcomer's test found wanting: focus, outside changes, long tags, huge abstracts."""

from pathlib import Path

from PySide6.QtCore import Qt

from db.paper import PaperRecord
from db.text.render import READER_MAX_CHARS, note_to_html
from tests.helpers.runner import margin

ROOT = Path(__file__).resolve().parents[2]


def test_the_list_has_focus_at_start_so_triage_keys_work(make_window, qtbot):
    window = make_window()
    window.activateWindow()
    assert window.focusWidget() is window.paper_list
    qtbot.keyClick(window.paper_list, Qt.Key.Key_J)
    assert window.paper_list.currentIndex().row() == 1
    assert window.search_box.text() == ""


def test_changes_from_the_command_line_appear_in_the_open_window(make_window, qtbot, library_dir):
    window = make_window()
    paper_id = window.current_paper_id()
    result = margin("annotate", paper_id, "--rating", "4", "--tag", "from-cli", "--note", "written by the CLI",
                    library=library_dir, subprocess=True)  # another process
    assert result.returncode == 0, result.stderr
    window.watcher.timer.setInterval(50)
    qtbot.waitUntil(lambda: window.rating_widget.rating() == 4, timeout=10000)
    assert window.tag_editor.tags() == ["from-cli"]
    assert window.note_editor.text() == "written by the CLI"


def test_a_note_changed_elsewhere_is_kept_in_history_not_overwritten(make_window, qtbot, library_dir):
    from db.library.library import Library

    window = make_window()
    window.watcher.timer.stop()  # the window has not seen the outside change yet
    paper_id = window.current_paper_id()
    window.note_editor.editor.setPlainText("window draft")
    window.note_editor.flush()
    with Library.open(library_dir) as other:
        other.set_note(paper_id, "important note from the command line")
    window.note_editor.editor.setPlainText("window draft, continued")
    window.note_editor.flush()
    history = [text for _when, text in window.library.note_history(paper_id)]
    assert "important note from the command line" in history
    assert window.library.paper(paper_id).note == "window draft, continued"
    assert "changed outside this window" in window.statusBar().currentMessage()


def test_a_200_character_tag_does_not_widen_the_window(make_window, qtbot):
    window = make_window()
    width = window.width()
    window.tag_editor.input.setText("w" * 200)
    qtbot.keyClick(window.tag_editor.input, Qt.Key.Key_Return)
    for tag in ("agents", "to read", "graph neural nets", "theory", "more tags here"):
        window.tag_editor.input.setText(tag)
        qtbot.keyClick(window.tag_editor.input, Qt.Key.Key_Return)
    qtbot.wait(50)
    assert len(window.library.paper(window.current_paper_id()).tags) == 6
    assert window.width() == width
    assert window.sidebar.width() > 100


def test_a_huge_abstract_is_shown_cut(make_window, qtbot):
    window = make_window()
    huge = "word " * 400_000  # 2 MB in one paragraph
    window.apply_changes(window.library.import_records([PaperRecord(title="Huge", abstract=huge)]).changes)
    paper_id = window.library.ids()[-1]
    assert window.select_paper(paper_id)
    text = window.reader.toPlainText()
    assert len(text) < READER_MAX_CHARS + 2000
    assert "more characters of this abstract are not shown" in text


def test_note_preview_shows_display_math():
    html = note_to_html("Sum:\n\n$$\\sum_i x_i$$\n\nInline $\\Omega(n)$, and $50.")
    # subscripts rendered (issue 14; this asserted the raw "∑_i x_i" before)
    assert '<p class="math">∑<sub><i>i</i></sub> <i>x</i><sub><i>i</i></sub></p>' in html and "$$" not in html
    assert '<span class="math">Ω(<i>n</i>)</span>' in html and "$50" in html


def test_an_overlong_title_is_refused_with_a_message(make_window, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    window = make_window()
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *args: warnings.append(args[2]))
    assert window.set_title("t" * 1001) is False
    assert "at most 1,000 characters" in warnings[0]
    assert window.library.paper(window.current_paper_id()).user_title is None
    assert window.undo_stack.count() == 0
    assert window.set_title("A fine title") is True
    assert window.library.paper(window.current_paper_id()).label == "A fine title"


def test_hostile_titles_and_tags_are_shown_as_written_in_tooltips_and_dialogs(make_window, qtbot, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from db.changes import Changes
    from desktop.list.paper_model import LABEL

    window = make_window()
    hostile = "<img src=/dev/zero> <b>bold</b>"
    report = window.library.import_records([PaperRecord(title=hostile, abstract="A hostile title, " * 5)])
    window.apply_changes(report.changes)
    paper_id = report.new[0]
    qtbot.waitUntil(lambda: window.model.row_of(paper_id) is not None, timeout=5000)
    tip = window.model.index(window.model.row_of(paper_id), LABEL).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == "<qt>&lt;img src=/dev/zero&gt; &lt;b&gt;bold&lt;/b&gt;</qt>"  # rich text showing the text
    window.apply_changes(window.library.add_tags(paper_id, [hostile]) | Changes())
    assert window.select_paper(paper_id)
    chip = window.tag_editor.findChild(object, "tagChip")
    assert "&lt;img" in chip.toolTip() and "<img" not in chip.toolTip()
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *a: (
        asked.append(text), QMessageBox.StandardButton.No)[1])
    window.sidebar.delete_tag(hostile)
    assert len(asked) == 1 and "<img" not in asked[0] and "&lt;img src=/dev/zero&gt;" in asked[0]
