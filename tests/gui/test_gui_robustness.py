"""Window behaviour a newcomer's test found wanting: focus, outside changes, long tags, huge abstracts."""

from pathlib import Path

from PySide6.QtCore import Qt, QTimer

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
    qtbot.waitUntil(lambda: window.select_paper(paper_id), timeout=10000)  # the library's ids read on the worker
    qtbot.waitUntil(lambda: "more characters" in window.reader.toPlainText(), timeout=30000)  # rendered off the GUI
    text = window.reader.toPlainText()
    assert len(text) < READER_MAX_CHARS + 2000
    assert "more characters of this abstract are not shown" in text


def test_a_long_abstract_is_rendered_off_the_gui_thread_and_a_short_one_at_once(make_window, qtbot, monkeypatch):
    """Issue 28: the reader's HTML of a long abstract (markup, math, marks: 100 ms and more) is prepared on the
    reader's thread while the GUI thread keeps ticking; a usual abstract is shown at once, on the GUI thread."""
    import threading

    from desktop.reader import current_paper

    on_gui, ticks = [], []
    real = current_paper.paper_to_html

    def recording(*args, **kwargs):
        on_gui.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(current_paper, "paper_to_html", recording)
    window = make_window()
    long = " ".join(f"Sentence {n} bounds $\\Omega(n^{n % 7})$ with **care**." for n in range(600))
    window.apply_changes(window.library.import_records([PaperRecord(title="Long", abstract=long)]).changes)
    paper_id = window.library.ids()[-1]
    qtbot.waitUntil(lambda: window.model.row_of(paper_id) is not None, timeout=10000)  # ids read on the worker
    on_gui.clear()
    timer = QTimer(interval=5)
    timer.timeout.connect(lambda: ticks.append(bool(on_gui)))  # a tick after the rendering began
    timer.start()
    with qtbot.waitSignal(window.reader.rendered, timeout=30000):
        assert window.select_paper(paper_id)
        assert "Sentence 200" not in window.reader.toPlainText()  # not yet: the title while it renders
    timer.stop()
    assert "Sentence 200 bounds Ω" in window.reader.toPlainText()
    assert on_gui == [False], "the long abstract was rendered on the GUI thread"
    assert any(ticks), "the GUI thread did not run while the abstract rendered"

    on_gui.clear()
    assert window.select_row(0) is None and window.current_paper_id() != paper_id
    assert on_gui == [True]  # a usual abstract: at once
    assert window.library.paper(window.current_paper_id()).label[:20] in window.reader.toPlainText()


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
