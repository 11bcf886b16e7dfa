"""Small words (issue 31, item 8): what Margin says where it used to say nothing, too little or the wrong thing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.runner import margin


def test_interest_with_none_says_how_to_make_one(seeded_copy, library_dir):
    result = margin("interest", library=library_dir)
    assert result.code == 0 and "no interests yet" in result.stdout and "margin interest TAG" in result.stdout


def test_importing_margins_own_xlsx_says_it_is_export_only(seeded_copy, library_dir, tmp_path: Path):
    workbook = tmp_path / "papers.xlsx"
    assert margin("export", "--format", "xlsx", "--all", "--output", str(workbook), library=library_dir).code == 0
    result = margin("import", str(workbook), library=library_dir)
    assert result.code == 1 and "NUL" not in result.stderr
    assert "does not read it; import a CSV or Margin's JSON export" in result.stderr


def test_a_truncated_json_is_named_as_cut_short_in_a_whole_sentence(seeded_copy, library_dir, tmp_path: Path):
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps([{"title": "A", "abstract": "B"}, {"title": "C", "abstract": "D"}])[:45],
                   encoding="utf-8")
    result = margin("import", str(cut), library=library_dir)
    assert result.code == 1
    assert result.stderr.strip().endswith("it may have been cut short)")
    assert "line 1, column" in result.stderr and not result.stderr.strip().endswith("at)")


def test_a_ris_record_with_only_a_doi_is_kept(tmp_path: Path):
    source = tmp_path / "one.ris"
    source.write_text("TY  - JOUR\nDO  - 10.1234/abc\nER  - \n", encoding="utf-8")
    result = margin("import", str(source), library=tmp_path / "lib")
    assert result.code == 0, result.stderr
    listed = json.loads(margin("list", "--json", library=tmp_path / "lib").stdout)
    assert [paper["label"] for paper in listed] == ["DOI 10.1234/abc"]


def test_jabref_articles_without_a_title_are_kept_labelled_from_what_they_have(tmp_path: Path):
    source = tmp_path / "jabref.bib"
    source.write_text("@article{smith2020,\n author = {Smith, John and Doe, Jane},\n journal = {Nature},\n"
                      " year = {2020}\n}\n@article{lee2019,\n author = {Lee, Ann},\n journal = {Science},\n"
                      " year = {2019}\n}\n", encoding="utf-8")
    result = margin("import", str(source), library=tmp_path / "lib")
    assert result.code == 0 and result.stdout.startswith("2 new"), result.stderr
    labels = {paper["label"] for paper in json.loads(margin("list", "--json", library=tmp_path / "lib").stdout)}
    assert labels == {"Smith et al. · Nature · 2020", "Lee · Science · 2019"}
