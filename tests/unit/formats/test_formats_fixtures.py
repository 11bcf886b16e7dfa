"""Every reader on the project's own small fixtures (tests/fixtures/import)."""

from __future__ import annotations

from db.formats.importer import read_file
from tests.helpers.imports import FIXTURES


def test_json_array_with_openreview_v2_values_and_a_non_paper():
    result = read_file(FIXTURES / "papers.json")
    assert result.format == "json"
    first, second = result.records
    assert first.title == "Sparse Attention Graphs"
    assert first.authors == ["Ada Lovelace", "Alan Turing"]
    assert first.keywords == ["attention", "graphs"]
    assert first.openreview_id == "AbC123xyz"
    assert first.line == 2
    assert second.title == "Wrapped Values Work"
    assert second.authors == ["Grace Hopper"]
    assert second.venue == "ICLR 2024 poster"
    assert second.openreview_id == "XyZ987"
    assert second.url == "https://openreview.net/forum?id=XyZ987"
    assert result.skipped == [(4, "a JSON value that is not a paper (no title or abstract)")]


def test_json_lines_skips_the_broken_line():
    result = read_file(FIXTURES / "papers.jsonl")
    assert result.format == "jsonl"
    assert [r.title for r in result.records] == ["Line One Paper", "Line Three Paper"]
    assert [r.line for r in result.records] == [1, 3]
    assert result.records[0].doi == "10.1000/LINE.1"
    assert [line for line, _ in result.skipped] == [2]


def test_bibtex_accents_protection_percent_month_date_and_a_broken_entry():
    result = read_file(FIXTURES / "papers.bib")
    assert result.format == "bibtex"
    dorner, zotero = result.records
    assert dorner.title == "Learning to Sample with Dörner's Trick"
    assert dorner.authors == ["Jürgen Dörner", "Ana Müller", "Émile Zola"]
    assert dorner.venue == "International Conference on Machine Learning"
    assert dorner.year == 2020
    assert dorner.abstract == ("We cut the error by 50% and by 30% again, with $\\mathcal{O}(n)$ cost — "
                               "a “simple” trick.")
    assert dorner.keywords == ["sampling", "tricks"]
    assert dorner.line == 4
    assert (zotero.year, zotero.arxiv_id, zotero.line) == (2019, "1910.07512", 20)
    assert len(result.skipped) == 1 and result.skipped[0][0] == 15


def test_csl_json_single_object():
    result = read_file(FIXTURES / "single.csl.json")
    assert result.format == "csl-json"
    (item,) = result.records
    assert item.authors == ["Marie Curie", "The Margin Collaboration"]
    assert (item.venue, item.year, item.doi) == ("NeurIPS", 2019, "10.9999/CSL.1")
    assert item.keywords == ["physics", "chemistry"]


def test_ris_with_bom_crlf_continuation_and_an_empty_record():
    result = read_file(FIXTURES / "papers.ris")
    assert (result.format, result.encoding) == ("ris", "utf-8-sig")
    first, second = result.records
    assert first.abstract == "An abstract given as N2, continued on a second line."
    assert (first.authors, first.year, first.doi) == (["Ada Lovelace"], 2018, "10.4242/RIS.1")
    assert first.keywords == ["engines", "notes"]
    assert (second.title, second.venue, second.line) == ("Second RIS Record", "Some Venue", 16)
    assert result.skipped == [(12, "a record with neither title nor abstract")]


def test_arxiv_atom_unwraps_text_and_drops_versions():
    result = read_file(FIXTURES / "arxiv.xml")
    assert result.format == "arxiv-atom"
    new, old = result.records
    assert new.title == "A Hard-Wrapped Title"
    assert new.abstract == "A summary that the arXiv API wraps at eighty columns."
    assert (new.arxiv_id, new.year, new.doi, new.keywords) == ("2101.00001", 2021, "10.1000/ARX.1", ["cs.LG"])
    assert old.arxiv_id == "hep-th/9901001"
    assert new.line == 4


def test_sniffing_ignores_a_misleading_extension(tmp_path):
    path = tmp_path / "export.txt"
    path.write_text("@article{k, title={Sniffed As BibTeX}, year=2001}\n", encoding="utf-8")
    result = read_file(path)
    assert result.format == "bibtex"
    assert result.records[0].title == "Sniffed As BibTeX"


def test_legacy_encoding_is_detected_and_named(tmp_path):
    path = tmp_path / "legacy.csv"
    path.write_bytes("title;abstract\nCafé crème naïve;Un résumé très long à propos de la méthode proposée.\n"
                     .encode("cp1252"))
    result = read_file(path)
    assert result.assumed_encoding == "cp1252"
    assert result.records[0].title == "Café crème naïve"


def test_utf16_with_bom_and_control_characters(tmp_path):
    path = tmp_path / "papers.json"
    path.write_bytes('[{"title": "Sixteen\x02 Bits", "abstract": "Tab\\tand \\u0007bell."}]'.encode("utf-16"))
    result = read_file(path)
    assert result.encoding == "utf-16"
    assert result.records[0].title == "Sixteen Bits"
    assert result.records[0].abstract == "Tab and bell."
