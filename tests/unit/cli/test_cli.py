"""The command line of ARCHITECTURE.md, run in-process (tests.helpers.runner.margin)."""

import json

import pytest

from db.library.library import Library
from db.paper import PaperRecord
from tests.helpers.corpus import ABSTRACTS
from tests.helpers.runner import margin


def test_list_json_on_new_library_has_the_38_seed_papers(tmp_path):
    # only the default library folder is made and seeded on first use (issue 31: a typo is refused)
    result = margin("list", "--json", env={"XDG_DATA_HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    papers = json.loads(result.stdout)
    assert len(papers) == 38
    first = papers[0]
    assert first["id"] == "9342e12f8e8d"
    assert {"id", "label", "title", "venue", "year", "rating", "tags", "read", "note"} <= first.keys()
    assert (first["venue"], first["year"], first["rating"], first["tags"], first["read"], first["note"]) == (
        "ICML 2026", 2026, None, [], False, "")


def test_import_into_new_library_holds_only_the_named_file(library_dir, tmp_path):
    corpus = tmp_path / "mini.txt"
    corpus.write_text("NeurIPS 2025 Papers\n\nFirst abstract about graphs.\n\nSecond abstract about bandits.\n")
    result = margin("import", str(corpus), library=library_dir)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2 new, 0 updated, 0 unchanged, 0 duplicates in the file, 0 skipped"
    papers = json.loads(margin("list", "--json", library=library_dir).stdout)
    assert [(p["venue"], p["year"]) for p in papers] == [("NeurIPS 2025", 2025)] * 2
    again = margin("import", str(corpus), library=library_dir)
    assert again.stdout.strip() == "0 new, 0 updated, 2 unchanged, 0 duplicates in the file, 0 skipped"


def test_annotate_then_list_query_and_export(seeded_copy, library_dir, tmp_path):
    result = margin("annotate", "9342e12f", "--tag", "theory", "--tag", "CoT", "--rating", "5",
                    "--note", "Budget: $50 for data and a wombat", "--read", library=library_dir)
    assert result.returncode == 0, result.stderr
    found = json.loads(margin("list", "wombat", "--json", library=library_dir).stdout)
    assert [p["id"] for p in found] == ["9342e12f8e8d"]
    assert (found[0]["rating"], found[0]["tags"], found[0]["read"]) == (5, ["CoT", "theory"], True)
    assert [p["id"] for p in json.loads(margin("list", "tag:theory", "--json", library=library_dir).stdout)] == [
        "9342e12f8e8d"]
    # several words unquoted are one query, as the README's first search example (a new user's trial: "error:
    # unrecognized arguments: neural")
    several = margin("list", "wombat", "tag:theory", "--json", library=library_dir)
    assert several.returncode == 0, several.stderr
    assert [p["id"] for p in json.loads(several.stdout)] == ["9342e12f8e8d"]
    assert json.loads(margin("list", "wombat", "tag:nothing", "--json", library=library_dir).stdout) == []
    out = tmp_path / "notes.md"
    result = margin("export", "--format", "markdown", "--output", str(out), library=library_dir)
    assert result.returncode == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    assert "Budget: $50 for data and a wombat" in text and "★★★★★" in text and "`theory`" in text
    assert text.count("\n## ") == 1
    stdout = margin("export", "--format", "markdown", library=library_dir).stdout
    assert stdout == text


def test_rating_zero_clears_and_title_empty_clears(seeded_copy, library_dir):
    margin("annotate", "9342e12f8e8d", "--rating", "3", "--title", "Lower bounds for CoT", library=library_dir)
    paper = json.loads(margin("list", "--json", library=library_dir).stdout)[0]
    assert (paper["rating"], paper["label"], paper["title"]) == (3, "Lower bounds for CoT", "Lower bounds for CoT")
    margin("annotate", "9342e12f8e8d", "--rating", "0", "--title", "", library=library_dir)
    paper = json.loads(margin("list", "--json", library=library_dir).stdout)[0]
    assert paper["rating"] is None and paper["title"] is None and paper["label"].startswith("We prove lower bounds")


def test_rating_or_tagging_marks_read_unless_unread_is_given(seeded_copy, library_dir):
    def read(pid):
        return {p["id"]: p["read"] for p in json.loads(margin("list", "--json", library=library_dir).stdout)}[pid]

    first, second, third = "9342e12f8e8d", "6ac65bf33b7e", "c9c83c252bec"
    assert margin("annotate", first, "--rating", "4", library=library_dir).returncode == 0
    assert margin("annotate", second, "--tag", "theory", library=library_dir).returncode == 0
    assert margin("annotate", third, "--rating", "2", "--unread", library=library_dir).returncode == 0
    assert (read(first), read(second), read(third)) == (True, True, False)
    assert margin("annotate", third, "--note", "a note alone", library=library_dir).returncode == 0
    assert read(third) is False  # a note is no judgement of the paper


@pytest.mark.parametrize("args, message", [
    (("annotate", "ffffffffffff", "--rating", "3"), "no single paper"),
    (("annotate", "9342e12f8e8d", "--tag", "   "), "empty"),
    (("export", "--format", "markdown", "--output", "/nonexistent/dir/notes.md"), "does not exist"),
    (("import", "/nonexistent/file.txt"), "/nonexistent/file.txt: no such file"),
])
def test_bad_input_is_one_line_exit_1(seeded_copy, library_dir, args, message):
    result = margin(*args, library=library_dir)
    assert result.returncode == 1
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_bad_file_changes_nothing(seeded_copy, library_dir, tmp_path):
    margin("list", library=library_dir)
    before = (library_dir / "library.db").stat().st_size, margin("list", "--json", library=library_dir).stdout
    binary = tmp_path / "bad.txt"
    binary.write_bytes(b"\x00\x01\x02binary\x00" * 50)
    good = tmp_path / "good.txt"
    good.write_text("ICLR 2024\n\nAn abstract.\n")
    result = margin("import", str(good), str(binary), library=library_dir)
    assert result.returncode == 1 and f"{binary}:1:" in result.stderr
    assert margin("list", "--json", library=library_dir).stdout == before[1]


def test_usage_errors_exit_2(library_dir):
    assert margin("annotate", library=library_dir).returncode == 2
    assert margin("annotate", "9342e12f8e8d", "--rating", "7", library=library_dir).returncode == 2
    assert margin("frobnicate", library=library_dir).returncode == 2


def test_environment_variable_selects_library(seeded_copy, library_dir):
    result = margin("list", env={"MARGIN_LIBRARY": str(library_dir)})
    assert result.returncode == 0 and (library_dir / "library.db").exists()


# ------------------------------------------- notes with NUL, an empty --library, too long titles, search hints
def test_note_with_nul_from_the_command_line_exports_and_imports_again(tmp_path):
    library_dir = tmp_path / "lib"
    with Library.open(library_dir, seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
    note_file = tmp_path / "note.md"
    note_file.write_bytes(b"before\x00after\n")
    assert margin("annotate", paper_id, "--note-file", str(note_file), library=library_dir).returncode == 0
    for fmt in ("csv", "bibtex", "csl-json", "markdown"):
        out = tmp_path / f"out.{fmt}"
        result = margin("export", "--format", fmt, "--all", "--output", str(out), library=library_dir)
        assert result.returncode == 0, result.stderr
        assert b"\x00" not in out.read_bytes() and b"beforeafter" in out.read_bytes()
    result = margin("import", str(tmp_path / "out.csv"), library=library_dir)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("0 new, 0 updated, 1 unchanged")


@pytest.mark.parametrize("where", ["before", "after"])
def test_empty_library_option_is_a_usage_error(tmp_path, where):
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}  # where a default library would be made
    args = ["--library", "", "list"] if where == "before" else ["list", "--library", ""]
    result = margin(*args, env=env)
    assert result.returncode == 2 and result.stdout == ""
    assert "argument --library: an empty folder name" in result.stderr
    assert not (tmp_path / "data").exists()


def test_annotate_with_a_too_long_title_is_one_line_and_changes_nothing(tmp_path):
    library_dir = tmp_path / "lib"
    with Library.open(library_dir, seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
    result = margin("annotate", paper_id, "--rating", "4", "--note", "n", "--tag", "t", "--title", "x" * 120_000,
                     library=library_dir)
    assert result.returncode == 1
    assert result.stderr == "margin: a title can have at most 1,000 characters (this one has 120,000)\n"
    with Library.open(library_dir, seed=False) as library:
        paper = library.paper(paper_id)
        assert (paper.rating, paper.note, paper.tags, paper.user_title) == (None, "", [], None)


def test_list_prints_the_search_hint_on_stderr(tmp_path):
    library_dir = tmp_path / "lib"
    with Library.open(library_dir, seed=False) as library:
        library.import_records([PaperRecord(abstract=text, year=2024) for text in ABSTRACTS])
    result = margin("list", '"chain of', library=library_dir)
    assert result.returncode == 0
    assert result.stderr == "margin: unclosed quote: searched its words\n"
    assert len(result.stdout.splitlines()) == 1 and "reasoning" in result.stdout
    plain = margin("list", "graph", library=library_dir)
    assert plain.returncode == 0 and plain.stderr == ""


def test_list_query_starting_with_a_dash_after_double_dash(tmp_path):
    library_dir = tmp_path / "lib"
    with Library.open(library_dir, seed=False) as library:
        library.import_records([PaperRecord(abstract=text, year=2024) for text in ABSTRACTS])
    result = margin("--library", str(library_dir), "list", "--", "-reasoning")  # --library before the "--"
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 2
    assert "margin list -- -reasoning" in " ".join(margin("list", "--help", library=library_dir).stdout.split())
