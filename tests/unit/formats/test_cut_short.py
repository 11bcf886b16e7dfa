"""A file cut off inside its last record (a new user's trial: a CSV and an RIS export cut halfway through an
abstract imported that paper with half its abstract, "0 skipped"): the last record is skipped and named; every
record before it is read whole; a file that merely lacks its last line end is read as before."""

from __future__ import annotations

from db.formats.importer import read_file

ABSTRACT = "We study the cut-off file. " * 40


def _csv(rows: int) -> str:
    lines = ["title,abstract,year,venue"]
    lines += [f'"Paper {n}","{ABSTRACT}",2024,"ICML"' for n in range(rows)]
    return "\n".join(lines) + "\n"


def _ris(records: int) -> str:
    return "".join(f"TY  - JOUR\nTI  - Paper {n}\nAB  - {ABSTRACT}\nPY  - 2024\nER  - \n\n" for n in range(records))


def _cut_inside_last_abstract(text: str) -> str:
    return text[: text.rindex(ABSTRACT) + len(ABSTRACT) // 2]


def test_a_csv_cut_inside_a_quoted_abstract_skips_that_row(tmp_path):
    path = tmp_path / "cut.csv"
    path.write_text(_cut_inside_last_abstract(_csv(3)), encoding="utf-8")
    result = read_file(path)
    assert [record.title for record in result.records] == ["Paper 0", "Paper 1"]
    assert all(record.abstract == ABSTRACT.strip() for record in result.records)
    assert result.skipped == [(4, "the file ends inside this row (cut short?): not imported")]


def test_a_csv_cut_between_cells_skips_that_row(tmp_path):
    path = tmp_path / "cut.csv"
    text = _csv(2)
    path.write_text(text[: text.rindex(",2024,")], encoding="utf-8")  # the last row loses its year and venue
    result = read_file(path)
    assert [record.title for record in result.records] == ["Paper 0"]
    assert [line for line, _reason in result.skipped] == [3]


def test_a_whole_csv_without_its_last_line_end_is_read_whole(tmp_path):
    path = tmp_path / "whole.csv"
    path.write_text(_csv(2).rstrip("\n"), encoding="utf-8")
    result = read_file(path)
    assert [record.title for record in result.records] == ["Paper 0", "Paper 1"] and result.skipped == []
    short = tmp_path / "short.csv"  # every row as short as the one before it: no sign of a cut
    short.write_text("title,abstract,year\nA,An abstract.\nB,Another abstract.", encoding="utf-8")
    assert [record.title for record in read_file(short).records] == ["A", "B"]


def test_an_ris_cut_inside_its_last_abstract_skips_that_record(tmp_path):
    path = tmp_path / "cut.ris"
    path.write_text(_cut_inside_last_abstract(_ris(3)), encoding="utf-8")
    result = read_file(path)
    assert [record.title for record in result.records] == ["Paper 0", "Paper 1"]
    assert [line for line, _reason in result.skipped] == [13]
    assert "ends inside this record" in result.skipped[0][1]


def test_an_ris_record_without_er_before_the_next_one_is_still_read(tmp_path):
    path = tmp_path / "sloppy.ris"
    path.write_text(_ris(2).replace("ER  - \n", "", 1), encoding="utf-8")
    result = read_file(path)
    assert [record.title for record in result.records] == ["Paper 0", "Paper 1"] and result.skipped == []
