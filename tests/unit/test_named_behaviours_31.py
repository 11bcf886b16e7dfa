"""Behaviours that worked but that no test guarded (issue 31's planted-bug audit, "The planted bugs that no test
caught"): each test here was seen failing with its bug planted (the report of issue 31 names the plants). The
window's three (Show theirs before the autosave, a second rescue, `j` then `r`) and the undo of a rating are in
tests/gui/test_named_behaviours_31.py."""

from __future__ import annotations

import json

import yaml

from db.exporters.markdown import markdown_files
from db.formats.bibtex import read as read_bibtex
from db.library.integrity import rebuild
from db.library.library import Library
from db.paper import PaperRecord
from tests.helpers.faults import btree_pages, damage_page
from tests.helpers.runner import margin


def test_renaming_a_tag_only_in_case_keeps_it_on_every_paper_spelled_anew(library):
    ids = library.ids()[:3]
    for paper_id in ids:
        library.add_tags(paper_id, ["ml"])
    library.rename_tag("ml", "ML")
    assert [paper.tags for paper in library.papers(ids)] == [["ML"]] * 3
    assert dict(library.tags())["ML"] == 3 and "ml" not in dict(library.tags())


def test_reimport_with_other_punctuation_and_a_reworded_abstract_stays_one_paper(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(
            title="Graph Networks: A Study of Message Passing", year=2020,
            abstract="We study message passing in graph networks and prove a bound on their depth.")]).new
        library.set_note(paper_id, "keep me")
        report = library.import_records([PaperRecord(
            title="Graph networks — a study of message-passing", year=2020,
            abstract="This paper studies message passing in graph neural networks; we show a depth bound.")])
        assert report.new == [] and library.ids() == [paper_id]
        assert library.paper(paper_id).note == "keep me"


def test_an_inbook_with_a_crossref_to_a_book_gives_two_records_and_keeps_the_book_a_book(tmp_path):
    text = ("@book{whole,\n title = {The Whole Book},\n author = {Doe, Jane},\n publisher = {Press},\n"
            " year = {2019}\n}\n\n@inbook{part,\n crossref = {whole},\n title = {A Chapter},\n"
            " chapter = {3},\n pages = {10--20}\n}\n")
    records, skipped, _ = read_bibtex(text, tmp_path / "books.bib")
    assert skipped == []
    by_title = {record.title: record for record in records}
    assert set(by_title) == {"The Whole Book", "A Chapter"}
    assert by_title["The Whole Book"].extra.get("type") == "book"
    assert by_title["A Chapter"].year == 2019


def test_front_matter_titles_with_line_separators_or_a_bom_read_back_exactly(library):
    paper = library.papers()[0]
    for title in ("Line\u2028separated", "Paragraph\u2029separated", "\ufeffBOM first", "BOM \ufeff inside"):
        paper.title = paper.label = paper.user_title = title
        (text,) = markdown_files([paper]).values()
        head = text.removeprefix("---\n").partition("\n---")[0]
        assert yaml.safe_load(head)["title"] == title
        # escaped, not raw: a line-oriented reader (and YAML 1.1's) would break the line or drop the BOM
        assert not any(char in head for char in "\u2028\u2029\ufeff") and head == "\n".join(head.splitlines())


def test_a_damaged_page_in_the_middle_of_the_papers_loses_only_its_rows(seeded_copy):
    folder = seeded_copy
    with Library.open(folder) as library:
        ids = library.ids()
        library.set_note(ids[-1], "on the last page")
    leaves = btree_pages(folder, "papers", "leaf")
    assert len(leaves) >= 5
    damage_page(folder, leaves[len(leaves) // 2])
    report = rebuild(folder)
    with Library.open(folder) as library:
        back = set(library.ids())
        assert library.paper(ids[-1]).note == "on the last page"  # the rows after the damaged page come back
    lost = set(ids) - back
    assert 0 < len(lost) <= 4, report.summary()  # one page's rows, no more
    assert ids[0] in back and ids[-1] in back


def test_a_rebuilt_library_keeps_every_note_history_also_without_a_newer_backup(seeded_copy):
    folder = seeded_copy
    with Library.open(folder) as library:
        paper_id = library.ids()[3]
        for number, version in enumerate(("first", "second", "third")):
            library.set_note(paper_id, version)
            library.add_note_history(paper_id, [(f"2026-01-0{number + 1}T00:00:00+00:00", f"{version} (kept)")])
        history = library.note_history(paper_id)
    assert len(history) >= 3 and not (folder / "backups").exists()
    rebuild(folder)
    with Library.open(folder) as library:
        assert library.note_history(paper_id) == history
        assert library.paper(paper_id).note == "third"
    listed = json.loads(margin("list", "--json", library=folder).stdout)
    assert {paper["id"]: paper["note"] for paper in listed}[paper_id] == "third"
