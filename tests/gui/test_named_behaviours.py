"""Behaviours users depend on that the suite let through when they were broken on purpose (issue 19's
planted bugs): each test here fails on that bug. Run one with the bug planted to see it fail."""

from __future__ import annotations

import random
import re
import sqlite3
import time

import pytest
from PySide6.QtCore import Qt

from db.library.backup import backup_folder, write_backup
from db.library.library import Library
from db.paper import PaperRecord
from tests.helpers.faults import db_state
from tests.helpers.records import papers

FILLER = ("graph kernel policy gradient tensor sparse manifold bandit prior flow " * 5).split()


def test_a_word_in_the_title_ranks_above_the_same_word_in_an_abstract_of_equal_length(tmp_path):
    """Planted: no title boost (TITLE_BOOST = 1) — the two papers then tie and library order puts B first."""
    from db.query import run_query
    from db.search.index import SearchIndex

    with Library.open(tmp_path / "lib", seed=False) as library:
        abstract_b = " ".join(FILLER[:25] + ["quokka"] + FILLER[26:])
        library.import_records([
            PaperRecord(title="Wombat", abstract=abstract_b, source="t"),  # first in library order
            PaperRecord(title="Quokka", abstract=" ".join(FILLER), source="t"),
        ])
        index = SearchIndex.for_library(library)
        index.open(library)
        found = [library.paper(paper_id).label for paper_id in run_query(library, "quokka", index).ids]
    assert found == ["Quokka", "Wombat"]


def test_undo_gives_back_the_previous_rating_not_nothing(make_window, qtbot):
    """Planted: undo restores None (the old test started from an unrated paper, where both agree)."""
    window = make_window()
    window.select_row(3, by_user=True)
    paper_id = window.current_paper_id()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_2)
    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)
    assert window.library.paper(paper_id).rating == 4
    window.undo_stack.undo()
    assert window.library.paper(paper_id).rating == 2
    window.undo_stack.undo()
    assert window.library.paper(paper_id).rating is None


def test_a_paper_counts_as_read_after_two_seconds_not_before(make_window, qtbot, monkeypatch):
    """The README's two seconds, with the window's own timer (the old test set its own 50 ms)."""
    window = make_window()
    monkeypatch.setattr(window, "isActiveWindow", lambda: True)  # offscreen windows are never active
    window.select_row(5, by_user=True)
    paper_id = window.current_paper_id()
    assert window.reading.timer.interval() == 2000
    started = time.monotonic()
    qtbot.waitUntil(lambda: window.library.paper(paper_id).read, timeout=3500)  # polled: seen as soon as it is read
    assert time.monotonic() - started >= 1.9, "marked read before two seconds"


def test_the_window_marks_the_searched_words_in_the_reader(make_window, qtbot):
    """Planted: the window passes no search words to the reader. (`"hit" in toHtml()` was always true: Qt's
    HTML says "white-space".) A marked word is a run with a background colour."""
    window = make_window()
    window.set_query("reasoning")
    qtbot.waitUntil(lambda: bool(window.model.rowCount() and window.search.highlight), timeout=10000)
    window.select_row(0, by_user=True)  # (current already: the reader follows once the list has painted)
    qtbot.waitUntil(lambda: "background-color:" in window.reader.toHtml(), timeout=10000)
    marked = re.findall(r'background-color:[^"]*;">([^<]+)</span>', window.reader.toHtml())
    assert len(marked) >= 2 and {word.lower() for word in marked} == {"reasoning"}, marked


def test_backups_keep_the_newest_ten(library):
    """The README's number, not the constant's (a test written with KEEP passed for any value)."""
    from datetime import UTC, datetime, timedelta

    paper_id = library.ids()[0]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for hour in range(13):
        library.set_rating(paper_id, hour % 5 + 1)
        write_backup(library, now=start + timedelta(hours=hour))
    names = sorted(path.name for path in backup_folder(library).glob("margin-backup-*.json"))
    assert len(names) == 10
    assert names[0] == "margin-backup-20260101-030000Z.json"


def test_an_import_that_fails_half_way_leaves_the_library_as_it_was(library, monkeypatch):
    """Deterministic (no tmpfs, no root): the write of the planned rows fails after the first statement."""
    library_dir = library.folder
    before = db_state(library_dir)
    real = library._conn

    class Failing:
        calls = 0

        def __getattr__(self, name):
            return getattr(real, name)

        def executemany(self, sql, rows):
            Failing.calls += 1
            result = real.executemany(sql, rows)
            if Failing.calls == 2:
                raise sqlite3.OperationalError("disk I/O error")
            return result

    records = papers(50, title="Atomic paper {i}", abstract="About atoms number {i}.", source="t")
    from db.library import importing

    original = importing.write_import

    def write_import(self, conn, plan):
        return original(self, Failing(), plan)

    monkeypatch.setattr(importing, "write_import", write_import)
    with pytest.raises(Exception):  # noqa: B017 - whatever the library makes of it, nothing is kept
        library.import_records(records)
    monkeypatch.undo()
    assert db_state(library_dir) == before


def test_a_capital_letter_typed_in_the_list_is_no_triage_key(make_window, qtbot):
    """A new user's trial: typing `PolyNeXt` in the list — Shift+N opened the note and `eXt` went into it."""
    window = make_window()
    window.activateWindow()
    paper_id = window.current_paper_id()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(window.paper_list, "eXt")
    assert window.note_editor.text() == "" and window.library.paper(paper_id).note == ""
    qtbot.keyClick(window.paper_list, Qt.Key.Key_N)  # the key itself still opens the note
    assert window.note_editor.editor.hasFocus() or window.focusWidget() is window.note_editor.editor


def test_recommendations_in_a_venue_rank_the_whole_venue_not_the_library_wide_top_50(library):
    """A new user's trial: `is:recommended venue:"X"` filtered the library-wide top 50, so a venue crowded out
    by another one's close matches got only its share of them (here: none)."""
    from db.query import run_query
    from db.search.index import SearchIndex

    icml = library.ids()
    seed = library.paper(icml[0])
    library.set_rating(icml[0], 5)
    library.set_rating(icml[1], 1)
    words = seed.abstract.split()
    echoes = []
    for n in range(80):  # the seed's words in another order each time: alike for tf-idf, distinct papers
        shuffled = list(words)
        random.Random(n).shuffle(shuffled)
        echoes.append(PaperRecord(title=f"Echo {n}", abstract=" ".join(shuffled), venue="Echo 2025", source="t"))
    assert len(library.import_records(echoes).new) == 80
    index = SearchIndex.for_library(library)
    index.open(library)
    everywhere = run_query(library, "is:recommended", index).ids
    assert not set(everywhere) & set(icml)  # the echoes fill the library-wide top 50
    in_venue = run_query(library, 'is:recommended venue:"ICML 2026"', index).ids
    assert len(in_venue) >= 10 and set(in_venue) <= set(icml) - set(icml[:2])
