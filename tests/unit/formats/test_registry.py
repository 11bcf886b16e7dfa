"""The readers' registry (issue 33): one record per format, and sniffing that picks the same reader as the
if-chain it replaced, for every fixture and for texts that look like two formats at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.formats.common import strip_controls
from db.formats.importer import FORMAT_NAMES, read_file, sniff
from db.formats.registry import BY_EXTENSION, READERS
from db.system.resources import CORPUS_DIR
from tests.helpers.imports import FIXTURES, shared

# The extension table the registry replaced (db.formats.importer before issue 33)
OLD_EXTENSIONS = {
    ".xml": "arxiv-atom", ".atom": "arxiv-atom", ".json": "json", ".jsonl": "json", ".ndjson": "json",
    ".bib": "bibtex", ".bibtex": "bibtex", ".biblatex": "bibtex", ".ris": "ris", ".csv": "csv", ".tsv": "csv",
    ".txt": "seed",
}
INTEROP = FIXTURES.parent / "interop"
# What the if-chain chose for each fixture (by its own name, and by its text alone), recorded before the move
FIXTURE_FORMATS = {
    FIXTURES / "arxiv.xml": "arxiv-atom", FIXTURES / "papers.bib": "bibtex", FIXTURES / "papers.csv": "csv",
    FIXTURES / "papers.json": "json", FIXTURES / "papers.jsonl": "json", FIXTURES / "papers.ris": "ris",
    FIXTURES / "single.csl.json": "json", INTEROP / "bad_first_line.ris": "ris",
    INTEROP / "crossref_strings.bib": "bibtex", INTEROP / "mendeley_keys.bib": "bibtex",
    INTEROP / "note_with_bibtex.csv": "csv", INTEROP / "zotero_books.bib": "bibtex",
    **{path: "seed" for path in sorted(CORPUS_DIR.glob("*.txt"))},
}
SHARED_FORMATS = {
    "arxivpy_2016_search_au_del_maestro.xml": "arxiv-atom", "bbt_arxiv_ids_460.bibtex": "bibtex",
    "bbt_available_date_3286.csl.json": "json", "bbt_zotero_arxiv_ml_2163.biblatex": "bibtex",
    "bolognese_citeproc.json": "json", "bolognese_crossref.ris": "ris",
    "openreviewcrawler_v1_notes_example_output.json": "json", "pmlr_v229_corl23.bib": "bibtex",
    "rispy_example_multiline.ris": "ris", "rispy_example_utf_chars.ris": "ris",
}
SUFFIXES = ("", ".dat", ".txt", ".bib", ".ris", ".csv", ".json", ".xml")
# Texts with the marks of two formats: what the if-chain chose for a file with each of SUFFIXES
AMBIGUOUS = {
    "[,title\n1,2\n": ("json", "json", "json", "json", "json", "csv", "json", "json"),
    '<feed xmlns="http://www.w3.org/2005/Atom">,title\n</feed>\n':
        ("arxiv-atom", "arxiv-atom", "arxiv-atom", "arxiv-atom", "arxiv-atom", "csv", "arxiv-atom", "arxiv-atom"),
    'title,abstract\n"@article{x,",y\n': ("csv",) * 8,
    "@article{a, title={x}}\nTY  - JOUR\nER  - \n":
        ("bibtex", "bibtex", "bibtex", "bibtex", "ris", "bibtex", "bibtex", "bibtex"),
    "TY  - JOUR\n@article{a, title={x}}\nER  - \n": ("ris", "ris", "ris", "bibtex", "ris", "ris", "ris", "ris"),
    "\n  \nTY  - JOUR\nER  - \n": ("ris",) * 8,
    "ICML 2026 Papers\n\nAn abstract.\n\nAnother.\n":
        ("seed", "seed", "seed", "bibtex", "ris", "csv", "json", "arxiv-atom"),
    "# Margin notes\n\n## A\n\n- x\n": (None, None, "seed", "bibtex", "ris", "csv", "json", "arxiv-atom"),
}


def _text(path: Path) -> str:
    """The text as read_file hands it to sniff: LF line ends, no control characters, no BOM."""
    return strip_controls(path.read_text(encoding="utf-8").replace("\r\n", "\n").replace("\r", "\n")).lstrip("\ufeff")


def test_every_format_has_exactly_one_record():
    names = [reader.name for reader in READERS]
    assert len(names) == len(set(names)) == 6
    claimed = [extension for reader in READERS for extension in reader.extensions]
    assert len(claimed) == len(set(claimed)), "an extension claimed by two readers"
    assert {extension: reader.name for extension, reader in BY_EXTENSION.items()} == OLD_EXTENSIONS
    assert all(callable(getattr(reader.module, "read", None)) for reader in READERS)


def test_the_no_format_message_names_every_readers_formats_and_only_those():
    described = [name.strip() for reader in READERS for name in reader.description.split(", ")]
    assert sorted(described) == sorted(FORMAT_NAMES.split(", "))


@pytest.mark.parametrize("path", sorted(FIXTURE_FORMATS), ids=lambda path: path.name)
def test_sniffing_picks_the_same_reader_for_each_fixture(path):
    text = _text(path)
    assert sniff(text, path) == FIXTURE_FORMATS[path]
    assert sniff(text, Path("no-extension.dat")) == FIXTURE_FORMATS[path]  # by the text alone
    assert read_file(path).records


@pytest.mark.parametrize("name", sorted(SHARED_FORMATS))
def test_sniffing_picks_the_same_reader_for_each_shared_sample(name):
    path = shared("formats", name)
    assert sniff(_text(path), path) == sniff(_text(path), Path("x.dat")) == SHARED_FORMATS[name]


@pytest.mark.parametrize("text", list(AMBIGUOUS), ids=range(len(AMBIGUOUS)))
def test_a_text_with_two_formats_marks_goes_to_the_same_reader_as_before(text):
    assert tuple(sniff(text, Path("file" + suffix)) for suffix in SUFFIXES) == AMBIGUOUS[text]
