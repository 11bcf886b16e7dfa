"""A lab member's window (issue 27) against a real PostgreSQL server: the window's automatic sync of a library that
only takes part in a project (no personal sync) brings the project's papers, criteria and reasons and the
owner's decisions; a decision by key (a real key event) waits in the status bar, File → Sync now sends it, and the
project panel's figures and the Conflicts entry follow."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from db.library import Library
from db.sync import open_for_sync, sync_library
from db.sync.projects import Projects
from tests.helpers.lab import add_members, join, share_papers


@pytest.mark.slow
def test_a_members_window_syncs_the_project_and_its_figures_follow(make_window, qtbot, library_dir, postgres,
                                                                   tmp_path, monkeypatch):
    from desktop.window import sync

    monkeypatch.setattr(sync, "FIRST_SYNC_MS", 50)
    monkeypatch.setattr(sync, "LABEL_DELAY_MS", 20)
    add_members(postgres, "alice", "bob")
    owner = tmp_path / "alice"
    ids = share_papers(postgres, owner, 10, invite=("bob",), criteria="RL with code", reasons=("off-topic", "no code"))
    with Library.open(owner, seed=False) as library:
        for paper_id in ids:
            library.set_decision(paper_id, "exclude", "off-topic")
    with open_for_sync(owner) as library:
        sync_library(library)
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.unblind("icml")
    join(postgres, library_dir, "bob")

    window = make_window()  # the first automatic sync brings the papers, criteria and reasons
    qtbot.waitUntil(lambda: window.library.count() == 10, timeout=20000)
    label = window.sync.label
    qtbot.waitUntil(lambda: label.text() == "Synced", timeout=10000)
    dock = window.criteria_dock
    dock.show()
    qtbot.waitUntil(lambda: dock.criteria.toPlainText() == "RL with code", timeout=5000)
    assert window.library.exclusion_reasons() == ["off-topic", "no code"]
    qtbot.waitUntil(lambda: "unblinded" in dock.project_panel.summary.text(), timeout=5000)
    qtbot.waitUntil(lambda: window.model.rowCount() == 10, timeout=10000)
    window.select_row(0)
    paper_id = window.current_paper_id()
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_I)  # bob includes what alice excluded: a conflict
    assert window.library.paper(paper_id).decision == "include"
    qtbot.waitUntil(lambda: label.text() == "Sync: 1 changed field waiting", timeout=5000)
    qtbot.waitUntil(lambda: "Conflicts: 1 " in dock.project_panel.figures.text(), timeout=5000)
    window.sync.sync_now()
    qtbot.waitUntil(lambda: label.text() == "Synced", timeout=20000)
    assert postgres.sql("SELECT paper, decision FROM margin_project_decisions WHERE reviewer = 'bob'") == \
        [(paper_id, "include")]

    def conflicts() -> str:  # looked up each time: the sidebar rebuilds its items when papers arrive
        top = window.sidebar.topLevelItem(0)
        return next(top.child(i).text(1) for i in range(top.childCount()) if top.child(i).text(0) == "Conflicts")

    qtbot.waitUntil(lambda: conflicts() == "1", timeout=5000)
