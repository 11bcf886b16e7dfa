"""Crossref (api.crossref.org): one paper by its DOI.

`GET /works/DOI` answers `{"status": "ok", "message-type": "work", "message": {...}}`. Kept: title, authors in
order (given + family, or `name`), abstract (JATS markup removed), venue (`container-title`), year (`issued`,
else `published-print` / `published-online` / `created`), DOI, URL, and in `extra` the entry type, pages,
volume, issue, publisher, ISSN. Crossref asks polite clients to name themselves (the User-Agent does) and to
keep to its published limit (5 requests a second at the time of writing; Margin sends one a second).
Source: https://api.crossref.org/swagger-ui/index.html, https://github.com/CrossRef/rest-api-doc.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from db.fetch.http import Client
from db.formats.common import clean, norm_doi, year_of
from db.paper import PaperRecord

NAME = "crossref"
DEFAULT_BASE = "https://api.crossref.org"
INTERVAL = 1.0
_TAGS = re.compile(r"<[^>]+>")
_TYPES = {"journal-article": "article", "proceedings-article": "inproceedings", "book-chapter": "incollection",
          "book": "book", "posted-content": "misc", "dissertation": "phdthesis", "report": "techreport"}


def parse_work(text: str) -> dict:
    """The `message` of a /works/DOI answer. Raises ValueError when it is not a work."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("message-type") != "work" or not isinstance(data.get("message"), dict):
        raise ValueError("not a Crossref work")
    return data["message"]


def _first(value: object) -> str | None:
    if isinstance(value, list):
        return clean(value[0]) if value else None
    return clean(value)


def work_record(work: dict) -> PaperRecord:
    """One Crossref work → a PaperRecord (see the module docstring)."""
    authors = []
    for person in work.get("author") or []:
        if isinstance(person, dict):
            name = " ".join(part for part in (clean(person.get("given")), clean(person.get("family"))) if part)
            name = name or clean(person.get("name"))
            if name:
                authors.append(name)
    year = None
    for key in ("issued", "published-print", "published-online", "created"):
        parts = (work.get(key) or {}).get("date-parts") if isinstance(work.get(key), dict) else None
        if parts and parts[0] and parts[0][0]:
            year = year_of(parts[0][0])
            break
    abstract = clean(_TAGS.sub(" ", work.get("abstract") or "")) or ""
    abstract = re.sub(r"^Abstract\s+", "", abstract)
    extra = {"type": _TYPES.get(str(work.get("type"))), "pages": clean(work.get("page")),
             "volume": clean(work.get("volume")), "issue": clean(work.get("issue")),
             "publisher": clean(work.get("publisher")), "issn": _first(work.get("ISSN"))}
    doi = norm_doi(work.get("DOI"))
    return PaperRecord(title=_first(work.get("title")), abstract=abstract, authors=authors,
                       venue=_first(work.get("container-title")), year=year,
                       url=clean(work.get("URL")) or (f"https://doi.org/{doi}" if doi else None), doi=doi,
                       extra={key: value for key, value in extra.items() if value}, source="crossref")


def fetch_doi(client: Client, doi: str) -> list[PaperRecord]:
    """The paper with this DOI (`10.1371/journal.pone.0033693`, `doi:…` or a doi.org URL). Raises FetchError
    (Crossref answers 404 for a DOI it does not know)."""
    doi = norm_doi(doi) or doi.strip()
    return [work_record(client.get(f"works/{quote(doi, safe='/')}", None, parse_work))]
