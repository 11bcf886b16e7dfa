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


# --------------------------------------------------------------- 2. deeply nested input
def _margin(*args, library):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k != "MARGIN_LIBRARY"}
    return subprocess.run([sys.executable, str(root / "main.py"), *args, "--library", str(library)],
                          capture_output=True, text=True, env=env, cwd=root, timeout=120)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"papers": ' * 100_000 + "1" + "}" * 100_000,
                                  "\n" + "[" * 995 + "]" * 995])
def test_deeply_nested_json_is_one_input_error(tmp_path, text):
    from db.errors import InputError

    path = tmp_path / "deep.json"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_file(path)
    assert caught.value.line == (2 if text.startswith("\n") else 1)
    assert "nested too deeply" in str(caught.value)


def test_deeply_nested_json_on_the_command_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = _margin("import", str(path), library=tmp_path / "lib")
    assert result.returncode == 1
    assert result.stderr.strip() == f"margin: {path}:1: JSON nested too deeply to read"


def test_deep_json_line_is_skipped_and_the_other_lines_kept(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"title": "A paper", "abstract": "Its abstract."}\n' + "[" * 100_000 + "]" * 100_000 + "\n",
                    encoding="utf-8")
    result = read_file(path)
    assert [r.title for r in result.records] == ["A paper"]
    assert result.skipped == [(2, "a line of JSON nested too deeply to read")]


def test_deeply_nested_margin_json_is_one_input_error(tmp_path):
    from db.backup import read_margin_json
    from db.errors import InputError

    path = tmp_path / "deep.json"
    path.write_text('{"format": "margin", "version": 1, "papers": ' + "[" * 100_000 + "]" * 100_000 + "}",
                    encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply"):
        read_margin_json(path)


def test_any_reader_running_out_of_recursion_is_one_input_error(tmp_path, monkeypatch):
    from db.errors import InputError
    from db.formats import bibtex

    def too_deep(text, path):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(bibtex, "read", too_deep)
    path = tmp_path / "deep.bib"
    path.write_text("@article{a, title={x}}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"deep\.bib:1: the file is nested too deeply to read"):
        read_file(path)


def test_deep_xml_is_read_without_recursion_in_linear_time(tmp_path):
    import time

    from db.errors import InputError

    path = tmp_path / "deep.xml"
    entry = "<entry><author><name>A</name></author>"
    path.write_text('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">' + entry * 100_000
                    + "</entry>" * 100_000 + "</feed>", encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(InputError, match="no paper could be read"):  # expat and ElementTree do not recurse
        read_file(path)
    # authors and categories are the entry's children: looking for them through every nested entry below
    # made this quadratic (4.5 minutes)
    assert time.monotonic() - started < 20


def test_window_import_reports_deep_json_as_one_line(tmp_path, qtbot):
    from desktop.importing import ImportWorker

    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    worker = ImportWorker(tmp_path / "lib", [path])
    messages = []
    worker.failed.connect(messages.append)
    worker.run()
    assert messages == [f"{path}:1: JSON nested too deeply to read"]


# --------------------------------------------------------------- 3. long CSV cells
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
