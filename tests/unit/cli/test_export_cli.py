"""`margin export`: which papers (annotated, --all, --query), files, folders and errors (issue 6)."""

from __future__ import annotations

import csv
import io
import json

import pytest
import yaml

from db.library.library import Library
from main import main

NOTE = "Budget: $50 for data and $60 for compute\n50% done # v2"


@pytest.fixture
def annotated(seeded_copy):
    """A seeded library (in library_dir) with two annotated papers; returns their ids."""
    with Library.open(seeded_copy) as library:
        ids = library.ids()
        library.set_note(ids[0], NOTE)
        library.add_tags(ids[5], ["wombat"])
        library.set_read(ids[6], True)  # read alone is not "annotated"
    return [ids[0], ids[5]]


def run(capsys, library_dir, *args: str) -> tuple[int, str, str]:
    code = main(["export", *args, "--library", str(library_dir)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_default_exports_annotated_papers_only(annotated, library_dir, capsys):
    code, out, _ = run(capsys, library_dir, "--format", "csv")
    assert code == 0
    assert [row["id"] for row in csv.DictReader(io.StringIO(out.removeprefix("\ufeff"), newline=""))] == annotated


def test_default_json_export_keeps_the_papers_only_read(annotated, library_dir, capsys):
    """JSON is the format that restores: a paper only read is the user's work too (issue 31)."""
    code, out, _ = run(capsys, library_dir, "--format", "json")
    with Library.open(library_dir) as library:
        read_only = library.ids()[6]
    assert code == 0
    assert [item["id"] for item in json.loads(out)["papers"]] == [*annotated, read_only]


def test_all_exports_every_paper_in_library_order(annotated, library_dir, capsys):
    code, out, _ = run(capsys, library_dir, "--format", "csv", "--all")
    rows = list(csv.DictReader(io.StringIO(out.removeprefix("\ufeff"), newline="")))
    assert code == 0 and len(rows) == 38
    assert rows[0]["id"] == annotated[0] and rows[0]["note"] == NOTE


def test_query_exports_the_matching_papers(annotated, library_dir, capsys):
    code, out, _ = run(capsys, library_dir, "--format", "csl-json", "--query", "tag:wombat")
    items = json.loads(out)
    assert code == 0 and len(items) == 1 and items[0]["keyword"] == "wombat"


def test_output_file_is_utf8_and_reported(annotated, library_dir, tmp_path, capsys):
    out = tmp_path / "notes.bib"
    code, stdout, err = run(capsys, library_dir, "--format", "bibtex", "--output", str(out))
    assert code == 0 and stdout == "" and err.strip() == f"exported 2 papers to {out}"
    text = out.read_text(encoding="utf-8")
    assert text.count("@inproceedings{") == 2 and r"Budget: \$50 for data and \$60 for compute" in text


def test_markdown_folder_writes_one_file_per_paper(annotated, library_dir, tmp_path, capsys):
    folder = tmp_path / "vault" / "margin"
    code, _, err = run(capsys, library_dir, "--format", "markdown-folder", "--output", str(folder), "--no-abstract")
    assert code == 0 and err.strip() == f"exported 2 papers to {folder}"
    files = sorted(folder.iterdir())
    assert sorted(path.name[-16:-4] for path in files) == sorted(annotated)  # "<label> (<id>).md"
    texts = [path.read_text(encoding="utf-8") for path in files]
    metas = [yaml.safe_load(text.split("---\n")[1]) for text in texts]
    assert sorted(meta["id"] for meta in metas) == sorted(annotated)
    assert all("# Abstract" not in text for text in texts)
    assert sum(NOTE in text for text in texts) == 1  # the one annotated paper with a note


@pytest.mark.parametrize(("args", "message"), [
    (("--format", "markdown-folder"), "give the folder with --output DIR"),
    (("--format", "csv", "--output", "{tmp}"), "is a folder; give a file name"),
    (("--format", "json", "--output", "{tmp}/missing/x.json"), "does not exist"),
])
def test_bad_output_is_one_line_exit_1(annotated, library_dir, tmp_path, capsys, args, message):
    code, stdout, err = run(capsys, library_dir, *(arg.format(tmp=tmp_path) for arg in args))
    assert code == 1 and stdout == "" and message in err and len(err.strip().splitlines()) == 1


def test_all_and_query_together_are_a_usage_error(library_dir, capsys):
    with pytest.raises(SystemExit) as exit_info:
        run(capsys, library_dir, "--format", "csv", "--all", "--query", "x")
    assert exit_info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
