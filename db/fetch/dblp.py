"""DBLP (dblp.org): a venue's proceedings by its table of contents, through the publication search API.

`GET /search/publ/api?q=toc:db/conf/iclr/iclr2024.bht:&format=json&h=N&f=K` answers
`{"result": {"hits": {"@total": "…", "@sent": "…", "@first": "…", "hit": [{"info": {...}}, ...]}}}`. A target is
that table-of-contents key (`db/conf/iclr/iclr2024.bht`) or the short form `conf/iclr/2024`. DBLP holds no
abstracts: its papers are titles with authors, venue, year, DOI and links (the matching rules join them with
the same paper from another source later). DBLP asks for at most one request a second and pages of at most
1,000 hits. Kept: title (DBLP's trailing period removed), authors in order (DBLP's homonym numbers such as
"0001" removed), venue, year, DOI, the electronic edition link (url), and in `extra` the entry type, pages and
the DBLP record link (dblp). Source: https://dblp.org/faq/How+to+use+the+dblp+search+API.html.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from db.fetch.http import Client
from db.formats.common import clean, norm_arxiv, norm_doi, year_of
from db.paper import PaperRecord

NAME = "dblp"
DEFAULT_BASE = "https://dblp.org"
INTERVAL = 1.0
PAGE_SIZE = 1000
MAX_FIRST = 10_000  # the search API answers no hit past this offset
_HOMONYM = re.compile(r"\s+\d{4}$")
_TYPES = {"Conference and Workshop Papers": "inproceedings", "Journal Articles": "article",
          "Informal and Other Publications": "misc", "Books and Theses": "book", "Parts in Books or Collections":
          "incollection", "Editorship": "proceedings"}


def toc_key(target: str) -> str:
    """`db/conf/iclr/iclr2024.bht` from itself or from `conf/iclr/2024`."""
    target = target.strip().strip("/")
    match = re.fullmatch(r"(conf|journals)/([\w\-]+)/(\d{4})", target)
    if match:
        kind, name, year = match.groups()
        return f"db/{kind}/{name}/{name}{year}.bht"
    return target if target.startswith("db/") else f"db/{target}"


def parse_page(text: str) -> tuple[list[dict], int]:
    """(the hits' `info` objects, @total) of one answer. Raises ValueError/KeyError when it is not that shape."""
    hits = json.loads(text)["result"]["hits"]
    found = hits.get("hit") or []
    if isinstance(found, dict):
        found = [found]
    if not isinstance(found, list):
        raise ValueError("hits that are not a list")
    return [hit["info"] for hit in found if isinstance(hit, dict) and isinstance(hit.get("info"), dict)], \
        int(hits.get("@total", 0))


def info_record(info: dict) -> PaperRecord:
    """One hit's `info` → a PaperRecord (see the module docstring)."""
    people = (info.get("authors") or {}).get("author") if isinstance(info.get("authors"), dict) else None
    if isinstance(people, dict):
        people = [people]
    authors = []
    for person in people or []:
        name = clean(person.get("text") if isinstance(person, dict) else person)
        if name:
            authors.append(_HOMONYM.sub("", name))
    title = clean(info.get("title"))
    if title and title.endswith(".") and not title.endswith(".."):
        title = title[:-1]
    ee = info.get("ee")
    ee = clean(ee[0] if isinstance(ee, list) and ee else ee)
    extra = {"type": _TYPES.get(str(info.get("type"))), "pages": clean(info.get("pages")),
             "dblp": clean(info.get("url"))}
    return PaperRecord(title=title, abstract="", authors=authors, venue=_venue(info), year=year_of(info.get("year")),
                       url=ee, doi=norm_doi(info.get("doi")), arxiv_id=norm_arxiv(ee) if ee and "arxiv" in ee else None,
                       extra={key: value for key, value in extra.items() if value}, source="dblp")


def _venue(info: dict) -> str | None:
    venue = info.get("venue")
    venue = clean(venue[0] if isinstance(venue, list) and venue else venue)
    year = year_of(info.get("year"))
    if venue and year and str(year) not in venue:
        return f"{venue} {year}"
    return venue


def fetch_toc(client: Client, target: str, progress: Callable[[int, int | None], None] | None = None,
              page_size: int = PAGE_SIZE) -> list[PaperRecord]:
    """Every entry of the table of contents `target`, in DBLP's order (the proceedings volume itself, an
    `Editorship`, is left out). Raises FetchError."""
    query = f"toc:{toc_key(target)}:"
    records: list[PaperRecord] = []
    seen: set[str] = set()
    first = 0
    while first < MAX_FIRST:
        infos, total = client.get("search/publ/api", {"q": query, "format": "json", "h": page_size, "f": first},
                                  parse_page)
        fresh = [info for info in infos if str(info.get("key") or info.get("url")) not in seen]
        seen.update(str(info.get("key") or info.get("url")) for info in fresh)
        records += [info_record(info) for info in fresh if info.get("type") != "Editorship"]
        first += len(infos)
        if progress:
            progress(len(records), total)
        if not fresh or first >= total:  # a page of hits already seen: the server ignored `f`; stop
            break
    return records
