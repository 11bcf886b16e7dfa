"""Every reader on the real files of ../shared/data (skipped when ../shared is absent)."""

from __future__ import annotations

import pytest

from db.formats.importer import read_file
from tests.helpers.imports import shared

REAL = {"iclr2018.json": 995, "nips2014.json": 411, "nips2015.json": 403, "nips2016.json": 570,
        "nips2017.json": 691, "nips2018.json": 1009}


@pytest.mark.parametrize("name, count", sorted(REAL.items()))
def test_conference_dumps(name, count):
    result = read_file(shared("real", name))
    assert result.format == "json"
    assert len(result.records) == count
    assert result.skipped == []
    venue = name[:-9].upper() + " " + name[-9:-5]
    assert all(r.venue == venue and r.year == int(name[-9:-5]) for r in result.records)
    assert all(r.title for r in result.records)


def test_iclr_dump_fields():
    records = read_file(shared("real", "iclr2018.json")).records
    first = records[0]
    assert first.title == "Robust Task Clustering for Deep and Diverse Multi-Task and Few-Shot Learning"
    assert first.authors[:2] == ["Mo Yu", "Xiaoxiao Guo"] and len(first.authors) == 8
    assert first.keywords == ["task clustering", "matrix completion", "multi-task learning", "few-shot learning"]
    assert first.openreview_id == "B11bwYgfM"
    assert not any("\r" in r.abstract or "\x02" in r.abstract for r in records)


def test_nips_dump_authors_split_on_semicolons():
    first = read_file(shared("real", "nips2014.json")).records[0]
    assert first.title == "(Almost) No Label No Cry"
    assert first.authors == ["Giorgio Patrini", "Richard Nock", "Paul Rivera", "Tiberio Caetano"]
    assert first.url == "https://nips.cc/virtual/2014/poster/4352"


def test_arxiv_atom_sample():
    result = read_file(shared("formats", "arxivpy_2016_search_au_del_maestro.xml"))
    assert len(result.records) == 10
    first = result.records[0]
    assert (first.arxiv_id, first.year, first.doi) == ("1201.4869", 2012, "10.1142/S021797921244002X")
    assert first.title == "A Luttinger Liquid Core Inside Helium-4 Filled Nanopores"
    assert "\n" not in first.abstract and first.abstract.startswith("As helium-4 is cooled below 2.17 K")
    assert result.records[1].arxiv_id == "cond-mat/0412498"


def test_bibtex_samples():
    bbt = read_file(shared("formats", "bbt_arxiv_ids_460.bibtex")).records
    assert [r.arxiv_id for r in bbt] == ["1401.2910", "1508.05387", "1305.4904"]
    assert bbt[0].authors[0] == "Troels F. Rønnow"
    assert bbt[1].title == "BV Master Action for Heterotic and Type II String Field Theories"
    assert bbt[1].keywords[0] == "_tablet"
    zotero = read_file(shared("formats", "bbt_zotero_arxiv_ml_2163.biblatex")).records
    assert len(zotero) == 12
    assert zotero[0].year == 2015 and "4.94% top-5" in zotero[0].abstract
    assert zotero[2].openreview_id == "HyWrIgW0W"
    pmlr = read_file(shared("formats", "pmlr_v229_corl23.bib"))
    assert len(pmlr.records) == 199
    assert pmlr.skipped == [(1, "a @proceedings volume, not a paper (its venue and year went to the papers in it)")]
    assert {r.venue for r in pmlr.records} == {"CoRL 2023"}
    assert pmlr.records[0].openreview_id == "xQx1O7WXSA"
    assert not any("\x02" in r.abstract for r in pmlr.records)


def test_csl_json_samples():
    items = read_file(shared("formats", "bbt_available_date_3286.csl.json"))
    assert items.format == "csl-json"
    assert [r.year for r in items.records] == [2018, 1935, 1977, 1878]
    (blog,) = read_file(shared("formats", "bolognese_citeproc.json")).records
    assert (blog.doi, blog.year, blog.authors) == ("10.5438/4k3m-nyvg", 2016, ["Martin Fenner"])
    assert "Malaria" in blog.keywords


def test_ris_samples():
    (crossref,) = read_file(shared("formats", "bolognese_crossref.ris")).records
    assert crossref.doi == "10.7554/eLife.01567"
    assert crossref.venue == "eLife" and crossref.year == 2014 and len(crossref.authors) == 5
    multiline = read_file(shared("formats", "rispy_example_multiline.ris")).records
    assert [r.abstract for r in multiline] == ["first line, ER then second line and at the end the last line"] * 3
    (utf,) = read_file(shared("formats", "rispy_example_utf_chars.ris")).records
    assert utf.abstract.startswith("Состояние рецепторного аппарата")


def test_openreview_notes_sample():
    records = read_file(shared("formats", "openreviewcrawler_v1_notes_example_output.json")).records
    assert [r.title for r in records] == ["Targeted Dropout", "Rethinking the Value of Network Pruning"]
    assert [r.openreview_id for r in records] == ["HkghWScuoQ", "r1eLk2mKiX"]
    assert {r.venue for r in records} == {"NIPS 2018"}
