"""CSV for programs (and spreadsheets that are told what they open): one row per paper, RFC 4180 (comma, double
quotes, CRLF) via the csv module.

Every cell is exactly the stored text: no quote is put before a value that starts with `=`, `+`, `-` or `@`, so
a program reads back what Margin holds. A spreadsheet may take such a cell for a formula and an arXiv id for a
number: for spreadsheets, Margin writes .xlsx (db.exporters.spreadsheet: text cells, OWASP's quote prefix).
The text starts with a UTF-8 byte-order mark: without it Excel and LibreOffice's default import read UTF-8 as
a legacy code page and garble CJK text and emoji; Python's `csv` with `encoding="utf-8-sig"`, pandas and
Margin's own reader take the mark for what it is. Notes keep their commas, quotes and line breaks inside one
quoted cell. Lists (authors, tags, keywords) are joined with "; " (a keyword holding a `;` in braces, which
Margin's reader takes for one keyword). The last three columns are the screening decision (include, exclude, maybe
or empty), its exclusion reason and when it was made (issue 29): a reviewer's sheet of decisions (the counts are
`margin progress --prisma-csv`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from db.exporters.common import citation_key, citation_keys, export_title, title_source
from db.paper import Paper

COLUMNS = ("id", "citation_key", "title", "title_source", "authors", "venue", "year", "rating", "tags", "read",
           "note", "url", "doi", "arxiv_id", "openreview_id", "abstract", "added_at", "file_title", "keywords",
           "screening_decision", "exclusion_reason", "decided_at")
BOM = "\ufeff"


def row_values(paper: Paper, key: str | None = None) -> list:
    """The row of one paper, in COLUMNS order: text, with `year` and `rating` as int or ""; `key` is its
    citation key (common.citation_keys), the paper's own key when None."""
    return [
        paper.id, key or citation_key(paper), export_title(paper), title_source(paper), "; ".join(paper.authors),
        paper.venue or "", paper.year or "", paper.rating or "", "; ".join(paper.tags),
        "yes" if paper.read else "no", paper.note, paper.url or "", paper.doi or "", paper.arxiv_id or "",
        paper.openreview_id or "", paper.abstract, paper.added_at or "", paper.file_title or "",
        "; ".join(f"{{{word}}}" if ";" in word else word for word in paper.keywords),  # one keyword, braced
        paper.decision or "", paper.reason or "", paper.decided_at or "",
    ]


def export_csv(papers: Sequence[Paper]) -> str:
    """The CSV text (header row first, columns as in COLUMNS). Empty cells for missing values; `read` is
    "yes"/"no"; `title_source` is "file", "user" or "derived" (the title cell then holds the derived headline);
    `file_title` is the file's title, also when the user set one (`title`)."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, dialect="excel", lineterminator="\r\n")
    writer.writerow(COLUMNS)
    keys = citation_keys(papers)
    for paper in papers:
        writer.writerow(row_values(paper, keys[paper.id]))
    return BOM + buffer.getvalue()
