"""Annotations survive a trip through Margin's BibTeX, CSL-JSON and CSV (issue 30): a library of 1,000 papers with
hostile tags, ratings, read marks and notes is exported and imported into an empty library, and every annotation
comes back field by field; biber, pandoc and citeproc-js still read the files whole."""

from __future__ import annotations

import json
import random
import re

import pytest

from db.exporters.citation import citation_items, style_path
from db.exporters.registry import export
from db.import_job import import_paths
from db.library.library import Library
from db.paper import PaperRecord
from tests.helpers.interop_tools import biber_tool, citeproc_js, need, run

pytestmark = pytest.mark.slow
COUNT = 1000
NOTES = ["braces { unbalanced and } twice } and {{ nested }}", "a lone } at the start", "100% of $5 & #1 at 50%",
         "back\\slash \\emph{not TeX} \\\\ double \\", "---\ntitle: YAML front matter\ntags: [a, b]\n---\nbody",
         "中文笔记，含标点。", "עברית مع العربية RTL", "emoji 🎉😀👍🏽 and ZWJ 👩‍🔬",
         "~tilde ^caret _under `tick` --dash ''q''",
         "@inproceedings{phantom, title={Phantom}}", "  leading and trailing spaces  ", "lines\n\n\nwith blanks\n",
         "% a TeX comment line\nnext", "=SUM(A1:A3) +cmd -x @y", "quote \" and ' and , comma"]
TAGS = ["a, b", 'say "hi"', "it's", "中文", "עברית", "🎉 party", "x%y", "{x}", "}", "$5", "#hash", "a & b",
        "back\\slash", "to read", "C++", "ml/ai"]


def _library(folder):
    generator = random.Random(30)
    library = Library.open(folder, seed=False)
    records = [PaperRecord(title=f"Paper {i} on {generator.choice(TAGS)} learning" if i % 7 else None,
                           abstract=f"Abstract {i}: we study {generator.choice(['graphs', 'ranking', 'vision'])} "
                                    f"with 100% {{braces}} and $x^2$ math.",
                           authors=[f"Author{i % 50} Family{i % 13}"] if i % 11 else [],
                           venue=f"ICLR {2015 + i % 10}" if i % 5 else None, year=2015 + i % 10 if i % 9 else None,
                           keywords=generator.sample(TAGS, k=i % 3))
               for i in range(COUNT)]
    ids = library.import_records(records).new
    assert len(ids) == COUNT
    for i, paper_id in enumerate(ids):
        if i % 3:
            library.add_tags(paper_id, generator.sample(TAGS, k=1 + i % 4))
        if i % 4:
            library.set_rating(paper_id, 1 + i % 5)
        if i % 2:
            library.set_read(paper_id, True)
        if i % 5:
            library.set_note(paper_id, "\n".join(generator.sample(NOTES, k=1 + i % 3)))
    return library


def _marks(papers):
    return {paper.id: (sorted(paper.tags), paper.rating, paper.read, paper.note) for paper in papers}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("annotations")
    with _library(folder / "lib") as library:
        papers = library.papers()
    files = {}
    for fmt, name in (("bibtex", "margin.bib"), ("csl-json", "margin.json"), ("csv", "margin.csv")):
        files[fmt] = folder / name
        files[fmt].write_text(export(papers, fmt), encoding="utf-8")
    return folder, papers, files


@pytest.mark.parametrize("fmt", ["bibtex", "csl-json", "csv"])
def test_every_annotation_comes_back_into_an_empty_library(exported, fmt):
    folder, papers, files = exported
    with Library.open(folder / f"empty-{fmt}", seed=False) as library:
        result = import_paths(library, [files[fmt]], index=lambda _library: None)
        assert len(result.new) == COUNT and not result.skipped and not result.annotations.kept
        back = _marks(library.papers())
    wanted = _marks(papers)
    assert set(back) == set(wanted)
    wrong = {paper_id: (wanted[paper_id], back[paper_id]) for paper_id in wanted if back[paper_id] != wanted[paper_id]}
    assert not wrong, list(wrong.items())[:3]


def test_biber_reads_the_bibtex_whole(exported):
    _folder, papers, files = exported
    written, messages = biber_tool(files["bibtex"])
    assert "ERROR" not in messages, messages
    assert not re.search(r"WARN.*(syntax|unbalanced|BibTeX subsystem)", messages, re.I), messages
    assert len(re.findall(r"^@\w+\{", written, re.M)) == COUNT


def test_pandoc_reads_the_bibtex_and_the_csl_json_whole(exported):
    need("pandoc")
    folder, papers, files = exported
    for fmt, reader in (("bibtex", "bibtex"), ("csl-json", "csljson")):
        result = run(["pandoc", "-f", reader, "-t", "csljson", str(files[fmt])], folder)
        assert result.returncode == 0 and "[WARNING]" not in result.stderr, result.stderr
        assert len(json.loads(result.stdout)) == COUNT


def test_citeproc_js_reads_the_csl_json_whole(exported):
    folder, papers, files = exported
    items = json.loads(files["csl-json"].read_text(encoding="utf-8"))
    entries = citeproc_js(items, open(style_path("apa"), encoding="utf-8").read(), folder)
    assert len(entries) == COUNT
    assert not [word for word in ("YAML front matter", "phantom", "中文笔记") if any(word in e for e in entries)]
    assert len(citation_items(papers)) == COUNT
