"""Records written / records read back, per format and tool (issue 13's closing table).

Usage: `.venv/bin/python tests/benchmarks/interop_counts.py [--library-json FILE]`. Prints one table:

- import: every file of ../shared/data/formats, the records the file holds (counted from its structure) and
  the records Margin's reader took;
- export: a library of ICLR 2018 (../shared/data/real/iclr2018.json) plus a few hostile papers (braces, `%`,
  `#`, `$`, Chinese, emoji, a note with `issued: 1999`, tags with commas) exported by Margin and read back by
  biber (`biber --tool`), BibTeX 0.99d (an .aux with `\\bibdata`), pybtex, bibtexparser, citeproc-py,
  `pandoc --citeproc`, Python's csv and LibreOffice (xlsx → csv). A tool that is not installed prints `-`.

It uses only the public API (Library, import, export) so that it runs on older versions of Margin too.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"

HOSTILE = [
    {"title": "Braces {unbalanced and } closed } again {",
     "abstract": "An abstract with 100% of {braces and $x^2_i$ math.",
     "authors": ["Barnes and Noble", "Hado van Hasselt", "Ford, Jr., Henry"], "venue": "ICML 2020", "year": 2020,
     "url": "https://example.org/a%20b?x=1&y=2#frag", "doi": "10.1000/x%y"},
    {"title": "", "abstract": "Untitled: we propose a method ~ with ^ and _ and \\backslash and \"quotes\" & more.",
     "authors": ["张三", "Émilie du Châtelet"], "year": 2021},
    {"title": "中文标题 with emoji 🎉 and # hash", "abstract": "第二个摘要，含表情 😀 and newline\nin text.",
     "authors": ["Li, Wei"], "venue": "Science", "year": 2019},
    {"title": "=SUM(A1:A3)", "abstract": "+cmd|' /C calc'!A0 formula start", "authors": ["@evil"],
     "venue": "NeurIPS 2018", "year": 2018, "arxiv_id": "1812.11470"},
]
NOTES = ["issued: 1999\nA note with { one brace", "=SUM(A1:A3)\n@inproceedings{x, title={phantom}}",
         "---\ntitle: yaml block\n---\n# Heading $\\alpha^2$", "100% \\ ~ ^ _ # & $ } end"]
TAGS = [["a, b", "to read"], ["中文", "emoji 🎉"], ["x%y"], ["=1+1"]]


def build_library(folder: Path, source: Path | None) -> object:
    from db.library.library import Library

    library = Library.open(folder, seed=False)
    files = []
    if source and source.exists():
        files.append(source)
    hostile = folder.parent / "hostile.json"
    hostile.write_text(json.dumps(HOSTILE, ensure_ascii=False), encoding="utf-8")
    files.append(hostile)
    from db.formats.importer import read_file

    for path in files:
        library.import_records(read_file(path).records)
    ids = library.ids()
    for number, paper_id in enumerate(ids[-len(HOSTILE):]):
        library.set_note(paper_id, NOTES[number])
        library.add_tags(paper_id, TAGS[number])
    return library


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    # texlive-binaries alone has no kpathsea configuration: BibTeX then finds the .bib and .bst only through these
    env = {**os.environ, "BIBINPUTS": ".", "BSTINPUTS": ".", "max_strings": "200000"}
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600, env=env)


BST = """ENTRY { title author year } {} {}
READ
FUNCTION {out} { "\\bibitem{" cite$ * "}" * write$ newline$ }
ITERATE {out}
"""


def bibtex_count(bib: Path) -> str:
    if not shutil.which("bibtex"):
        return "-"
    work = bib.parent
    (work / "count.bst").write_text(BST)
    (work / "t.aux").write_text(f"\\citation{{*}}\n\\bibdata{{{bib.stem}}}\n\\bibstyle{{count}}\n")
    result = run(["bibtex", "-terse", "t"], work)
    bbl = (work / "t.bbl").read_text(errors="replace") if (work / "t.bbl").exists() else ""
    errors = len(re.findall(r"^I was expecting|^I'm skipping|^Too many commas|error message", result.stdout, re.M))
    return f"{bbl.count(chr(92) + 'bibitem')} ({errors} err)"


def biber_count(bib: Path) -> str:
    if not shutil.which("biber"):
        return "-"
    out = bib.with_name("biber_out.bib")
    result = run(["biber", "--tool", "--quiet", "--output-file", str(out), str(bib)], bib.parent)
    text = out.read_text(errors="replace") if out.exists() else ""
    errors = result.stdout.count("ERROR") + result.stderr.count("ERROR")
    return f"{len(re.findall(r'^@', text, re.M))} ({errors} err)"


def pybtex_count(bib: Path) -> str:
    try:
        from pybtex.database import parse_file
    except ImportError:
        return "-"
    try:
        return str(len(parse_file(str(bib), bib_format="bibtex").entries))
    except Exception as error:  # pybtex raises on the first broken entry
        return f"0 ({type(error).__name__})"


def bibtexparser_count(bib: Path) -> str:
    import bibtexparser

    library = bibtexparser.parse_file(str(bib))
    return f"{len(library.entries)} ({len(library.failed_blocks)} failed)"


def citeproc_count(csl: Path) -> str:
    try:
        from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
        from citeproc.source.json import CiteProcJSON
    except ImportError:
        return "-"
    items = json.loads(csl.read_text(encoding="utf-8"))
    source = CiteProcJSON(items)
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, source, formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    leaks = sum("1999" in text or "issued" in text for text in rendered)
    return f"{len(rendered)} ({leaks} note leaks)"


def pandoc_count(csl: Path) -> str:
    if not shutil.which("pandoc"):
        return "-"
    doc = csl.with_name("cite.md")
    doc.write_text("---\nnocite: '@*'\n---\n\nText.\n")
    result = run(["pandoc", "--citeproc", "--bibliography", str(csl), "-t", "html", str(doc)], csl.parent)
    entries = len(re.findall(r'<div id="ref-', result.stdout))
    leaks = len(re.findall(r"1999|issued:|yaml block", result.stdout))
    return f"{entries} ({leaks} note leaks{', error' if result.returncode else ''})"


def libreoffice_count(path: Path, ids: list[str]) -> str:
    office = shutil.which("soffice") or shutil.which("libreoffice")
    if not office:
        return "-"
    out = path.parent / "lo"
    out.mkdir(exist_ok=True)
    profile = f"-env:UserInstallation={(path.parent / 'lo-profile').as_uri()}"
    run([office, profile, "--headless", "--convert-to",
         "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false",
         "--outdir", str(out), str(path)], path.parent)
    converted = out / (path.stem + ".csv")
    if not converted.exists():
        return "0 (no output)"
    rows = list(csv.reader(io.StringIO(converted.read_text(encoding="utf-8", errors="replace"))))[1:]
    exact = sum(1 for row, paper_id in zip(rows, ids, strict=False) if row and row[0] == paper_id)
    return f"{len(rows)} ({exact} ids exact)"


def records_in(path: Path) -> int:
    """The records a file holds, counted from its structure (entries, TY lines, items, <entry>, rows)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix in (".bib", ".bibtex", ".biblatex"):
        return len(re.findall(r"^[ \t]*@(?!string|comment|preamble)\w+[ \t]*[{(]", text, re.M | re.I))
    if path.suffix == ".ris":
        return len(re.findall(r"^\ufeff?TY {0,2}-", text, re.M))
    if path.suffix == ".xml":
        return text.count("<entry>") + text.count("<entry ")
    if path.suffix == ".csv":
        return len(list(csv.reader(io.StringIO(text)))) - 1
    data = json.loads(text)
    if isinstance(data, dict):
        return 1
    return sum(len(item.get("submissions", [])) if isinstance(item, dict) and "submissions" in item else 1
               for item in data)


def main() -> None:
    from db.exporters.registry import FORMATS, export
    from db.formats.importer import read_file

    print("| import file | records in file | read | skipped (named with line) |")
    print("|---|---|---|---|")
    fixtures = sorted((ROOT / "tests" / "fixtures" / "interop").glob("*"))
    for path in sorted((SHARED / "formats").glob("*")) + fixtures:
        try:
            result = read_file(path)
            print(f"| {path.name} | {records_in(path)} | {len(result.records)} | {len(result.skipped)} |")
        except Exception as error:
            print(f"| {path.name} | {records_in(path)} | error: {error} | |")
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        library = build_library(temp / "lib", SHARED / "real" / "iclr2018.json")
        papers = library.papers()
        ids = [paper.id for paper in papers]
        written = len(papers)
        print()
        print("| export | tool | written | read back |\n|---|---|---|---|")
        bib = temp / "out.bib"
        bib.write_text(export(papers, "bibtex"), encoding="utf-8")
        for tool, count in (("biber --tool", biber_count), ("BibTeX 0.99d", bibtex_count),
                            ("pybtex", pybtex_count), ("bibtexparser", bibtexparser_count)):
            print(f"| bibtex | {tool} | {written} | {count(bib)} |")
        csl = temp / "out.json"
        csl.write_text(export(papers, "csl-json"), encoding="utf-8")
        print(f"| csl-json | citeproc-py | {written} | {citeproc_count(csl)} |")
        print(f"| csl-json | pandoc --citeproc | {written} | {pandoc_count(csl)} |")
        table = temp / "out.csv"
        table.write_text(export(papers, "csv"), encoding="utf-8")
        rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8-sig"))))[1:]
        exact = sum(row[0] == paper_id for row, paper_id in zip(rows, ids, strict=False))
        print(f"| csv | python csv | {written} | {len(rows)} ({exact} ids exact) |")
        print(f"| csv | LibreOffice | {written} | {libreoffice_count(table, ids)} |")
        if "xlsx" in FORMATS:
            xlsx = temp / "out.xlsx"
            from db.exporters.registry import write_export

            write_export(papers, "xlsx", xlsx)
            print(f"| xlsx | LibreOffice | {written} | {libreoffice_count(xlsx, ids)} |")
        for fmt in ("bibtex", "csl-json", "csv", "json"):
            path = temp / f"again.{fmt}"
            path.write_text(export(papers, fmt), encoding="utf-8")
            path = path.rename(path.with_suffix({"bibtex": ".bib", "csl-json": ".json", "csv": ".csv",
                                                 "json": ".json"}[fmt]))
            before = [(p.title, p.user_title, tuple(p.keywords), tuple(p.tags), p.venue, p.year, tuple(p.authors),
                       str(getattr(p, "extra", ""))) for p in library.papers()]
            from db.import_job import import_paths

            report = import_paths(library, [path], index=lambda _library: None)
            after = [(p.title, p.user_title, tuple(p.keywords), tuple(p.tags), p.venue, p.year, tuple(p.authors),
                     str(getattr(p, "extra", ""))) for p in library.papers()]
            print(f"| re-import {fmt} | Margin | {written} | {len(report.new)} new, {len(report.updated)} updated,"
                  f" {sum(a != b for a, b in zip(before, after, strict=False))} papers changed |")
        library.close()


if __name__ == "__main__":
    main()
