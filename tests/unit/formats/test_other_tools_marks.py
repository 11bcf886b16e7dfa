"""The user's marks in other tools' fields (issue 30): JabRef's ranking/readstatus/comment/file, Papers' and
BibDesk's read/rating/annote/local-url, Better BibTeX's keywords and file list, read into PaperRecord.annotations
and `extra["file"]`; and the exact inverse of Margin's own BibTeX escaping."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from db.exporters.bibtex import escape_text
from db.formats.annotations import linked_files, rating_of, read_of, unescape_margin
from db.formats.importer import read_file

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "interop"


@pytest.fixture(scope="module")
def marked():
    return {record.title.split()[0]: record for record in read_file(FIXTURES / "other_tools_marks.bib").records}


def test_jabref_ranking_readstatus_comment_and_file(marked):
    jiang, lac = marked["Effect"], marked["Axisymmetric"]
    assert jiang.annotations.read is True and jiang.annotations.rating is None  # skimmed counts as read
    assert jiang.annotations.note == "Validation for bubble under EHD"
    assert jiang.annotations.tags == ["Validation", "BubbleDynamics"]
    assert lac.annotations.rating == 4 and lac.annotations.read is None
    assert lac.annotations.note == "Fig 5 can be well validated with numerical"
    assert linked_files(jiang.extra["file"]) == ["PDF/Jiang2020.pdf"]


def test_papers_read_rating_annote_and_local_url(marked):
    lee, cho = marked["Subsidizing"], marked["Less"]
    assert lee.annotations.read is True and lee.annotations.rating is None  # Papers' `rating = {0}`: not rated
    assert lee.annotations.note.split("\n") == [
        'Two-sided nature makes it subject to "network-effect" (the more users, the more valuable the resource)', "",
        "This does not mean that both sides should be charged equally - just like credit cards, th intermediary "
        "can charge vendors and not users"]
    assert cho.annotations.note is None and cho.annotations.tags == []
    assert linked_files(cho.extra["file"]) == [
        "/Users/georgegillams/Dropbox/Library.papers3/Files/26/2612081E-14ED-4FB2-BE31-25976BA1CA06.pdf"]


def test_better_bibtex_keywords_rating_and_file_list(marked):
    sen = marked["BV"]
    assert sen.annotations.rating == 5 and sen.annotations.read is True
    assert "futur: 3" in sen.annotations.tags and len(sen.annotations.tags) == 7
    assert sen.keywords == sen.annotations.tags  # the file's keywords stay its keywords too
    assert linked_files(sen.extra["file"]) == [
        "/Users/me/Zotero/storage/8ZJQ3E7V/Sen - 2016 - BV Master Action for Heterotic and Type II String Field "
        "Theories.pdf", "/Users/me/Zotero/storage/Q2B4XK9D/1508.html"]


@pytest.mark.parametrize(("value", "rating"), [("rank3", 3), ("4", 4), ("0", None), ("★★", 2), ("6", None),
                                               ("", None), (5, 5), ("2.5", None), ("rank0", None)])
def test_rating_values(value, rating):
    assert rating_of(value) == rating


@pytest.mark.parametrize(("value", "read"), [("Yes", True), ("skimmed", True), ("read", True), ("No", False),
                                             ("0", False), ("maybe", None), (None, None)])
def test_read_values(value, read):
    assert read_of(value) == read


@pytest.mark.parametrize(("field", "paths"), [
    ("Full Text PDF:/home/a/x.pdf:application/pdf", ["/home/a/x.pdf"]),
    (":C\\:/Users/a/x.pdf:PDF", ["C:/Users/a/x.pdf"]),
    ("Full Text:C:/Users/a/x.pdf:application/pdf", ["C:/Users/a/x.pdf"]),
    ("/a/x.pdf;/a/y.pdf", ["/a/x.pdf", "/a/y.pdf"]),
    ("file:///home/a/with%20space.pdf", ["/home/a/with space.pdf"]),
    ("", []),
])
def test_linked_files(field, paths):
    assert linked_files(field) == paths


def test_unescape_undoes_margins_escaping_exactly():
    alphabet = list("{}\\$&%#_~^`-'<>!?, aZ\n中😀") + ["--", "''", "\\{", "{}", "\\textbackslash"]
    generator = random.Random(30)
    for _ in range(2000):
        text = "".join(generator.choice(alphabet) for _ in range(generator.randint(0, 30)))
        assert unescape_margin(escape_text(text)) == text


def test_a_csv_rating_out_of_range_is_said_in_the_import_summary(tmp_path: Path):
    """A new user's trial: a CSV `rating` of 7 or -1 was dropped without a word, while an over-long field got a
    line. Each is named with its line; an empty or 0 rating (no rating) says nothing; --no-annotations neither."""
    from tests.helpers.runner import margin

    table = tmp_path / "marks.csv"
    table.write_text("title,abstract,rating\nSeven,An abstract.,7\nMinus,Another.,-1\nZero,Third.,0\n"
                     "Empty,Fourth.,\nFour,Fifth.,4\n", encoding="utf-8")
    done = margin("import", str(table), library=tmp_path / "lib")
    assert done.code == 0, done.stderr
    assert f'{table}:2: "Seven": rating "7" is not 1 to 5; left out' in done.stderr
    assert f'{table}:3: "Minus": rating "-1" is not 1 to 5; left out' in done.stderr
    assert done.stderr.count("is not 1 to 5") == 2 and "1 rating" in done.stdout
    quiet = margin("import", "--no-annotations", str(table), library=tmp_path / "other")
    assert quiet.code == 0 and "rating" not in quiet.stderr
