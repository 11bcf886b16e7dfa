"""CSV for spreadsheets: one row per paper, RFC 4180 (comma, double quotes, CRLF) via the csv module.

The text starts with a UTF-8 byte-order mark so that Excel reads CJK text and emoji correctly; LibreOffice,
Google Sheets, pandas and Python's `csv` with `encoding="utf-8-sig"` read it too. Notes keep their commas,
quotes and line breaks inside one quoted cell. Lists (authors, tags) are joined with "; ".
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from db.exporters.common import citation_key, export_title, title_source
from db.paper import Paper

COLUMNS = ("id", "citation_key", "title", "title_source", "authors", "venue", "year", "rating", "tags", "read",
           "note", "url", "doi", "arxiv_id", "openreview_id", "abstract", "added_at", "file_title", "keywords")
BOM = "\ufeff"


def export_csv(papers: Sequence[Paper]) -> str:
    """The CSV text (header row first, columns as in COLUMNS). Empty cells for missing values; `read` is
    "yes"/"no"; `title_source` is "file", "user" or "derived" (the title cell then holds the derived label)."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, dialect="excel", lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for paper in papers:
        writer.writerow([
            paper.id, citation_key(paper), export_title(paper), title_source(paper), "; ".join(paper.authors),
            paper.venue or "", paper.year or "", paper.rating or "", "; ".join(paper.tags),
            "yes" if paper.read else "no", paper.note, paper.url or "", paper.doi or "", paper.arxiv_id or "",
            paper.openreview_id or "", paper.abstract, paper.added_at or "", paper.file_title or "",
            "; ".join(paper.keywords),
        ])
    return BOM + buffer.getvalue()
