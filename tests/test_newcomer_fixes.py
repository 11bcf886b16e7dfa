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
    return subprocess.run([sys.executable, str(root / "main.py"), "--library", str(library), *args],
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


# --------------------------------------------------------------- 4. control characters in notes, titles, tags
CONTROLS = "".join(chr(c) for c in range(32) if chr(c) not in "\t\n\r")


def test_c0_controls_are_stripped_from_notes_titles_and_tags(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
        library.set_note(paper_id, f"a\x00b{CONTROLS}\tc\r\nd\x7f é")
        library.set_title(paper_id, "Ti\x00tle\x1b[31m red")
        library.add_tags(paper_id, ["ta\x00g\x07"])
        assert library.paper(paper_id).tags == ["tag"]
        paper = library.paper(paper_id)
        assert paper.note == "ab\tc\r\nd\x7f é"  # tab, CR and LF are kept; DEL is no C0 control
        assert paper.user_title == "Title[31m red"
        assert paper.tags == ["tag"]
        library.remove_tags(paper_id, ["t\x00ag"])
        assert library.paper(paper_id).tags == []
        assert not library.set_note(paper_id, "ab\x00\tc\r\nd\x7f é")  # the same note once cleaned


def test_note_with_nul_from_the_command_line_exports_and_imports_again(tmp_path):
    library_dir = tmp_path / "lib"
    with Library.open(library_dir, seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
    note_file = tmp_path / "note.md"
    note_file.write_bytes(b"before\x00after\n")
    assert _margin("annotate", paper_id, "--note-file", str(note_file), library=library_dir).returncode == 0
    for fmt in ("csv", "bibtex", "csl-json", "markdown"):
        out = tmp_path / f"out.{fmt}"
        result = _margin("export", "--format", fmt, "--all", "--output", str(out), library=library_dir)
        assert result.returncode == 0, result.stderr
        assert b"\x00" not in out.read_bytes() and b"beforeafter" in out.read_bytes()
    result = _margin("import", str(tmp_path / "out.csv"), library=library_dir)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("0 new, 0 updated, 1 unchanged")


def test_restoring_a_backup_with_controls_twice_changes_nothing_the_second_time(tmp_path):
    from db.backup import restore

    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
        paper = library.paper(paper_id)
        item = {"id": paper_id, "abstract": paper.abstract, "year": 2024, "title": None, "title_source": "derived",
                "annotations": {"note": "n\x00ote", "title": "T\x00itle", "tags": ["x\x01"]}}
        data = {"format": "margin", "version": 1, "papers": [item]}
        assert restore(library, data).changed == [paper_id]
        assert (library.paper(paper_id).note, library.paper(paper_id).user_title) == ("note", "Title")
        again = restore(library, data)
        assert again.changed == [] and again.unchanged == [paper_id]
        assert library.note_history(paper_id) == []


# --------------------------------------------------------------- 6. an empty --library
@pytest.mark.parametrize("where", ["before", "after"])
def test_empty_library_option_is_a_usage_error(tmp_path, where):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k != "MARGIN_LIBRARY"}
    env["HOME"] = str(tmp_path)  # were the default library used, it would be made here
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    args = ["--library", "", "list"] if where == "before" else ["list", "--library", ""]
    result = subprocess.run([sys.executable, str(root / "main.py"), *args], capture_output=True, text=True,
                            env=env, cwd=root, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert "argument --library: an empty folder name" in result.stderr
    assert not (tmp_path / "data").exists()


# --------------------------------------------------------------- 7. title length
def test_title_longer_than_1000_characters_is_refused(tmp_path):
    from db.cleaning import MAX_TITLE

    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
        library.set_title(paper_id, "x" * MAX_TITLE)
        assert library.paper(paper_id).user_title == "x" * 1000
        with pytest.raises(ValueError, match="a title can have at most 1,000 characters"):
            library.set_title(paper_id, "y" * 1001)
        assert library.paper(paper_id).user_title == "x" * 1000
        library.set_title(paper_id, "  " + "z " * 500)  # 1,000 characters once the spaces are collapsed
        assert library.paper(paper_id).user_title == " ".join("z" * 500)


def test_annotate_with_a_too_long_title_is_one_line_and_changes_nothing(tmp_path):
    library_dir = tmp_path / "lib"
    with Library.open(library_dir, seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
    result = _margin("annotate", paper_id, "--rating", "4", "--note", "n", "--tag", "t", "--title", "x" * 120_000,
                     library=library_dir)
    assert result.returncode == 1
    assert result.stderr == "margin: a title can have at most 1,000 characters (this one has 120,000)\n"
    with Library.open(library_dir, seed=False) as library:
        paper = library.paper(paper_id)
        assert (paper.rating, paper.note, paper.tags, paper.user_title) == (None, "", [], None)


def test_restore_with_a_too_long_title_is_an_input_error_before_any_change(tmp_path):
    from db.backup import restore
    from db.errors import InputError

    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
        items = [{"id": paper_id, "annotations": {"rating": 5}},
                 {"id": "0123456789ab", "abstract": "x", "annotations": {"title": "t" * 1001}}]
        with pytest.raises(InputError, match="paper 2: a title can have at most 1,000 characters"):
            restore(library, {"format": "margin", "version": 1, "papers": items}, path="b.json")
        assert library.paper(paper_id).rating is None and library.count() == 1


# --------------------------------------------------------------- 8. search hints on the command line
def test_list_prints_the_search_hint_on_stderr(tmp_path):
    library_dir = tmp_path / "lib"
    with Library.open(library_dir, seed=False) as library:
        library.import_records([PaperRecord(abstract=text, year=2024) for text in ABSTRACTS])
    result = _margin("list", '"chain of', library=library_dir)
    assert result.returncode == 0
    assert result.stderr == "margin: unclosed quote: searched its words\n"
    assert len(result.stdout.splitlines()) == 1 and "reasoning" in result.stdout
    plain = _margin("list", "graph", library=library_dir)
    assert plain.returncode == 0 and plain.stderr == ""


def test_list_query_starting_with_a_dash_after_double_dash(tmp_path):
    library_dir = tmp_path / "lib"
    with Library.open(library_dir, seed=False) as library:
        library.import_records([PaperRecord(abstract=text, year=2024) for text in ABSTRACTS])
    result = _margin("list", "--", "-reasoning", library=library_dir)
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 2
    assert "margin list -- -reasoning" in " ".join(_margin("list", "--help", library=library_dir).stdout.split())


# --------------------------------------------------------------- 5. same title, no year
def test_same_title_without_year_and_different_abstracts_are_two_papers(tmp_path):
    path = tmp_path / "same.json"
    path.write_text(json.dumps([{"title": "Same title", "abstract": "A about graphs and their neural networks"},
                                {"title": "Same title", "abstract": "B totally different, on bandits"}]))
    with Library.open(tmp_path / "lib", seed=False) as library:
        report = library.import_records(read_file(path).records)
        assert (len(report.new), report.duplicates) == (2, 0)
        again = library.import_records(read_file(path).records)
        assert (len(again.new), len(again.updated), len(again.unchanged)) == (0, 0, 2)


def test_same_title_without_year_and_long_different_abstracts_are_two_papers(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        first = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[0])])
        second = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[1])])
        assert len(first.new) == 1 and len(second.new) == 1 and library.count() == 2


def test_same_title_without_year_still_matches_when_the_abstracts_agree(tmp_path):
    edited = ABSTRACTS[1].replace("math problems", "math problems.")
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[1])]).new
        for record in (PaperRecord(title="SAME  title", abstract=edited),  # near-identical abstract
                       PaperRecord(title="Same title", abstract=""),  # no abstract: nothing tells them apart
                       PaperRecord(title="Same title", abstract=ABSTRACTS[1].upper())):
            report = library.import_records([record])
            assert report.new == [] and (report.updated or report.unchanged) == [paper_id]
        (title_only,) = library.import_records([PaperRecord(title="Only a title")]).new
        report = library.import_records([PaperRecord(title="Only a title", abstract=ABSTRACTS[2])])
        assert report.updated == [title_only] and library.paper(title_only).abstract == ABSTRACTS[2]


def test_same_title_and_year_still_match_whatever_the_abstracts(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[0], year=2020)]).new
        report = library.import_records([PaperRecord(title="Same title", abstract=ABSTRACTS[1], year=2020)])
        assert report.updated == [paper_id]


# --------------------------------------------------------------- 9. exported files' mode
@pytest.fixture
def umask_027():
    import os

    old = os.umask(0o027)
    yield
    os.umask(old)


def _mode(path) -> int:
    import stat

    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(__import__("os").name != "posix", reason="POSIX permissions")
def test_exported_file_gets_the_umask_mode_and_a_replaced_file_keeps_its_mode(tmp_path, umask_027):
    from db.export import write_export

    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)])
        papers = library.papers()
    new = tmp_path / "new.csv"
    write_export(papers, "csv", new)
    assert _mode(new) == 0o640  # 0o666 & ~0o027, not mkstemp's 0o600
    kept = tmp_path / "kept.bib"
    kept.write_text("old")
    kept.chmod(0o604)
    write_export(papers, "bibtex", kept)
    assert _mode(kept) == 0o604 and "x-margin-id" in kept.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.bib", "lib", "new.csv"]


@pytest.mark.skipif(__import__("os").name != "posix", reason="POSIX permissions")
def test_markdown_folder_files_get_the_umask_mode_and_keep_a_replaced_files_mode(tmp_path, umask_027):
    from db.export import export_files
    from db.exporters.markdown import write_folder

    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([PaperRecord(abstract=text, year=2024) for text in ABSTRACTS[:2]])
        files = export_files(library.papers(), "markdown-folder")
    folder = tmp_path / "vault"
    first, second = write_folder(files, folder)
    assert _mode(first) == _mode(second) == 0o640
    second.chmod(0o600)
    write_folder(files, folder)
    assert (_mode(first), _mode(second)) == (0o640, 0o600)
    assert sorted(p.name for p in folder.iterdir()) == sorted(files)


def test_current_umask_is_read_without_changing_it(umask_027):
    import os

    from db.fileio import current_umask

    assert current_umask() == 0o027
    assert os.umask(0o027) == 0o027


# --------------------------------------------------------------- 10. packaging metadata
def test_pyproject_license_is_an_spdx_string_with_a_setuptools_that_reads_it():
    import re
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"  # the table form warns on setuptools >= 77 (PEP 639)
    (setuptools,) = [req for req in project["build-system"]["requires"] if req.startswith("setuptools")]
    minimum = re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", setuptools.replace(" ", ""))
    assert minimum is not None and int(minimum.group(1)) >= 77  # the first setuptools that accepts the string form
