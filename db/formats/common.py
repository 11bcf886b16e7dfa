"""Small helpers shared by the format readers: text cleaning, years, names, identifiers, line numbers.

Nothing here raises; every helper returns None (or an empty list) for values it cannot use.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from pathlib import Path

from db.paper import PaperRecord
from db.text.cleaning import BIDI_CONTROLS

Skipped = tuple[int | None, str]
NO_CONTENT = "a record with neither title nor abstract"
DERIVED = "derived"  # Margin's exports mark a title that is its derived label, not a real title, with this
# RIS has no field for it: Margin's RIS export writes such a title in square brackets (a devised title, as
# cataloguers write one) and this note line, which Margin's RIS reader takes to mean "no title"
RIS_DEVISED_NOTE = "Margin: the paper has no title; TI is a title devised from its abstract"

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f" + BIDI_CONTROLS + "]")  # bidi: cleaning.strip_bidi
_SPACES = re.compile(r"[ \t\r\f\v]+")
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d|21\d\d)(?!\d)")
_DOI = re.compile(r"10\.\d{4,9}/\S+")
_ARXIV_NEW = re.compile(r"(?<![\w.])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d])")
_ARXIV_OLD = re.compile(r"(?<![\w.])([a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?", re.IGNORECASE)
_OPENREVIEW_URL = re.compile(r"openreview\.net/(?:forum|pdf)\?(?:.*&)?id=([\w\-]+)")
_FILE_VENUE = re.compile(r"^([A-Za-z][A-Za-z\-]*?)[_\- ]?((?:19|20)\d\d)(?:\b|_|$)")


def strip_controls(text: str) -> str:
    """`text` without C0/C1 control characters (tab, newline and carriage return are kept) and bidirectional
    overrides (db.text.cleaning.strip_bidi)."""
    return _CONTROL.sub("", text)


def first_line(text: str) -> str:
    """The first line of `text` (without a leading BOM) that is not blank, without its newline; "" when none.
    Reads only as far as that line, so sniffing a large file does not split all of it."""
    text = text.lstrip("\ufeff")
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if text[start:end].strip():
            return text[start:end]
        start = end + 1
    return ""


def clean(value: object) -> str | None:
    """A field value as clean one-paragraph text (controls removed, whitespace collapsed), or None if empty."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        value = str(value)
    if not isinstance(value, str):
        return None
    text = " ".join(_CONTROL.sub(" ", unicodedata.normalize("NFC", value)).split())
    return text or None


def year_of(value: object) -> int | None:
    """The first plausible year (1500..2199) in an int, a string (`2018`, `2018-02-15`) or a date-parts list."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value if 1500 <= value <= 2199 else None
    if isinstance(value, (list, tuple)):
        return year_of(value[0]) if value else None
    match = _YEAR.search(str(value))
    return int(match.group(1)) if match else None


def split_list(value: object, separators: str = ";,") -> list[str]:
    """Split a keyword/author string on the first separator in `separators` that occurs; lists pass through."""
    if isinstance(value, (list, tuple)):
        items = [clean(item) for item in value]
        return [item for item in items if item]
    text = clean(value)
    if not text:
        return []
    for separator in separators:
        if separator in text:
            return [part for part in (clean(p) for p in text.split(separator)) if part]
    return [text]


def split_outside_braces(text: str, separator: str) -> list[str]:
    """`text` split on `separator` where it stands outside braces (`a, {b, c}` on "," → ["a", " {b, c}"]);
    the pieces as they are (not stripped)."""
    pieces, depth, current = [], 0, []
    for char in text:
        depth += (char == "{") - (char == "}")
        if char == separator and depth == 0:
            pieces.append("".join(current))
            current = []
        else:
            current.append(char)
    pieces.append("".join(current))
    return pieces


def split_keywords(raw: str) -> list[str]:
    """Keywords of a BibTeX `keywords` field: split on `,` outside braces (else on `;`); a keyword in braces
    (`{a, b}`, as Margin writes a tag with a comma) is one keyword."""
    for separator in (",", ";"):
        pieces = split_outside_braces(raw, separator)
        if len(pieces) > 1 or separator == ";":
            return [piece.strip() for piece in pieces if piece.strip()]
    return []


def split_protected(value: object, separators: str = ";,") -> list[str]:
    """`split_list`, but a separator inside braces does not split, and a piece wholly in braces loses them
    (`a; {b; c}` → ["a", "b; c"]: how Margin's CSV writes a keyword holding a `;`)."""
    text = clean(value) if not isinstance(value, (list, tuple)) else None
    if text is None or "{" not in text:
        return split_list(value, separators)
    for separator in separators:
        pieces = split_outside_braces(text, separator)
        if len(pieces) > 1:
            break
    out = []
    for piece in (clean(piece) for piece in pieces):
        if piece and piece.startswith("{") and piece.endswith("}") and piece.count("{") == 1:
            piece = clean(piece[1:-1])
        if piece:
            out.append(piece)
    return out


def norm_doi(value: object) -> str | None:
    """A DOI as written, without `https://doi.org/` or `doi:`, or None."""
    text = clean(value)
    if not text:
        return None
    match = _DOI.search(text)
    return match.group(0).rstrip(".,;") if match else None


def norm_arxiv(value: object) -> str | None:
    """An arXiv id without version (`1502.01852`, `cond-mat/0412498`) from an id, `arXiv:…` or a URL."""
    text = clean(value)
    if not text:
        return None
    text = re.sub(r"^arxiv:\s*", "", text, flags=re.IGNORECASE)
    match = _ARXIV_NEW.search(text) or _ARXIV_OLD.search(text)
    return match.group(1) if match else None


def arxiv_from_url(url: str | None) -> str | None:
    """The arXiv id of an arxiv.org abs/pdf URL, else None."""
    if url and "arxiv.org/" in url:
        return norm_arxiv(url.split("arxiv.org/", 1)[1].split("/", 1)[-1])
    return None


def openreview_from_url(url: str | None) -> str | None:
    """The note id of an openreview.net forum/pdf URL, else None."""
    match = _OPENREVIEW_URL.search(url or "")
    return match.group(1) if match else None


def venue_from_filename(path: Path) -> tuple[str | None, int | None]:
    """(`ICLR 2018`, 2018) from a file named like `iclr2018.json` or `neurips_2019.csv`; else (None, None)."""
    match = _FILE_VENUE.match(path.stem)
    if not match or len(match.group(1)) > 12:
        return None, None
    return f"{match.group(1).upper()} {match.group(2)}", int(match.group(2))


class LineIndex:
    """Maps character offsets of a text to 1-based line numbers."""

    def __init__(self, text: str):
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)


def finish(record: PaperRecord, skipped: list[Skipped], records: list[PaperRecord]) -> None:
    """Append `record` to `records` when it has a title or an abstract — or, without both, a DOI or authors with a
    year, when it gets a title made of those (`stand_in_title`) — else report it in `skipped`."""
    if not (record.title or record.abstract):
        record.title = stand_in_title(record)
    if not (record.title or record.abstract):
        skipped.append((record.line, NO_CONTENT))
        return
    if not record.arxiv_id:
        record.arxiv_id = arxiv_from_url(record.url)
    if not record.openreview_id:
        record.openreview_id = openreview_from_url(record.url)
    records.append(record)


def stand_in_title(record: PaperRecord) -> str | None:
    """A title for a record that has neither title nor abstract, from what it has: `Smith et al. · Nature · 2020`
    (first author's family name, venue, year) when it names authors and a year, else `DOI 10.1234/abc`;
    None when it has too little to tell papers apart. Such a record (a JabRef article without title, a RIS record
    with only a DOI) is kept, not skipped."""
    if record.authors and record.year:
        first = record.authors[0].split(",")[0].split()[-1] if record.authors[0].strip() else ""
        who = f"{first} et al." if len(record.authors) > 1 else first
        return " · ".join(str(part) for part in (who, record.venue, record.year) if part) or None
    return f"DOI {record.doi}" if record.doi else None
