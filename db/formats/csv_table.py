"""CSV / TSV tables from spreadsheets, one paper per row, with a header row naming the columns.

Header names are matched case-insensitively, ignoring spaces, `_` and `-`, with synonyms (below); columns
that are not recognised are ignored. The delimiter (`,` `;` tab `|`) is sniffed from the header line.
Authors are split on `;` (else ` and `); keywords on `;` (else `,`). A `title_source` column saying
`derived` (Margin's own CSV export, for a paper without a title) marks the title cell as Margin's label,
not a title: the title is then read as absent; `tags`, `rating`, `read` and `note` columns (Margin's export,
other tools' tables) are the user's marks (PaperRecord.annotations); `user` says the title cell is the user's
title and the
`file_title` cell the file's, which is read. So re-importing the export changes nothing.
Cells may be of any length (csv's 131072-character default limit is raised). The last row of a file cut off
inside it (an open quote at the end, or fewer cells than the row before and no line end) is skipped and named,
not imported half. Errors: InputError(path, 1) when
no header cell names a title or abstract column.
Source: RFC 4180 (quoted fields may span lines; `""` inside quotes).
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
from pathlib import Path

from db.errors import InputError
from db.formats.annotations import rating_of, read_of
from db.formats.common import (
    DERIVED,
    Skipped,
    clean,
    finish,
    norm_arxiv,
    norm_doi,
    openreview_from_url,
    split_protected,
    strip_controls,
    year_of,
)
from db.paper import SCREENING_DECISIONS, Annotations, PaperRecord
from db.text.names import split_author_text

SYNONYMS = {
    "title": ("title", "papertitle", "name", "articletitle", "documenttitle"),
    "abstract": ("abstract", "summary", "abstractnote", "description"),
    "authors": ("authors", "author", "authorlist", "creators", "names"),
    "year": ("year", "publicationyear", "pubyear", "date", "publicationdate", "published"),
    "venue": ("venue", "conference", "journal", "booktitle", "publicationtitle", "proceedings", "source"),
    "url": ("url", "link", "site", "pdfurl", "paperurl", "webpage"),
    "doi": ("doi",),
    "arxiv_id": ("arxiv", "arxivid", "eprint"),
    "openreview_id": ("openreview", "openreviewid", "forum"),
    "keywords": ("keywords", "keyword", "subjects", "topics", "manualtags", "automatictags"),
    "title_source": ("titlesource",),
    "file_title": ("filetitle",),
    "tags": ("tags", "labels"),
    "rating": ("rating", "ranking", "stars"),
    "read": ("read", "readstatus"),
    "note": ("note", "notes", "annote", "comment", "comments"),
    "screening_decision": ("screeningdecision",),
    "exclusion_reason": ("exclusionreason",),
    "decided_at": ("decidedat",),
}
_LOOKUP = {name: field for field, names in SYNONYMS.items() for name in names}
# csv's default cell limit is 131072 characters; a long note exported to CSV is longer. The limit is a C long,
# 32-bit on Windows, so sys.maxsize would overflow there; import files are at most 512 MB anyway.
FIELD_LIMIT = 16 * 2**20  # characters in one cell (a 200 MB cell took 5.4 GB to read)


def _key(cell: str) -> str:
    return re.sub(r"[\s_\-.]+", "", cell.strip().strip("\ufeff").lower())


def header_fields(line: str) -> tuple[str, dict[int, str]] | None:
    """(delimiter, {column index: field}) when `line` is a header naming a title or abstract column."""
    for delimiter in (",", "\t", ";", "|"):
        if delimiter not in line:
            continue
        cells = next(csv.reader([line], delimiter=delimiter))
        columns: dict[int, str] = {}
        for index, cell in enumerate(cells):
            field = _LOOKUP.get(_key(cell))
            if field and field not in columns.values():
                columns[index] = field
        if {"title", "abstract"} & set(columns.values()):
            return delimiter, columns
    return None


def looks_like_csv(text: str) -> bool:
    """True when the first non-blank line is a usable header row."""
    first = next((line for line in text.lstrip("\ufeff").split("\n") if line.strip()), "")
    return header_fields(first) is not None


def read(text: str, path: Path) -> tuple[list[PaperRecord], list[Skipped], str]:
    """Records of a CSV/TSV table and skipped (line, reason). Raises InputError without a usable header."""
    text = text.lstrip("\ufeff")
    lines = text.split("\n")
    header_index = next((i for i, line in enumerate(lines) if line.strip()), 0)
    found = header_fields(lines[header_index])
    if found is None:
        raise InputError(path, "a CSV file without a usable header row (it needs a title or abstract column)",
                         line=header_index + 1)
    delimiter, columns = found
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)
    reader = csv.reader(io.StringIO("\n".join(lines[header_index + 1 :])), delimiter=delimiter)
    records: list[PaperRecord] = []
    skipped: list[Skipped] = []
    previous = 0
    last = None  # the latest row read: (line, cells), finished once the next one is read (or the file ends)
    width = len(next(csv.reader([lines[header_index]], delimiter=delimiter)))  # cells of the row before `last`
    try:
        for row in reader:
            line = header_index + 2 + previous
            previous = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if last is not None:
                _finish_row(*last, columns, path, skipped, records)
                width = len(last[1])
            last = (line, row)
    except csv.Error as error:
        skipped.append((header_index + 2 + previous, f"the rest of the table could not be read ({error})"))
    if last is not None:
        if _cut_short(lines, last, width, delimiter):
            skipped.append((last[0], "the file ends inside this row (cut short?): not imported"))
        else:
            _finish_row(*last, columns, path, skipped, records)
    return records, skipped, "csv"


def _finish_row(line: int, row: list[str], columns: dict[int, str], path: Path, skipped, records) -> None:
    values = {field: row[index] for index, field in columns.items() if index < len(row)}
    finish(_record(values, line, path), skipped, records)


def _cut_short(lines: list[str], last: tuple[int, list[str]], width: int, delimiter: str) -> bool:
    """Whether the table's last row (its line and cells) is a file cut off: it ends inside a quoted cell, or
    has fewer cells than the row before it (`width`; the header's for the first) with no line end after it."""
    line, row = last
    text = "\n".join(lines[line - 1:])
    try:
        list(csv.reader(io.StringIO(text), delimiter=delimiter, strict=True))
    except csv.Error as error:
        if "end of data" in str(error):
            return True
    return len(row) < width and not text.endswith("\n") and bool(text.strip())


def _record(values: dict[str, str], line: int, path: Path) -> PaperRecord:
    url = clean(values.get("url"))
    openreview = clean(values.get("openreview_id"))
    if openreview and "openreview.net" in openreview:
        openreview = openreview_from_url(openreview)
    source = (values.get("title_source") or "").strip().lower()
    title = clean(values.get("file_title")) if source == "user" else clean(values.get("title"))
    return PaperRecord(
        title=None if source == DERIVED else title, abstract=clean(values.get("abstract")) or "",
        authors=split_author_text(values.get("authors")), venue=clean(values.get("venue")),
        year=year_of(values.get("year")), url=url, doi=norm_doi(values.get("doi")),
        arxiv_id=norm_arxiv(values.get("arxiv_id")), openreview_id=openreview,
        keywords=split_protected(values.get("keywords"), ";,"), source=path.name, line=line,
        annotations=_annotations(values), left_out=_not_a_rating(values.get("rating")),
    )


def _not_a_rating(cell: str | None) -> list[str]:
    """`['rating "7" is not 1 to 5; left out']` for a rating cell that is neither empty, 0 (no rating) nor a
    rating rating_of reads; [] otherwise."""
    text = (cell or "").strip()
    if not text or rating_of(text) is not None:
        return []
    with contextlib.suppress(ValueError):
        if float(text) == 0:
            return []
    shown = text if len(text) <= 20 else text[:20] + "…"
    return [f'rating "{shown}" is not 1 to 5; left out']


def _annotations(values: dict[str, str]) -> Annotations | None:
    """The user's marks in a row (issue 30): `tags` ("; "-joined, as Margin writes them), `rating` (1..5 or
    rankN), `read` (yes/no, read/skimmed), `note` (the cell exactly, line breaks kept), the user's title (the
    `title` cell when `title_source` says `user`), the screening decision (`screening_decision` include, exclude
    or maybe, with `exclusion_reason` and `decided_at`; another word is no decision)."""
    tags = [tag.strip() for tag in (values.get("tags") or "").split(";") if tag.strip()]
    note = strip_controls(values.get("note") or "")
    user = (values.get("title_source") or "").strip().lower() == "user"
    marks = Annotations(tags=tags, rating=rating_of(values.get("rating")), read=read_of(values.get("read")),
                        note=note or None, title=clean(values.get("title")) if user else None)
    decision = (values.get("screening_decision") or "").strip().lower()
    if decision in SCREENING_DECISIONS:
        marks.decision = {"decision": decision, "reason": clean(values.get("exclusion_reason")) or None,
                          "decided_at": clean(values.get("decided_at")) or None}
    return marks or None
