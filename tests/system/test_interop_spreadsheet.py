"""Spreadsheets with the real tool and a real process: LibreOffice headless reads every cell of the .xlsx export
back exactly, and a huge CSV cell is named with its line without gigabytes of memory (issue 13, item 13)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from db.exporters.registry import export_bytes
from tests.helpers.interop_tools import hostile_library, need, run
from tests.helpers.runner import margin


@pytest.fixture
def papers(tmp_path):
    with hostile_library(tmp_path / "lib") as library:
        for paper_id in library.ids():
            library.set_rating(paper_id, 3)
        yield library.papers()


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


def test_a_huge_csv_cell_is_named_with_its_line_not_gigabytes_of_memory(tmp_path):
    folder = tmp_path / "lib"
    path = tmp_path / "huge.csv"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("title,abstract\nA fine paper,A fine abstract.\n")
        handle.write('A huge one,"' + "x" * (17 * 2**20) + '"\n')
    result = margin("import", str(path), library=folder, subprocess=True)
    assert result.returncode == 0, result.stderr
    assert "huge.csv:3" in result.stderr and "field limit" in result.stderr
    listed = margin("list", "--json", "fine", library=folder, subprocess=True)
    assert json.loads(listed.stdout)[0]["label"] == "A fine paper"
