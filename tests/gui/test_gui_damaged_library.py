"""A damaged library.db in the window (issue 18, item 3): a dialog names the file and the newest backup and
offers to rebuild; rebuilding opens the window on the rebuilt library with the backup's annotations;
declining changes nothing."""

from __future__ import annotations

from db.library.backup import write_backup
from db.library.library import Library
from desktop.app import damaged_box, open_window
from tests.helpers.faults import btree_pages, damage_page


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
