"""JSON and JSON Lines paper lists: conference dumps, OpenReview notes, anything with title/abstract keys.

Shapes read (keys are matched case-insensitively):
- an array of paper objects (papercopilot `paperlists`: `title`, `author` "A; B", `abstract`, `site`,
  `keywords` "a;b", `id`), one object, JSON Lines (one object per line), or concatenated objects;
- containers holding such lists (`{"venue": "NIPS.cc", "year": 2018, "submissions": [...]}` from
  OpenReviewCrawler, `{"notes": [...]}` from the OpenReview API, `papers`/`items`/`records`/`data`/`results`);
- OpenReview notes: fields under `content`, values bare (API v1) or wrapped as `{"value": …}` (API v2).
A `title_source` "derived" (or CSL `custom.title_source`, as Margin's exports write it) marks the title as
Margin's label for an untitled paper: it is read as no title.

`load_values` raises InputError(path, line) for JSON that does not parse or is nested too deeply for Python's
parser (the recursion limit, about 1000 levels: `[[[[…]]]]`); a bad line of a JSON Lines file is skipped and
reported instead. Sources: RFC 8259, https://jsonlines.org, docs.openreview.net (note objects).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from db.errors import InputError
from db.formats.common import (
    DERIVED,
    LineIndex,
    Skipped,
    clean,
    finish,
    norm_arxiv,
    norm_doi,
    split_list,
    venue_from_filename,
    year_of,
)
from db.formats.csl_json import derived_title
from db.paper import PaperRecord
from db.text.names import display_name, split_author_text

_WS = re.compile(r"\s*")
_CONTAINERS = ("submissions", "notes", "papers", "items", "records", "data", "results", "entries", "accepted")
_PAPER_KEYS = {"title", "abstract", "summary"}
_DECODER = json.JSONDecoder(strict=False)
TOO_DEEP = "JSON nested too deeply to read"


def _decode(text: str, index: int, path: Path, lines: LineIndex) -> tuple[object, int]:
    """_DECODER.raw_decode at `index`; InputError at that value's line when it is nested too deeply."""
    try:
        return _DECODER.raw_decode(text, index)
    except RecursionError:
        raise InputError(path, TOO_DEEP, line=lines.line(index)) from None


def looks_like_json(text: str) -> bool:
    """True when the first non-blank character opens a JSON array or object."""
    head = text.lstrip("\ufeff \t\r\n")[:1]
    return head in ("[", "{")


def load_values(text: str, path: Path) -> tuple[Iterable[tuple[int, object]], list[Skipped], str]:
    """Top-level JSON values with their 1-based start lines, skipped lines, and "json" or "jsonl". The values of
    an array are parsed as they are iterated (InputError then)."""
    lines = LineIndex(text)
    start = _WS.match(text).end()
    try:
        if text.startswith("[", start):
            return _array(text, start, lines, path), [], "json"
        first, end = _decode(text, start, path, lines)
    except json.JSONDecodeError as error:
        raise InputError(path, _unparsed(error, text), line=error.lineno) from None
    rest = _WS.match(text, end).end()
    if rest >= len(text):
        return [(lines.line(start), first)], [], "json"
    if lines.line(end) == lines.line(start):
        return _json_lines(text, path)
    values = [(lines.line(start), first)]
    try:
        while rest < len(text):
            value, end = _decode(text, rest, path, lines)
            values.append((lines.line(rest), value))
            rest = _WS.match(text, end).end()
    except json.JSONDecodeError as error:
        raise InputError(path, _unparsed(error, text), line=error.lineno) from None
    return values, [], "json"


def _unparsed(error: json.JSONDecodeError, text: str) -> str:
    """The message for JSON that does not parse, as a whole sentence: where, and that a file which ends inside a
    value was probably cut short (Python's messages end in "…starting at", the position being a separate field)."""
    where = f"{error.msg[0].lower()}{error.msg[1:]} line {error.lineno}, column {error.colno}"
    if not error.msg.endswith(" at"):
        where = f"{error.msg[0].lower()}{error.msg[1:]} at line {error.lineno}, column {error.colno}"
    ends_inside = error.msg.startswith("Unterminated string") or not text[error.pos:].strip()
    cut = "; the file ends inside a value: it may have been cut short" if ends_inside else ""
    return f"JSON that does not parse ({where}{cut})"


def _array(text: str, start: int, lines: LineIndex, path: Path) -> Iterator[tuple[int, object]]:
    """The values of the array at `start`, one at a time as they are parsed (a list of 100,000 papers is not
    held as parsed objects all at once); InputError when the rest does not parse."""
    try:
        index = _WS.match(text, start + 1).end()
        if text.startswith("]", index):
            index += 1
        else:
            while True:
                value, end = _decode(text, index, path, lines)
                yield lines.line(index), value
                del value
                index = _WS.match(text, end).end()
                if text.startswith(",", index):
                    index = _WS.match(text, index + 1).end()
                    continue
                if text.startswith("]", index):
                    index += 1
                    break
                raise json.JSONDecodeError("expected ',' or ']'", text, index)
        index = _WS.match(text, index).end()
        if index < len(text):
            raise json.JSONDecodeError("extra data after the array", text, index)
    except json.JSONDecodeError as error:
        raise InputError(path, _unparsed(error, text), line=error.lineno) from None


def _json_lines(text: str, path: Path) -> tuple[list[tuple[int, object]], list[Skipped], str]:
    values: list[tuple[int, object]] = []
    skipped: list[Skipped] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            values.append((number, _DECODER.decode(line.strip())))
        except json.JSONDecodeError as error:
            joint = " " if error.msg.endswith(" at") else " at "
            skipped.append((number, f"a line that is not valid JSON ({error.msg}{joint}column {error.colno})"))
        except RecursionError:
            skipped.append((number, f"a line of {TOO_DEEP}"))
    if not values:
        raise InputError(path, "JSON that does not parse (no line holds a JSON value)", line=1)
    return values, skipped, "jsonl"


def paper_objects(values: list[tuple[int, object]]) -> Iterator[tuple[int, dict | None, dict]]:
    """Yield (line, paper object or None for a value that is not a paper, context) for every value.

    `context` holds `venue`/`year` inherited from a container object.
    """
    for line, value in values:
        yield from _walk(value, line, {})


def _walk(value: object, line: int, context: dict) -> Iterator[tuple[int, dict | None, dict]]:
    if isinstance(value, list):
        for item in value:
            yield from _walk(item, line, context)
        return
    if not isinstance(value, dict):
        yield line, None, context
        return
    keys = {str(key).lower() for key in value}
    content = value.get("content")
    if keys & _PAPER_KEYS or (isinstance(content, dict) and {str(k).lower() for k in content} & _PAPER_KEYS):
        yield line, value, context
        return
    lists = [value[key] for key in value if str(key).lower() in _CONTAINERS and isinstance(value[key], list)]
    if not lists:
        yield line, None, context
        return
    inner = dict(context)
    venue, year = clean(_unwrap(value.get("venue"))), year_of(_unwrap(value.get("year")))
    if venue:
        inner["venue"] = venue
    if year:
        inner["year"] = year
    for items in lists:
        yield from _walk(items, line, inner)


def _unwrap(value: object) -> object:
    """OpenReview API v2 wraps every content value as {"value": …}."""
    if isinstance(value, dict) and "value" in value:
        return value["value"]
    return value


def _flatten(obj: dict) -> dict:
    flat = {str(key).lower(): _unwrap(value) for key, value in obj.items()}
    content = obj.get("content")
    if isinstance(content, dict):
        flat.update({str(key).lower(): _unwrap(value) for key, value in content.items()})
        flat["_note"] = True
    return flat


def _first(flat: dict, *keys: str) -> object:
    for key in keys:
        value = flat.get(key)
        if value not in (None, "", [], {}):
            return value
    return None


def _authors(value: object) -> list[str]:
    if isinstance(value, list):
        names = []
        for item in value:
            if isinstance(item, dict):
                item = {str(k).lower(): v for k, v in item.items()}
                name = item.get("name") or item.get("literal") or " ".join(
                    str(part) for part in (item.get("given") or item.get("firstname"),
                                           item.get("family") or item.get("lastname")) if part)
                names.append(display_name(str(name)) if name else None)
            else:
                names.append(display_name(str(item)) if clean(item) else None)
        return [name for name in names if name]
    return split_author_text(clean(value))


_DECISION_KEYS = ("decision", "status", "recommendation", "venue_status")
_NOT_DECISIONS = {"active", "main", ""}


def _decision(obj: dict, flat: dict) -> str | None:
    """An OpenReview / paper-list decision: `decision`/`status` ("Reject", "Poster", "Withdraw"), a reply note
    whose content holds `decision`, else "Workshop" for a submission to a workshop invitation."""
    for key in _DECISION_KEYS:
        value = clean(flat.get(key))
        if value and value.lower() not in _NOT_DECISIONS:
            return value
    for note in obj.get("notes") or [] if isinstance(obj.get("notes"), list) else []:
        content = note.get("content") if isinstance(note, dict) else None
        if isinstance(content, dict) and clean(_unwrap(content.get("decision"))):
            return clean(_unwrap(content.get("decision")))
    if "/workshop/" in str(obj.get("invitation") or "").lower():
        return "Workshop"
    return None


_EXTRA = {"pages": ("pages", "page"), "volume": ("volume",), "issue": ("issue", "number_in_volume"),
          "publisher": ("publisher",), "isbn": ("isbn",), "issn": ("issn",), "language": ("language", "lang"),
          "type": ("entry_type", "bibtex_type")}


def _extra(obj: dict, flat: dict) -> dict:
    extra: dict = {}
    for key, names in _EXTRA.items():
        value = clean(_first(flat, *names))
        if value and not (key == "issue" and flat.get("_note")):
            extra[key] = value
    decision = _decision(obj, flat)
    if decision:
        extra["decision"] = decision
    return extra


def _year(flat: dict) -> int | None:
    year = year_of(_first(flat, "year", "publication_year", "date", "published", "publication_date"))
    if year:
        return year
    for key in ("pdate", "odate", "cdate", "tcdate"):
        stamp = flat.get(key)
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and stamp > 10**11:
            return datetime.fromtimestamp(stamp / 1000, tz=UTC).year
    return None


def _venue(value: object, year: int | None) -> str | None:
    venue = clean(value)
    if not venue:
        return None
    venue = re.sub(r"\.cc$", "", venue)
    if year and not re.search(r"\d{4}", venue) and len(venue) <= 20:
        venue = f"{venue} {year}"
    return venue


def record_from_object(obj: dict, line: int, context: dict, path: Path) -> PaperRecord:
    """Map one paper object (see module docstring) onto a PaperRecord; missing fields stay empty."""
    flat = _flatten(obj)
    file_venue, file_year = venue_from_filename(path)
    year = _year(flat) or context.get("year") or file_year
    venue = _venue(_first(flat, "venue", "conference", "booktitle", "journal", "container-title",
                          "publication", "venue_name"), year) or _venue(context.get("venue"), year) or file_venue
    url = clean(_first(flat, "url", "site", "link", "html_url", "abs_url"))
    openreview = clean(_first(flat, "openreview_id", "openreview"))
    if flat.get("_note"):
        openreview = openreview or clean(flat.get("forum")) or clean(flat.get("id"))
        url = url or (f"https://openreview.net/forum?id={openreview}" if openreview else None)
    if openreview and "/" in openreview:
        openreview = None
    derived = derived_title(obj) or str(flat.get("title_source", "")).strip().lower() == DERIVED
    return PaperRecord(
        title=None if derived else clean(flat.get("title")),
        abstract=clean(_first(flat, "abstract", "summary", "abstractnote", "description")) or "",
        authors=_authors(_first(flat, "authors", "author", "creators")),
        venue=venue, year=year, url=url,
        doi=norm_doi(flat.get("doi")),
        arxiv_id=norm_arxiv(_first(flat, "arxiv_id", "arxiv", "arxivid", "eprint")),
        openreview_id=openreview,
        keywords=split_list(_first(flat, "keywords", "keyword", "subjects"), ";,"),
        extra=_extra(obj, flat), source=path.name, line=line,
    )


def read(text: str, path: Path, records: list[PaperRecord] | None = None,
         ) -> tuple[list[PaperRecord], list[Skipped], str]:
    """Records of a JSON / JSON Lines paper list, skipped (line, reason), and "json" or "jsonl". `records`: a
    list (or db.formats.spool.RecordSpool) the records are appended to as they are read, returned."""
    values, skipped, kind = load_values(text, path)
    return read_values(values, skipped, kind, path, records)


def read_values(values: Iterable[tuple[int, object]], skipped: list[Skipped], kind: str, path: Path,
                records: list[PaperRecord] | None = None) -> tuple[list[PaperRecord], list[Skipped], str]:
    """`read` of values already parsed (or parsed as they are iterated: db.formats.json_stream), with their
    start lines: (records, skipped, kind), "csl-json" when every record was a CSL item."""
    from db.formats import csl_json

    records = [] if records is None else records
    before = len(records)
    csl = 0
    if isinstance(values, list):
        values = _letting_go(values)
    for line_and_value in values:  # each parsed value is let go once it is records (not all of them held twice)
        try:  # _walk recurses into nested lists: a value the parser just managed can still be too deep for it
            objects = list(paper_objects([line_and_value]))
        except RecursionError:
            raise InputError(path, TOO_DEEP, line=line_and_value[0]) from None
        del line_and_value
        for line, obj, context in objects:
            if obj is None:
                skipped.append((line, "a JSON value that is not a paper (no title or abstract)"))
            elif csl_json.is_csl(obj):
                csl += 1
                finish(csl_json.record_from_csl(obj, line, path), skipped, records)
            else:
                finish(record_from_object(obj, line, context, path), skipped, records)
    if csl and csl == len(records) - before:
        kind = "csl-json"
    return records, skipped, kind


def _letting_go(values: list) -> Iterator:
    for index, value in enumerate(values):
        values[index] = None
        yield value
