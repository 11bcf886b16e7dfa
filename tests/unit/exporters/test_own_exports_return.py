"""Issue 30 item 4: Margin's own exports come back changing nothing (each failed before the issue: a DOI with a
backslash came back as `%5C` and made a second paper; `x-margin-id` was not used; a year-less paper's CSL-JSON
item was not taken for CSL and its tags became keywords; a CSV keyword with `;` was split; a Markdown note
quoting a BibTeX entry became a paper)."""

import json

from db.library import Library
from db.paper import PaperRecord
from tests.helpers.runner import margin

SUMMARY_UNCHANGED = "0 new, 0 updated, 1 unchanged, 0 duplicates in the file, 0 skipped"


def _library(tmp_path, **fields):
    folder = tmp_path / "lib"
    with Library.open(folder, seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(**fields)]).new
    return folder, paper_id


def _round_trip(tmp_path, folder, fmt):
    path = tmp_path / f"out.{fmt}"
    assert margin("export", "--format", fmt, "--all", "--output", str(path), library=folder).code == 0
    result = margin("import", str(path), library=folder)
    assert result.code == 0, result.stderr
    return path, result


def test_a_bibtex_doi_with_a_backslash_and_braces_comes_back_the_same(tmp_path):
    folder, paper_id = _library(tmp_path, title="Odd DOI", abstract="An abstract about odd identifiers.",
                                doi="10.1002/(SICI)1097\\x{y}", url="https://example.org/a{b}\\c", year=2001)
    path, result = _round_trip(tmp_path, folder, "bibtex")
    assert "%5C" in path.read_text(encoding="utf-8")  # the export escapes it (biblatex reads doi verbatim)
    assert result.stdout.strip() == SUMMARY_UNCHANGED
    with Library.open(folder, seed=False) as library:
        (paper,) = library.papers()
        assert (paper.id, paper.doi, paper.url) == (paper_id, "10.1002/(SICI)1097\\x{y}", "https://example.org/a{b}\\c")


def test_x_margin_id_matches_an_entry_edited_elsewhere(tmp_path):
    folder, paper_id = _library(tmp_path, title="A Title", abstract="The abstract as it was imported first.",
                                year=2020)
    path = tmp_path / "edited.bib"
    assert margin("export", "--format", "bibtex", "--all", "--output", str(path), library=folder).code == 0
    text = path.read_text(encoding="utf-8").replace("A Title", "A Completely Retitled Paper").replace(
        "The abstract as it was imported first.", "An abstract rewritten in another reference manager.")
    path.write_text(text, encoding="utf-8")
    result = margin("import", str(path), library=folder)
    assert result.stdout.startswith("0 new, 1 updated"), result.stdout
    with Library.open(folder, seed=False) as library:
        assert [p.id for p in library.papers()] == [paper_id]
        assert library.paper(paper_id).title == "A Completely Retitled Paper"


def test_a_csl_json_item_of_a_year_less_tagged_paper_keeps_its_tags_out_of_keywords(tmp_path):
    folder, paper_id = _library(tmp_path, title="No Year Paper", abstract="An abstract without year or venue.")
    assert margin("annotate", paper_id, "--tag", "to read", "--tag", "x;z", library=folder).code == 0
    path, result = _round_trip(tmp_path, folder, "csl-json")
    assert json.loads(path.read_text(encoding="utf-8"))[0]["custom"]["tags"] == ["to read", "x;z"]
    assert result.stdout.strip() == SUMMARY_UNCHANGED
    with Library.open(folder, seed=False) as library:
        assert library.paper(paper_id).keywords == []


def test_a_csv_keyword_holding_a_semicolon_stays_one_keyword(tmp_path):
    folder, paper_id = _library(tmp_path, title="Keyworded", abstract="An abstract with odd keywords.",
                                keywords=["graphs; trees", "plain"], year=2019)
    _path, result = _round_trip(tmp_path, folder, "csv")
    assert result.stdout.strip() == SUMMARY_UNCHANGED
    with Library.open(folder, seed=False) as library:
        assert library.paper(paper_id).keywords == ["graphs; trees", "plain"]


NOTE = """# Reading notes

A reviewer pasted this entry into the note:

```bibtex
@inproceedings{injected,
  title = {Injected},
  author = {Nobody, A.},
}
```
"""


def test_a_markdown_note_quoting_a_bibtex_entry_is_not_read_as_papers(tmp_path):
    note = tmp_path / "note.md"
    note.write_text(NOTE, encoding="utf-8")
    result = margin("import", str(note), library=tmp_path / "lib")
    assert result.code == 1 and "not a paper list" in result.stderr
    assert not (tmp_path / "lib").exists() or margin("list", library=tmp_path / "lib").stdout.strip() == ""


def test_a_md_file_that_is_bibtex_is_read_as_bibtex(tmp_path):
    path = tmp_path / "refs.md"
    path.write_text("% exported\n@article{k,\n  title = {Real Entry},\n  abstract = {A real abstract.},\n}\n",
                    encoding="utf-8")
    result = margin("import", str(path), library=tmp_path / "lib")
    assert result.code == 0 and result.stdout.startswith("1 new"), result.stderr
