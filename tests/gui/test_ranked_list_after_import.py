"""A ranked list (a search by words, `similar:`, Recommended) searched again because an import added papers keeps
the rows it showed in their order; the import's matches come after them, and the status bar says F5 ranks
everything again (a new user's trial: *Similar papers* re-ordered and changed its rows after an import)."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.helpers.window import search


def test_an_import_leaves_a_ranked_lists_rows_in_place_and_adds_its_matches_after_them(make_window, qtbot,
                                                                                          tmp_path):
    window = make_window()
    window.setProperty("quietImport", True)
    search(qtbot, window, "learning")
    before = window.model.given_ids()
    assert len(before) > 3
    papers = tmp_path / "strong.json"  # papers about nothing but the query's word: BM25 ranks them first
    papers.write_text(json.dumps([{"title": f"Learning learning learning {i}", "abstract": "Learning to learn "
                                   f"by learning, learning about learning number {i}."} for i in range(3)]),
                      encoding="utf-8")
    assert window.actions_.start_import([papers])
    qtbot.waitUntil(lambda: len(window.model.given_ids()) == len(before) + 3, timeout=30000)
    after = window.model.given_ids()
    assert after[:len(before)] == before  # the rows shown stay where they were
    assert "at the end of the list" in window.statusBar().currentMessage()
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_F5)  # View → Refresh list
    qtbot.waitUntil(lambda: window.model.given_ids() != after, timeout=30000)  # F5: ranked anew, theirs first
    assert window.library.paper(window.model.given_ids()[0]).title.startswith("Learning learning")
