"""The reading loop as a person uses it (issue 12): real key events and clicks, real pauses, a second process on
the same library. Nothing here shortens Margin's own delays (autosave, the read dwell, the outside-change check);
the rest of the loop, with short delays, is tests/gui/test_reading_loop.py.
"""

from __future__ import annotations

import csv
import io
import json
import threading

import bibtexparser
import pytest
from bibtexparser.middlewares import LatexDecodingMiddleware
from PySide6.QtCore import Qt

from db.exporters.registry import export
from db.library.library import Library
from tests.helpers.runner import margin
from tests.helpers.window import activate, click_row

# 30 chunks typed one after another, with the pause (seconds) after each: 0.3 to 3 s, about 30 s in all
# (ASCII only: QTest types no other keys)
CHUNKS = ["Lower bound: ", "the argument ", "of Section 3 ", "needs $\\Omega(n)$ ", "queries, not ",
          "O(log n). ", "Budget: $50 ", "for data and ", "$60 for ", "compute; 50% ", "done # v2 ",
          "{braces} stay. ", "Compare with ", "CoT lower ", "bounds and ", "GLEAN's ", "evidence ", "accumulation ",
          "-- check the ", "proof of ", "Lemma 2 ", "again, then ", "write to ", "the authors ", "about the ",
          "constant c. ", "Cafe notes: ", "a b c ", "end of the ", "note."]


PAUSES = [0.3, 1.5, 0.7, 3.0, 1.0, 2.0, 0.5, 1.2, 0.4, 1.8, 0.9, 2.5, 0.6, 1.1, 0.3, 1.6, 0.8, 1.0, 2.2, 0.5,
          1.4, 0.7, 0.3, 1.9, 0.6, 1.0, 0.4, 1.3, 0.8, 0.5]


# ------------------------------------------------------------------ 1. a note typed with pauses
@pytest.mark.slow  # about half a minute of typing with pauses
def test_a_note_typed_with_pauses_while_another_process_annotates_is_saved_exactly(make_window, qtbot,
                                                                                    library_dir):
    assert len("".join(CHUNKS)) >= 300 and 25 <= sum(PAUSES) <= 35
    window = make_window()
    activate(window, qtbot)
    ids = window.library.ids()
    click_row(window, qtbot, 2)
    paper_id = window.current_paper_id()
    assert paper_id == ids[2]
    others = [paper for paper in ids if paper != paper_id][:6]
    stop = threading.Event()
    outside = []

    def annotate_elsewhere() -> None:  # the command line rating and tagging other papers meanwhile
        n = 0
        while not stop.is_set():
            outside.append(margin("annotate", others[n % len(others)], "--rating", str(n % 5 + 1), "--tag",
                                  f"elsewhere {n}", library=library_dir, subprocess=True))
            n += 1

    worker = threading.Thread(target=annotate_elsewhere)
    worker.start()
    editor = window.note_editor.editor
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton)
    typed = ""
    try:
        for chunk, pause in zip(CHUNKS, PAUSES, strict=True):
            qtbot.keyClicks(editor, chunk)
            typed += chunk
            assert editor.toPlainText() == typed  # nothing ever moved the cursor or replaced the text
            qtbot.wait(int(pause * 1000))
    finally:
        stop.set()
        worker.join(timeout=180)
    assert len(typed) >= 300
    assert [r.returncode for r in outside] == [0] * len(outside) and len(outside) >= 3, outside[-1:]
    qtbot.wait(1500)  # the autosave, the outside-change check and the index catch up
    assert editor.toPlainText() == typed
    assert editor.textCursor().position() == len(typed)  # the cursor stayed where the user typed
    assert window.current_paper_id() == paper_id
    with Library.open(library_dir) as other:
        paper = other.paper(paper_id)
        assert paper.note == typed
        assert other.paper(others[0]).tags  # the other process's edits landed too
    # every export carries the note exactly
    papers = [paper]
    assert json.loads(export(papers, "json"))["papers"][0]["annotations"]["note"] == typed
    assert json.loads(export(papers, "csl-json"))[0]["custom"]["note"] == typed  # never in CSL `note` (issue 13)
    assert next(csv.DictReader(io.StringIO(export(papers, "csv").lstrip("\ufeff"))))["note"] == typed
    entry = bibtexparser.parse_string(export(papers, "bibtex"), append_middleware=[LatexDecodingMiddleware()])
    assert entry.entries[0].fields_dict["annote"].value == typed
    assert typed in export(papers, "markdown")
    # Ctrl+Z undoes the last words typed (the undo history is the user's), Ctrl+Shift+Z brings them back
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    undone = editor.toPlainText()
    assert undone != typed and typed.startswith(undone)
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert editor.toPlainText() == typed
