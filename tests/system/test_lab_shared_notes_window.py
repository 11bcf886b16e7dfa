"""A lab member's window (issue 27) against a real PostgreSQL server: after the owner unblinds and shares notes, the
window's sync (File → Sync now) brings the owner's note on a paper into the criteria dock, as written, with her
name; the member's own note on it stays theirs."""

from __future__ import annotations

import pytest

from db.library import Library
from db.sync import open_for_sync, sync_library
from db.sync.projects import Projects
from tests.helpers.lab import add_members, join, share_papers

NOTE = "Code at <https://example.org>, **check** Table 2"


@pytest.mark.slow
def test_the_windows_sync_brings_the_owners_shared_note_into_the_dock(make_window, qtbot, library_dir, postgres,
                                                                      tmp_path, monkeypatch):
    from desktop.window import sync

    monkeypatch.setattr(sync, "FIRST_SYNC_MS", 50)
    monkeypatch.setattr(sync, "LABEL_DELAY_MS", 20)
    add_members(postgres, "alice", "bob")
    owner = tmp_path / "alice"
    ids = share_papers(postgres, owner, 5, invite=("bob",))
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.edit("icml", share_notes=True)
    with Library.open(owner, seed=False) as library:
        library.set_note(ids[0], NOTE)
    with open_for_sync(owner) as library:
        sync_library(library)
    join(postgres, library_dir, "bob")

    window = make_window()  # the first automatic sync brings the papers; the project is blind: no note yet
    qtbot.waitUntil(lambda: window.library.count() == 5, timeout=20000)
    qtbot.waitUntil(lambda: window.sync.label.text() == "Synced", timeout=10000)
    dock = window.criteria_dock
    dock.show()
    view = dock.project_panel.shared
    qtbot.waitUntil(lambda: window.model.rowCount() == 5, timeout=10000)
    window.list_controller.select_paper(ids[0])
    window.library.set_note(ids[0], "bob's own")
    assert not view.isVisible()
    with Projects(postgres.conninfo_as("alice")) as alice:
        alice.unblind("icml")
    window.sync.sync_now()
    qtbot.waitUntil(lambda: view.isVisible() and NOTE in view.text.toPlainText(), timeout=20000)
    assert view.text.toPlainText() == f"alice\nNote:\n{NOTE}"
    assert window.library.paper(ids[0]).note == "bob's own"
