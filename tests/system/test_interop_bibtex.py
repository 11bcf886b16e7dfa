"""Margin's BibTeX is read whole by biber, BibTeX 0.99d, pybtex and bibtexparser, which agree on every field
(issue 13, items 8, 9, 10; issue 14 item 4). Tools that are missing skip with their install line."""

from __future__ import annotations

import re

import bibtexparser
import pytest
from bibtexparser.middlewares import SeparateCoAuthors

from db.exporters.bibtex import escape_text
from db.exporters.common import citation_keys, headline
from db.exporters.registry import export
from db.formats.bibtex import MONTHS, tex_to_text
from db.formats.importer import read_file
from tests.helpers.imports import SHARED
from tests.helpers.interop_tools import biber_tool, bibtex_run, hostile_library


@pytest.fixture
def exported(tmp_path):
    library = hostile_library(tmp_path / "lib")
    papers = library.papers()
    bib = tmp_path / "margin.bib"
    bib.write_text(export(papers, "bibtex"), encoding="utf-8")
    yield papers, bib
    library.close()


def test_biber_reads_every_entry_without_an_error(exported):
    papers, bib = exported
    written, messages = biber_tool(bib)
    assert "ERROR" not in messages, messages
    assert not re.search(r"WARN.*(syntax|Overwriting|unbalanced|BibTeX subsystem)", messages, re.I), messages
    keys = re.findall(r"^@\w+\{([^,]+),", written, re.M)
    assert sorted(keys) == sorted(citation_keys(papers).values())


def test_bibtex_099d_reads_every_entry_and_title(exported):
    papers, bib = exported
    titles, log = bibtex_run(bib)
    assert "error message" not in log and "I was expecting" not in log, log
    assert set(titles) == set(citation_keys(papers).values())
    for paper in papers:  # BibTeX got the whole title (as written, escapes and all), not the rest of the entry
        written = "{" + escape_text(paper.title or headline(paper), math=True) + "}"
        assert titles[citation_keys(papers)[paper.id]] == " ".join(written.split())


def _pybtex_entries(bib):
    pybtex = pytest.importorskip("pybtex.database", reason="pybtex: pip install -e '.[test]'")
    return pybtex.parse_file(str(bib), bib_format="bibtex").entries


def test_pybtex_and_bibtexparser_agree_on_every_field(exported):
    papers, bib = exported
    pyb = _pybtex_entries(bib)
    parsed = bibtexparser.parse_file(str(bib), append_middleware=[SeparateCoAuthors()])
    assert parsed.failed_blocks == [] and len(parsed.entries) == len(pyb) == len(papers)
    for entry in parsed.entries:
        other = pyb[entry.key]
        assert other.type == entry.entry_type
        for field in entry.fields:
            if field.key in ("author", "editor"):
                assert [str(person) for person in other.persons[field.key]] == field.value
                continue
            value = " ".join(field.value.split())
            theirs = other.fields[field.key]
            if field.key == "month":
                value = MONTHS[value]
            assert theirs == value, field.key


def test_every_field_reads_back_exactly_with_margins_decoder(exported):
    papers, bib = exported
    parsed = bibtexparser.parse_file(str(bib))
    by_key = {entry.key: entry.fields_dict for entry in parsed.entries}
    for paper in papers:
        fields = by_key[citation_keys(papers)[paper.id]]
        assert tex_to_text(fields["title"].value) == " ".join((paper.title or headline(paper)).split())
        assert tex_to_text(fields["abstract"].value) == " ".join(paper.abstract.split())
        if paper.note:
            assert tex_to_text(fields["annote"].value) == " ".join(paper.note.split())


def test_verbatim_fields_and_math(exported):
    papers, bib = exported
    text = bib.read_text(encoding="utf-8")
    assert "url = {https://example.org/a%20b?x=1&y=2#frag}" in text  # no \% in a link biblatex reads verbatim
    assert "doi = {10.1000/x%y_z}" in text
    assert "$x^{2}_i$" in text and "$\\mathcal{O}(n^2)$" in text  # math typesets
    assert "costs \\$50 \\& \\$60" in text  # money is not math


def test_entry_types_and_venue_fields(exported):
    papers, bib = exported
    entries = {entry.fields_dict["x-margin-id"].value: entry for entry in bibtexparser.parse_file(str(bib)).entries}
    science, untitled, rejected, book, poster = (entries[paper.id] for paper in papers)
    assert science.entry_type == "article" and science.fields_dict["journal"].value == "Science"
    assert "booktitle" not in science.fields_dict
    assert science.fields_dict["month"].value == "nov" and science.fields_dict["pages"].value == "1--10"
    assert untitled.entry_type == "inproceedings" and untitled.fields_dict["booktitle"].value == "ICLR 2018"
    assert untitled.fields_dict["note"].value == "ICLR 2018, workshop track"
    assert untitled.fields_dict["x-margin-title-source"].value == "derived"
    assert not untitled.fields_dict["title"].value.endswith("…}")
    assert rejected.entry_type == "unpublished" and "booktitle" not in rejected.fields_dict
    assert "Submitted to ICLR 2018 (decision: Reject)" in rejected.fields_dict["note"].value
    assert book.entry_type == "book" and book.fields_dict["publisher"].value == "Craft Press"
    assert book.fields_dict["isbn"].value == "978-3-16-148410-0"
    assert poster.entry_type == "inproceedings" and poster.fields_dict["booktitle"].value == "NeurIPS 2018"


def test_a_tag_with_a_comma_stays_one_keyword(exported, tmp_path):
    papers, bib = exported
    science = read_file(bib).records[0]
    assert science.keywords == ["source, keyword", "second"]  # x-margin-keywords: the file's, not the tags
    raw = bibtexparser.parse_file(str(bib)).entries[0].fields_dict["keywords"].value
    assert raw == "{source, keyword}, second, {a, b}, to read"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["iclr2018.json", "nips2017.json"])
def test_a_whole_conference_export_is_read_whole_by_biber_and_bibtex(tmp_path, name):
    source = SHARED / "real" / name
    if not source.exists():
        pytest.skip(f"shared sample {source} is not available")
    from db.library.library import Library

    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records(read_file(source).records)
        papers = library.papers()
        bib = tmp_path / "conf.bib"
        bib.write_text(export(papers, "bibtex"), encoding="utf-8")
    written, messages = biber_tool(bib)
    assert "ERROR" not in messages
    assert len(re.findall(r"^@", written, re.M)) == len(papers)
    titles, log = bibtex_run(bib)
    assert "error message" not in log and len(titles) == len(papers)
    assert len(_pybtex_entries(bib)) == len(papers)
