"""Absurd sizes and bidi text in the window (issue 31, items 1 and 5): a record with a 200,000-character title and
a 5 MB abstract, imported and clicked, leaves the window responsive; a title, tag or note with U+202E never
reaches the list, the reader or the note preview with it."""

from __future__ import annotations

import json
import random
import sqlite3
import time

import pytest
from PySide6.QtCore import QTimer

from db.import_job import import_paths
from db.library.library import Library
from db.text.cleaning import FSI, PDI, strip_bidi_but_isolates
from db.text.render import READER_MAX_CHARS
from tests.helpers.window import click_row

RLO, PDF = "\u202e", "\u202c"
BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]


def _absurd_abstract(chars: int = 5_400_000) -> str:
    rng = random.Random(31)
    words = "model learning graph neural policy data training loss theorem bound".split()
    return " ".join(f"{rng.choice(words)}{rng.randint(0, 99999)}" for _ in range(chars // 9))[:chars]


class StallMeter:
    """The longest gap between ticks of a 10 ms timer on the GUI thread: how long the window was frozen."""

    def __init__(self):
        self.gaps: list[float] = []
        self._last = time.monotonic()
        self.timer = QTimer(interval=10)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        now = time.monotonic()
        self.gaps.append(now - self._last)
        self._last = now

    def stop(self) -> float:
        self.timer.stop()
        self._tick()
        return max(self.gaps)


def _row_of(window, paper_id: str) -> int:
    return window.model.row_of(paper_id)


@pytest.mark.slow  # the import of a 5.6 MB file, and a stall measured by the clock (the issue's ≤ 200 ms)
def test_a_5_mb_abstract_imported_and_clicked_leaves_the_window_responsive(tmp_path, library_dir, make_window,
                                                                          qtbot):
    source = tmp_path / "absurd.json"
    source.write_text(json.dumps([{"title": "T" * 200_000, "abstract": _absurd_abstract(), "author": "A; B"}]),
                      encoding="utf-8")
    with Library.open(library_dir) as library:
        result = import_paths(library, [source])
    (paper_id,) = result.new
    assert any("abstract cut to 50,000 characters" in note and "title cut" in note for note in result.notes)
    window = make_window()
    qtbot.waitUntil(lambda: "map" in window.docks._docks, timeout=60000)  # the docks' imports are another stall
    qtbot.wait(200)
    row = _row_of(window, paper_id)
    meter = StallMeter()
    click_row(window, qtbot, row)
    qtbot.waitUntil(lambda: window.current_paper_id() == paper_id and "TTTT" in window.reader.toPlainText(),
                    timeout=60000)
    qtbot.wait(300)
    longest = meter.stop()
    assert longest <= 0.2, f"the GUI thread stalled {longest * 1000:.0f} ms"


def test_a_library_written_before_the_limits_shows_its_absurd_paper_cut(library_dir, make_window, qtbot):
    """A library an older Margin filled: the row and the reader lay out a bounded amount of text (a condition,
    not a clock: what the widgets hold)."""
    with Library.open(library_dir) as library:
        paper_id = library.ids()[0]
    with sqlite3.connect(library_dir / "library.db") as conn:  # as an older Margin stored it
        conn.execute("UPDATE papers SET title = ?, label = ?, abstract = ? WHERE id = ?",
                     ("T" * 200_000, "T" * 200_000, _absurd_abstract(), paper_id))
    window = make_window()
    row = _row_of(window, paper_id)
    assert len(window.model.index(row, 0).data()) <= 1001
    click_row(window, qtbot, row)
    qtbot.waitUntil(lambda: "TTTT" in window.reader.toPlainText(), timeout=60000)
    assert len(window.reader.toPlainText()) < READER_MAX_CHARS + 2_000


def _reorders(text: str) -> bool:
    """True when `text` holds a bidirectional control other than the window's own isolates around a field (FSI …
    PDI, balanced: db.text.cleaning.isolate), which only keep a field from reordering its neighbours."""
    return strip_bidi_but_isolates(text) != text or any(c in text for c in BIDI if c not in (FSI, PDI))


def test_u202e_never_reaches_the_list_the_reader_or_the_preview(library_dir, make_window, qtbot):
    with Library.open(library_dir) as library:
        paper_id = library.ids()[0]
    with sqlite3.connect(library_dir / "library.db") as conn:  # an older Margin kept the overrides
        conn.execute("UPDATE papers SET title = ?, label = ? WHERE id = ?",
                     (f"Normal {RLO}evil{PDF} paper",) * 2 + (paper_id,))
        conn.execute("INSERT OR REPLACE INTO annotations (paper_id, note, updated_at) VALUES (?, ?, ?)",
                     (paper_id, f"see {RLO}this{PDF} now", "2026-01-01T00:00:00+00:00"))
    window = make_window()
    row = _row_of(window, paper_id)
    shown = [window.model.index(row, column).data() or "" for column in range(window.model.columnCount())]
    assert "Normal evil paper" in shown and not _reorders("".join(shown))
    click_row(window, qtbot, row)
    qtbot.waitUntil(lambda: "evil" in window.reader.toPlainText(), timeout=30000)
    assert not _reorders(window.reader.toPlainText())
    notes = window.note_editor
    notes.tabs.setCurrentWidget(notes.preview)
    qtbot.waitUntil(lambda: "this" in notes.preview.toPlainText(), timeout=30000)
    assert not any(c in notes.preview.toPlainText() for c in BIDI)
