"""Round trips of every export format through an independent reader (issue 6): bibtexparser, csv, json,
python-markdown + PyYAML, and citeproc-py for CSL-JSON. Hostile values must come back identical."""

from __future__ import annotations

import csv
import json
import re
from html.parser import HTMLParser

import bibtexparser
import markdown
import pytest
import yaml
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors

from db.errors import MarginError
from db.exporters.common import citation_key, citation_keys, headline
from db.exporters.markdown import MAX_NAME_BYTES, obsidian_tag, safe_file_name, write_folder
from db.exporters.registry import FORMATS, export, export_files
from db.exporters.table import BOM, COLUMNS
from db.formats.bibtex import _TEX as MARGIN_TEX_DECODER
from db.formats.importer import read_file
from db.library.library import Library
from db.paper import PaperRecord
from tests.helpers.corpus import ABSTRACTS
from tests.helpers.records import paper_record

NOTE = ("Budget: $50 for data and $60 for compute\n50% done # v2\n{braces} }{ {{x}} \\emph{kept} a_b ~x^2 & 100%\n"
        "中文笔记：注意 😀👩‍🔬\n\nSecond paragraph, with \"quotes\", commas -- and `code`.")
TITLE = "50% of {Budget}: $50 & $60 — 中文 😀 #1 a_b ~x^2 \\cite{k}"
TAGS = ["C++ & #hashtags", "50%_done", "中文", "{x}"]
AUTHORS = ["Ada Lovelace", "Zhang Wei 张伟", "Smith and Wesson", "Ödön von Horváth"]
URL = "https://example.org/~ada/paper_1?q=1&r=50%25#frag"
DOI = "10.1000/x_y.z-1"


@pytest.fixture
def papers(library):
    """Three papers: a seed paper with a hostile note, title and tags; a full bibliographic record with
    authors, URL, DOI and arXiv id; and an untouched seed paper (title derived from the abstract)."""
    report = library.import_records([PaperRecord(
        abstract="We study exporting notes. " * 5, title="Exporting {Notes}: 100% of $x$ -- a study", authors=AUTHORS,
        venue=None, year=2024, url=URL, doi=DOI, arxiv_id="2401.01234")])
    seed = library.ids()[0]
    library.set_note(seed, NOTE)
    library.set_title(seed, TITLE)
    library.add_tags(seed, TAGS)
    library.set_rating(seed, 5)
    library.set_read(seed, True)
    full = report.new[0]
    library.set_note(full, "first version")
    library.set_note(full, NOTE + "\r\nwindows line")
    library.add_tags(full, ["ünïcode"])
    return library.papers([seed, full, library.ids()[1]])


def test_every_format_is_listed_and_an_unknown_one_is_refused(papers):
    assert FORMATS == ("markdown", "csv", "json", "bibtex", "csl-json", "ris", "markdown-folder", "xlsx")
    with pytest.raises(MarginError, match="unknown export format 'docx'"):
        export(papers, "docx")
    with pytest.raises(MarginError, match="folder"):
        export(papers, "markdown-folder")


def test_bibtex_reads_back_exactly_with_bibtexparser(papers):
    text = export(papers, "bibtex")
    # pylatexenc with LaTeX's names for a lone brace (\textbraceleft, \textbraceright) added, as Margin reads
    parsed = bibtexparser.parse_string(text, append_middleware=[LatexDecodingMiddleware(decoder=MARGIN_TEX_DECODER)])
    raw = {entry.key: entry for entry in bibtexparser.parse_string(text).entries}
    assert parsed.failed_blocks == []
    assert [entry.key for entry in parsed.entries] == [citation_keys(papers)[paper.id] for paper in papers]
    seed, full, plain = papers
    first = parsed.entries[0].fields_dict
    assert parsed.entries[0].entry_type == "inproceedings"
    assert first["title"].value == TITLE and first["x-margin-title-source"].value == "user"
    assert first["annote"].value == NOTE
    assert first["keywords"].value == ", ".join(seed.tags)  # no tag has a comma; the seed has no keywords
    assert first["x-margin-keywords"].value == ""
    assert first["abstract"].value == seed.abstract
    assert first["booktitle"].value == "ICML 2026"
    assert first["year"].value == "2026"
    assert first["x-margin-id"].value == seed.id
    second = parsed.entries[1].fields_dict
    assert parsed.entries[1].entry_type == "misc"
    assert second["title"].value == "Exporting {Notes}: 100% of $x$ -- a study"
    assert second["annote"].value == NOTE + "\r\nwindows line"
    assert second["author"].value == "Lovelace, Ada and 张伟, Zhang Wei and Smith and Wesson and von Horváth, Ödön"
    split = bibtexparser.parse_string(text, append_middleware=[SeparateCoAuthors()]).entries[1]
    assert split.fields_dict["author"].value == ["Lovelace, Ada", "张伟, Zhang Wei", "{Smith and Wesson}",
                                                 "von Horváth, Ödön"]
    assert second["eprint"].value == "2401.01234"
    assert second["archiveprefix"].value == "arXiv"
    full_raw = raw[citation_keys(papers)[full.id]].fields_dict  # verbatim fields: biblatex reads them as written
    assert full_raw["url"].value == URL
    assert full_raw["doi"].value == DOI
    third = parsed.entries[2].fields_dict
    assert third["title"].value == headline(plain) and "annote" not in third
    assert third["x-margin-title-source"].value == "derived" and not headline(plain).endswith("…")


def test_bibtex_keys_are_stable_and_unique(papers, library):
    everything = library.papers()
    keys = citation_keys(everything)
    assert len(set(keys.values())) == len(keys) == 39
    assert keys[papers[1].id] == "lovelace2024"  # unique: no suffix
    assert citation_key(papers[0]) == "icml2026"
    clashing = sorted(p.id for p in everything if citation_key(p) == "icml2026")
    assert len(clashing) > 2  # the bundled abstracts share the venue stem: a, b, … in id order
    assert [keys[i] for i in clashing[:3]] == ["icml2026", "icml2026a", "icml2026b"]
    assert export(papers[1:2], "bibtex").split(",")[0].endswith("{lovelace2024")  # the same alone as with others
    assert set(re.findall(r"^@\w+\{([^,]+),", export(list(reversed(papers)), "bibtex"), re.M)) == set(
        re.findall(r"^@\w+\{([^,]+),", export(papers, "bibtex"), re.M))  # the order of the list changes no key


def test_csv_is_rfc4180_and_reads_back_exactly(papers, tmp_path):
    text = export(papers, "csv")
    assert text.startswith(BOM)
    path = tmp_path / "notes.csv"
    path.write_bytes(text.encode("utf-8"))
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == list(COLUMNS)
    assert len(rows) == 3
    seed, full, plain = papers
    assert rows[0]["note"] == NOTE
    assert rows[0]["title"] == TITLE and rows[0]["title_source"] == "user"
    assert rows[0]["tags"] == "; ".join(seed.tags)
    assert rows[0]["rating"] == "5" and rows[0]["read"] == "yes"
    assert rows[1]["note"] == NOTE + "\r\nwindows line"
    assert rows[1]["url"] == URL and rows[1]["doi"] == DOI
    assert rows[1]["authors"] == "; ".join(AUTHORS)
    assert rows[2]["title"] == headline(plain) and rows[2]["title_source"] == "derived"
    assert rows[2]["rating"] == "" and rows[2]["note"] == ""
    assert b"\r\n" in path.read_bytes()[:400]  # CRLF record separators, as RFC 4180 says


def test_json_carries_every_field_and_the_note_history(papers, library):
    data = json.loads(export(papers, "json", history=library.note_history))
    assert (data["format"], data["version"], data["kind"]) == ("margin", 1, "export")
    seed, full, plain = (item for item in data["papers"])
    assert seed["id"] == papers[0].id
    assert seed["title"] == TITLE and seed["title_source"] == "user"
    assert seed["annotations"] == {"rating": 5, "tags": papers[0].tags, "read": True, "note": NOTE,
                                   "title": TITLE, "note_history": []}
    assert full["authors"] == AUTHORS and full["url"] == URL and full["doi"] == DOI
    assert full["arxiv_id"] == "2401.01234" and full["year"] == 2024
    assert full["annotations"]["note"] == NOTE + "\r\nwindows line"
    assert [entry["note"] for entry in full["annotations"]["note_history"]] == ["first version"]
    assert plain["title"] is None and plain["title_source"] == "derived" and plain["label"] == papers[2].label
    assert plain["abstract"] == papers[2].abstract


class _Html(HTMLParser):
    """Collects the text of every h1/h2/h3 and of the whole document."""

    def __init__(self):
        super().__init__()
        self.headings: list[tuple[str, str]] = []
        self.text: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        if tag in ("h1", "h2", "h3"):
            self._in = tag
            self.headings.append((tag, ""))

    def handle_endtag(self, tag):
        if tag == self._in:
            self._in = None

    def handle_data(self, data):
        self.text.append(data)
        if self._in:
            tag, text = self.headings[-1]
            self.headings[-1] = (tag, text + data)


def _render(text: str) -> _Html:
    parser = _Html()
    parser.feed(markdown.markdown(text))
    return parser


def test_markdown_renders_headings_and_notes_exactly(papers):
    html = _render(export(papers, "markdown"))
    h2 = [text for tag, text in html.headings if tag == "h2"]
    assert h2 == [TITLE, "Exporting {Notes}: 100% of $x$ -- a study", papers[2].label]
    body = "".join(html.text)
    for line in ("Budget: $50 for data and $60 for compute", "50% done # v2", "{braces} }{ {{x}}",
                 "中文笔记：注意 😀👩‍🔬", "Second paragraph, with \"quotes\", commas -- and "):
        assert line in body
    assert "none in the source; the heading is Margin's label derived from the abstract" in body
    assert "set in Margin" in body
    assert "Abstract" in [text for tag, text in html.headings if tag == "h3"]
    without = export(papers, "markdown", include_abstract=False)
    assert "### Abstract" not in without and "### Note" in without


def test_markdown_folder_front_matter_and_file_names(papers, tmp_path):
    files = export_files(papers, "markdown-folder")
    assert len(files) == 3
    for (name, text), paper in zip(files.items(), papers, strict=True):
        assert name.endswith(f" ({paper.id}).md")
        assert not re.search(r'[<>:"/\\|?*\x00-\x1f]', name)
        head, _, body = text.removeprefix("---\n").partition("\n---\n")
        meta = yaml.safe_load(head)
        assert meta["id"] == paper.id
        assert meta["title"] == (paper.title or headline(paper))
        assert meta["margin_tags"] == paper.tags and meta["rating"] == paper.rating and meta["year"] == paper.year
        assert meta["tags"] == [obsidian_tag(tag) for tag in paper.tags]  # (issue 30)
        assert meta["citekey"] == citation_keys(papers)[paper.id] and meta["aliases"] == [meta["title"]]
        assert meta["url"] == paper.url and meta["venue"] == paper.venue
        headings = [text for tag, text in _render(body).headings if tag == "h1"]
        assert headings == [paper.label]
    metas = [yaml.safe_load(text.removeprefix("---\n").partition("\n---\n")[0]) for text in files.values()]
    assert [meta["title_source"] for meta in metas] == ["user", "file", "derived"]
    written = write_folder(files, tmp_path / "vault")
    assert sorted(path.name for path in (tmp_path / "vault").iterdir()) == sorted(files)
    assert written[0].read_text(encoding="utf-8") == files[written[0].name]


def test_markdown_folder_replaces_the_file_of_a_renamed_paper(papers, library, tmp_path):
    folder = tmp_path / "vault"
    (folder).mkdir()
    (folder / "mine.md").write_text("keep me", encoding="utf-8")
    write_folder(export_files(papers, "markdown-folder"), folder)
    library.set_title(papers[2].id, "A new title")
    write_folder(export_files(library.papers([p.id for p in papers]), "markdown-folder"), folder)
    names = sorted(path.name for path in folder.iterdir())
    assert len(names) == 4 and "mine.md" in names
    assert f"A new title ({papers[2].id}).md" in names


@pytest.mark.parametrize(("label", "expected"), [
    ('a/b:c*d?"e"<f>|g\\h', "a b c d e f g h (0123456789ab).md"),
    ("C# [draft] ^2", "C draft 2 (0123456789ab).md"),  # Obsidian's link characters (issue 30)
    ("CON", "_CON (0123456789ab).md"),
    ("nul.txt", "_nul.txt (0123456789ab).md"),
    ("trailing dots...  ", "trailing dots (0123456789ab).md"),
    ("...", "paper (0123456789ab).md"),
    ("tab\tand\nnewline", "tab and newline (0123456789ab).md"),
])
def test_safe_file_name(label, expected):
    assert safe_file_name(label, "0123456789ab") == expected


def test_safe_file_name_cuts_long_cjk_at_a_character_boundary():
    name = safe_file_name("中文标题" * 40, "0123456789ab")
    stem = name.removesuffix(" (0123456789ab).md")
    assert len(stem.encode("utf-8")) <= MAX_NAME_BYTES and set(stem) <= set("中文标题")
    assert len(name.encode("utf-8")) < 255


CSL_VARIABLES = {  # citation-style-language/schema csl-data.json v1.0.2 (the ones Margin may write)
    "id", "type", "title", "author", "issued", "container-title", "abstract", "URL", "DOI", "keyword",
    "number", "publisher", "custom"}
CSL_TYPES = {"article", "paper-conference"}


# citeproc-py warns about `custom` (CSL-JSON 1.0.2's key-value field, where Margin marks a derived title)
@pytest.mark.filterwarnings("ignore:The following arguments for Reference are unsupported")
def test_csl_json_is_valid_and_citeproc_renders_it(papers):
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
    from citeproc.source.json import CiteProcJSON

    items = json.loads(export(papers, "csl-json"))
    assert [item["id"] for item in items] == [citation_keys(papers)[paper.id] for paper in papers]
    for item, paper in zip(items, papers, strict=True):
        assert set(item) <= CSL_VARIABLES and item["type"] in CSL_TYPES
        assert item["title"] == (paper.title or headline(paper))
        assert "note" not in item and item.get("custom", {}).get("note", "") == paper.note
        assert item.get("keyword", "") == ", ".join(paper.tags)
        assert item["issued"] == {"date-parts": [[paper.year]]}
    assert items[0]["custom"]["note"] == NOTE and items[0]["title"] == TITLE
    assert items[1]["author"] == [{"family": "Lovelace", "given": "Ada"}, {"family": "张伟", "given": "Zhang Wei"},
                                  {"literal": "Smith and Wesson"},
                                  {"family": "Horváth", "given": "Ödön", "non-dropping-particle": "von"}]
    assert items[1]["URL"] == URL and items[1]["DOI"] == DOI and items[1]["publisher"] == "arXiv"

    source = CiteProcJSON(items)
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, source, formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == 3
    joined = "\n".join(rendered)
    assert f"“{TITLE}” (2026)" in joined  # citeproc read the exact title back
    assert "Lovelace, A. et al. (2024)" in joined and "ICML 2026" in joined


@pytest.mark.parametrize("title", ["a <b>x</b> & c &amp; d", "x_y*z* [link](u) `code`", "# lead and trail #",
                                   "back\\slash > quote", TITLE])
def test_markdown_headings_render_any_title_as_written(library, title):
    paper_id = library.ids()[0]
    library.set_title(paper_id, title)
    html = _render(export(library.papers([paper_id]), "markdown"))
    assert [text for tag, text in html.headings if tag == "h2"] == [title]


# ------------------------------------------- titles Margin derived (title_source) survive a re-import of the export
@pytest.mark.parametrize("fmt", ["csv", "csl-json", "bibtex"])
@pytest.mark.parametrize("year", [2024, None])
def test_reimporting_own_export_of_untitled_papers_changes_nothing(tmp_path, fmt, year):
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([PaperRecord(abstract=text, year=year) for text in ABSTRACTS])
        before = [(p.id, p.title, p.label) for p in library.papers()]
        assert all(title is None for _id, title, _label in before)
        path = tmp_path / f"out.{fmt}"
        path.write_text(export(library.papers(), fmt), encoding="utf-8")
        read = read_file(path)
        assert [record.title for record in read.records] == [None, None, None]
        report = library.import_records(read.records)
        assert (len(report.new), len(report.updated), len(report.unchanged)) == (0, 0, 3)
        assert [(p.id, p.title, p.label) for p in library.papers()] == before


def test_export_marks_only_derived_titles(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([PaperRecord(abstract=ABSTRACTS[0], title="A Real Title", year=2024),
                                PaperRecord(abstract=ABSTRACTS[1], year=2024)])
        titled, untitled = library.papers()
        items = json.loads(export([titled, untitled], "csl-json"))
        assert items[0]["custom"] == {"margin_id": titled.id}
        assert items[1]["custom"] == {"margin_id": untitled.id, "title_source": "derived"}
        bib = export([titled, untitled], "bibtex").split("\n\n")
        assert "x-margin-title-source" not in bib[0] and "x-margin-title-source = {derived}" in bib[1]
        path = tmp_path / "out.csv"
        path.write_text(export([titled, untitled], "csv"), encoding="utf-8")
        assert [r.title for r in read_file(path).records] == ["A Real Title", None]


# ------------------------------------------- exported files' mode
@pytest.fixture
def umask_027():
    import os

    old = os.umask(0o027)
    yield
    os.umask(old)


def _mode(path) -> int:
    import stat

    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(__import__("os").name != "posix", reason="POSIX permissions")
def test_exported_file_gets_the_umask_mode_and_a_replaced_file_keeps_its_mode(tmp_path, umask_027):
    from db.exporters.registry import write_export

    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)])
        papers = library.papers()
    new = tmp_path / "new.csv"
    write_export(papers, "csv", new)
    assert _mode(new) == 0o640  # 0o666 & ~0o027, not mkstemp's 0o600
    kept = tmp_path / "kept.bib"
    kept.write_text("old")
    kept.chmod(0o604)
    write_export(papers, "bibtex", kept)
    assert _mode(kept) == 0o604 and "x-margin-id" in kept.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.bib", "lib", "new.csv"]


@pytest.mark.skipif(__import__("os").name != "posix", reason="POSIX permissions")
def test_markdown_folder_files_get_the_umask_mode_and_keep_a_replaced_files_mode(tmp_path, umask_027):
    from db.exporters.markdown import write_folder
    from db.exporters.registry import export_files

    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([PaperRecord(abstract=text, year=2024) for text in ABSTRACTS[:2]])
        files = export_files(library.papers(), "markdown-folder")
    folder = tmp_path / "vault"
    first, second = write_folder(files, folder)
    assert _mode(first) == _mode(second) == 0o640
    second.chmod(0o600)
    write_folder(files, folder)
    assert (_mode(first), _mode(second)) == (0o640, 0o600)
    assert sorted(p.name for p in folder.iterdir()) == sorted(files)


def test_current_umask_is_read_without_changing_it(umask_027):
    import os

    from db.system.fileio import current_umask

    assert current_umask() == 0o027
    assert os.umask(0o027) == 0o027


def test_ris_writes_a_devised_title_in_brackets_and_margin_reads_it_as_no_title(tmp_path):
    """RIS has no field saying a title is Margin's headline for an untitled paper (BibTeX, CSL-JSON and CSV mark
    it): TI carries it in square brackets, as a cataloguer writes a devised title, and an N1 line says so; Margin's
    reader then reads no title, so the paper comes back untitled (the others: as before)."""
    import rispy

    from db.formats.common import RIS_DEVISED_NOTE
    from db.formats.importer import read_file

    with Library.open(tmp_path / "lib", seed=False) as library:
        untitled, titled = library.import_records([
            paper_record(title=None, abstract="We propose a sparse attention method for long documents. It is "
                         "faster than dense attention on every benchmark we tried."),
            paper_record(title="[Re] A reproduction", abstract="We reproduce a paper on something else entirely."),
        ]).new
        text = export(library.papers([untitled, titled]), "ris")
        headline = library.paper(untitled).label
    entries = rispy.loads(text)
    assert entries[0]["title"] == f"[{headline}]" and entries[0]["notes"][0] == RIS_DEVISED_NOTE
    assert entries[1]["title"] == "[Re] A reproduction" and RIS_DEVISED_NOTE not in entries[1].get("notes", [])
    path = tmp_path / "out.ris"
    path.write_bytes(text.encode("utf-8"))
    assert [record.title for record in read_file(path).records] == [None, "[Re] A reproduction"]


def test_ris_reads_one_keyword_per_kw_line_and_splits_a_single_packed_one(tmp_path):
    """A keyword holding `;` that Margin's RIS export wrote on a `KW` line of its own comes back whole (a new
    user's trial: `b;c` came back as `b` and `c`, changing the paper on a re-import); a record whose only `KW`
    line packs the list (`a; b; c`, as some exporters write it) is still split."""
    from db.formats.importer import read_file

    path = tmp_path / "kw.ris"
    path.write_bytes(b"TY  - JOUR\r\nTI  - One\r\nKW  - a\r\nKW  - b;c\r\nER  - \r\n\r\n"
                      b"TY  - JOUR\r\nTI  - Two\r\nKW  - x; y; z\r\nER  - \r\n")
    assert [record.keywords for record in read_file(path).records] == [["a", "b;c"], ["x", "y", "z"]]
