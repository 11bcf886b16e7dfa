"""Files that other reference managers write come in whole (issue 13, import items 1–6; issue 18 item 8).

Small hostile fixtures in tests/fixtures/interop, and every file of ../shared/data/formats (skipped when absent):
every record is in the library or named in `skipped` with its line, and no entry takes a venue or year from an
unrelated entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from db.formats.importer import read_file
from db.library.library import Library
from db.text.names import csl_name, display_name, split_author_text, split_bibtex_names
from tests.helpers.imports import SHARED

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "interop"


def by_title(records):
    return {record.title: record for record in records}


def test_books_theses_and_chapters_are_papers_and_lend_nothing():
    result = read_file(FIXTURES / "zotero_books.bib")
    papers = by_title(result.records)
    assert len(result.records) == 7 and result.skipped == []
    assert papers["Hybrid Basketry: Weaving the Tangible"].year == 2013
    assert papers["Hybrid Basketry: Weaving the Tangible"].extra["type"] == "book"
    assert papers["A Thesis on Things"].extra == {"type": "phdthesis", "publisher": "Some University"}
    for title in ("An Article Without Venue", "A Second Article Without Venue or Year",
                  "Third Article, After the Last Book"):
        assert (papers[title].venue, papers[title].year) == (None, None), title
    chapter = papers["A Chapter"]
    assert chapter.venue == "Collected Things" and chapter.extra["pages"] == "11–22"
    assert chapter.extra["editors"] == ["Ed Editor", "Otto Other"]


def test_crossref_lends_its_own_volume_and_strings_concatenate():
    result = read_file(FIXTURES / "crossref_strings.bib")
    papers = by_title(result.records)
    nips = papers["A Paper in NIPS 2000"]
    assert nips.authors == ["John Doe"]
    assert (nips.venue, nips.year) == ("Neural Information Processing Systems 13", 2000)
    assert nips.extra["publisher"] == "MIT Press" and nips.extra["pages"] == "1–8"
    icml = papers["A Paper in ICML 2005"]
    assert (icml.venue, icml.year) == ("Proceedings of ICML 2005", 2005)
    orphan = papers["An In-Proceedings Paper That Names No Volume"]
    assert (orphan.venue, orphan.year) == (None, None)  # two volumes in the file: neither is its own
    assert orphan.extra["month"] == "November"
    assert papers["A Misc Entry"].venue is None
    assert len(result.records) == 4
    assert [line for line, _reason in result.skipped] == [4, 10]
    assert all("@proceedings volume" in reason for _line, reason in result.skipped)


def test_a_lone_proceedings_volume_lends_only_to_papers_after_it_without_a_venue(tmp_path):
    path = tmp_path / "volume.bib"
    path.write_text("@proceedings{v, title={Proc}, shortname={CONF}, year={2021}}\n"
                    "@inproceedings{a, title={In the Volume}}\n"
                    "@inproceedings{b, title={Own Venue}, booktitle={Other Conf}, year={2019}}\n"
                    "@article{c, title={An Article}}\n")
    papers = by_title(read_file(path).records)
    assert (papers["In the Volume"].venue, papers["In the Volume"].year) == ("CONF 2021", 2021)
    assert (papers["Own Venue"].venue, papers["Own Venue"].year) == ("Other Conf", 2019)
    assert (papers["An Article"].venue, papers["An Article"].year) == (None, None)


def test_a_proceedings_nobody_belongs_to_is_a_paper(tmp_path):
    path = tmp_path / "one.bib"
    path.write_text("@proceedings{p, title={Whole Proceedings}, year={2010}, abstract={The book.}}\n"
                    "@article{a, title={An Article}, journal={J}, year={2011}}\n")
    result = read_file(path)
    assert sorted(record.title for record in result.records) == ["An Article", "Whole Proceedings"]
    assert result.skipped == []


def test_mendeley_empty_and_repeated_keys_keep_every_distinct_paper(tmp_path):
    result = read_file(FIXTURES / "mendeley_keys.bib")
    assert len(result.records) == 5 and result.skipped == []
    with Library.open(tmp_path / "lib", seed=False) as library:
        report = library.import_records(result.records)
        assert (len(report.new), report.duplicates) == (4, 1)
        assert sorted(paper.title for paper in library.papers()) == [
            "First Paper With an Empty Key", "Fourth Paper, Same Key as the Third", "Second Paper With an Empty Key",
            "Third Paper, Key Repeated"]


def test_braced_organisations_and_particles_survive_every_reader():
    papers = by_title(read_file(FIXTURES / "zotero_books.bib").records)
    assert papers["A Second Article Without Venue or Year"].authors == ["Hado van Hasselt", "Barnes and Noble"]
    (_book, article) = read_file(FIXTURES / "bad_first_line.ris").records
    assert article.authors == ["Hado van Hasselt"]
    assert split_bibtex_names("{Barnes and Noble} and Ford, Jr., Henry") == ["{Barnes and Noble}", "Ford, Jr., Henry"]
    assert display_name("Ford, Jr., Henry") == "Henry Ford Jr."
    assert split_author_text("Smith, J.; van Hasselt, Hado") == ["J. Smith", "Hado van Hasselt"]
    assert split_author_text("Li, Wei") == ["Wei Li"]
    assert split_author_text("{Barnes and Noble} and Jean de la Fontaine") == ["Barnes and Noble",
                                                                              "Jean de la Fontaine"]
    assert csl_name("Hado van Hasselt") == {"family": "Hasselt", "given": "Hado", "non-dropping-particle": "van"}
    assert csl_name("Barnes and Noble") == {"literal": "Barnes and Noble"}


def test_the_extension_decides_when_the_structure_agrees(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("title,abstract\n@article{a, title={Listed in BibTeX}, abstract={Abstract.}}\n")
    assert read_file(bib).format == "bibtex"


def test_ris_with_a_malformed_first_line_keeps_that_record():
    result = read_file(FIXTURES / "bad_first_line.ris")
    book, article = result.records
    assert book.title == "A Book Whose First Line Is Malformed" and book.line == 1
    assert book.extra == {"type": "book", "publisher": "A Publisher", "isbn": "978-0-00-000000-2"}
    assert article.extra == {"type": "article", "pages": "100–110", "volume": "12", "issue": "3"}
    assert result.skipped == []


def test_openreview_decisions_are_kept():
    path = SHARED / "real" / "iclr2018.json"
    if not path.exists():
        pytest.skip(f"shared sample {path} is not available")
    records = read_file(path).records
    decisions = {record.extra.get("decision") for record in records}
    assert {"Reject", "Poster", "Oral", "Workshop", "Withdraw"} <= decisions
    crawler = SHARED / "formats" / "openreviewcrawler_v1_notes_example_output.json"
    assert all(record.extra.get("decision") for record in read_file(crawler).records)


_BIB_ENTRY = r"^[ \t]*@(?!string|comment|preamble)\w+[ \t]*[{(]"
# what each shared file gives: (records read, entries skipped and named); a file added later must read something
RECORDS_AND_SKIPPED = {
    "arxivpy_2016_search_au_del_maestro.xml": (10, 0), "bbt_arxiv_ids_460.bibtex": (3, 0),
    "bbt_available_date_3286.csl.json": (4, 0), "bbt_zotero_arxiv_ml_2163.biblatex": (12, 0),
    "bolognese_citeproc.json": (1, 0), "bolognese_crossref.ris": (1, 0),
    "openreviewcrawler_v1_notes_example_output.json": (2, 0), "pmlr_v229_corl23.bib": (199, 1),
    "rispy_example_multiline.ris": (3, 0), "rispy_example_utf_chars.ris": (1, 0),
}
_ENTRY_START = {".bib": _BIB_ENTRY, ".bibtex": _BIB_ENTRY, ".biblatex": _BIB_ENTRY, ".ris": r"^\ufeff?TY {0,2}-"}


@pytest.mark.parametrize("name", sorted(path.name for path in (SHARED / "formats").glob("*"))
                         if (SHARED / "formats").exists() else [])
def test_every_record_of_the_shared_files_is_read_or_named(name):
    path = SHARED / "formats" / name
    result = read_file(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    pattern = _ENTRY_START.get(path.suffix)
    if pattern:
        starts = [text[: match.start()].count("\n") + 1 for match in re.finditer(pattern, text, re.M | re.I)]
        taken = sorted([record.line for record in result.records] + [line for line, _ in result.skipped])
        assert taken == starts
    assert (len(result.records), len(result.skipped)) == RECORDS_AND_SKIPPED.get(name, (len(result.records) or 1, 0))
    assert all(line > 0 for line, _reason in result.skipped)


def test_the_command_line_names_what_it_did_not_take_with_file_and_line(tmp_path, capsys):
    from main import main

    files = [str(FIXTURES / name) for name in ("crossref_strings.bib", "mendeley_keys.bib", "zotero_books.bib",
                                               "bad_first_line.ris", "note_with_bibtex.csv")]
    assert main(["import", *files, "--library", str(tmp_path / "lib")]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == ("19 new, 0 updated, 0 unchanged, 1 duplicate in the file, 2 skipped; "
                           "annotations from the files: 1 note")  # the CSV's note column (issue 30)
    assert f"{FIXTURES / 'crossref_strings.bib'}:4: a @proceedings volume, not a paper" in err
    assert f"{FIXTURES / 'crossref_strings.bib'}:10: a @proceedings volume, not a paper" in err
