"""Exporters: the user's papers and notes in formats other tools read (issue 6). Each format registers once,
as one `Writer` record in WRITERS; every table other modules read (FORMATS, DESCRIPTIONS, EXTENSIONS,
BINARY_FORMATS, FOLDER_FORMATS) is drawn from those records.

| format            | module                    | for                                     |
|-------------------|---------------------------|-----------------------------------------|
| `markdown`        | exporters.markdown        | reading lists (one file)                |
| `markdown-folder` | exporters.markdown        | Obsidian and other vaults (one .md each)|
| `csv`             | exporters.table           | programs (exact text)                   |
| `xlsx`            | exporters.spreadsheet     | spreadsheets (text cells, no formulas)  |
| `json`            | exporters.margin_json     | backup, scripts; `import` restores it   |
| `bibtex`          | exporters.bibtex          | JabRef, Zotero, LaTeX                   |
| `csl-json`        | exporters.csl_json        | Zotero, pandoc                          |
| `ris`             | exporters.ris             | EndNote, Mendeley, library systems      |

Entry points: `export(papers, fmt)` for the one-file text formats, `export_bytes` for the binary one (`xlsx`),
`export_files(papers, fmt)` for the folder format, `write_export` for any of them to a path. Where a paper has no
title, every format uses its derived headline (the label without its "…") and says so (`title_source: derived`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from db.errors import MarginError
from db.exporters.bibtex import export_bibtex
from db.exporters.csl_json import export_csl_json
from db.exporters.margin_json import History, export_json
from db.exporters.markdown import export_markdown, markdown_files
from db.exporters.ris import export_ris
from db.exporters.spreadsheet import export_xlsx
from db.exporters.table import export_csv
from db.paper import Paper
from db.system.fileio import write_atomically
from db.text.translatable import QT_TRANSLATE_NOOP

TEXT, BINARY, FOLDER = "text", "binary", "folder"


@dataclass(frozen=True)
class Options:
    """What a writer may use besides the papers: `history(paper_id)` gives a paper's earlier notes as
    (saved_at, text) pairs (only `json` uses it); `include_abstract` applies to the Markdown formats."""

    history: History | None = None
    include_abstract: bool = True
    state: dict | None = None  # the library's user state (db.library.user_state), for `json`


@dataclass(frozen=True)
class Writer:
    """One export format. `write(papers, options)` returns the text of one file (`output` TEXT), its bytes (BINARY)
    or {file name: text} (FOLDER). `extension` (with its dot) names a file of the format; None for a folder.
    `description` is what `margin export --help` and the window's export dialog show."""

    name: str
    extension: str | None
    description: str
    output: str
    write: Callable[[Sequence[Paper], Options], str | bytes | dict[str, str]]


# In the order `--help` lists them; FORMATS (the `--format` choices, the export dialog's list) puts the one-file
# text formats first, then the folder format, then the binary one. Descriptions in words are marked for the
# window's translation (db.text.translatable); the formats' own names are not translated.
WRITERS = (
    Writer("markdown", ".md", QT_TRANSLATE_NOOP("", "Markdown (one file)"), TEXT,
           lambda papers, options: export_markdown(papers, include_abstract=options.include_abstract)),
    Writer("markdown-folder", None, QT_TRANSLATE_NOOP("", "Markdown folder (one file per paper)"), FOLDER,
           lambda papers, options: markdown_files(papers, include_abstract=options.include_abstract)),
    Writer("csv", ".csv", QT_TRANSLATE_NOOP("", "CSV (exact text, for programs)"), TEXT,
           lambda papers, options: export_csv(papers)),
    Writer("json", ".json", QT_TRANSLATE_NOOP("", "Margin JSON (backup; import restores it)"), TEXT,
           lambda papers, options: export_json(papers, options.history, state=options.state)),
    Writer("bibtex", ".bib", "BibTeX", TEXT, lambda papers, options: export_bibtex(papers)),
    Writer("csl-json", ".json", "CSL-JSON", TEXT, lambda papers, options: export_csl_json(papers)),
    Writer("ris", ".ris", QT_TRANSLATE_NOOP("", "RIS (EndNote, Mendeley)"), TEXT,
           lambda papers, options: export_ris(papers)),
    Writer("xlsx", ".xlsx", QT_TRANSLATE_NOOP("", "Excel workbook (for spreadsheets)"), BINARY,
           lambda papers, options: export_xlsx(papers)),
)
BY_NAME = {writer.name: writer for writer in WRITERS}

FILE_FORMATS = tuple(writer.name for writer in WRITERS if writer.output == TEXT)
BINARY_FORMATS = tuple(writer.name for writer in WRITERS if writer.output == BINARY)
FOLDER_FORMATS = tuple(writer.name for writer in WRITERS if writer.output == FOLDER)
FORMATS = FILE_FORMATS + FOLDER_FORMATS + BINARY_FORMATS
PLANNED_FORMATS: tuple[str, ...] = ()  # kept for callers of the earlier API; every format is available
EXTENSIONS = {writer.name: writer.extension for writer in WRITERS if writer.extension}
DESCRIPTIONS = {writer.name: writer.description for writer in WRITERS}

__all__ = ["BINARY_FORMATS", "BY_NAME", "DESCRIPTIONS", "EXTENSIONS", "FILE_FORMATS", "FOLDER_FORMATS", "FORMATS",
           "PLANNED_FORMATS", "WRITERS", "Options", "Writer", "export", "export_bytes", "export_files",
           "export_markdown", "write_export"]


def export(papers: Sequence[Paper], fmt: str, *, history: History | None = None,
           include_abstract: bool = True, state: dict | None = None) -> str:
    """Export `papers` (in the order given) as the text of one file in format `fmt` (one of FILE_FORMATS).

    `history(paper_id)` returns a paper's earlier notes as (saved_at, text) pairs (`Library.note_history`);
    only the `json` format uses it, as it uses `state` (Library.user_state: highlight lists, interests, liked
    sources, saved searches, checks). `include_abstract` applies to `markdown`.
    Raises MarginError for an unknown format, for `markdown-folder` (use `export_files`) or `xlsx` (`export_bytes`).
    """
    writer = BY_NAME.get(fmt)
    if writer is None:
        raise MarginError(f"unknown export format '{fmt}'; use: {', '.join(FORMATS)}")
    if writer.output == FOLDER:
        raise MarginError(f"export format '{fmt}' writes a folder of files; give a folder as the output")
    if writer.output == BINARY:
        raise MarginError(f"export format '{fmt}' writes a binary file; give a file name as the output")
    return writer.write(papers, Options(history, include_abstract, state))


def export_bytes(papers: Sequence[Paper], fmt: str) -> bytes:
    """Export `papers` as the bytes of one binary file (`xlsx`). Raises MarginError for another format."""
    writer = BY_NAME.get(fmt)
    if writer is None or writer.output != BINARY:
        raise MarginError(f"export format '{fmt}' is text; use export()")
    return writer.write(papers, Options())


def export_files(papers: Sequence[Paper], fmt: str, *, include_abstract: bool = True) -> dict[str, str]:
    """Export `papers` as {file name: text} for a folder format (`markdown-folder`).

    Write the result with `db.exporters.markdown.write_folder(files, folder)`.
    Raises MarginError for a format that is not a folder format.
    """
    writer = BY_NAME.get(fmt)
    if writer is None or writer.output != FOLDER:
        raise MarginError(f"export format '{fmt}' writes one file, not a folder; use: {', '.join(FOLDER_FORMATS)}")
    return writer.write(papers, Options(include_abstract=include_abstract))


def write_export(papers: Sequence[Paper], fmt: str, output: Path, *, history: History | None = None,
                 include_abstract: bool = True, text: str | None = None, state: dict | None = None) -> int:
    """Export `papers` in format `fmt` to `output` (a file, or a folder for FOLDER_FORMATS), atomically.

    `text` is the already exported text, when the caller has it. Returns the number of papers written.
    Raises MarginError for an unknown format, or when the output cannot be written (missing folder, permission,
    illegal name).
    """
    if fmt in FOLDER_FORMATS:
        from db.exporters.markdown import write_folder

        files = export_files(papers, fmt, include_abstract=include_abstract)
        write_folder(files, Path(output))
        return len(files)
    if fmt in BINARY_FORMATS:
        write_atomically(Path(output), export_bytes(papers, fmt))
        return len(papers)
    if text is None:
        text = export(papers, fmt, history=history, include_abstract=include_abstract, state=state)
    write_atomically(Path(output), text)
    return len(papers)
