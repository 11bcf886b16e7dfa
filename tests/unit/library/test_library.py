import json
import sqlite3

import pytest

from db.changes import Changes
from db.errors import LibraryError
from db.formats.importer import read_file
from db.library.library import SCHEMA_VERSION, Library
from db.paper import PaperRecord
from tests.helpers.corpus import ABSTRACTS


def test_new_library_is_seeded_with_bundled_corpus(library, library_dir):
    assert library.count() == 38
    papers = library.papers()
    assert {(p.venue, p.year) for p in papers} == {("ICML 2026", 2026)}
    assert papers[0].id == "9342e12f8e8d"
    assert all(p.label and p.title is None for p in papers)
    conn = sqlite3.connect(library_dir / "library.db")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"papers", "annotations", "tags", "paper_tags", "note_history"} <= tables


def test_annotations_persist_after_reopen(library_dir):
    with Library.open(library_dir) as lib:
        pid = lib.ids()[3]
        lib.set_rating(pid, 4)
        lib.add_tags(pid, ["Graph Neural Nets", "to read, later"])
        lib.set_note(pid, "Budget: $50 for data")
        lib.set_read(pid, True)
        lib.set_title(pid, "My title")
    with Library.open(library_dir) as lib:
        paper = lib.paper(pid)
        assert (paper.rating, paper.read, paper.note, paper.label) == (4, True, "Budget: $50 for data", "My title")
        assert paper.tags == ["Graph Neural Nets", "to read, later"]
        assert lib.count() == 38  # reopening does not seed again


def test_tags_match_case_insensitively_in_nfc(library):
    a, b = library.ids()[:2]
    library.add_tags(a, ["Machine Learning"])
    library.add_tags(b, ["machine  learning"])
    assert library.paper(b).tags == ["Machine Learning"]
    library.add_tags(a, ["Ke\u0301pes"])
    library.add_tags(b, ["KÉPES"])
    assert library.tags() == [("Képes", 2), ("Machine Learning", 2)]
    library.remove_tags(a, ["MACHINE LEARNING"])
    assert library.paper(a).tags == ["Képes"]


def test_bad_tags_and_ratings_are_rejected(library):
    pid = library.ids()[0]
    with pytest.raises(ValueError, match="^a tag cannot be empty or only spaces$"):
        library.add_tags(pid, ["   "])
    with pytest.raises(ValueError, match="^a tag can have at most 200 characters$"):
        library.add_tags(pid, ["x" * 201])
    library.add_tags(pid, ["y" * 200])  # the longest a tag can be
    assert library.paper(pid).tags == ["y" * 200]
    with pytest.raises(ValueError):
        library.set_rating(pid, 6)
    library.set_rating(pid, 2)
    library.set_rating(pid, 0)
    assert library.paper(pid).rating is None
    with pytest.raises(KeyError):
        library.set_rating("000000000000", 3)


def test_note_history_keeps_earlier_versions(library):
    pid = library.ids()[0]
    assert library.set_note(pid, "first").kinds == {"note"}
    assert not library.set_note(pid, "first")
    library.set_note(pid, "second")
    library.set_note(pid, "third")
    assert [text for _when, text in library.note_history(pid)] == ["first", "second"]
    assert library.paper(pid).note == "third"


def test_annotated_ids_and_read_counts(library):
    ids = library.ids()
    library.set_rating(ids[5], 5)
    library.add_tags(ids[1], ["x"])
    library.set_note(ids[9], "  ")
    library.set_read(ids[2], True)
    assert library.annotated_ids() == [ids[1], ids[5]]
    assert library.read_counts() == {"ICML 2026": (1, 38)}


def test_find_id_by_prefix(library):
    assert library.find_id("9342e1") == "9342e12f8e8d"
    with pytest.raises(KeyError):
        library.find_id("93")


def test_newer_schema_is_refused_untouched(library_dir):
    Library.open(library_dir).close()
    conn = sqlite3.connect(library_dir / "library.db")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    before = (library_dir / "library.db").read_bytes()
    with pytest.raises(LibraryError, match="newer Margin"):
        Library.open(library_dir)
    assert (library_dir / "library.db").read_bytes() == before


def test_not_a_database_is_a_clear_error(tmp_path):
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "library.db").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(LibraryError, match="library.db"):
        Library.open(folder)


def test_import_same_records_twice_changes_nothing(library):
    from db.formats.corpus import bundled_corpus_files, parse_seed_text

    records = parse_seed_text(bundled_corpus_files()[0].read_text(encoding="utf-8"))
    report = library.import_records(records)
    assert (len(report.new), len(report.updated), len(report.unchanged)) == (0, 0, 19)


def test_every_change_says_what_it_changed_and_is_logged(library, library_dir):
    a, b = library.ids()[:2]
    start = library.last_change()
    assert library.set_rating(a, 4) == Changes.of([a], "rating")
    assert not library.set_rating(a, 4)  # the same value again: nothing changed, nothing logged
    assert library.set_note(a, "draft").kinds == {"note"}
    assert library.add_tags(b, ["x"]) == Changes.of([b], "tags")
    assert not library.add_tags(b, ["X"])
    assert library.rename_tag("x", "y") == Changes.of([b], "tags")
    assert library.last_change() == start + 4
    with Library.open(library_dir) as other:  # another process (connection) saves a note meanwhile
        other.set_read(b, True)
        mine, newest = library.changes_since(start)
        theirs, _ = library.changes_since(start, others_only=True)
    assert mine.papers == {a, b} and mine.kinds_of(b) == {"tags", "read"}
    assert theirs == Changes.of([b], "read") and newest == start + 5
    assert library.changes_since(newest) == (Changes(), newest)


def test_a_pruned_change_log_says_it_no_longer_reaches_back(library):
    from db.library.store import prune_change_log

    pid = library.ids()[0]
    assert library.last_change() == 38  # the seeded papers, one change each
    for rating in (1, 2, 3):
        library.set_rating(pid, rating)
    newest = library.last_change()
    with library.transaction() as conn:
        prune_change_log(conn, keep=1)
    assert library.changes_since(newest - 2) is None
    assert library.changes_since(newest - 1) == (Changes.of([pid], "rating"), newest)
    assert library.changes_since(newest + 1) is None  # ahead of this library: it was replaced


def test_version_1_library_is_migrated_after_a_backup_copy(library_dir):
    with Library.open(library_dir) as lib:
        pid = lib.ids()[2]
        lib.set_rating(pid, 5)
    conn = sqlite3.connect(library_dir / "library.db")
    conn.execute("ALTER TABLE papers DROP COLUMN extra")  # added by schema 5
    conn.execute("DROP TABLE change_log")
    conn.execute("CREATE TABLE index_queue (paper_id TEXT PRIMARY KEY)")
    conn.execute("INSERT INTO index_queue VALUES (?)", (pid,))
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with Library.open(library_dir) as lib:
        assert lib.paper(pid).rating == 5
        assert lib.changes_since(0)[0] == Changes.of([pid], "bibliographic")  # the old queue, as changes
        assert lib.set_note(pid, "after the upgrade") == Changes.of([pid], "note")
    conn = sqlite3.connect(library_dir / "library.db")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    copies = list((library_dir / "backups").glob("library-v1-*.db"))
    assert len(copies) == 1
    old = sqlite3.connect(copies[0])
    assert old.execute("PRAGMA user_version").fetchone()[0] == 1
    assert old.execute("SELECT rating FROM annotations WHERE paper_id = ?", (pid,)).fetchone() == (5,)


def test_a_foreign_sqlite_database_is_refused_untouched(tmp_path):
    folder = tmp_path / "lib"
    folder.mkdir()
    conn = sqlite3.connect(folder / "library.db")
    conn.execute("CREATE TABLE customers (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(LibraryError, match="not a Margin library"):
        Library.open(folder)
    conn = sqlite3.connect(folder / "library.db")
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["customers"]


# ------------------------------------------- control characters and title length
CONTROLS = "".join(chr(c) for c in range(32) if chr(c) not in "\t\n\r")


def test_c0_controls_are_stripped_from_notes_titles_and_tags(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
        library.set_note(paper_id, f"a\x00b{CONTROLS}\tc\r\nd\x7f é")
        library.set_title(paper_id, "Ti\x00tle\x1b[31m red")
        library.add_tags(paper_id, ["ta\x00g\x07"])
        assert library.paper(paper_id).tags == ["tag"]
        paper = library.paper(paper_id)
        assert paper.note == "ab\tc\r\nd\x7f é"  # tab, CR and LF are kept; DEL is no C0 control
        assert paper.user_title == "Title[31m red"
        assert paper.tags == ["tag"]
        library.remove_tags(paper_id, ["t\x00ag"])
        assert library.paper(paper_id).tags == []
        assert not library.set_note(paper_id, "ab\x00\tc\r\nd\x7f é")  # the same note once cleaned


def test_title_longer_than_1000_characters_is_refused(tmp_path):
    from db.text.cleaning import MAX_TITLE

    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
        library.set_title(paper_id, "x" * MAX_TITLE)
        assert library.paper(paper_id).user_title == "x" * 1000
        with pytest.raises(ValueError, match="a title can have at most 1,000 characters"):
            library.set_title(paper_id, "y" * 1001)
        assert library.paper(paper_id).user_title == "x" * 1000
        library.set_title(paper_id, "  " + "z " * 500)  # 1,000 characters once the spaces are collapsed
        assert library.paper(paper_id).user_title == " ".join("z" * 500)


# ------------------------------------------- the same title without a year: one paper or two
def test_same_title_without_year_and_different_abstracts_are_two_papers(tmp_path):
    path = tmp_path / "same.json"
    path.write_text(json.dumps([{"title": "Same title", "abstract": "A about graphs and their neural networks"},
                                {"title": "Same title", "abstract": "B totally different, on bandits"}]))
    with Library.open(tmp_path / "lib", seed=False) as library:
        report = library.import_records(read_file(path).records)
        assert (len(report.new), report.duplicates) == (2, 0)
        again = library.import_records(read_file(path).records)
        assert (len(again.new), len(again.updated), len(again.unchanged)) == (0, 0, 2)


def test_same_title_without_year_and_long_different_abstracts_are_two_papers(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        first = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[0])])
        second = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[1])])
        assert len(first.new) == 1 and len(second.new) == 1 and library.count() == 2


def test_same_title_without_year_still_matches_when_the_abstracts_agree(tmp_path):
    edited = ABSTRACTS[1].replace("math problems", "math problems.")
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[1])]).new
        for record in (PaperRecord(title="SAME  title", abstract=edited),  # near-identical abstract
                       PaperRecord(title="Same title", abstract=""),  # no abstract: nothing tells them apart
                       PaperRecord(title="Same title", abstract=ABSTRACTS[1].upper())):
            report = library.import_records([record])
            assert report.new == [] and (report.updated or report.unchanged) == [paper_id]
        (title_only,) = library.import_records([PaperRecord(title="Only a title")]).new
        report = library.import_records([PaperRecord(title="Only a title", abstract=ABSTRACTS[2])])
        assert report.updated == [title_only] and library.paper(title_only).abstract == ABSTRACTS[2]


def test_same_title_and_year_still_match_whatever_the_abstracts(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[0], year=2020)]).new
        report = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[1], year=2020)])
        assert report.updated == [paper_id]
