"""A damaged library.db (issue 18, item 3), a full disk under `annotate` and a backup (item 4): one line naming
the file and the newest backup, nothing changed by the failing command, and `margin restore` gives back every
annotation of the backup plus what was still readable."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from pathlib import Path

import pytest

from db.cli import commands as cli
from db.errors import LibraryDamaged, MarginError
from db.library.backup import write_backup
from db.library.backup_files import written_for
from db.library.integrity import check, rebuild
from db.library.library import Library
from tests.helpers.faults import assert_one_line_error, btree_pages, damage_page, db_state
from tests.helpers.runner import margin


def _annotations(folder: Path) -> dict[str, tuple]:
    result = margin("list", "--json", library=folder)
    assert result.returncode == 0, result.stderr
    return {paper["id"]: (paper["rating"], paper["tags"], paper["note"], paper["read"])
            for paper in json.loads(result.stdout) if paper["rating"] or paper["tags"] or paper["note"]}


@pytest.fixture
def library(seeded_copy) -> tuple[Path, dict, str]:
    """A library with three annotated papers and a backup of them; then one more note written after it.
    Returns (folder, the annotations in the backup, the id noted after the backup)."""
    folder = seeded_copy
    with Library.open(folder) as library:
        ids = library.ids()
        for number, paper_id in enumerate(ids[:3]):
            library.set_rating(paper_id, number + 3)
            library.add_tags(paper_id, [f"topic {number}"])
            library.set_note(paper_id, f"note {number}")
        write_backup(library)
        library.set_note(ids[30], "written after the backup")
    backed_up = _annotations(folder)
    backed_up.pop(ids[30])
    return folder, backed_up, ids[30]


@pytest.mark.parametrize("where", ["root", "leaf"])
def test_a_damaged_page_is_one_line_naming_the_file_and_the_newest_backup(library, where):
    folder, _, _ = library
    pages = btree_pages(folder, "papers", "internal" if where == "root" else "leaf")
    damage_page(folder, pages[len(pages) // 2])
    before = (folder / "library.db").read_bytes()
    (backup,) = (folder / "backups").glob("margin-backup-*.json")
    paper_id = sqlite3.connect(folder / "library.db").execute("SELECT paper_id FROM annotations").fetchone()[0]
    for args in (["list"], ["list", "--json"], ["annotate", paper_id, "--rating", "2"],
                 ["export", "--format", "json"], ["check"]):
        line = assert_one_line_error(margin(*args, library=folder), "library.db", "damaged", str(backup),
                                     "margin restore")
        assert "Traceback" not in line
    assert (folder / "library.db").read_bytes() == before


def test_restore_gives_back_every_annotation_of_the_backup_and_what_was_readable(library):
    folder, backed_up, later = library
    leaves = btree_pages(folder, "papers", "leaf")
    damage_page(folder, leaves[-1])  # the last papers: the three annotated ones are on the first pages
    result = margin("restore", library=folder)
    assert result.returncode == 0, result.stderr
    assert "library rebuilt" in result.stdout and "unreadable" in result.stdout
    (kept,) = (folder / "backups").glob("library-damaged-*.db")
    assert check(folder) == []  # the new library is sound; the damaged one is kept as it was
    with pytest.raises(sqlite3.DatabaseError):
        sqlite3.connect(kept).execute("SELECT * FROM papers").fetchall()
    now = _annotations(folder)
    for paper_id, values in backed_up.items():
        assert now[paper_id] == values
    if later in now:  # on a readable page: the note written after the backup is kept too
        assert now[later][2] == "written after the backup"
    assert margin("check", library=folder).returncode == 0
    assert margin("list", "topic", library=folder).stdout.count("\n") == 3  # the new index finds them


def test_restore_of_a_library_whose_papers_cannot_be_read_at_all_uses_the_backup(library):
    folder, backed_up, _ = library
    damage_page(folder, btree_pages(folder, "papers", "internal")[0])  # the root of the papers table
    report = rebuild(folder)
    assert "0 papers read back (38 unreadable" in report.summary()
    assert _annotations(folder) == backed_up  # the annotated papers come back from the backup
    assert report.kept_as.exists() and report.kept_as.parent.name == "backups"


def test_check_says_ok_on_a_sound_library_and_names_the_problem_on_a_damaged_one(library):
    folder, _, _ = library
    result = margin("check", library=folder)
    assert result.returncode == 0 and "ok" in result.stdout
    damage_page(folder, btree_pages(folder, "annotations", "leaf")[0])
    assert check(folder) == ["database disk image is malformed"]
    assert margin("check", library=folder).returncode == 1


def test_opening_a_library_with_a_damaged_header_raises_library_damaged(library):
    folder, _, _ = library
    btree_pages(folder, "papers", "leaf")  # checkpointed: the header is the file's
    damage_page(folder, 1)
    with pytest.raises(LibraryDamaged) as raised:
        Library.open(folder).close()
    assert raised.value.backup is not None and raised.value.path == folder / "library.db"


def test_restore_with_a_file_that_is_not_a_backup_changes_nothing(library, tmp_path):
    folder, _, _ = library
    damage_page(folder, btree_pages(folder, "papers", "leaf")[0])
    before = (folder / "library.db").read_bytes()
    bad = tmp_path / "notes.txt"
    bad.write_text("not json")
    assert_one_line_error(margin("restore", str(bad), library=folder), "notes.txt")
    assert (folder / "library.db").read_bytes() == before
    assert not list((folder / "backups").glob("library-damaged-*"))


# ------------------------------------------------------------------ a full disk (item 4)
def test_annotate_on_a_full_disk_saves_nothing_and_says_so(library, monkeypatch, capsys):
    """Tag, rating and note in one command: all or nothing. The disk is 'full' for the library's file
    (SQLite's max_page_count: the same SQLITE_FULL a full disk gives)."""
    folder, _, _ = library
    paper_id = Library.open(folder).ids()[5]
    before = db_state(folder)
    opened = Library.open.__func__

    def full(cls, *args, **kwargs):
        library = opened(cls, *args, **kwargs)
        pages = library._conn.execute("PRAGMA page_count").fetchone()[0]
        library._conn.execute(f"PRAGMA max_page_count = {pages}")
        return library

    monkeypatch.setattr(Library, "open", classmethod(full))
    args = cli.build_parser().parse_args(["--library", str(folder), "annotate", paper_id, "--tag", "full",
                                          "--rating", "4", "--note", "x" * 200_000])
    assert cli.run_command(args) == 1
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "nothing of this change was saved" in error[0] and "full" in error[0]
    assert db_state(folder) == before


def test_a_backup_on_a_full_disk_leaves_no_temporary_file(library, monkeypatch):
    folder, _, _ = library
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("db.system.fileio.os.fdopen", lambda *a, **k: Full(real_fdopen(*a, **k)))
    with Library.open(folder) as opened:
        opened.set_rating(opened.ids()[9], 1)
        with pytest.raises(MarginError, match="No space left"):
            write_backup(opened)
    assert sorted(path.name for path in (folder / "backups").iterdir() if not path.name.startswith("margin-backup-")
                  ) == []


def test_restore_names_the_papers_whose_annotations_could_not_be_read(library):
    """A new user's trial: a rating given after the backup, on a damaged annotations page, was lost while the
    summary said all was well."""
    folder, _, _ = library
    with Library.open(folder) as opened:
        late = opened.ids()[20]
        opened.set_rating(late, 2)  # after the backup: only the damaged page had it
    damage_page(folder, btree_pages(folder, "annotations", "leaf")[0])
    report = rebuild(folder)
    assert late in report.lost_annotations
    assert "could not be read and no backup has them" in report.summary() and late in report.summary()


def test_restore_of_a_damaged_library_takes_the_newest_backup_a_delete_wrote_without_the_deleted(library):
    """A new user's trial: notes written after a backup, then `margin delete` (which writes a backup holding
    every annotated paper), then damage: `restore` took the older backup, passing over the delete's, so the later
    notes were lost and the deleted paper came back. It takes the newest and leaves the deleted papers out."""
    folder, backed_up, late = library
    annotated = list(backed_up)
    result = margin("delete", annotated[0], "--yes", library=folder)
    assert result.returncode == 0, result.stderr
    (deleted,) = [path for path in (folder / "backups").glob("margin-backup-*.json") if written_for(path) == "delete"]
    damage_page(folder, btree_pages(folder, "papers", "internal")[0])
    assert_one_line_error(margin("list", library=folder), str(deleted), "margin restore")
    report = rebuild(folder)
    assert report.backup == deleted and report.restored.left_out == 1
    now = _annotations(folder)
    assert annotated[0] not in now and now[late][2] == "written after the backup"
    for paper_id in annotated[1:]:
        assert now[paper_id] == backed_up[paper_id]


def test_a_rebuild_leaves_out_a_paper_deleted_in_the_window_after_the_newest_backup(library):
    """The window writes its backup minutes after a delete: a rebuild before that restores the older backup,
    without the paper the library (its salvaged deletions) records as deleted since."""
    folder, backed_up, _ = library
    gone = list(backed_up)[0]
    with Library.open(folder) as opened:
        opened.delete_papers([gone])
    damage_page(folder, btree_pages(folder, "papers", "internal")[0])
    report = rebuild(folder)
    assert report.restored.left_out == 1 and gone not in _annotations(folder)


def test_the_window_s_quick_open_reads_the_ends_and_leaves_the_middle_to_the_page_scan(library):
    """The window opens with only the ends of the tables read (db.library.damage.read_ends) and reads every page
    after its first paint (damage.scan): a damaged leaf in the middle of the papers is then found by the scan,
    never missed; one at an end is found at open either way; and every other open still reads every page."""
    from db.library import damage

    folder, _, _ = library
    leaves = btree_pages(folder, "papers", "leaf")
    assert damage.scan(folder) is None  # sound: the scan finds nothing
    damage_page(folder, leaves[len(leaves) // 2])
    Library.open(folder, read_pages=False).close()  # the quick open does not read the middle …
    assert "malformed" in damage.scan(folder)  # … the scan after the first paint does
    with pytest.raises(LibraryDamaged):
        Library.open(folder)  # a command's open reads every page, as before
    damage_page(folder, leaves[0])
    with pytest.raises(LibraryDamaged):
        Library.open(folder, read_pages=False)  # the first (and last) leaf: found by the quick open too
