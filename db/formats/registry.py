"""The readers Margin imports with, one `Reader` record each, and `sniff`, which chooses among them.

| format      | sniffed by                                   | extensions              | reader                     |
|-------------|----------------------------------------------|-------------------------|----------------------------|
| arxiv-atom  | XML root `<feed>` in the Atom namespace       | .xml .atom              | db.formats.arxiv_atom      |
| json/jsonl  | first character `[` or `{` (CSL-JSON inside)  | .json .jsonl .ndjson    | db.formats.jsonlist        |
| csv         | a header row naming a title/abstract column   | .csv .tsv               | db.formats.csv_table       |
| bibtex      | a line starting `@type{` (another extension:  | .bib .bibtex .biblatex  | db.formats.bibtex          |
|             | the first line that is not a `%` comment)     |                         |                            |
| ris         | a line starting `TY  -`                       | .ris                    | db.formats.ris             |
| seed        | header line, blank line, paragraphs           | .txt                    | db.formats.corpus          |

Every reader module has `read(text, path) -> (records, skipped, format)`, looked up when it is called (so a
reader replaced at run time, as a test does, is the one used). Raises as the module says: InputError(path,
message, line) when the file as a whole cannot be read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from db.formats import arxiv_atom, bibtex, corpus, csv_table, jsonlist, ris
from db.formats.common import Skipped
from db.paper import PaperRecord

# The message for a file no reader takes; its wording is older than the registry (users and docs have seen it)
FORMAT_NAMES = "JSON, JSON Lines, CSV, BibTeX/BibLaTeX, CSL-JSON, RIS, arXiv Atom, Margin seed text"


@dataclass(frozen=True)
class Reader:
    """One import format. `has_structure(text)`: the text is laid out as this format (checked for the file's own
    extension first). `starts(text)`: judged by how the file starts (XML root, JSON value, CSV header row, first
    RIS tag); `inside(text)`: by a line anywhere inside it, which a CSV note or an abstract may hold too; a
    `fallback` reader is tried only for a file whose extension no reader claims."""

    name: str
    extensions: tuple[str, ...]
    description: str
    module: ModuleType
    has_structure: Callable[[str], bool]
    starts: Callable[[str], bool] | None = None
    inside: Callable[[str], bool] | None = None
    fallback: bool = False

    streams: bool = False  # the module's `read` appends to a `records` it is given, as it reads

    def read(self, text: str, path: Path, records: list[PaperRecord] | None = None,
             ) -> tuple[list[PaperRecord], list[Skipped], str]:
        """(records, skipped, format) of `text`: the module's `read`. Raises InputError as that module says.
        `records`: a list (or db.formats.spool.RecordSpool) the records are appended to, returned."""
        if records is None or self.streams:
            return self.module.read(text, path) if records is None else self.module.read(text, path, records)
        read, skipped, kind = self.module.read(text, path)
        records += read
        return records, skipped, kind


# Sniffing tries the `starts` checks in this order, then the `inside` checks, then the fallback: a CSV header
# row beats a `@type{` line inside a note, and a first `TY  -` line beats a `@type{` line further down.
READERS = (
    Reader("arxiv-atom", (".xml", ".atom"), "arXiv Atom", arxiv_atom, arxiv_atom.looks_like_atom,
           starts=arxiv_atom.looks_like_atom),
    Reader("json", (".json", ".jsonl", ".ndjson"), "JSON, JSON Lines, CSL-JSON", jsonlist, jsonlist.looks_like_json,
           starts=jsonlist.looks_like_json, streams=True),
    Reader("csv", (".csv", ".tsv"), "CSV", csv_table, csv_table.looks_like_csv, starts=csv_table.looks_like_csv),
    Reader("bibtex", (".bib", ".bibtex", ".biblatex"), "BibTeX/BibLaTeX", bibtex, bibtex.looks_like_bibtex,
           inside=bibtex.is_bibtex_document),
    Reader("ris", (".ris",), "RIS", ris, ris.looks_like_ris, starts=ris.starts_like_ris, inside=ris.looks_like_ris),
    Reader("seed", (".txt",), "Margin seed text", corpus, corpus.looks_like_seed_text, fallback=True),
)
BY_NAME = {reader.name: reader for reader in READERS}
BY_EXTENSION = {extension: reader for reader in READERS for extension in reader.extensions}


def sniff(text: str, path: Path) -> str | None:
    """The format name (see the module table): the extension's format when the text has that format's
    structure, else the first format whose structure the text has, judged by how the file starts (XML root,
    JSON value, CSV header row, first RIS tag) before any line inside it (a `@type{` line, which a CSV note or
    an abstract may hold too), else the extension's format (its reader names the problem), else None."""
    by_extension = BY_EXTENSION.get(path.suffix.lower())
    if by_extension and by_extension.has_structure(text):
        return by_extension.name
    for reader in READERS:
        if reader.starts and reader.starts(text):
            return reader.name
    for reader in READERS:
        if reader.inside and reader.inside(text):
            return reader.name
    if by_extension is None:
        for reader in READERS:
            if reader.fallback and reader.has_structure(text):
                return reader.name
    return by_extension.name if by_extension else None
