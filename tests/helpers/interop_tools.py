"""The real tools the interop tests read Margin's exports with, and a library of hostile values to export.

A test that needs a tool calls `need("biber")`; when it is missing the test skips with the line that installs
it (scripts/setup.sh installs them all with MARGIN_TEST_TOOLS=1, as scripts/test.sh does in CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from db.library.library import Library
from db.paper import PaperRecord

DEBIAN = {"biber": "biber", "bibtex": "texlive-binaries", "pandoc": "pandoc", "soffice": "libreoffice-calc-nogui",
          "ris2xml": "bibutils"}


def need(tool: str) -> str:
    """The path of `tool`, or pytest.skip with the install line."""
    path = shutil.which(tool)
    if not path:
        pytest.skip(f"{tool} is not installed: apt-get install -y --no-install-recommends {DEBIAN[tool]} "
                    f"(or MARGIN_TEST_TOOLS=1 bash scripts/setup.sh)")
    return path


def run(command: list[str], cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    # texlive-binaries alone has no kpathsea configuration: BibTeX finds the .bib and .bst through these
    # (and the capacity TeX Live's texmf.cnf would give: 0.99d's built-in 4000 strings is not enough for 1,000 entries)
    env = {**os.environ, "BIBINPUTS": ".", "BSTINPUTS": ".", "HOME": str(cwd), "max_strings": "200000"}
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def biber_tool(bib: Path) -> tuple[str, str]:
    """(biber's re-written .bib, biber's messages) for `biber --tool` on `bib`."""
    need("biber")
    out = bib.with_name(bib.stem + "_biber.bib")
    result = run(["biber", "--tool", "--output-file", str(out), str(bib)], bib.parent)
    return (out.read_text(encoding="utf-8") if out.exists() else ""), result.stdout + result.stderr


# A style that writes every entry's key and title: BibTeX must read the whole entry to get there
BST = """ENTRY { title author editor year journal booktitle note annote abstract keywords } {} {}
FUNCTION {default.type} { "\\bibitem{" cite$ * "}" * write$ newline$ title write$ newline$ }
READ
ITERATE {call.type$}
"""


def bibtex_run(bib: Path) -> tuple[dict[str, str], str]:
    """({key: title as BibTeX read it}, BibTeX's log) for BibTeX 0.99d with `\\citation{*}` on `bib`."""
    need("bibtex")
    work = bib.parent
    (work / "margin.bst").write_text(BST)
    (work / "job.aux").write_text(f"\\citation{{*}}\n\\bibdata{{{bib.stem}}}\n\\bibstyle{{margin}}\n")
    result = run(["bibtex", "job"], work)
    bbl = (work / "job.bbl").read_text(encoding="utf-8") if (work / "job.bbl").exists() else ""
    titles = {}
    for chunk in bbl.split("\\bibitem{")[1:]:  # BibTeX wraps lines over 79 characters at a space
        key, _, title = chunk.partition("}\n")
        titles[key] = " ".join(title.split())
    return titles, result.stdout + ((work / "job.blg").read_text(encoding="utf-8", errors="replace")
                                    if (work / "job.blg").exists() else "")


NOTE = ("issued: 1999\ntitle: Not the title\nA note with { one brace and } two } and 100% \\ ~ ^ _ # & $x$\n"
        "=SUM(A1:A3)\n@inproceedings{phantom, title={Phantom}}\n中文笔记 😀\n\n---\ntitle: yaml\n---\n")
HOSTILE = [
    PaperRecord(title="Braces {unbalanced and } closed } again { with $x^{2}_i$ math",
                abstract="An abstract with 100% of {braces and $\\mathcal{O}(n^2)$ math; costs $50 & $60.",
                authors=["Barnes and Noble", "Hado van Hasselt", "Henry Ford Jr.", "Jo\\~{a}o Costeira"],
                venue="Science", year=2020, url="https://example.org/a%20b?x=1&y=2#frag", doi="10.1000/x%y_z",
                keywords=["source, keyword", "second"],
                extra={"type": "article", "pages": "1–10", "volume": "7", "issue": "3", "publisher": "AAAS",
                       "month": "November", "issn": "0036-8075", "language": "english"}),
    PaperRecord(title=None, abstract="Untitled: we propose a method ~ with ^ and _ and \\backslash and \"quotes\" "
                "& more, and `ticks` -- dashes, to see what comes back.", authors=["张三", "Émilie du Châtelet"],
                venue="ICLR 2018", year=2018, extra={"decision": "Workshop"}),
    PaperRecord(title="中文标题 with emoji 🎉 and # hash % percent", abstract="第二个摘要，含表情 😀 and newline.",
                authors=["Wei Li"], venue="ICLR 2018", year=2018, arxiv_id="1812.11470",
                extra={"decision": "Reject"}),
    PaperRecord(title="A Book", abstract="A book's blurb with a lone } brace.", authors=["Anna Smith"], year=2013,
                extra={"type": "book", "publisher": "Craft Press", "address": "Oslo", "isbn": "978-3-16-148410-0",
                       "editors": ["Ed Editor"]}),
    PaperRecord(title="=SUM(A1:A3)", abstract="+cmd|' /C calc'!A0 formula start", authors=["@evil"],
                venue="NeurIPS 2018", year=2018, url="https://openreview.net/forum?id=abc-DEF_1",
                openreview_id="abc-DEF_1",
                extra={"type": "inproceedings", "pages": "5–6", "decision": "Accept (Poster)"}),
]
TAGS = [["a, b", "to read"], ["中文", "emoji 🎉"], ["x%y", "{x}"], [], ["=1+1", "@at"]]
NOTES = [NOTE, "plain note", NOTE, "", "-2+3"]
USER_TITLES = [None, None, "My own title for it", None, None]


def hostile_library(folder: Path) -> Library:
    """A library (not seeded) of the HOSTILE papers with hostile tags, notes and one user title."""
    library = Library.open(folder, seed=False)
    report = library.import_records(HOSTILE)
    for paper_id, tags, note, title in zip(report.new, TAGS, NOTES, USER_TITLES, strict=True):
        if tags:
            library.add_tags(paper_id, tags)
        if note:
            library.set_note(paper_id, note)
        if title:
            library.set_title(paper_id, title)
    return library


NODE_TOOLS = Path(os.environ.get("MARGIN_NODE_TOOLS") or Path.home() / ".cache" / "margin" / "node-tools")
CITEPROC_JS = Path(__file__).with_name("citeproc_js.js")


def citeproc_js(items: list[dict], style_xml: str, cwd: Path) -> list[str]:
    """The bibliography entries citeproc-js (npm `citeproc`, the processor of Zotero and Mendeley) makes of CSL
    `items` in a style, as plain text in the style's order, with the same locale files citeproc-py reads. Skips
    when node or the package is missing (scripts/setup.sh installs it with MARGIN_TEST_TOOLS=1 into NODE_TOOLS)."""
    import json

    import citeproc

    node = shutil.which("node")
    if not node or not (NODE_TOOLS / "node_modules" / "citeproc").is_dir():
        pytest.skip(f"citeproc-js is not installed: npm install --prefix {NODE_TOOLS} citeproc@2.4.63 "
                    "(or MARGIN_TEST_TOOLS=1 bash scripts/setup.sh)")
    locales = Path(citeproc.__path__[0], "data", "locales")
    payload = json.dumps({"style": style_xml, "items": items, "locales": {
        lang: (locales / f"locales-{lang}.xml").read_text(encoding="utf-8") for lang in ("en-US", "en-GB")}})
    result = subprocess.run([node, str(CITEPROC_JS)], input=payload, capture_output=True, text=True, cwd=cwd,
                            timeout=300, env={**os.environ, "NODE_PATH": str(NODE_TOOLS / "node_modules")})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
