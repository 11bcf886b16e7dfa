"""Papers another process imports appear in the window's current search (a new user's trial: with `gan` in the
box, 40 GAN papers imported from the command line never showed — the window searched while the command line was
still writing the index, got the index as it stood, and was not asked again). A search answered from an index
another process is writing is asked again until the index is up to date."""

from __future__ import annotations

from db.library.library import Library
from db.paper import PaperRecord
from tests.system.test_search import _hold_index_lock


def test_papers_imported_elsewhere_while_the_index_is_being_written_join_the_search(make_window, library_dir,
                                                                                   qtbot):
    window = make_window()
    window.set_query("quokka")
    qtbot.waitUntil(lambda: window.search.query == "quokka", timeout=10000)
    assert window.model.rowCount() == 0
    with Library.open(library_dir, seed=False) as other:
        holder = _hold_index_lock(other)  # the command line, still writing the index after its import
        try:
            other.import_records([PaperRecord(title=f"Quokka {i}", abstract=f"Quokkas of island {i} hop.",
                                              venue="X 2026", year=2026) for i in range(3)])
            # the window hears of the import and searches again: from the index as it stands, and says so
            qtbot.waitUntil(lambda: "another Margin process has been writing the search index"
                            in window.statusBar().currentMessage(), timeout=15000)
            assert window.model.rowCount() == 0
        finally:
            holder.kill()
            holder.wait()
    qtbot.waitUntil(lambda: window.model.rowCount() == 3, timeout=15000)  # asked again once the lock was free
