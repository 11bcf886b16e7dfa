"""Margin's CSL-JSON rendered by citeproc-py and `pandoc --citeproc`: every item, particles kept, tags whole, and
no note text in the bibliography (issue 13, items 11 and 12)."""

from __future__ import annotations

import json
import re

import pytest

from db.exporters.common import citation_keys
from db.exporters.registry import export
from db.formats.importer import read_file
from tests.helpers.interop_tools import hostile_library, need, run

pytestmark = pytest.mark.filterwarnings("ignore:The following arguments for Reference are unsupported")
NOTE_WORDS = ("issued", "1999", "Not the title", "phantom", "A1:A3)\n", "yaml", "中文笔记", "plain note")


@pytest.fixture
def exported(tmp_path):
    library = hostile_library(tmp_path / "lib")
    papers = library.papers()
    path = tmp_path / "margin.json"
    path.write_text(export(papers, "csl-json"), encoding="utf-8")
    yield papers, path
    library.close()


def test_the_note_is_no_csl_variable_and_names_keep_their_particles(exported):
    papers, path = exported
    items = json.loads(path.read_text(encoding="utf-8"))
    assert all("note" not in item for item in items)
    science = items[0]
    assert science["custom"]["note"] == papers[0].note
    assert science["author"] == [{"literal": "Barnes and Noble"},
                                 {"family": "Hasselt", "given": "Hado", "non-dropping-particle": "van"},
                                 {"family": "Ford", "given": "Henry", "suffix": "Jr."},
                                 {"family": "Costeira", "given": "Jo\\~{a}o"}]
    assert science["type"] == "article-journal" and science["container-title"] == "Science"
    assert science["issued"] == {"date-parts": [[2020, 11]]} and science["page"] == "1–10"
    assert science["keyword"] == "source; keyword, second, a; b, to read"  # no comma inside a keyword
    assert science["custom"]["tags"] == ["a, b", "to read"]
    assert science["custom"]["keywords"] == ["source, keyword", "second"]
    untitled, rejected = items[1], items[2]
    assert untitled["custom"]["title_source"] == "derived" and not untitled["title"].endswith("…")
    assert rejected["type"] == "manuscript" and "container-title" not in rejected
    assert rejected["title"] == "My own title for it"
    assert rejected["custom"]["file_title"] == "中文标题 with emoji 🎉 and # hash % percent"
    assert items[3]["type"] == "book" and items[3]["editor"] == [{"family": "Editor", "given": "Ed"}]


def test_citeproc_py_renders_every_item_without_the_note(exported):
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
    from citeproc.source.json import CiteProcJSON

    papers, path = exported
    items = json.loads(path.read_text(encoding="utf-8"))
    bibliography = CitationStylesBibliography(CitationStylesStyle("harvard-cite-them-right", validate=False),
                                              CiteProcJSON(items), formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == len(papers)
    text = "\n".join(rendered)
    assert not [word for word in NOTE_WORDS if word in text]
    assert "Barnes and Noble et al. (2020)" in text and "Science, 7(3), pp. 1–10" in text


def test_pandoc_citeproc_renders_every_item_without_the_note(exported, tmp_path):
    need("pandoc")
    papers, path = exported
    doc = tmp_path / "cite.md"
    doc.write_text("---\nnocite: '@*'\n---\n\nText.\n", encoding="utf-8")
    result = run(["pandoc", "--citeproc", "--bibliography", str(path), "-t", "plain", "--wrap=none", str(doc)],
                 tmp_path)
    assert result.returncode == 0, result.stderr
    assert "[WARNING]" not in result.stderr, result.stderr
    entries = [line for line in result.stdout.split("\n") if line.strip() and line.strip() != "Text."]
    assert len(entries) == len(papers), result.stdout
    assert not [word for word in NOTE_WORDS if word in result.stdout]
    assert "2020" in result.stdout and "van Hasselt" in result.stdout
    html = run(["pandoc", "--citeproc", "--bibliography", str(path), "-t", "html", str(doc)], tmp_path).stdout
    assert sorted(re.findall(r'<div id="ref-([^"]+)"', html)) == sorted(citation_keys(papers).values())


def test_re_import_reads_the_exact_keywords_and_the_file_title(exported):
    papers, path = exported
    records = read_file(path).records
    assert [record.keywords for record in records] == [paper.keywords for paper in papers]
    assert [record.title for record in records] == [paper.file_title for paper in papers]
    assert [record.authors for record in records] == [paper.authors for paper in papers]
