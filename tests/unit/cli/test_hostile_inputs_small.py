"""Issue 18, item 9: small hostile inputs each give one clear line and change nothing (or are made harmless)."""

from __future__ import annotations

import json

import pytest

from db.exporters.markdown import safe_file_name
from tests.helpers.faults import assert_one_line_error, db_state
from tests.helpers.runner import margin


@pytest.fixture
def folder(seeded_copy):
    folder = seeded_copy
    assert margin("list", library=folder).returncode == 0
    return folder


def test_a_year_too_large_for_sqlite_in_a_margin_json_is_no_traceback(folder, tmp_path):
    document = {"format": "margin", "version": 1, "kind": "export", "created": "2026-01-01T00:00:00+00:00",
                "papers": [{"id": "0123456789ab", "title": "Quokkas from afar", "title_source": "file",
                            "abstract": "Quokkas far away.",
                            "year": 99999999999999999999, "annotations": {"rating": 4}}]}
    path = tmp_path / "future.json"
    path.write_text(json.dumps(document))
    result = margin("import", str(path), library=folder)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    listed = json.loads(margin("list", "--json", "quokkas", library=folder).stdout)
    assert [(paper["year"], paper["rating"]) for paper in listed] == [(None, 4)]  # no year rather than a wrong one


def test_bidi_controls_never_reach_a_markdown_file_name():
    name = safe_file_name("Evil \u202egnp.exe\u2066 title\u200f", "0123456789ab")
    assert name == "Evil gnp.exe title (0123456789ab).md"


@pytest.mark.parametrize("suffix", [".markdown", ".txt"])
def test_margins_own_markdown_export_is_refused_not_imported_as_papers(folder, tmp_path, suffix):
    """A new user's trial: importing the Markdown export made 462 junk papers of its headings and list items
    and replaced 224 abstracts with the export's quoted ones."""
    paper_id = json.loads(margin("list", "--json", library=folder).stdout)[0]["id"]
    margin("annotate", paper_id, "--note", "## Method\n\n- a point\n- another", library=folder)
    exported = tmp_path / f"notes{suffix}"
    assert margin("export", "--all", "--format", "markdown", "--output", str(exported), library=folder).returncode == 0
    before = db_state(folder)
    assert_one_line_error(margin("import", str(exported), library=folder), exported.name, ":1:")
    assert db_state(folder) == before


def test_markup_paragraphs_in_a_paper_list_are_skipped_with_their_line(folder, tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("NeurIPS 2025 Papers\n\nWe study quokkas in the wild and find that they smile.\n\n"
                    "- a stray list item\n\nWe also study wombats, which do not.\n", encoding="utf-8")
    result = margin("import", str(path), library=folder)
    assert result.returncode == 0 and "2 new" in result.stdout and "1 skipped" in result.stdout
    assert "list.txt:5:" in result.stderr


def test_reimporting_the_bibtex_export_of_page_ranges_changes_nothing(tmp_path):
    """A new user's trial: `1-22` came back as `1–22` (TeX's `--`), so 200 papers were 'updated'."""
    source = tmp_path / "paged.bib"
    source.write_text("@article{a, title={Paged paper}, author={Doe, Jane}, journal={Science}, year={2020},"
                      " pages={1-22}}\n@article{b, title={Other paged}, author={Roe, R.}, journal={Nature},"
                      " year={2021}, pages={5--9}}\n", encoding="utf-8")
    folder = tmp_path / "lib"
    assert margin("import", str(source), library=folder).returncode == 0
    exported = tmp_path / "export.bib"
    assert margin("export", "--all", "--format", "bibtex", "--output", str(exported), library=folder).returncode == 0
    assert margin("import", str(exported), library=folder).stdout.startswith("0 new, 0 updated, 2 unchanged")
