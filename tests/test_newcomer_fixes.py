"""Fixes for the bugs a newcomer's first session found (one test, or a few, per bug)."""

from __future__ import annotations

import json

import pytest

from db.export import export
from db.importer import read_file
from db.library import Library
from db.paper import PaperRecord

ABSTRACTS = [
    "We propose GraphFoo, a method for graph learning that works well on many benchmarks and is fast.",
    "This paper studies reasoning in large language models with chain of thought prompting on math problems.",
    "A new optimizer named Zap converges faster than Adam on vision transformers across many model scales.",
]


# --------------------------------------------------------------- 1. re-importing Margin's own exports
@pytest.mark.parametrize("fmt", ["csv", "csl-json", "bibtex"])
@pytest.mark.parametrize("year", [2024, None])
def test_reimporting_own_export_of_untitled_papers_changes_nothing(tmp_path, fmt, year):
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([PaperRecord(abstract=text, year=year) for text in ABSTRACTS])
        before = [(p.id, p.title, p.label) for p in library.papers()]
        assert all(title is None for _id, title, _label in before)
        path = tmp_path / f"out.{fmt}"
        path.write_text(export(library.papers(), fmt), encoding="utf-8")
        read = read_file(path)
        assert [record.title for record in read.records] == [None, None, None]
        report = library.import_records(read.records)
        assert (len(report.new), len(report.updated), len(report.unchanged)) == (0, 0, 3)
        assert [(p.id, p.title, p.label) for p in library.papers()] == before


def test_export_marks_only_derived_titles(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([PaperRecord(abstract=ABSTRACTS[0], title="A Real Title", year=2024),
                                PaperRecord(abstract=ABSTRACTS[1], year=2024)])
        titled, untitled = library.papers()
        items = json.loads(export([titled, untitled], "csl-json"))
        assert "custom" not in items[0] and items[1]["custom"] == {"title_source": "derived"}
        bib = export([titled, untitled], "bibtex").split("\n\n")
        assert "x-margin-title-source" not in bib[0] and "x-margin-title-source = {derived}" in bib[1]
        path = tmp_path / "out.csv"
        path.write_text(export([titled, untitled], "csv"), encoding="utf-8")
        assert [r.title for r in read_file(path).records] == ["A Real Title", None]
