"""No library by accident (issue 31, item 4): a folder named with --library or $MARGIN_LIBRARY that holds no
library is refused by every command but `import`, in one line with exit 1, and nothing is created there; the
default folder alone is made and seeded on first use."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from tests.helpers.runner import margin

COMMANDS = [("list",), ("list", "--json"), ("show", "9342e12f"), ("tags",), ("export", "--format", "json"),
            ("annotate", "9342e12f", "--rating", "5"), ("progress",), ("interest",), ("highlight",), ("check",),
            ("restore",), ("delete", "9342e12f", "--yes"), ("like", "--venue", "ICML 2026"),
            ("sync",), ("sync", "--status"), ("sync", "--log"), ("sync", "--every", "5"),
            ("decide", "9342e12f", "include"),
            ("reasons",), ("criteria",), ("versions", "9342e12f"), ("embed", "--status"), ("cite", "9342e12f"),
            ("backup",)]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: args[0])
def test_a_mistyped_library_is_refused_in_one_line_and_nothing_is_created(tmp_path: Path, args):
    typo = tmp_path / "librray"
    result = margin(*args, library=typo)
    assert result.code == 1, (result.stdout, result.stderr)
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1
    assert "no Margin library here" in result.stderr and "margin import" in result.stderr
    assert not typo.exists()


def test_an_empty_folder_is_no_library_either(tmp_path: Path):
    result = margin("list", library=tmp_path)
    assert result.code == 1 and "no Margin library here" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_margin_library_set_to_a_typo_is_refused(tmp_path: Path):
    result = margin("list", env={"MARGIN_LIBRARY": str(tmp_path / "nope")})
    assert result.code == 1 and not (tmp_path / "nope").exists()


def test_import_makes_the_library_with_only_its_files(tmp_path: Path):
    source = tmp_path / "one.json"
    source.write_text(json.dumps([{"title": "One paper", "abstract": "The only abstract."}]), encoding="utf-8")
    assert margin("import", str(source), library=tmp_path / "new").code == 0
    listed = json.loads(margin("list", "--json", library=tmp_path / "new").stdout)
    assert [paper["label"] for paper in listed] == ["One paper"]


def test_the_default_folder_is_made_and_seeded_on_first_use(tmp_path: Path):
    result = margin("list", "--json", env={"XDG_DATA_HOME": str(tmp_path)})
    assert result.code == 0, result.stderr
    assert len(json.loads(result.stdout)) == 38
    assert (tmp_path / "Margin" / "library" / "library.db").exists()


def test_the_window_refuses_a_mistyped_library_before_it_opens(tmp_path: Path, monkeypatch):
    import main

    opened = []  # the window is never reached; were it, this stand-in says so instead of opening one
    monkeypatch.setitem(sys.modules, "desktop.app", types.SimpleNamespace(run=opened.append))
    assert main.main(["--library", str(tmp_path / "typo")]) == 1
    assert opened == []
    assert not (tmp_path / "typo").exists()
