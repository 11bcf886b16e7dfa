"""Annotations a file carries, put on the papers an import adds or matches (issue 30): into an empty library they
are set; into a library where the paper has its own, nothing the user set is overwritten (what is empty is
filled); the summary counts them; `--no-annotations` leaves them out."""

from __future__ import annotations

from pathlib import Path

from db.changes import NOTE, RATING, READ, TAGS
from db.exporters.registry import export
from db.import_job import import_paths
from db.library.library import Library
from db.paper import Annotations
from tests.helpers.records import paper_record
from tests.helpers.runner import margin

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "interop"


def marked(title: str, **marks) -> object:
    return paper_record(title=title, year=2020, annotations=Annotations(**marks))


def test_an_empty_library_takes_every_mark(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        report = library.import_records([marked("One", tags=["a", "b"], rating=4, read=True, note="n\nm"),
                                         marked("Two", rating=2), paper_record(title="Three")])
        one, two, three = library.papers()
        assert (sorted(one.tags), one.rating, one.read, one.note) == (["a", "b"], 4, True, "n\nm")
        assert (two.tags, two.rating, two.read, two.note) == ([], 2, False, "")
        assert not three.is_annotated and not three.read
        assert report.summary().endswith("; annotations from the files: 2 ratings, 1 read mark, 1 note, "
                                         "tags on 1 paper")
        assert report.changes.kinds >= {RATING, READ, NOTE, TAGS}


def test_the_library_keeps_what_the_user_set_and_fills_what_is_empty(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        paper_id = library.import_records([paper_record(title="One", year=2020)]).new[0]
        library.set_rating(paper_id, 5)
        library.add_tags(paper_id, ["mine"])
        before = library.last_change()
        report = library.import_records([marked("One", tags=["theirs"], rating=1, read=True, note="their note")])
        paper = library.paper(paper_id)
        assert (paper.tags, paper.rating, paper.read, paper.note) == (["mine"], 5, True, "their note")
        assert report.annotations.read == [paper_id] and report.annotations.note == [paper_id]
        assert report.annotations.kept == [paper_id] and not report.annotations.rating
        assert "1 paper kept its own" in report.summary()
        assert library.changes_since(before)[0].kinds == {READ, NOTE}


def test_a_file_saying_unread_never_unreads(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        paper_id = library.import_records([paper_record(title="One", year=2020)]).new[0]
        library.set_read(paper_id, True)
        report = library.import_records([marked("One", read=False)])
        assert library.paper(paper_id).read and report.annotations.kept == [paper_id]


def test_reimporting_margins_exports_into_the_same_library_changes_nothing(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        ids = library.import_records([paper_record(title=f"Paper {i}", year=2020) for i in range(4)]).new
        library.set_rating(ids[0], 3)
        library.set_read(ids[1], True)
        library.set_note(ids[2], "a {note} with 100% \\ and\n\nlines")
        library.add_tags(ids[3], ["x, y", '"q"'])
        papers = library.papers()
        for fmt, name in (("bibtex", "a.bib"), ("csl-json", "a.json"), ("csv", "a.csv")):
            (tmp_path / name).write_text(export(papers, fmt), encoding="utf-8")
            before = library.last_change()
            result = import_paths(library, [tmp_path / name], index=lambda _library: None)
            assert result.summary() == "0 new, 0 updated, 4 unchanged, 0 duplicates in the file, 0 skipped", fmt
            assert library.last_change() == before, fmt
        assert library.papers() == papers


def test_no_annotations_leaves_them_out_and_the_summary_says_nothing_of_them(tmp_path):
    bib = FIXTURES / "other_tools_marks.bib"
    result = margin("import", "--no-annotations", str(bib), library=tmp_path / "bare")
    assert result.code == 0 and result.stdout.strip() == ("5 new, 0 updated, 0 unchanged, 0 duplicates in the file, "
                                                          "0 skipped")
    with Library.open(tmp_path / "bare") as library:
        assert not library.annotated_ids() and not library.read_ids()
        assert all(paper.extra.get("file") for paper in library.papers() if paper.title.startswith(("Effect", "BV")))
    result = margin("import", str(bib), library=tmp_path / "marked")
    assert result.stdout.strip().endswith("; annotations from the files: 2 ratings, 4 read marks, 3 notes, "
                                          "tags on 3 papers")


def test_a_paper_twice_in_the_files_takes_the_tags_of_both_and_keeps_nothing_of_its_own(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        report = library.import_records([marked("One", tags=["a"], rating=2), marked("One", tags=["b"], rating=3)])
        paper = library.papers()[0]
        assert (sorted(paper.tags), paper.rating) == (["a", "b"], 2)
        assert report.duplicates == 1 and report.annotations.tags == [paper.id] and not report.annotations.kept
