"""One fetch, from the request to the library: what `margin fetch`, `margin add` and the window's dialogs run.

`FetchRequest(source, target, …)` names what to get: `openreview ICLR.cc/2025/Conference`, `arxiv cs.LG` with
dates or `--query`, `dblp conf/iclr/2024`, `pmlr 229`, `acl 2024.acl-long`, or one paper: `doi`, `arxiv-id`,
`openreview-id`. `fetch_records(request)` gets its PaperRecords (all pages, through db.fetch.http: rate limits,
retries, the day's cache, cancel) and raises FetchError before anything changes; `import_fetched(library,
records)` puts them through the one import pipeline (db.import_job.import_paths: identity, matching, re-import
rules), so fetching again updates decisions, adds late papers and never duplicates. `hand_record(...)` is a
paper typed by hand. Each source's module says what it keeps.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from db.errors import MarginError
from db.fetch import VENUE_SOURCES, acl, arxiv, crossref, dblp, openreview, pmlr
from db.fetch.cache import ResponseCache
from db.fetch.http import Client, FetchError, base_url
from db.formats.common import norm_doi, year_of
from db.paper import PaperRecord
from db.text.names import split_author_text

SOURCES = {module.NAME: module for module in (openreview, arxiv, crossref, dblp, pmlr, acl)}
Progress = Callable[[int, "int | None"], None]


@dataclass
class FetchRequest:
    """What to fetch. `source`: one of VENUE_SOURCES, or `doi`, `arxiv-id`, `openreview-id` for one paper.
    `target`: the venue id / category / DBLP key / volume / event / identifier. Options: `rejected` and
    `withdrawn` (OpenReview), `start`/`end` dates and `query` (arXiv: a search instead of a category),
    `page_size` (tests), `limit` (arXiv: at most this many)."""

    source: str
    target: str = ""
    rejected: bool = False
    withdrawn: bool = False
    start: date | None = None
    end: date | None = None
    query: str | None = None
    page_size: int | None = None
    limit: int | None = None
    extra: dict = field(default_factory=dict)

    def describe(self) -> str:
        return f"{self.source} {self.query or self.target}".strip()


def client_for(name: str, cancel: threading.Event | None = None, cache: ResponseCache | None = None,
               sleep: Callable[[float], None] | None = None) -> Client:
    """The HTTP client of source `name` (its base URL, $MARGIN_FETCH_<NAME>_URL overriding, and interval)."""
    module = SOURCES[name]
    return Client(name, base_url(name, module.DEFAULT_BASE), module.INTERVAL, cache if cache is not None
                  else ResponseCache(), cancel, sleep)


def fetch_records(request: FetchRequest, cancel: threading.Event | None = None, progress: Progress | None = None,
                  cache: ResponseCache | None = None, sleep: Callable[[float], None] | None = None
                  ) -> list[PaperRecord]:
    """The records `request` names, every page fetched. Raises FetchError (one line naming the source and the
    reason) or FetchCancelled; nothing is changed anywhere but in the response cache."""
    source, target = request.source, request.target.strip()
    page = {"page_size": request.page_size} if request.page_size else {}
    if source == "openreview":
        statuses = ("accepted",) + (("rejected",) if request.rejected else ()) + (
            ("withdrawn",) if request.withdrawn else ())
        _need(target, "openreview", "a venue id, e.g. ICLR.cc/2025/Conference")
        return openreview.fetch_venue(client_for("openreview", cancel, cache, sleep), target, statuses, progress,
                                      **page)
    if source == "arxiv":
        if request.start and request.end and request.start > request.end:
            raise MarginError(f"arxiv: the start date {request.start} is after the end date {request.end} (--from "
                              f"after --to); nothing was fetched")
        query = request.query or (arxiv.category_query(target, request.start, request.end) if target else "")
        _need(query, "arxiv", "a category (cs.LG) or --query")
        return arxiv.fetch_query(client_for("arxiv", cancel, cache, sleep), query, progress, limit=request.limit,
                                 **page)
    if source == "dblp":
        _need(target, "dblp", "a venue and year, e.g. conf/iclr/2024")
        return dblp.fetch_toc(client_for("dblp", cancel, cache, sleep), target, progress, **page)
    if source == "pmlr":
        _need(target, "pmlr", "a volume number, e.g. 229")
        return pmlr.fetch_volume(client_for("pmlr", cancel, cache, sleep), target, progress)
    if source == "acl":
        _need(target, "acl", "an event or volume id, e.g. 2024.acl-long")
        return acl.fetch_volume(client_for("acl", cancel, cache, sleep), target, progress)
    if source == "doi":
        _need(target, "crossref", "a DOI, e.g. 10.1371/journal.pone.0033693")
        if norm_doi(target) is None:  # said before any network: Crossref would only answer "not found"
            raise MarginError(f"crossref: {target!r} is not a DOI (a DOI is 10.NNNN/…, e.g. "
                              f"10.1371/journal.pone.0033693, or a doi.org link); nothing was changed")
        return crossref.fetch_doi(client_for("crossref", cancel, cache, sleep), target)
    if source == "arxiv-id":
        _need(target, "arxiv", "an arXiv id, e.g. 1706.03762")
        records = arxiv.fetch_ids(client_for("arxiv", cancel, cache, sleep), [target])
        if not records:
            raise FetchError(f"arxiv: no paper with the id {target!r}; nothing was changed")
        return records
    if source == "openreview-id":
        _need(target, "openreview", "a note id, e.g. B1QRgziT-")
        records = openreview.fetch_note(client_for("openreview", cancel, cache, sleep), target)
        if not records:
            raise FetchError(f"openreview: no paper with the id {target!r}; nothing was changed")
        return records
    raise MarginError(f"unknown source {source!r}: use one of {', '.join(VENUE_SOURCES)}")


def _need(value: str, source: str, what: str) -> None:
    if not value:
        raise MarginError(f"{source}: give {what}")


def hand_record(title: str, authors: str = "", venue: str = "", year: int | str | None = None,
                abstract: str = "", url: str = "") -> PaperRecord:
    """A paper typed by hand: authors separated by `;`, `,`-free names or ` and ` (db.text.names). Raises
    MarginError when it has neither title nor abstract, or a year that is not a number or not plausible (a
    paper's year is 1500..2199, as db.formats.common.year_of reads years from files)."""
    title, abstract = " ".join((title or "").split()), (abstract or "").strip()
    if not title and not abstract:
        raise MarginError("a paper needs a title or an abstract")
    year_value = None
    if year not in (None, ""):
        try:
            year_value = int(str(year).strip())
        except ValueError:
            raise MarginError(f"the year {year!r} is not a number") from None
        if year_of(year_value) is None:
            raise MarginError(f"the year {year_value} is not a paper's year (1500 to 2199)")
    return PaperRecord(title=title or None, abstract=abstract,
                       authors=split_author_text(authors.strip()) if authors and authors.strip() else [],
                       venue=" ".join(venue.split()) or None, year=year_value, url=url.strip() or None,
                       source="by hand")


def import_fetched(library, records: list[PaperRecord], progress: Callable[[int, int], None] | None = None,
                   index: Callable | None = None):
    """Put fetched records through the one import pipeline (db.import_job.import_paths). Returns its
    ImportResult (`summary()`: "12 new, 3 updated, …")."""
    from db.import_job import ImportInputs, import_paths

    return import_paths(library, ImportInputs(records=list(records)), progress, index=index)
