"""Exporters: the user's papers and notes in formats other tools read (issue 6).

Entry points: `export(papers, fmt)` for the one-file formats and `export_files(papers, fmt)` for the folder
format. Each format lives in its own module under `db/exporters/`:

| format            | module                    | for                                     |
|-------------------|---------------------------|-----------------------------------------|
| `markdown`        | exporters.markdown        | reading lists (one file)                |
| `markdown-folder` | exporters.markdown        | Obsidian and other vaults (one .md each)|
| `csv`             | exporters.table           | programs (exact text)                   |
| `xlsx`            | exporters.spreadsheet     | spreadsheets (text cells, no formulas)  |
| `json`            | exporters.margin_json     | backup, scripts; `import` restores it   |
| `bibtex`          | exporters.bibtex          | JabRef, Zotero, LaTeX                   |
| `csl-json`        | exporters.csl_json        | Zotero, pandoc                          |

Where a paper has no title, every format uses its derived headline (the label without its "…") and says so
(`title_source: derived`). `xlsx` is binary: `export_bytes` gives it, `export` refuses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from db.errors import MarginError
from db.exporters.bibtex import export_bibtex
from db.exporters.csl_json import export_csl_json
from db.exporters.margin_json import History, export_json
from db.exporters.markdown import export_markdown, markdown_files
from db.exporters.spreadsheet import export_xlsx
from db.exporters.table import export_csv
from db.paper import Paper
from db.system.fileio import write_atomically

FILE_FORMATS = ("markdown", "csv", "json", "bibtex", "csl-json")
BINARY_FORMATS = ("xlsx",)
FOLDER_FORMATS = ("markdown-folder",)
FORMATS = FILE_FORMATS + FOLDER_FORMATS + BINARY_FORMATS
PLANNED_FORMATS: tuple[str, ...] = ()  # kept for callers of the earlier API; every format is available
EXTENSIONS = {"markdown": ".md", "csv": ".csv", "json": ".json", "bibtex": ".bib", "csl-json": ".json",
              "xlsx": ".xlsx"}
DESCRIPTIONS = {"markdown": "Markdown (one file)", "markdown-folder": "Markdown folder (one file per paper)",
                "csv": "CSV (exact text, for programs)", "json": "Margin JSON (backup; import restores it)",
                "bibtex": "BibTeX", "csl-json": "CSL-JSON", "xlsx": "Excel workbook (for spreadsheets)"}

__all__ = ["BINARY_FORMATS", "DESCRIPTIONS", "EXTENSIONS", "FILE_FORMATS", "FOLDER_FORMATS", "FORMATS",
           "PLANNED_FORMATS", "export", "export_bytes", "export_files", "export_markdown", "write_export"]


def export(papers: Sequence[Paper], fmt: str, *, history: History | None = None,
           include_abstract: bool = True) -> str:
    """Export `papers` (in the order given) as the text of one file in format `fmt` (one of FILE_FORMATS).

    `history(paper_id)` returns a paper's earlier notes as (saved_at, text) pairs (`Library.note_history`);
    only the `json` format uses it. `include_abstract` applies to `markdown`.
    Raises MarginError for an unknown format or for `markdown-folder` (use `export_files`).
    """
    if fmt == "markdown":
        return export_markdown(papers, include_abstract=include_abstract)
    if fmt == "csv":
        return export_csv(papers)
    if fmt == "json":
        return export_json(papers, history)
    if fmt == "bibtex":
        return export_bibtex(papers)
    if fmt == "csl-json":
        return export_csl_json(papers)
    if fmt in FOLDER_FORMATS:
        raise MarginError(f"export format '{fmt}' writes a folder of files; give a folder as the output")
    if fmt in BINARY_FORMATS:
        raise MarginError(f"export format '{fmt}' writes a binary file; give a file name as the output")
    raise MarginError(f"unknown export format '{fmt}'; use: {', '.join(FORMATS)}")


def export_bytes(papers: Sequence[Paper], fmt: str) -> bytes:
    """Export `papers` as the bytes of one binary file (`xlsx`). Raises MarginError for another format."""
    if fmt == "xlsx":
        return export_xlsx(papers)
    raise MarginError(f"export format '{fmt}' is text; use export()")


def export_files(papers: Sequence[Paper], fmt: str, *, include_abstract: bool = True) -> dict[str, str]:
    """Export `papers` as {file name: text} for a folder format (`markdown-folder`).

    Write the result with `db.exporters.markdown.write_folder(files, folder)`.
    Raises MarginError for a format that is not a folder format.
    """
    if fmt == "markdown-folder":
        return markdown_files(papers, include_abstract=include_abstract)
    raise MarginError(f"export format '{fmt}' writes one file, not a folder; use: {', '.join(FOLDER_FORMATS)}")


def write_export(papers: Sequence[Paper], fmt: str, output: Path, *, history: History | None = None,
                 include_abstract: bool = True, text: str | None = None) -> int:
    """Export `papers` in format `fmt` to `output` (a file, or a folder for FOLDER_FORMATS), atomically.

    `text` is the already exported text, when the caller has it. Returns the number of papers written.
    Raises MarginError when the output cannot be written (missing folder, permission, illegal name).
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
        text = export(papers, fmt, history=history, include_abstract=include_abstract)
    write_atomically(Path(output), text)
    return len(papers)
