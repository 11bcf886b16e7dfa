"""BibTeX and BibLaTeX files as proceedings (PMLR), Zotero/Better BibTeX, JabRef and Mendeley write them.

Split into blocks by bibtexparser v2 (no middleware); values are resolved here (`resolve_value`: `{…}`, `"…"`,
numbers, @string names and `#` concatenation, which bibtexparser leaves as written; the month macros `jan`…
`dec` are predefined). An entry with an empty or repeated citation key is read like any other (bibtexparser
keeps it as the parsed entry of a DuplicateBlockKeyBlock). Field values then go from TeX to Unicode with
pylatexenc (`{\\"o}` → ö, `{{…}}` protection removed, `\\%` → %, `--` → –, `{\\textbraceleft}` → `{`); `$…$`
math is kept verbatim so the abstract renderer can show it. A raw `%` (a comment in TeX, but common in exported
abstracts) is kept as text. Year from `year`, else BibLaTeX `date` (`2015-02-06`). Venue from
`booktitle`/`journal`/`journaltitle`/`eventtitle`; an entry with a `crossref` takes the fields it lacks from
the entry it names (a `@proceedings`' title becomes its papers' booktitle, `shortname` + `year` as PMLR writes
it); an `@inproceedings` with neither takes the venue and year of the file's only `@proceedings` before it.
Authors and editors go through db.text.names (BibTeX's name rules). The other fields Margin keeps are in
`PaperRecord.extra` (db.paper.EXTRA_KEYS). arXiv id from `eprint` (with `archiveprefix`/`eprinttype` arXiv) or
an arxiv.org URL; OpenReview id from `openreview` or the URL. `%5C %7B %7D` in a DOI (and in a URL of
Margin's export) are `\\ { }` again. Margin's own export: `x-margin-id` is the paper's id (the import matches
it first); `x-margin-title-source = {derived}` makes the title absent, `{user}` takes `x-margin-file-title` for
the title; `x-margin-keywords` replaces `keywords` (which holds the user's tags too); `x-margin-decision` is the
decision. An entry bibtexparser cannot parse (an unclosed brace) is skipped and reported with its line.
Sources: bibtexparser 2.x docs (bibtexparser.readthedocs.io), BibLaTeX manual §2.2–2.3, Tame the BeaST §11.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import bibtexparser
from bibtexparser.model import Entry, ParsingFailedBlock, String
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from db.formats.annotations import bibtex_annotations
from db.formats.common import (
    DERIVED,
    Skipped,
    clean,
    finish,
    norm_arxiv,
    norm_doi,
    openreview_from_url,
    split_keywords,
    year_of,
)
from db.paper import PaperRecord, decision_note
from db.text.names import parse_bibtex_name, split_bibtex_names

_ENTRY = re.compile(r"^[ \t]*@[A-Za-z]+[ \t]*[{(]", re.MULTILINE)
_VOLUMES = {"proceedings", "mvproceedings"}
_IN_VOLUME = {"inproceedings", "conference"}
_VENUE_FIELDS = ("booktitle", "journal", "journaltitle", "eventtitle")
MONTHS = {name: full for name, full in zip(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
    ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
     "November", "December"), strict=True)}
_RAW_PERCENT = re.compile(r"(?<!\\)%")
_CONTEXT = get_default_latex_context_db()
_CONTEXT.add_context_category("margin", prepend=True, macros=[  # LaTeX's names for a lone brace (Margin writes them)
    MacroTextSpec("textbraceleft", "{"), MacroTextSpec("textbraceright", "}")])
_TEX = LatexNodes2Text(latex_context=_CONTEXT, math_mode="verbatim", strict_latex_spaces=True)
_URL_MACRO = re.compile(r"\\url\{([^}]*)\}")
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


def looks_like_bibtex(text: str) -> bool:
    """True when some line starts an `@type{` entry."""
    return bool(_ENTRY.search(text))


def is_bibtex_document(text: str) -> bool:
    """True when the text is BibTeX from its start: its first line that is neither blank nor a `%` comment starts
    an `@type{` entry (so a Markdown note or a text that quotes an entry further down is not BibTeX)."""
    for line in text.lstrip("\ufeff").splitlines():
        if line.strip() and not line.lstrip().startswith("%"):
            return bool(_ENTRY.match(line))
    return False


def tex_to_text(value: object) -> str | None:
    """TeX field text → Unicode one-paragraph text; math between `$` stays verbatim."""
    text = clean(value)
    if not text:
        return None
    if "\\" in text or "{" in text or "~" in text or "--" in text:
        try:
            text = _TEX.latex_to_text(_RAW_PERCENT.sub(r"\\%", text))
        except Exception:  # pylatexenc gives up on badly malformed TeX: keep the text without braces
            text = text.replace("{", "").replace("}", "")
    return clean(text)


def read(text: str, path: Path) -> tuple[list[PaperRecord], list[Skipped], str]:
    """Records of a BibTeX/BibLaTeX file and skipped (line, reason), in file order.

    Every entry is a paper (books, theses, reports, chapters too) except a `@proceedings` volume that lends
    its venue and year: one named by some entry's `crossref`, or the file's only `@proceedings` when entries
    without a booktitle follow it (PMLR's volume files); such a volume is reported in `skipped`. A citation key
    is not identity: entries with an empty or repeated key are read like any other (db.library.matching decides).
    """
    library = bibtexparser.parse_string(text, parse_stack=[])
    skipped: list[Skipped] = []
    strings = dict(MONTHS)
    entries: list[tuple[Entry, dict[str, str]]] = []
    for block in library.blocks:
        if isinstance(block, String) or isinstance(getattr(block, "ignore_error_block", None), String):
            string = block if isinstance(block, String) else block.ignore_error_block
            strings[string.key.lower()] = resolve_value(string.value, strings)
            continue
        entry = block if isinstance(block, Entry) else getattr(block, "ignore_error_block", None)
        if isinstance(entry, Entry):
            fields = {}
            for field in entry.fields:  # a repeated field: the first one counts, as in BibTeX
                fields.setdefault(field.key.lower(), resolve_value(field.value, strings))
            entries.append((entry, fields))
        elif isinstance(block, ParsingFailedBlock):
            skipped.append((block.start_line + 1, f"an entry that could not be parsed ({_reason(block)})"))
    by_key = {entry.key.lower(): fields for entry, fields in entries if entry.key}
    referenced = {fields["crossref"].lower() for _entry, fields in entries if fields.get("crossref")}
    volumes = [(entry, fields) for entry, fields in entries if entry.entry_type.lower() in _VOLUMES]
    lender = volumes[0] if len(volumes) == 1 else None
    lent = False
    records: list[PaperRecord] = []
    for entry, fields in entries:
        kind = entry.entry_type.lower()
        if entry.key and entry.key.lower() in referenced and kind in _VOLUMES:
            continue
        parent = by_key.get(fields.get("crossref", "").lower()) if fields.get("crossref") else None
        if parent is not None:
            fields = _inherit(fields, parent, kind)
        elif (lender is not None and lender[0] is not entry and kind in _IN_VOLUME and lender[0].start_line <
              entry.start_line and not any(fields.get(key) for key in _VENUE_FIELDS)):
            fields = _inherit(fields, lender[1], kind, only=("booktitle", "year", "editor", "publisher", "volume"))
            fields.setdefault("x-volume", "1")
            lent = True
        if entry is (lender[0] if lender else None):
            continue
        finish(_record(entry, fields, path), skipped, records)
    if lender is not None and not lent and not (lender[0].key and lender[0].key.lower() in referenced):
        finish(_record(lender[0], lender[1], path), skipped, records)  # a volume nobody belongs to: a book to read
    for entry, _fields in volumes:
        if (entry.key and entry.key.lower() in referenced) or (lender is not None and entry is lender[0] and lent):
            skipped.append((entry.start_line + 1, "a @proceedings volume, not a paper (its venue and year went to "
                                                  "the papers in it)"))
    records.sort(key=lambda record: record.line or 0)
    skipped.sort(key=lambda item: item[0] or 0)
    return records, skipped, "bibtex"


def resolve_value(raw: str, strings: dict[str, str]) -> str:
    """A raw BibTeX value (`{…}`, `"…"`, a number, an @string name, or pieces joined by `#`) as its text.

    An unknown @string name stands for itself. Braces inside the value are kept (TeX decoding removes them)."""
    pieces, depth, quoted, current = [], 0, False, []
    for char in raw:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == "#" and depth == 0 and not quoted:
            pieces.append("".join(current))
            current = []
            continue
        current.append(char)
    pieces.append("".join(current))
    out = []
    for piece in pieces:
        piece = piece.strip()
        if len(piece) >= 2 and ((piece[0] == "{" and piece[-1] == "}") or (piece[0] == '"' and piece[-1] == '"')):
            out.append(piece[1:-1])
        elif piece.isdigit() or not piece:
            out.append(piece)
        else:
            out.append(strings.get(piece.lower(), piece))
    return "".join(out)


def _inherit(fields: dict[str, str], parent: dict[str, str], kind: str,
             only: tuple[str, ...] | None = None) -> dict[str, str]:
    """`fields` with the missing ones taken from a crossref'd `parent` (BibLaTeX's rules: a volume's
    `title` becomes its parts' `booktitle`; PMLR's `shortname` + `year` names the venue)."""
    inherited = dict(parent)
    inherited.pop("crossref", None)
    for key in ("title", "subtitle", "shorttitle", "abstract", "keywords", "note", "annote", "url", "doi",
                "x-margin-id", "ids", "author", "pages", "openreview", "eprint"):
        inherited.pop(key, None)
    year = year_of(parent.get("year") or parent.get("date"))
    short = clean(parent.get("shortname"))
    if short and year:
        inherited["booktitle"] = f"{short} {year}"
    elif parent.get("booktitle") or parent.get("title"):
        inherited["booktitle"] = parent.get("booktitle") or parent["title"]
    if only is not None:
        inherited = {key: value for key, value in inherited.items() if key in only}
    return {**inherited, **{key: value for key, value in fields.items() if value.strip()}}


def _reason(block: ParsingFailedBlock) -> str:
    error = getattr(block, "error", None)
    message = getattr(error, "abort_reason", None) or str(error or "")
    return clean(message) or "a syntax error"


_VERBATIM_ESCAPE = re.compile(r"%(5C|7B|7D)", re.IGNORECASE)
_VERBATIM_CHARS = {"5C": "\\", "7B": "{", "7D": "}"}


def unescape_verbatim(text: str | None) -> str | None:
    """`%5C %7B %7D` back to `\\ { }`, as Margin's export escapes them in url, doi and eprint."""
    return _VERBATIM_ESCAPE.sub(lambda match: _VERBATIM_CHARS[match[1].upper()], text) if text else text


def _record(entry: Entry, fields: dict[str, str], path: Path) -> PaperRecord:
    margin_id = clean(fields.get("x-margin-id")) or None
    url = clean(_URL_MACRO.sub(r"\1", fields.get("url", ""))) or None
    if margin_id:  # Margin's own export: its verbatim escapes undone (other files' URLs stay as written)
        url = unescape_verbatim(url)
    note_url = _URL_MACRO.search(fields.get("note", "") + fields.get("howpublished", ""))
    eprint_type = (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower()
    arxiv = norm_arxiv(fields.get("eprint")) if eprint_type in ("", "arxiv") else None
    if not arxiv and note_url and "arxiv.org" in note_url.group(1):
        arxiv = norm_arxiv(note_url.group(1))
    venue = tex_to_text(next((fields[key] for key in _VENUE_FIELDS if fields.get(key)), None)
                        or fields.get("x-margin-venue"))
    if not venue and fields.get("howpublished") and not _URL_MACRO.search(fields["howpublished"]) \
            and not re.match(r"\s*https?://", fields["howpublished"]):  # @misc's venue (Margin writes it there)
        venue = tex_to_text(fields["howpublished"])
    source = (clean(fields.get("x-margin-title-source")) or "").lower()
    title = tex_to_text(fields.get("x-margin-file-title") if source == "user" else fields.get("title"))
    keywords = fields["x-margin-keywords"] if "x-margin-keywords" in fields else fields.get("keywords")
    words = [word for word in (tex_to_text(k) for k in split_keywords(keywords or "")) if word]
    all_words = [word for word in (tex_to_text(k) for k in split_keywords(fields.get("keywords") or "")) if word]
    return PaperRecord(
        title=None if source == DERIVED else title,
        abstract=tex_to_text(fields.get("abstract")) or "",
        authors=_names(fields.get("author")),
        venue=venue, year=year_of(fields.get("year") or fields.get("date")),
        url=url, doi=norm_doi(unescape_verbatim(fields.get("doi"))), arxiv_id=arxiv, margin_id=margin_id,
        openreview_id=clean(fields.get("openreview")) or openreview_from_url(url),
        keywords=words, extra=_extra(entry.entry_type.lower(), fields, venue),
        source=path.name, line=entry.start_line + 1,
        annotations=bibtex_annotations(fields, all_words, words, tex_to_text,  # issue 30
                                       user_title=tex_to_text(fields.get("title")) if source == "user" else None),
    )


def _names(raw: str | None) -> list[str]:
    names = [parse_bibtex_name(name, tex_to_text).display() for name in split_bibtex_names(raw or "")]
    return [name for name in names if name]


_EXTRA_FIELDS = {"pages": "pages", "volume": "volume", "number": "issue", "issue": "issue", "publisher": "publisher",
                 "school": "publisher", "institution": "publisher", "month": "month", "isbn": "isbn",
                 "issn": "issn", "language": "language", "langid": "language", "address": "address",
                 "location": "address", "edition": "edition", "series": "series", "note": "note"}


def _extra(kind: str, fields: dict[str, str], venue: str | None = None) -> dict:
    """The fields Margin keeps beyond its columns (db.paper.EXTRA_KEYS), as text."""
    extra: dict = {"type": kind}
    for key, name in _EXTRA_FIELDS.items():
        if name not in extra and fields.get(key):
            value = tex_to_text(fields[key])
            if value:
                extra[name] = value
    if fields.get("editor"):
        extra["editors"] = _names(fields["editor"])
    linked = clean(fields.get("file") or fields.get("local-url"))  # as written: paths are no TeX (issue 30)
    if linked:
        extra["file"] = linked
    if clean(fields.get("x-margin-decision")):
        extra["decision"] = clean(fields["x-margin-decision"])
        said = decision_note(venue, extra) or decision_note(tex_to_text(fields.get("x-margin-venue")), extra)
        note = extra.get("note", "")
        if said and note.startswith(said):  # Margin's words about the decision, not the file's note
            extra.pop("note")
            if note[len(said):].removeprefix(";").strip():
                extra["note"] = note[len(said):].removeprefix(";").strip()
    return extra
