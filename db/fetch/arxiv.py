"""arXiv (the API at export.arxiv.org/api/query): a category and date range, a search query, or one paper by id.

`GET /query?search_query=Q&start=K&max_results=N&sortBy=submittedDate&sortOrder=ascending` answers an Atom feed
(read by db.formats.arxiv_atom) with `<opensearch:totalResults>`; pages are fetched until that many came. A
category and dates become `cat:cs.LG AND submittedDate:[202401010000 TO 202401312359]`. arXiv's terms of use
ask for one request every 3 seconds and at most 2,000 results a page (Margin asks for 200).

Kept: title, authors in order, abstract, venue (the journal reference, else "arXiv"), year (first version),
arXiv id (without version), DOI, categories as keywords, and in `extra` the PDF link and the primary category.
Source: https://info.arxiv.org/help/api/user-manual.html.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from datetime import date
from pathlib import Path

from db.errors import InputError
from db.fetch.http import Client
from db.formats import arxiv_atom
from db.paper import PaperRecord

NAME = "arxiv"
DEFAULT_BASE = "https://export.arxiv.org/api"
INTERVAL = 3.0  # arXiv API terms of use: no more than one request every three seconds
PAGE_SIZE = 200
_OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"


def parse_page(text: str) -> tuple[list[PaperRecord], int | None]:
    """(records, totalResults) of one Atom answer. Raises ValueError for XML that does not parse, is not a feed,
    or is an arXiv error feed."""
    try:
        records, skipped, _kind = arxiv_atom.read(text, Path("arXiv API"))
    except InputError as error:
        raise ValueError(error.message) from None
    errors = [reason for _line, reason in skipped if "error entry" in reason]
    if errors:
        raise ValueError(errors[0])
    root = ElementTree.fromstring(text.lstrip("\ufeff \t\r\n").encode("utf-8"))
    total = root.findtext(f"{_OPENSEARCH}totalResults")
    pdf_links = [next((link.get("href") for link in entry.findall(f"{arxiv_atom.ATOM}link")
                       if link.get("title") == "pdf"), None) for entry in root.iter(f"{arxiv_atom.ATOM}entry")]
    primaries = [_term(entry.find(f"{arxiv_atom.ARXIV}primary_category"))
                 for entry in root.iter(f"{arxiv_atom.ATOM}entry")]
    for record, pdf, primary in zip(records, pdf_links, primaries, strict=False):
        record.extra.update({key: value for key, value in (("pdf", pdf), ("primary_category", primary)) if value})
        record.source = "arxiv"
        record.line = None
    return records, int(total) if total and total.strip().isdigit() else None


def _term(element: ElementTree.Element | None) -> str | None:
    return element.get("term") if element is not None else None


def category_query(category: str, start: date | None = None, end: date | None = None) -> str:
    """`cat:cs.LG`, with `AND submittedDate:[YYYYMMDD0000 TO YYYYMMDD2359]` when dates are given."""
    query = f"cat:{category.strip()}"
    if start or end:
        low = (start or date(1991, 1, 1)).strftime("%Y%m%d") + "0000"
        high = (end or date.today()).strftime("%Y%m%d") + "2359"
        query += f" AND submittedDate:[{low} TO {high}]"
    return query


def fetch_query(client: Client, query: str, progress: Callable[[int, int | None], None] | None = None,
                page_size: int = PAGE_SIZE, limit: int | None = None) -> list[PaperRecord]:
    """Every paper matching arXiv search `query` (at most `limit`), oldest first. Raises FetchError."""
    records: list[PaperRecord] = []
    seen: set[str | None] = set()
    start, retried = 0, False
    while True:
        params = {"search_query": query, "start": start, "max_results": page_size,
                  "sortBy": "submittedDate", "sortOrder": "ascending"}
        page, total = client.get("query", params, parse_page)
        if not page and total and start < total and not retried:  # arXiv's known empty page: not kept, asked again
            retried = True
            if client.cache is not None:
                client.cache.drop(client.url("query", params))
            continue
        fresh = [record for record in page if record.arxiv_id not in seen]
        seen.update(record.arxiv_id for record in fresh)
        records += fresh
        start += len(page)
        if progress:
            progress(len(records), total)
        # an empty page again, or a page of papers already seen: stop rather than loop
        if not fresh or (total is not None and start >= total) or (limit and len(records) >= limit):
            break
    return records[:limit] if limit else records


_ARXIV_ID = re.compile(r"(\d{4}\.\d{4,5}|[a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?", re.IGNORECASE)


def fetch_ids(client: Client, ids: list[str]) -> list[PaperRecord]:
    """Papers by arXiv id (`2401.01234`, `arXiv:2401.01234v2`, an abs/pdf URL): `GET /query?id_list=…`.
    Raises FetchError; an id arXiv does not know yields nothing."""
    wanted = []
    for text in ids:
        match = _ARXIV_ID.search(text)
        if match:
            wanted.append(match.group(1))  # without its version: the newest one
    if not wanted:
        return []
    page, _total = client.get("query", {"id_list": ",".join(wanted), "max_results": len(wanted)}, parse_page)
    return [record for record in page if record.arxiv_id in wanted]
