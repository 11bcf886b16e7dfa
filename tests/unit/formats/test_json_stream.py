"""Issue 28: a large JSON array is read from its file value by value (db.formats.json_stream), never as one
string, and gives exactly what the whole-text reader gives: the same records with the same lines, the same
errors with the same line and column. Small pieces (7 bytes) put every boundary inside values, CRLFs,
multi-byte characters and BOMs; STREAM_BYTES 0 streams these small files."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from db.errors import InputError
from db.formats import json_stream
from db.formats.importer import read_file


def _both(monkeypatch, path: Path):
    """(whole-text result or error, streamed result or error) of read_file(path)."""
    outcomes = []
    for stream_bytes in (10**12, 0):
        monkeypatch.setattr(json_stream, "STREAM_BYTES", stream_bytes)
        try:
            result = read_file(path)
            outcomes.append((result.format, result.encoding, [asdict(r) for r in result.records], result.skipped))
        except InputError as error:
            outcomes.append(("error", str(error), error.line))
    return outcomes


PAPERS = [{"title": f"Paper {n} — ünïcödé \u202e", "abstract": "Words\r\nacross\rlines " * (n + 1),
           "venue": "ICLR 2018", "year": 2018, "author": "A; B", "doi": f"10.1/{n}"} for n in range(12)]


@pytest.mark.parametrize("text", [
    json.dumps(PAPERS, indent=2).replace("\n", "\r\n"),
    "\ufeff" + json.dumps(PAPERS, ensure_ascii=False),
    "  \n\n" + json.dumps(PAPERS, ensure_ascii=False, indent=1) + "\n\n",
    "[]",
    json.dumps([*PAPERS, 12345, "text", {"title": ""}]),  # values that are not papers: skipped with their lines
])
def test_a_streamed_array_reads_as_the_whole_text_does(monkeypatch, tmp_path: Path, text: str):
    monkeypatch.setattr(json_stream, "CHUNK_BYTES", 7)
    monkeypatch.setattr(json_stream, "_TRIM_CHARS", 5)
    path = tmp_path / "papers.json"
    path.write_bytes(text.encode("utf-8"))
    monkeypatch.setattr(json_stream, "STREAM_BYTES", 0)
    assert json_stream.streamable(path)
    whole, streamed = _both(monkeypatch, path)
    assert streamed == whole


@pytest.mark.parametrize("text", [
    json.dumps(PAPERS, indent=2)[:-40],  # cut short inside a value
    json.dumps(PAPERS, indent=2)[:-1],  # cut short after the last value
    json.dumps(PAPERS, indent=2).replace('"year": 2018', '"year": 2018,,', 5),  # broken in the middle
    json.dumps(PAPERS, indent=2) + "\n  {\"extra\": 1}",  # data after the array
    json.dumps(PAPERS, indent=2).replace("},\n  {", "}\n  {", 3),  # a missing comma
    "[" * 5000 + "]" * 5000,  # nested too deeply
])
def test_a_broken_streamed_array_fails_as_the_whole_text_does(monkeypatch, tmp_path: Path, text: str):
    monkeypatch.setattr(json_stream, "CHUNK_BYTES", 7)
    monkeypatch.setattr(json_stream, "_TRIM_CHARS", 5)
    path = tmp_path / "papers.json"
    path.write_text(text, encoding="utf-8")
    whole, streamed = _both(monkeypatch, path)
    assert whole[0] == "error"
    assert streamed == whole


@pytest.mark.parametrize("data", [
    b'[{"title": "caf\xe9"}]',  # not UTF-8: the whole-text path detects the encoding
    b'[{"title": "a\x00b"}]',  # NUL: the whole-text path refuses it
    b'{"papers": [{"title": "x"}]}',  # not an array
])
def test_files_the_stream_does_not_take_go_the_whole_text_way(monkeypatch, tmp_path: Path, data: bytes):
    monkeypatch.setattr(json_stream, "STREAM_BYTES", 0)
    path = tmp_path / "papers.json"
    path.write_bytes(data)
    assert not json_stream.streamable(path)
    monkeypatch.setattr(json_stream, "STREAM_BYTES", 10**12)
    csv = tmp_path / "papers.csv"
    csv.write_bytes(b'[{"title": "x"}]')
    monkeypatch.setattr(json_stream, "STREAM_BYTES", 0)
    assert not json_stream.streamable(csv)  # named as another format: sniffing decides on the whole text


def test_a_large_list_is_never_held_as_one_string(monkeypatch, tmp_path: Path):
    """The window holds the value being parsed and at most _TRIM_CHARS + a piece before it, not the file."""
    path = tmp_path / "papers.json"
    path.write_text(json.dumps(PAPERS * 200), encoding="utf-8")  # ~700 KB
    monkeypatch.setattr(json_stream, "STREAM_BYTES", 0)
    monkeypatch.setattr(json_stream, "CHUNK_BYTES", 4096)
    monkeypatch.setattr(json_stream, "_TRIM_CHARS", 8192)
    longest = 0
    real_more = json_stream._Window.more

    def more(window, at_least: int = 1) -> bool:
        nonlocal longest
        done = real_more(window, at_least)
        longest = max(longest, len(window.text))
        return done

    monkeypatch.setattr(json_stream._Window, "more", more)
    assert len(read_file(path).records) == len(PAPERS) * 200
    assert longest < 8192 + 3 * 4096
