"""Issue 30's new-user trial: what an export into an empty library lost (each test failed before its fix)."""

import pytest

from db.library import Library
from db.paper import PaperRecord
from tests.helpers.runner import margin


def _export(tmp_path, fmt, **fields):
    folder = tmp_path / "lib"
    with Library.open(folder, seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(**fields)]).new
    path = tmp_path / f"out.{fmt}"
    return folder, paper_id, path


def _write(folder, fmt, path):
    assert margin("export", "--format", fmt, "--all", "--output", str(path), library=folder).code == 0


def _import_fresh(tmp_path, path, *options):
    fresh = tmp_path / "fresh"
    result = margin("import", *options, str(path), library=fresh)
    assert result.code == 0, result.stderr
    return fresh, result


def test_a_misc_entry_keeps_its_venue_through_bibtex(tmp_path):
    folder, _paper_id, path = _export(tmp_path, "bib", title="DOIs for blog posts", abstract="A blog post.",
                                      venue="DataCite Blog", year=2023, extra={"type": "misc"})
    _write(folder, "bibtex", path)
    assert "howpublished = {DataCite Blog}" in path.read_text(encoding="utf-8")
    fresh, _result = _import_fresh(tmp_path, path)
    with Library.open(fresh, seed=False) as library:
        (paper,) = library.papers()
        assert paper.venue == "DataCite Blog"


@pytest.mark.parametrize(("fmt", "name"), [("bibtex", "out.bib"), ("csl-json", "out.json"), ("csv", "out.csv")])
def test_the_users_title_comes_back_as_the_users_title(tmp_path, fmt, name):
    folder, paper_id, _path = _export(tmp_path, fmt, title="The File's Title", abstract="An abstract.", year=2020,
                                      authors=["Ann Doe"])
    assert margin("annotate", paper_id, "--title", "My own title", library=folder).code == 0
    path = tmp_path / name
    _write(folder, fmt, path)
    fresh, result = _import_fresh(tmp_path, path)
    assert "1 title" in result.stdout
    with Library.open(fresh, seed=False) as library:
        (paper,) = library.papers()
        assert (paper.user_title, paper.file_title) == ("My own title", "The File's Title")
    again = margin("import", str(path), library=fresh)
    assert again.stdout.startswith("0 new, 0 updated, 1 unchanged"), again.stdout


def test_no_annotations_leaves_a_margin_json_files_annotations_out(tmp_path):
    folder, paper_id, path = _export(tmp_path, "json", title="Kept Plain", abstract="An abstract.", year=2021)
    assert margin("annotate", paper_id, "--rating", "4", "--tag", "mine", "--title", "Mine",
                  library=folder).code == 0
    _write(folder, "json", path)
    fresh, result = _import_fresh(tmp_path, path, "--no-annotations")
    assert "restored" not in result.stdout and result.stdout.startswith("1 new"), result.stdout
    with Library.open(fresh, seed=False) as library:
        (paper,) = library.papers()
        assert (paper.id, paper.title, paper.rating, paper.tags, paper.user_title) == (
            paper_id, "Kept Plain", None, [], None)
    again = margin("import", "--no-annotations", str(path), library=folder)
    assert again.stdout.startswith("0 new, 0 updated, 1 unchanged"), again.stdout


def test_a_csv_export_brings_screening_decisions_back_into_an_empty_library(tmp_path):
    folder, paper_id, path = _export(tmp_path, "csv", title="Screened", abstract="An abstract.", year=2022)
    with Library.open(folder, seed=False) as library:
        (other,) = library.import_records([PaperRecord(title="Also Screened", abstract="Another.", year=2022)]).new
        library.set_decision(paper_id, "exclude", "wrong population")
        library.set_decision(other, "maybe")
        expected = {paper_id: library.decision(paper_id), other: library.decision(other)}
    _write(folder, "csv", path)
    fresh, result = _import_fresh(tmp_path, path)
    assert "2 screening decisions" in result.stdout, result.stdout
    with Library.open(fresh, seed=False) as library:
        assert {paper.id: library.decision(paper.id) for paper in library.papers()} == expected
    again = margin("import", str(path), library=folder)
    assert again.stdout.startswith("0 new, 0 updated, 2 unchanged"), again.stdout
    assert "decision" not in again.stdout


BIB_SHARED_DOI = """@article{doe2019,
  title = {Merge Me Please}, author = {Doe, Jane}, year = {2019}, doi = {10.9999/merge},
  abstract = {The first paper's abstract.}
}
@article{doe2020,
  title = {Totally different title here}, author = {Doe, Jane}, year = {2020}, doi = {10.9999/MERGE},
  abstract = {Another paper entirely.}
}
"""


def test_a_shared_doi_with_clearly_different_titles_keeps_both_papers_even_with_a_shared_author(tmp_path):
    path = tmp_path / "shared.bib"
    path.write_text(BIB_SHARED_DOI, encoding="utf-8")
    fresh, result = _import_fresh(tmp_path, path)
    assert result.stdout.startswith("2 new"), result.stdout
    assert "kept apart: DOI 10.9999/merge" in result.stderr
    with Library.open(fresh, seed=False) as library:
        assert sorted(p.title for p in library.papers()) == ["Merge Me Please", "Totally different title here"]


def test_a_reimport_of_a_file_holding_one_paper_twice_changes_nothing(tmp_path):
    """NeurIPS 2017's list holds "End-to-End Differentiable Proving" twice (poster without abstract, oral with);
    the first re-import used to update the paper to the poster's values."""
    records = [PaperRecord(title="End-to-End Differentiable Proving", authors=["Tim Rocktäschel"], year=2017,
                           url="https://nips.cc/virtual/2017/poster/9161", extra={"decision": "Poster"}),
               PaperRecord(title="End-to-end Differentiable Proving", authors=["Tim Rocktäschel"], year=2017,
                           abstract="We introduce deep neural networks for end-to-end differentiable theorem proving.",
                           url="https://nips.cc/virtual/2017/oral/10058", extra={"decision": "Oral"})]
    with Library.open(tmp_path / "lib", seed=False) as library:
        first = library.import_records(records)
        assert (len(first.new), first.duplicates) == (1, 1)
        again = library.import_records(records)
        assert (again.new, again.updated, again.duplicates) == ([], [], 1)
        assert again.unchanged == first.new
