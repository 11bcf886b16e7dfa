"""Markdown under pandoc (issue 13, item 14): a note that starts with a YAML block does not become the document's
title, and math in headings is math; imported HTML and script links stay text (new-user trial)."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from db.exporters.registry import export, export_files
from tests.helpers.interop_tools import hostile_library, need, run
from tests.helpers.runner import margin

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


# Imported text from files (a title, an abstract, a URL, a note taken from a BibTeX annote) must never become live
# HTML or a script link in the HTML pandoc makes of Margin's Markdown (the trial's hostile.json, new-user trial)
HOSTILE_RECORD = {"title": "Attack of the <i>Clones</i> &amp; <script>x</script> RTL {onclick=alert(0)}",
                  "author": "Ann Lee",
                  "abstract": "We study =HYPERLINK(\"http://x\") cells and <img src=x onerror=alert(1)> markup "
                              "&lt;tag&gt; <a href=\"javascript:alert(2)\">here</a>.\n\n# not a heading\n"
                              "1. not a list [x](javascript:alert(3)) <javascript:alert(4)>",
                  "site": "javascript:alert(1)", "year": 2019}
FILE_NOTE = ("From the file: <img src=y onerror=alert(5)> [click](javascript:alert(6)) "
             "[entity](&#106;avascript:alert(7)) <javascript:alert(8)> <!-- hidden -->\n\n"
             "[ref]: javascript:alert(9)\n\nsee [ref]\n\n**kept** [site](https://example.org/x) "
             "<https://example.org/auto> `<code>` [span]{onmouseover=alert(10)} `x`{=html}\n\n"
             "```\n<pre-kept>\n```\n\n```{=html}\n<img src=z onerror=alert(11)>\n```\n\n"
             "::: {onclick=alert(12)}\ndiv\n:::\n\n$$\n\\frac{a}{b}\n$$")


class _Html(HTMLParser):
    """Every start tag and its attributes in the HTML pandoc wrote."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _html_tags(path, cwd) -> list[tuple[str, dict]]:
    result = run(["pandoc", "-f", "markdown", "-t", "html", str(path)], cwd)
    assert result.returncode == 0, result.stderr
    parser = _Html()
    parser.feed(result.stdout)
    return parser.tags


def _assert_nothing_live(tags: list[tuple[str, dict]]) -> None:
    assert not [tag for tag, _attrs in tags if tag in ("img", "script", "iframe", "object", "embed")]
    for tag, attrs in tags:
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        for name in ("href", "src"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value or value.startswith(("http://", "https://", "mailto:", "#")), (tag, attrs)


def test_imported_html_and_script_links_are_text_under_pandoc(tmp_path):
    need("pandoc")
    source = tmp_path / "hostile.json"
    source.write_text(json.dumps([HOSTILE_RECORD]), encoding="utf-8")
    library = tmp_path / "lib"
    assert margin("import", str(source), library=library).code == 0
    (paper,) = json.loads(margin("list", "--json", library=library).stdout)
    assert margin("annotate", paper["id"], "--note", FILE_NOTE, "--tag", "t", library=library).code == 0
    single = tmp_path / "notes.md"
    assert margin("export", "--format", "markdown", "--output", str(single), library=library).code == 0
    tags = _html_tags(single, tmp_path)
    _assert_nothing_live(tags)
    links = [attrs["href"] for tag, attrs in tags if tag == "a"]
    assert links == ["https://example.org/x", "https://example.org/auto"]  # the note's own safe links stay links
    assert ("strong", {}) in tags  # and its Markdown stays Markdown
    blocks = _pandoc_json(single, tmp_path)["blocks"]
    words = " ".join(str(text) for text in _texts(blocks))
    assert "onerror=alert(1)>" in words and "javascript:alert(1)" in words and "<img" in words  # shown as text
    (quote,) = [block for block in blocks if block["t"] == "BlockQuote"]  # the abstract: paragraphs only
    assert {inner["t"] for inner in quote["c"]} == {"Para"} and "#" in _texts(quote)
    folder = tmp_path / "vault"
    assert margin("export", "--format", "markdown-folder", "--output", str(folder), library=library).code == 0
    (page,) = folder.glob("*.md")
    text = page.read_text(encoding="utf-8")
    assert "url: null" in text and "<javascript:" not in text
    _assert_nothing_live(_html_tags(page, tmp_path))
