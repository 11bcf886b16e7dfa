"""File → Back up now, and saved searches kept in the library (issue 31, item 6)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings

from db.library.backup import backups
from db.library.library import Library


def test_back_up_now_writes_a_backup_with_the_saved_searches(make_window, qtbot, library_dir):
    window = make_window()
    window.sidebar.save_search("tag:theory", name="Theory")
    qtbot.waitUntil(lambda: window.library.saved_searches() == [("Theory", "tag:theory")], timeout=10000)
    window.actions_.back_up.trigger()
    qtbot.waitUntil(lambda: "Backed up to" in window.statusBar().currentMessage(), timeout=60000)
    newest = backups(window.library)[-1]
    assert json.loads(newest.read_text(encoding="utf-8"))["state"]["saved_searches"] == [["Theory", "tag:theory"]]


def test_saved_searches_an_earlier_margin_kept_in_qsettings_move_into_the_library_once(make_window, library_dir):
    Library.open(library_dir).close()
    settings = QSettings()
    key = "savedSearches/" + str(Path(library_dir).resolve()).replace("/", "|")
    settings.setValue(key, json.dumps([["Old one", "venue:\"ICML 2026\""], ["Mine", "tag:x"]]))
    settings.sync()
    window = make_window()
    assert window.library.saved_searches() == [("Old one", 'venue:"ICML 2026"'), ("Mine", "tag:x")]
    assert not QSettings().contains(key)
    names = [window.sidebar.topLevelItem(i).child(j).text(0) for i in range(window.sidebar.topLevelItemCount())
             for j in range(window.sidebar.topLevelItem(i).childCount())]
    assert "Old one" in names and "Mine" in names
