"""Markdown under pandoc (issue 13, item 14): a note that starts with a YAML block does not become the document's
title, and math in headings is math."""

from __future__ import annotations

import json

from db.exporters.registry import export, export_files
from tests.helpers.interop_tools import hostile_library, need, run

YAML_NOTE = "---\ntitle: Hijacked title\nauthor: Someone Else\n---\n\nThe real note."


def _pandoc_json(path, cwd) -> dict:
    result = run(["pandoc", "-f", "markdown", "-t", "json", str(path)], cwd)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _texts(node) -> list:
    """Every Str/Math value under a pandoc JSON node, in order."""
    if isinstance(node, dict):
        if node.get("t") == "Str":
            return [node["c"]]
        if node.get("t") == "Math":
            return [("math", node["c"][1])]
        return _texts(node.get("c"))
    if isinstance(node, list):
        return [text for item in node for text in _texts(item)]
    return []


def test_pandoc_takes_no_metadata_from_a_note_and_keeps_math_in_headings(tmp_path):
    need("pandoc")
    with hostile_library(tmp_path / "lib") as library:
        first, second = library.ids()[:2]
        library.set_note(first, YAML_NOTE)
        library.set_title(second, "Bounds for $\\alpha^2$ and $x_i$ at $50 each")
        papers = library.papers()
    path = tmp_path / "notes.md"
    path.write_text(export(papers, "markdown"), encoding="utf-8")
    document = _pandoc_json(path, tmp_path)
    assert document["meta"] == {}
    headings = [block for block in document["blocks"] if block["t"] == "Header" and block["c"][0] == 2]
    assert len(headings) == len(papers)
    texts = _texts(headings[1])
    assert ("math", "\\alpha^2") in texts and ("math", "x_i") in texts and "$50" in texts
    words = _texts(document["blocks"])
    assert "Hijacked" in words and "note." in words  # the note is still there, as text
    folder = export_files(papers, "markdown-folder")
    for name, text in folder.items():
        page = tmp_path / name
        page.write_text(text, encoding="utf-8")
        meta = _pandoc_json(page, tmp_path)["meta"]
        assert "author" not in meta and _texts(meta["title"]) != ["Hijacked", "title"]
