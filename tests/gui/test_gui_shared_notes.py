"""The other members' shared tags and notes on the current paper in the criteria dock (issue 27): what the last
project sync copied into the library (db.library.shared_annotations), shown as plain text exactly as written —
a note's HTML and Markdown stay source —, with who wrote them; never this member's own; hidden on a paper nobody
shared anything on; a sync's `shared` change updates it."""

from __future__ import annotations

import shutil

from PySide6.QtWidgets import QPlainTextEdit

from db.library.library import Library

INFO = {"role": "bob", "owner": "alice", "blind": False, "crowd": False, "criteria": "", "reasons": [],
        "members": ["alice", "bob", "carol"]}
NOTE = "Strong **baseline**; see <b>Table 2</b> <img src=x onerror=alert(1)>"


def _project(folder) -> list[str]:
    """The seeded library as bob's in project "icml": alice shared tags and a note on paper 0, carol a note on
    paper 1; bob's own row (the server's copy of his) on paper 0."""
    with Library.open(folder) as library:
        ids = library.ids()[:6]
        book = library.project_book
        book.put_project("icml", "host=nowhere user=bob", INFO)
        book.set_papers("icml", ids)
        book.set_annotations("icml", [(ids[0], "alice", ["rl", "code"], NOTE, "", ""),
                                      (ids[0], "bob", ["bobs"], "bob's own note", "", ""),
                                      (ids[1], "carol", None, "carol's note", "", "")])
        return ids


def test_the_dock_shows_the_other_members_tags_and_notes_on_the_current_paper_as_plain_text(
        make_window, qtbot, library_dir, seeded_library, monkeypatch):
    monkeypatch.setattr("desktop.window.sync.FIRST_SYNC_MS", 3_600_000)  # no sync: the copy is what is shown
    shutil.copytree(seeded_library, library_dir)
    ids = _project(library_dir)
    window = make_window()
    dock = window.criteria_dock
    dock.show()
    view = dock.project_panel.shared
    assert isinstance(view.text, QPlainTextEdit) and view.text.isReadOnly()
    window.list_controller.select_paper(ids[0])
    qtbot.waitUntil(view.isVisible)
    assert view.text.toPlainText() == f"alice\nTags: rl, code\nNote:\n{NOTE}"  # as written; bob's own not here
    window.list_controller.select_paper(ids[1])
    qtbot.waitUntil(lambda: view.text.toPlainText() == "carol\nNote:\ncarol's note")
    window.list_controller.select_paper(ids[2])
    qtbot.waitUntil(lambda: not view.isVisible())
    # a sync brings alice's tags on paper 2: the `shared` change shows them at once
    changes = window.library.project_book.set_annotations("icml", [(ids[2], "alice", ["late"], None, "", "")])
    window.apply_changes(changes)
    qtbot.waitUntil(view.isVisible)
    assert view.text.toPlainText() == "alice\nTags: late"
    assert window.library.paper(ids[0]).tags == [] and not window.library.paper(ids[0]).note  # own stay bob's
