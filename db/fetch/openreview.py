"""OpenReview (API v2, api2.openreview.net): a venue's papers, or one paper by its note id.

A venue is its id, e.g. `ICLR.cc/2025/Conference`. Its accepted papers are the notes whose `content.venueid` is
that id; rejected and withdrawn ones (only on request) have `…/Rejected_Submission` and `…/Withdrawn_Submission`.
`GET /notes?content.venueid=ID&limit=N&offset=K` answers `{"notes": [...], "count": total}`; pages are fetched
until `count` notes came (or a page comes back short). Every content value is wrapped as `{"value": …}`.

Kept: title, authors (in order), abstract, keywords, venue ("ICLR 2025", from the venue id), year, the forum
link (url) and OpenReview id, and in `extra`: decision ("Accept (Oral)", "Reject", "Withdrawn"), presentation
(oral / spotlight / poster, from `content.venue` "ICLR 2025 Oral"), tldr, pdf (absolute link), forum, session
(a `content.session` where the venue has one), venue_id. Source: https://docs.openreview.net (API v2, notes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from db.fetch.http import Client
from db.formats.common import clean, norm_arxiv, norm_doi, year_of
from db.paper import PaperRecord

NAME = "openreview"
DEFAULT_BASE = "https://api2.openreview.net"
INTERVAL = 0.5  # OpenReview asks clients to stay well under its per-IP limit; two requests a second
PAGE_SIZE = 1000  # the API's largest page
SITE = "https://openreview.net"
_PRESENTATIONS = ("oral", "spotlight", "poster")
_STATUS = {"accepted": "", "rejected": "/Rejected_Submission", "withdrawn": "/Withdrawn_Submission"}


def venue_label(venue_id: str) -> tuple[str | None, int | None]:
    """("ICLR 2025", 2025) from `ICLR.cc/2025/Conference` (the first part without `.cc`/`.org`, the year)."""
    parts = venue_id.split("/")
    year = next((int(part) for part in parts if re.fullmatch(r"(19|20)\d\d", part)), None)
    name = re.sub(r"\.(cc|org|net|com)$", "", parts[0]) if parts and parts[0] else None
    if name and year:
        return f"{name} {year}", year
    return name, year


def parse_page(text: str) -> tuple[list[dict], int | None]:
    """(notes, count) of one answer of GET /notes. Raises ValueError when it is not that shape."""
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("notes"), list):
        raise ValueError("no list of notes")
    count = data.get("count")
    return data["notes"], count if isinstance(count, int) else None


def _value(content: dict, *keys: str) -> object:
    for key in keys:
        value = content.get(key)
        if isinstance(value, dict) and "value" in value:
            value = value["value"]
        if value not in (None, "", [], {}):
            return value
    return None


def note_record(note: dict, status: str, venue_id: str, source: str) -> PaperRecord:
    """One submission note → a PaperRecord (see the module docstring). `status`: accepted, rejected, withdrawn."""
    content = note.get("content") if isinstance(note.get("content"), dict) else {}
    note_id = clean(note.get("forum")) or clean(note.get("id"))
    venue, year = venue_label(clean(_value(content, "venueid")) or venue_id)
    shown = clean(_value(content, "venue")) or ""  # "ICLR 2025 Oral", "Submitted to ICLR 2025"
    presentation = next((word for word in _PRESENTATIONS if word in shown.lower()), None)
    if status == "accepted":
        decision = f"Accept ({presentation.capitalize()})" if presentation else "Accept"
    else:
        decision = "Reject" if status == "rejected" else "Withdrawn"
        presentation = None
    pdf = clean(_value(content, "pdf"))
    if pdf and pdf.startswith("/"):
        pdf = SITE + pdf
    forum = f"{SITE}/forum?id={note_id}" if note_id else None
    authors = _value(content, "authors")
    keywords = _value(content, "keywords")
    extra = {"decision": decision, "presentation": presentation,
             "tldr": clean(_value(content, "TLDR", "TL;DR", "tldr")), "pdf": pdf, "forum": forum,
             "session": clean(_value(content, "session")), "venue_id": venue_id}
    return PaperRecord(
        title=clean(_value(content, "title")), abstract=clean(_value(content, "abstract")) or "",
        authors=[name for name in (clean(a) for a in authors) if name] if isinstance(authors, list) else [],
        venue=venue, year=year or year_of(note.get("pdate")), url=forum,
        doi=norm_doi(_value(content, "doi")), arxiv_id=norm_arxiv(_value(content, "arxiv", "arxiv_id")),
        openreview_id=note_id,
        keywords=[k for k in (clean(k) for k in keywords) if k] if isinstance(keywords, list) else [],
        extra={key: value for key, value in extra.items() if value}, source=source)


def fetch_venue(client: Client, venue_id: str, statuses: tuple[str, ...] = ("accepted",),
                progress: Callable[[int, int | None], None] | None = None,
                page_size: int = PAGE_SIZE) -> list[PaperRecord]:
    """The venue's papers of each status (accepted; rejected and withdrawn when asked), in the API's order.
    Raises FetchError (db.fetch.http) when a page cannot be had; nothing is returned then."""
    venue_id = venue_id.strip().strip("/")
    records: list[PaperRecord] = []
    seen: set = set()
    for status in statuses:
        offset = 0
        while True:
            params = {"content.venueid": venue_id + _STATUS[status], "limit": page_size, "offset": offset}
            notes, count = client.get("notes", params, parse_page)
            fresh = [note for note in notes if isinstance(note, dict) and note.get("id") not in seen]
            seen.update(note.get("id") for note in fresh)
            records += [note_record(note, status, venue_id, f"openreview:{venue_id}") for note in fresh]
            offset += len(notes)
            if progress:
                progress(len(records), None)
            # `count` says how many there are (a page may hold fewer than asked for); without it a short page ends;
            # a page of notes already seen means the server ignored `offset`
            if not fresh or (offset >= count if count is not None else len(notes) < page_size):
                break
    return records


def fetch_note(client: Client, note_id: str) -> list[PaperRecord]:
    """One paper by its OpenReview id (a forum id, or a forum/pdf URL): `GET /notes?id=ID`. Its decision is
    taken as accepted when its venue id has no Rejected/Withdrawn ending."""
    match = re.search(r"[?&]id=([\w\-]+)", note_id)
    note_id = match.group(1) if match else note_id.strip()
    notes, _count = client.get("notes", {"id": note_id}, parse_page)
    records = []
    for note in notes:
        content = note.get("content") if isinstance(note, dict) and isinstance(note.get("content"), dict) else {}
        venue_id = clean(_value(content, "venueid")) or ""
        status = next((name for name, end in _STATUS.items() if end and venue_id.endswith(end)), "accepted")
        base = venue_id.removesuffix(_STATUS[status]) if status != "accepted" else venue_id
        records.append(note_record(note, status, base, f"openreview:{note_id}"))
    return records
