"""What a user's note, title and tag are stored as: C0 control characters and bidirectional overrides removed,
and for titles and tags NFC with whitespace collapsed and a length limit. `tag_key` is the key under which tags
are one and the same; `fit_record` brings an imported record within sane sizes. No Qt, no database: the library,
the import of backups, the query language and the window use these."""

from __future__ import annotations

import re

from db.paper import normalize_text

MAX_TITLE = 1000  # characters of a user's title (after cleaning)
MAX_TAG = 200  # characters of a tag
# Bidirectional embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI): kept, a title with
# U+202E shows "evil" as "live" and reorders everything after it (the "Trojan Source" spoofing, CVE-2021-42574).
BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")
_CONTROLS = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{BIDI_CONTROLS}]")


def strip_bidi(text: str) -> str:
    """`text` without bidirectional embedding, override and isolate controls (U+202A–202E, U+2066–2069), so it
    reads in the order it is stored. The one place every shown or written text goes through for this: storage
    (notes, titles, tags, imported records), the reader and note preview, list labels and export file names."""
    return text if not text or text.isascii() else _BIDI.sub("", text)  # (the controls are not ASCII)


FSI, PDI = "\u2068", "\u2069"  # FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE
_ISOLATE_EDGES = re.compile("[\u2068\u2069]")


def isolate(text: str) -> str:
    """`text` (one field a file or user wrote: an author, a venue, a tag, a query) as a bidirectional isolate
    (FSI … PDI), so that where a line is composed from several fields ("Ann Lee, דוד כהן · 2019") a right-to-left
    field keeps its own order and never reorders the fields, numbers and separators around it (the year landing
    inside the authors). Stored controls are removed first (strip_bidi), so the pair always closes; "" stays ""."""
    text = strip_bidi(text)
    return f"{FSI}{text}{PDI}" if text else ""


def strip_bidi_but_isolates(text: str) -> str:
    """`text` without bidirectional embeddings and overrides (strip_bidi), keeping the FSI … PDI pairs `isolate`
    put around fields; an FSI or PDI without its partner is removed. For a line composed of isolated fields: an
    isolate only ever keeps its text from reordering what is around it."""
    text = re.sub("[\u202a-\u202e\u2066\u2067]", "", text) if text else text
    if not text or (FSI not in text and PDI not in text):
        return text
    kept, opened = list(text), []
    for match in _ISOLATE_EDGES.finditer(text):
        if match.group() == FSI:
            opened.append(match.start())
        elif opened:
            opened.pop()
        else:
            kept[match.start()] = ""  # a PDI closing nothing
    for start in opened:  # an FSI never closed
        kept[start] = ""
    return "".join(kept)


def strip_controls(text: str) -> str:
    """`text` without C0 control characters other than tab, line feed and carriage return, and without
    bidirectional controls (strip_bidi).

    NUL, bell, escape and the like mean nothing in a note, title or tag; kept, they would go into every
    export, and an export holding a NUL is not a text file to any reader (Margin's import refuses it)."""
    return _CONTROLS.sub("", text)


def clean_note(note: str) -> str:
    """The note as stored: exactly as written, without C0 controls other than tab, LF and CR."""
    return strip_controls(note)


def clean_title(title: str | None) -> str | None:
    """The user's title as stored: C0 controls removed, NFC, whitespace collapsed; None when that leaves
    nothing. Raises ValueError when it is longer than MAX_TITLE characters."""
    cleaned = normalize_text(strip_controls(title or "")) or None
    if cleaned and len(cleaned) > MAX_TITLE:
        raise ValueError(f"a title can have at most {MAX_TITLE:,} characters (this one has {len(cleaned):,})")
    return cleaned


def tag_key(name: str) -> str:
    """The key under which tags are matched: C0 controls removed, NFC, case-folded, whitespace collapsed."""
    return normalize_text(strip_controls(name)).casefold()


def clean_tag(name: str) -> str:
    """Return the tag as stored (C0 controls removed, NFC, whitespace collapsed). Raises ValueError for an
    empty tag or one longer than MAX_TAG characters."""
    cleaned = normalize_text(strip_controls(name))
    if not cleaned:
        raise ValueError("a tag cannot be empty or only spaces")
    if len(cleaned) > MAX_TAG:
        raise ValueError(f"a tag can have at most {MAX_TAG} characters")
    return cleaned


def tags_text(tags: list[str] | tuple[str, ...], wrap=lambda tag: tag) -> str:
    """The tags as one line, `, ` between them; a tag holding a comma or a double quote is written as the query
    language quotes a value (`"deep learning, theory"`, inner quotes doubled), so it never reads as several.
    `wrap` is applied to each written tag (the window isolates each: bidi)."""
    return ", ".join(wrap('"' + tag.replace('"', '""') + '"' if ("," in tag or '"' in tag) else tag)
                     for tag in tags)


# Sizes a paper list's field may have (characters; counts for lists). Real values are far below: the longest
# abstract of the 4,000 real papers in ../shared/data/real has 2,393 characters, the longest title 153. A longer
# value is cut at import, with one line naming the record (`fit_record`), so an absurd file cannot make every
# later step (headline, match keys, index, the reader) work through megabytes.
MAX_ABSTRACT = 50_000
MAX_AUTHORS = 5_000  # names in one author list
MAX_NAME = 300  # characters of one author, keyword or editor
MAX_KEYWORDS = 500
MAX_FIELD = 2_000  # venue, url, doi, ids and the other bibliographic fields
MAX_NOTE = 10_000_000  # a note restored from a Margin JSON file; a longer one is refused, not cut


def _cut(text: str | None, limit: int, name: str, said: list[str]) -> str | None:
    if text is not None and len(text) > limit:
        said.append(f"{name} cut to {limit:,} characters (it had {len(text):,})")
        return text[:limit]
    return text


def fit_record(record) -> list[str]:
    """Bring a db.paper.PaperRecord within the sizes above and remove bidirectional controls (strip_bidi), in
    place. Returns what was cut, one phrase per field ("abstract cut to 50,000 characters (it had 5,400,000)");
    empty when nothing was."""
    said: list[str] = []
    record.title = _cut(strip_bidi(record.title), MAX_TITLE, "title", said)
    record.abstract = _cut(strip_bidi(record.abstract), MAX_ABSTRACT, "abstract", said) or ""
    for name in ("venue", "url", "doi", "arxiv_id", "openreview_id"):
        setattr(record, name, _cut(strip_bidi(getattr(record, name)), MAX_FIELD, name, said))
    for name, limit in (("authors", MAX_AUTHORS), ("keywords", MAX_KEYWORDS)):
        values = getattr(record, name)
        if len(values) > limit:
            said.append(f"{name} cut to the first {limit:,} (of {len(values):,})")
        long = [value for value in values[:limit] if len(value) > MAX_NAME]
        if long:
            said.append(f"{len(long):,} of its {name} cut to {MAX_NAME} characters")
        setattr(record, name, [strip_bidi(value[:MAX_NAME]) for value in values[:limit]])
    for key, value in list(record.extra.items()):
        if isinstance(value, str):
            record.extra[key] = _cut(strip_bidi(value), MAX_FIELD, key, said)
        elif isinstance(value, list):
            record.extra[key] = [strip_bidi(str(item))[:MAX_NAME] for item in value[:MAX_AUTHORS]]
    return said
