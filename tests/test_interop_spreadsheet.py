"""Spreadsheets (issue 13, item 13): the .xlsx export holds ids and notes as text, never a formula, and
LibreOffice headless reads every cell back exactly; the CSV stays exact for programs."""

from __future__ import annotations

import csv
import io

import pytest

from db.export import export, export_bytes, write_export
from db.exporters.table import BOM, COLUMNS
from db.paper import Paper
from tests.interop_tools import hostile_library, need, run

openpyxl = pytest.importorskip("openpyxl")


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


def test_libreoffice_reads_the_xlsx_back_exactly(papers, tmp_path):
    office = need("soffice")
    path = tmp_path / "papers.xlsx"
    path.write_bytes(export_bytes(papers, "xlsx"))
    out = tmp_path / "out"
    profile = (tmp_path / "lo-profile").as_uri()  # its own LibreOffice instance, whatever else is running
    result = run([office, f"-env:UserInstallation={profile}", "--headless", "--norestore", "--convert-to",
                  "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false", "--outdir", str(out),
                  str(path)], tmp_path, timeout=240)
    converted = out / "papers.csv"
    assert converted.exists(), result.stdout + result.stderr
    rows = list(csv.DictReader(io.StringIO(converted.read_text(encoding="utf-8"))))
    assert len(rows) == len(papers)
    for row, paper in zip(rows, papers, strict=True):
        assert row["id"] == paper.id and row["note"] == paper.note
        assert row["title"] == (paper.title or row["title"]) and row["arxiv_id"] == (paper.arxiv_id or "")
        assert row["tags"] == "; ".join(paper.tags) and row["authors"] == "; ".join(paper.authors)
    assert rows[4]["title"] == "=SUM(A1:A3)"  # the text, not the formula's value


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
