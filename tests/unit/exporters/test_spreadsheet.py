"""CSV and spreadsheets. Spreadsheets (issue 13, item 13): the .xlsx export holds ids and notes as text, never a
formula; the CSV stays exact for programs. Reading CSV (db/formats): header synonyms, cells longer than csv's limit,
a note holding a BibTeX line. LibreOffice reading the .xlsx back is in tests/system/test_interop_spreadsheet.py."""

from __future__ import annotations

import csv
import io

import pytest

from db.exporters.registry import export, export_bytes, write_export
from db.exporters.table import BOM, COLUMNS
from db.formats.importer import read_file, sniff
from db.library.library import Library
from db.paper import Paper, PaperRecord
from tests.helpers.corpus import ABSTRACTS
from tests.helpers.imports import FIXTURES
from tests.helpers.interop_tools import hostile_library

openpyxl = pytest.importorskip("openpyxl")


NOTE_WITH_BIBTEX = FIXTURES.parent / "interop" / "note_with_bibtex.csv"


@pytest.fixture
def papers(tmp_path):
    with hostile_library(tmp_path / "lib") as library:
        for paper_id in library.ids():
            library.set_rating(paper_id, 3)
        yield library.papers()


def _rows(path):
    sheet = openpyxl.load_workbook(path).active
    return list(sheet.iter_rows(values_only=False))


def test_xlsx_cells_are_text_and_never_formulas(papers, tmp_path):
    path = tmp_path / "papers.xlsx"
    assert write_export(papers, "xlsx", path) == len(papers)
    header, *rows = _rows(path)
    assert [cell.value for cell in header][: len(COLUMNS)] == list(COLUMNS)
    assert len(rows) == len(papers)
    for row, paper in zip(rows, papers, strict=True):
        cells = dict(zip(COLUMNS, row, strict=False))
        assert cells["id"].value == paper.id and cells["id"].data_type == "s"
        assert (cells["note"].value or "") == paper.note
        assert cells["year"].value == paper.year and cells["rating"].value == 3
        for cell in row:
            assert cell.data_type != "f"
            if isinstance(cell.value, str) and cell.value[:1] in "=+-@":
                assert cell.quotePrefix  # OWASP: editing it later keeps it text
    arxiv = [row for row in rows if dict(zip(COLUMNS, row, strict=False))["arxiv_id"].value]
    assert [dict(zip(COLUMNS, row, strict=False))["arxiv_id"].value for row in arxiv] == ["1812.11470"]


def test_an_id_that_looks_like_a_number_stays_text(tmp_path):
    paper = Paper(id="181211470000", label="x", title="T", abstract="a", authors=[], venue=None, year=None,
                  arxiv_id="1812.11470", note="0012")
    (row,) = _rows_of(export_bytes([paper], "xlsx"), tmp_path)
    values = dict(zip(COLUMNS, (cell.value for cell in row), strict=False))
    assert (values["id"], values["arxiv_id"], values["note"]) == ("181211470000", "1812.11470", "0012")


def _rows_of(data: bytes, tmp_path):
    path = tmp_path / "one.xlsx"
    path.write_bytes(data)
    return _rows(path)[1:]


def test_csv_stays_exact_for_programs(papers):
    text = export(papers, "csv")
    assert text.startswith(BOM)  # the byte-order mark: spreadsheets read UTF-8 as UTF-8
    rows = list(csv.DictReader(io.StringIO(text.removeprefix(BOM), newline="")))
    assert [row["note"] for row in rows] == [paper.note for paper in papers]
    assert rows[4]["title"] == "=SUM(A1:A3)"  # no quote put in front: the exact text


def test_text_export_refuses_xlsx_with_a_clear_message(papers):
    from db.errors import MarginError

    with pytest.raises(MarginError, match="binary file"):
        export(papers, "xlsx")


def test_cli_writes_xlsx_to_a_file_and_refuses_stdout(tmp_path, capsys):
    from main import main

    folder = tmp_path / "lib"
    with hostile_library(folder):
        pass
    assert main(["export", "--format", "xlsx", "--all", "--library", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "give it with --output FILE" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    output = tmp_path / "all.xlsx"
    assert main(["export", "--format", "xlsx", "--all", "--output", str(output), "--library", str(folder)]) == 0
    assert len(_rows(output)) == 1 + 5


# ------------------------------------------- reading CSV
def test_csv_cell_longer_than_csvs_default_limit_is_read_with_the_rows_after_it(tmp_path):
    note = "a long note line\n" * 70_000  # about 1.2 MB, far over csv's default 131072-character limit
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([PaperRecord(abstract=text, year=2024) for text in ABSTRACTS])
        first = library.ids()[0]
        library.set_note(first, note)
        path = tmp_path / "out.csv"
        path.write_text(export(library.papers(), "csv"), encoding="utf-8")
        result = read_file(path)
        assert len(result.records) == 3 and result.skipped == []
        report = library.import_records(result.records)
        assert len(report.unchanged) == 3


def test_csv_abstract_of_a_megabyte_is_kept_whole(tmp_path):
    path = tmp_path / "big.csv"
    abstract = "word " * 250_000
    path.write_text(f'title,abstract\nBig,"{abstract}"\nSmall,short abstract\n', encoding="utf-8")
    records = read_file(path).records
    assert [r.title for r in records] == ["Big", "Small"] and len(records[0].abstract) == len(abstract.strip())


def test_csv_with_synonym_header_multiline_cell_and_empty_row():
    result = read_file(FIXTURES / "papers.csv")
    assert result.format == "csv"
    first, second = result.records
    assert first.title == "Tables Are Papers Too"
    assert first.abstract.endswith("spans two lines of the file.")
    assert first.authors == ["Jane Doe", "Richard Roe"]
    assert (first.year, first.doi, first.keywords) == (2021, "10.1234/TAB.1", ["tables", "spreadsheets"])
    assert second.authors == ["Ann Smith", "Bob Jones"]
    assert second.line == 5
    assert result.skipped == [(4, "a record with neither title nor abstract")]


def test_a_csv_note_with_an_entry_line_stays_a_csv(tmp_path):
    result = read_file(NOTE_WITH_BIBTEX)
    assert result.format == "csv"
    assert [record.title for record in result.records] == ["A real paper", "Second real paper"]
    moved = tmp_path / "export"  # no extension: the header row decides, not the line inside the note
    moved.write_bytes((NOTE_WITH_BIBTEX).read_bytes())
    assert sniff(moved.read_text(), moved) == "csv"
