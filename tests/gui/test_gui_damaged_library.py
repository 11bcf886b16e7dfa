"""A damaged library.db in the window (issue 18, item 3): a dialog names the file and the newest backup and
offers to rebuild; rebuilding opens the window on the rebuilt library with the backup's annotations;
declining changes nothing."""

from __future__ import annotations

from db.library.backup import write_backup
from db.library.library import Library
from desktop.app import damaged_box, open_window
from tests.helpers.faults import btree_pages, damage_page
from tests.helpers.records import papers


def _annotated_library(folder):
    with Library.open(folder) as library:
        ids = library.ids()
        library.set_rating(ids[0], 5)
        library.add_tags(ids[0], ["<b>bold</b> tag"])
        library.set_note(ids[0], "kept by the backup")
        write_backup(library)
    return ids[0]


def test_the_window_offers_to_rebuild_and_opens_on_the_rebuilt_library(qtbot, library_dir):
    paper_id = _annotated_library(library_dir)
    damage_page(library_dir, btree_pages(library_dir, "papers", "internal")[0])
    asked = []

    def ask(error):
        asked.append(error)
        box = damaged_box(error)
        assert box.text().startswith("<qt>")  # shown as written, never as markup
        for fragment in ("library.db", "damaged", error.backup.name):
            assert fragment in box.text()
        assert [button.text() for button in box.buttons()] == ["Rebuild the library", "Quit"]
        return True

    window = open_window(library_dir, ask_rebuild=ask)
    qtbot.addWidget(window)
    assert len(asked) == 1
    paper = window.library.paper(paper_id)
    assert (paper.rating, paper.tags, paper.note) == (5, ["<b>bold</b> tag"], "kept by the backup")
    assert "library rebuilt" in window.statusBar().currentMessage()
    assert len(list((library_dir / "backups").glob("library-damaged-*.db"))) == 1
    window.close()
    window.library.close()


def test_declining_to_rebuild_leaves_the_damaged_library_as_it_was(qtbot, library_dir):
    _annotated_library(library_dir)
    damage_page(library_dir, btree_pages(library_dir, "papers", "leaf")[0])
    before = (library_dir / "library.db").read_bytes()
    assert open_window(library_dir, ask_rebuild=lambda error: False) is None
    assert (library_dir / "library.db").read_bytes() == before
    assert not list((library_dir / "backups").glob("library-damaged-*"))


def _damage_far_down(folder):
    """1,500 papers more, and a damaged leaf page far down the papers (about four fifths of the way): neither an
    end of the table nor among the rows the list's first paint reads."""
    with Library.open(folder) as library:
        library.import_records(papers(1500, abstract="Abstract number {i}, long enough to fill a page. " * 4))
    leaves = btree_pages(folder, "papers", "leaf")
    damage_page(folder, leaves[len(leaves) * 4 // 5])


def test_a_damaged_page_the_open_did_not_read_is_offered_for_rebuilding_after_the_first_paint(qtbot, library_dir):
    """Only the ends of the tables are read before the window is built; the pages between are read after its
    list's first paint (desktop.window.page_check), and damage there gets the rebuild offered at open: the
    window is replaced by one on the rebuilt library, with the backup's annotations."""
    from desktop.window.library_menu import switcher

    paper_id = _annotated_library(library_dir)
    _damage_far_down(library_dir)
    asked, replaced = [], []
    window = open_window(library_dir, ask_rebuild=lambda error: asked.append(error) or True)
    assert window is not None and not asked  # the quick open does not read the damaged page
    switcher().switched.connect(replaced.append)
    window.show()
    qtbot.waitUntil(lambda: bool(replaced), timeout=20000)
    (error,) = asked
    assert "library.db" in str(error) and error.backup is not None
    new = replaced[0]
    qtbot.addWidget(new)
    paper = new.library.paper(paper_id)
    assert (paper.rating, paper.note) == (5, "kept by the backup")
    assert "library rebuilt" in new.statusBar().currentMessage()
    assert len(list((library_dir / "backups").glob("library-damaged-*.db"))) == 1
    new.show()
    qtbot.waitUntil(lambda: new.page_check.done, timeout=20000)
    assert new.page_check.damage is None  # the rebuilt library reads whole
    new.close()
    new.library.close()


def test_declining_the_rebuild_after_the_first_paint_closes_the_window_and_changes_nothing(qtbot, library_dir):
    _annotated_library(library_dir)
    _damage_far_down(library_dir)
    before = (library_dir / "library.db").read_bytes()
    asked = []
    window = open_window(library_dir, ask_rebuild=lambda error: asked.append(error) and False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: bool(asked) and not window.isVisible(), timeout=20000)
    window.library.close()
    assert (library_dir / "library.db").read_bytes() == before
    assert not list((library_dir / "backups").glob("library-damaged-*"))
