"""Deleting papers: Library.delete_papers (one write path, logged), undelete, the next backup, the CLI."""

from __future__ import annotations

import json

import pytest

from db.changes import ADDED, REMOVED
from db.library.backup import read_backup, restore, write_backup
from db.library.backup_files import backups_in
from db.library.library import Library
from db.query import run_query
from db.search.index import ensure_index
from tests.helpers.runner import margin

FIRST, SECOND = "9342e12f8e8d", "3b32771a6bb5"


def _annotate(library: Library, paper_id: str) -> None:
    library.add_tags(paper_id, ["keep", "theory"])
    library.set_rating(paper_id, 4)
    library.set_note(paper_id, "first thought")
    library.set_note(paper_id, "second thought")
    library.set_title(paper_id, "My title")


def test_delete_removes_the_papers_and_their_annotations_and_says_so(library):
    _annotate(library, FIRST)
    before = library.last_change()
    changes = library.delete_papers([FIRST, SECOND])
    assert changes.papers == {FIRST, SECOND} and changes.kinds == {REMOVED}
    assert library.count() == 36 and FIRST not in library.ids()
    for table in ("annotations", "paper_tags", "note_history"):
        assert library.rows(f"SELECT count(*) FROM {table} WHERE paper_id = ?", (FIRST,)) == [(0,)]
    logged, _newest = library.changes_since(before)
    assert logged.papers == {FIRST, SECOND} and logged.kinds == {REMOVED}  # the index and other windows see it


def test_delete_of_an_unknown_id_changes_nothing(library):
    with pytest.raises(KeyError):
        library.delete_papers([FIRST, "000000000000"])
    assert library.count() == 38 and FIRST in library.ids()


def test_undelete_puts_the_papers_back_as_they_were(library):
    _annotate(library, FIRST)
    order = library.ids()
    was = library.paper(FIRST)
    history = library.note_history(FIRST)
    library.delete_papers([FIRST, SECOND])
    changes = library.undelete_papers([FIRST, SECOND])
    assert changes.papers == {FIRST, SECOND} and changes.kinds == {ADDED}
    assert library.ids() == order  # in their old places
    back = library.paper(FIRST)
    assert (back.tags, back.rating, back.note, back.user_title) == (was.tags, was.rating, was.note, was.user_title)
    assert [text for _at, text in library.note_history(FIRST)] == [text for _at, text in history]
    assert not library.undelete_papers([FIRST])  # nothing left to put back


def test_the_search_index_forgets_deleted_papers(library):
    index = ensure_index(library)
    assert FIRST in run_query(library, "BAPO", index).ids
    library.delete_papers([FIRST])
    index.sync(library)
    assert FIRST not in run_query(library, "BAPO", index).ids


def test_the_next_backup_keeps_a_deleted_papers_annotations_and_restoring_brings_them_back(library, tmp_path):
    _annotate(library, FIRST)
    write_backup(library)
    library.delete_papers([FIRST])
    path = write_backup(library)
    items = [item for item in read_backup(path)["papers"] if item["id"] == FIRST]
    annotations = items[0]["annotations"]
    assert len(items) == 1 and annotations["rating"] == 4 and sorted(annotations["tags"]) == ["keep", "theory"]
    restore(library, read_backup(path))
    back = library.paper(FIRST)
    assert back.rating == 4 and back.note == "second thought" and back.user_title == "My title"


def test_cli_delete_needs_yes_then_deletes_and_keeps_a_backup(seeded_copy, library_dir):
    assert margin("annotate", FIRST[:6], "--rating", "5", library=library_dir).returncode == 0
    asked = margin("delete", FIRST[:6], SECOND, library=library_dir)
    assert asked.returncode == 2
    assert asked.stdout == "" and len(asked.stderr.strip().splitlines()) == 1
    assert "would delete 2 papers" in asked.stderr and "--yes" in asked.stderr
    with Library.open(library_dir) as library:
        assert library.count() == 38  # nothing changed

    unknown = margin("delete", "abcdef", "--yes", library=library_dir)
    assert unknown.returncode == 1 and "abcdef" in unknown.stderr and "Traceback" not in unknown.stderr

    done = margin("delete", FIRST[:6], SECOND, "--yes", library=library_dir)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("deleted 2 papers")
    listed = json.loads(margin("list", "--json", library=library_dir).stdout)
    assert len(listed) == 36 and FIRST not in {paper["id"] for paper in listed}
    backups = sorted((library_dir / "backups").glob("margin-backup-*.json"))
    assert any(item["id"] == FIRST and item["annotations"]["rating"] == 5
               for item in read_backup(backups[-1])["papers"])
    assert margin("restore", library=library_dir).returncode == 0  # the newest backup, without the deleted
    assert FIRST not in {paper["id"] for paper in json.loads(margin("list", "--json", library=library_dir).stdout)}
    assert margin("restore", str(backups[-1]), library=library_dir).returncode == 0  # named: the deleted too
    assert FIRST in {paper["id"] for paper in json.loads(margin("list", "--json", library=library_dir).stdout)}


def test_a_library_from_before_deleting_gets_the_table(library_dir):
    import sqlite3

    Library.open(library_dir).close()
    conn = sqlite3.connect(library_dir / "library.db")
    conn.execute("DROP TABLE deleted_papers")
    conn.execute("PRAGMA user_version = 6")  # schema 6: the last before db.library.deleting's table
    conn.commit()
    conn.close()
    with Library.open(library_dir) as library:
        library.delete_papers([FIRST])
        assert library.undelete_papers([FIRST]).papers == {FIRST}


def test_restore_without_a_backup_named_takes_the_newest_backup_and_brings_no_deleted_paper_back(seeded_copy,
                                                                                                   library_dir):
    """A new user's trial: `restore` with no backup named took the newest backup not written by `margin delete`,
    older than the delete's: a note written after it was not restored and the deleted papers came back, one with
    its rating. It takes the newest backup (the delete's holds every annotated paper) and leaves the deleted out,
    those deleted at that delete and at the one before."""
    with Library.open(library_dir) as library:
        third, fourth = library.ids()[2:4]
        library.set_rating(FIRST, 2)
        library.add_tags(SECOND, ["keep"])
        library.set_rating(third, 3)
        full = write_backup(library)
        library.set_note(fourth, "written after the backup")
    assert margin("delete", SECOND, "--yes", library=library_dir).returncode == 0
    done = margin("delete", FIRST, "--yes", library=library_dir)
    assert done.returncode == 0, done.stderr
    deletes = backups_in(library_dir)[-1]
    assert deletes != full and {item["id"] for item in read_backup(deletes)["papers"]} >= {FIRST, third, fourth}
    with Library.open(library_dir) as library:
        library.set_note(fourth, "")  # lost: what restore is for
    restored = margin("restore", library=library_dir)
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith(f"{deletes.name}: ") and "left out" in restored.stdout
    assert f"restoring {deletes.name}, the newest backup" in restored.stderr
    with Library.open(library_dir) as library:
        assert FIRST not in library.ids() and SECOND not in library.ids()
        assert library.paper(fourth).note == "written after the backup" and library.paper(third).rating == 3
    named = margin("restore", str(deletes), library=library_dir)  # named: all of it, the deleted paper too
    assert named.returncode == 0, named.stderr
    with Library.open(library_dir) as library:
        assert library.paper(FIRST).rating == 2
