"""RIS files (EndNote, Zotero, Mendeley, publishers' "export citation"), read with `rispy`.

Shape: records from `TY  - …` to `ER  -`; tags `TI`/`T1` title, `AB`/`N2` abstract, `AU`/`A1` authors
(`Last, First`), `T2`/`JO`/`JF`/`BT` venue, `PY`/`Y1`/`DA` year, `DO` DOI, `UR` URLs, `KW` keywords.
An `N1` line saying the title is devised (Margin's RIS export of an untitled paper: common.RIS_DEVISED_NOTE) makes
the title absent. Continuation lines (a line without a tag) belong to the previous tag's value. The text is cut
into records at each `TY` line before rispy parses it, so every record has its line and one broken record
(no `ER`, junk) cannot swallow the next; the last record without its `ER` is a file cut off inside it, skipped
and named (a half abstract is not imported). Sources: RIS spec (Research Information Systems, 2011 RefMan format),
rispy docs (github.com/MrTango/rispy).
"""

from __future__ import annotations

import re
from pathlib import Path

import rispy

from db.formats.common import (
    RIS_DEVISED_NOTE,
    Skipped,
    clean,
    finish,
    first_line,
    norm_arxiv,
    norm_doi,
    openreview_from_url,
    split_list,
    year_of,
)
from db.paper import PaperRecord
from db.text.names import display_name

# A record starts at a `TY` tag; `TY -  BOOK` (one space, as some exporters write the first line) too, as rispy
# reads it
_TY = re.compile(r"^\ufeff?TY {0,2}-", re.MULTILINE)
_TY_LINE = re.compile(r"^TY {0,2}- *")
_TAG = re.compile(r"^[A-Z][A-Z0-9]  -( |$)")
_ER = re.compile(r"^ER  -\s*$")


def looks_like_ris(text: str) -> bool:
    """True when some line starts a record with `TY  - `."""
    return bool(_TY.search(text))


def starts_like_ris(text: str) -> bool:
    """True when the first line that is not blank starts a record with `TY  - `."""
    return looks_like_ris(first_line(text))


def read(text: str, path: Path) -> tuple[list[PaperRecord], list[Skipped], str]:
    """Records of an RIS file and skipped (line, reason)."""
    lines = text.lstrip("\ufeff").split("\n")
    starts = [i for i, line in enumerate(lines) if _TY_LINE.match(line)]
    records: list[PaperRecord] = []
    skipped: list[Skipped] = []
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(lines)
        chunk = [line.rstrip() for line in lines[start:end]]
        chunk[0] = _TY_LINE.sub("TY  - ", chunk[0])
        if not any(_ER.match(line + " ") for line in chunk):
            if number == len(starts) - 1:  # the last record: the file was cut off inside it
                skipped.append((start + 1, "the file ends inside this record (no `ER` line; cut short?): not "
                                           "imported"))
                continue
            chunk.append("ER  - ")
        else:
            chunk = chunk[: next(i for i, line in enumerate(chunk) if _ER.match(line + " ")) + 1]
        try:
            entries = rispy.loads("\n".join(chunk) + "\n", skip_unknown_tags=True)
        except Exception as error:  # rispy raises plain IOError/ValueError on malformed records
            skipped.append((start + 1, f"a record that could not be parsed ({clean(str(error)) or 'syntax'})"))
            continue
        if not entries:
            skipped.append((start + 1, "a record that could not be parsed"))
            continue
        finish(_record(entries[0], start + 1, path), skipped, records)
    return records, skipped, "ris"


def _first(entry: dict, *keys: str) -> object:
    for key in keys:
        value = entry.get(key)
        if isinstance(value, list):
            value = value[0] if value else None
        if value not in (None, ""):
            return value
    return None


def _record(entry: dict, line: int, path: Path) -> PaperRecord:
    urls = [url for url in (clean(u) for u in entry.get("urls") or []) if url]
    authors = list(entry.get("authors") or []) + list(entry.get("first_authors") or [])
    doi = norm_doi(entry.get("doi"))
    arxiv = next((norm_arxiv(u) for u in urls if "arxiv.org" in u), None)
    if not arxiv and doi and doi.lower().startswith("10.48550/arxiv."):
        arxiv = norm_arxiv(doi.split(".", 2)[2])
    devised = any(clean(note) == RIS_DEVISED_NOTE for note in entry.get("notes") or [])
    return PaperRecord(
        title=None if devised else clean(_first(entry, "title", "primary_title", "translated_title", "short_title")),
        abstract=clean(_first(entry, "abstract", "notes_abstract")) or "",
        authors=[display_name(_bibtex_order(name)) for name in dict.fromkeys(a for a in authors if clean(a))],
        venue=clean(_first(entry, "secondary_title", "journal_name", "alternate_title3", "alternate_title1",
                           "alternate_title2", "tertiary_title")),
        year=year_of(_first(entry, "year", "publication_year", "date")),
        url=urls[0] if urls else None, doi=doi, arxiv_id=arxiv,
        openreview_id=next((openreview_from_url(u) for u in urls if "openreview.net" in u), None),
        keywords=_keywords(entry.get("keywords") or []),
        extra=_extra(entry), source=path.name, line=line,
    )


def _keywords(lines: list) -> list[str]:
    """The record's keywords: one per `KW` line, as rispy and the RIS specification read them; a record with a
    single `KW` line holding `;` (some exporters pack the list into one line) is split on it. (Split always,
    a keyword such as `b;c` that Margin's own export wrote on a line of its own came back as two.)"""
    words = [str(line) for line in lines if clean(line)]
    if len(words) == 1:
        return split_list(words[0], ";")
    return [clean(word) for word in words]


_SUFFIX = re.compile(r"^(?:jr|sr|[ivx]+|\d+(?:st|nd|rd|th))\.?$", re.IGNORECASE)


def _bibtex_order(name: str) -> str:
    """RIS's `Last, First, Suffix` (`Ford, Henry, Jr.`, as the specification and Margin's export write it) in
    BibTeX's `Last, Suffix, First`, which the name parser reads; other names as they are."""
    parts = [part.strip() for part in name.split(",")]
    if len(parts) == 3 and _SUFFIX.match(parts[2]) and not _SUFFIX.match(parts[1]):
        return f"{parts[0]}, {parts[2]}, {parts[1]}"
    return name


# RIS reference types in BibTeX's words (db.paper.EXTRA_KEYS `type`); others are `misc`
TYPES = {"JOUR": "article", "JFULL": "article", "MGZN": "article", "NEWS": "article", "EJOUR": "article",
         "BOOK": "book", "EBOOK": "book", "EDBOOK": "book", "CHAP": "incollection", "ECHAP": "incollection",
         "CONF": "inproceedings", "CPAPER": "inproceedings", "THES": "phdthesis", "RPRT": "techreport",
         "UNPB": "unpublished", "MANSCPT": "unpublished", "ELEC": "online", "WEB": "online", "GEN": "misc"}
_EXTRA = {"pages": ("start_page", "end_page"), "volume": ("volume",), "issue": ("number", "issue"),
          "publisher": ("publisher",), "isbn": ("issn",), "language": ("language",), "address": ("place_published",),
          "edition": ("edition",)}


def _extra(entry: dict) -> dict:
    kind = re.sub(r"\s+", " ", str(entry.get("type_of_reference") or "")).split(" ")[-1].upper()
    extra: dict = {"type": TYPES.get(kind, "misc")}
    start, end = clean(entry.get("start_page")), clean(entry.get("end_page"))
    if start:
        extra["pages"] = f"{start}-{end}" if end else start
    for key, tags in _EXTRA.items():
        if key == "pages":
            continue
        value = clean(_first(entry, *tags))
        if value:
            extra[key] = value
    if "isbn" in extra:  # RIS's SN holds an ISSN for a journal, an ISBN for a book
        if extra["type"] == "article":
            extra["issn"] = extra.pop("isbn")
    editors = [display_name(name) for name in entry.get("secondary_authors") or [] if clean(name)]
    if editors:
        extra["editors"] = editors
    return extra
