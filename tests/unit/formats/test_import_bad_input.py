"""Bad input: every failure kind gives one InputError naming file and line, and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.errors import InputError
from db.formats.importer import read_file
from db.library.library import Library
from tests.helpers.imports import FIXTURES, snapshot
from tests.helpers.runner import margin

ROOT = Path(__file__).resolve().parents[2]


BAD = {
    "not_text.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256)) * 4,
    "broken.json": b'[\n  {"title": "ok", "abstract": "fine"},\n  {"title": "no closing brace"\n]\n',
    "headless.csv": b"foo,bar,baz\n1,2,3\n",
    "empty.bib": b"   \n\n",
    "bom_only.txt": b"\xef\xbb\xbf\n",
    "unknown.dat": b"just one line of prose without any structure at all",
    "not_atom.xml": b'<?xml version="1.0"?>\n<rss><channel/></rss>\n',
    "bad_utf16.json": b"\xff\xfe" + "[]".encode("utf-16-le") + b"\x00\xd8",
    "no_papers.json": b'[1, 2, {"name": "not a paper"}]',
}


EXPECTED = {
    "not_text.png": ("not a text file", 3),  # the first NUL byte is on line 3
    "broken.json": ("JSON that does not parse", 4),
    "headless.csv": ("without a usable header", 1),
    "empty.bib": ("the file is empty", 1),
    "bom_only.txt": ("the file is empty", 1),
    "unknown.dat": ("not a paper list in a format Margin reads", 1),
    "not_atom.xml": ("not an Atom feed", 1),
    "bad_utf16.json": ("invalid utf-16 text", 1),
    "no_papers.json": ("no paper could be read", 1),
}


@pytest.fixture
def library(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records(read_file(FIXTURES / "single.csl.json").records).new
        library.set_rating(paper_id, 5)
        library.add_tags(paper_id, ["keep"])
        library.set_note(paper_id, "a note that must survive")
        yield library


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_raises_one_error_naming_file_and_line(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(BAD[name])
    with pytest.raises(InputError) as caught:
        read_file(path)
    message, line = EXPECTED[name]
    assert message in caught.value.message
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{path}:{line}: ")


def test_undetectable_encoding(tmp_path, monkeypatch):
    import charset_normalizer

    class NoMatch:
        def best(self):
            return None

        def __iter__(self):
            return iter(())

    monkeypatch.setattr(charset_normalizer, "from_bytes", lambda data: NoMatch())
    path = tmp_path / "mystery.csv"
    path.write_bytes(b"title\n\xfe\xfd\xfc\x81\x8d\n")
    with pytest.raises(InputError, match="encoding that could be detected") as caught:
        read_file(path)
    assert caught.value.line == 1


def test_cli_reports_bad_file_and_leaves_library_unchanged(tmp_path, library):
    before = snapshot(library)
    good = FIXTURES / "papers.csv"
    bad = tmp_path / "broken.json"
    bad.write_bytes(BAD["broken.json"])
    result = margin("import", str(good), str(bad), library=library.folder)
    assert result.returncode == 1
    assert result.stderr.strip() == (f"margin: {bad}:4: JSON that does not parse (expecting ',' delimiter at line 4, "
                                     "column 1)")
    assert "Traceback" not in result.stderr
    assert snapshot(library) == before


def test_cli_lists_skipped_records_with_lines(tmp_path):
    result = margin("import", str(FIXTURES / "papers.bib"), str(FIXTURES / "papers.ris"), library=tmp_path / "lib")
    assert result.returncode == 0
    assert result.stdout.strip() == ("4 new, 0 updated, 0 unchanged, 0 duplicates in the file, 2 skipped; "
                                    "annotations from the files: tags on 1 paper")  # its keywords (issue 30)
    lines = [line for line in result.stderr.splitlines() if "skipped" in line]
    assert len(lines) == 2
    assert "15" in lines[0] and str(FIXTURES / "papers.bib") in lines[0] and "could not be parsed" in lines[0]
    assert "12" in lines[1] and str(FIXTURES / "papers.ris") in lines[1] and "neither title nor abstract" in lines[1]


def test_failed_import_rolls_back_everything(library, monkeypatch):
    before = snapshot(library)
    records = read_file(FIXTURES / "papers.json").records + read_file(FIXTURES / "papers.csv").records
    calls = []

    def explode(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        library.import_records(records * 300, progress=explode)
    assert calls == [500]
    assert snapshot(library) == before


# ------------------------------------------- deeply nested input
@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"papers": ' * 100_000 + "1" + "}" * 100_000,
                                  "\n" + "[" * 995 + "]" * 995])
def test_deeply_nested_json_is_one_input_error(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_file(path)
    assert caught.value.line == (2 if text.startswith("\n") else 1)
    assert "nested too deeply" in str(caught.value)


def test_deeply_nested_json_on_the_command_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = margin("import", str(path), library=tmp_path / "lib")
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
    from db.library.backup import read_margin_json
    path = tmp_path / "deep.json"
    path.write_text('{"format": "margin", "version": 1, "papers": ' + "[" * 100_000 + "]" * 100_000 + "}",
                    encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply"):
        read_margin_json(path)


def test_any_reader_running_out_of_recursion_is_one_input_error(tmp_path, monkeypatch):
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

    path = tmp_path / "deep.xml"
    entry = "<entry><author><name>A</name></author>"
    path.write_text('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">' + entry * 100_000
                    + "</entry>" * 100_000 + "</feed>", encoding="utf-8")
    started = time.process_time()  # CPU time: a busy machine slows the clock, not the work
    with pytest.raises(InputError, match="no paper could be read"):  # expat and ElementTree do not recurse
        read_file(path)
    # authors and categories are the entry's children: looking for them through every nested entry below
    # made this quadratic (4.5 minutes)
    assert time.process_time() - started < 20


def test_parse_errors_say_where_and_a_compressed_file_says_what_it_is(tmp_path):
    """A new user's trial: "broken Margin JSON (Unterminated string starting at)" and the same in a JSON Lines
    "skipped:" line lost the position; a `.json.gz` was "not a text file (it holds NUL bytes)"."""
    import gzip

    from db.library.backup import read_margin_json

    broken = tmp_path / "backup.json"
    broken.write_text('{"format": "margin", "version": 1,\n "papers": [{"title": "cut', encoding="utf-8")
    with pytest.raises(InputError, match=r"Unterminated string starting at line 2, column 23\)"):
        read_margin_json(broken)
    lines = tmp_path / "papers.jsonl"
    lines.write_text('{"title": "A paper", "abstract": "Its abstract."}\n{"title": "cut\n', encoding="utf-8")
    assert read_file(lines).skipped == [(2, "a line that is not valid JSON (Unterminated string starting at column "
                                            "11)")]
    packed = tmp_path / "papers.json.gz"
    packed.write_bytes(gzip.compress(b'[{"title": "A paper", "abstract": "Its abstract."}]'))
    with pytest.raises(InputError, match=r"papers.json.gz:1: a compressed file .*gunzip"):
        read_file(packed)
