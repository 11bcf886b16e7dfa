"""An import holds the library's write lock only while it writes, not while it matches (the window's edits
must not wait behind a long import), and it plans again when another import changed the papers meanwhile."""

import sqlite3

from db.library.library import Library
from db.paper import PaperRecord
from tests.helpers.records import papers


def records(count: int, prefix: str) -> list[PaperRecord]:
    return papers(count, title=prefix + " paper {i}",
                  abstract=lambda i: f"{prefix} abstract number {i} about topic {i * 7}")


def test_an_edit_during_the_matching_does_not_wait(library, library_dir):
    target = library.ids()[0]
    edits = []

    def progress(done, total):
        if not edits:
            other = sqlite3.connect(library_dir / "library.db", timeout=0.2)  # a writer that cannot wait
            other.execute("UPDATE annotations SET read = 1 WHERE paper_id = ?", (target,))
            other.execute("INSERT OR IGNORE INTO annotations (paper_id, read, updated_at) VALUES (?, 1, 'x')",
                          (target,))
            other.commit()
            other.close()
            edits.append(done)

    report = library.import_records(records(600, "Batch"), progress=progress)
    assert edits and len(report.new) == 600
    assert library.paper(target).read is True
    assert library.count() == 38 + 600


def test_papers_added_meanwhile_are_matched_by_a_new_plan(library, library_dir):
    interloper = records(1, "Interloper")
    mine = records(300, "Mine") + interloper  # the last record is also imported by someone else meanwhile
    done_once = []

    def progress(done, total):
        if not done_once:
            done_once.append(True)
            with Library.open(library_dir) as other:
                other.import_records(interloper)

    report = library.import_records(mine, progress=progress)
    assert len(report.new) == 300 and len(report.unchanged) == 1
    assert library.count() == 38 + 301
