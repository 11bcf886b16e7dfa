"""BibTeX and BibLaTeX files as proceedings (PMLR), Zotero/Better BibTeX, JabRef and Mendeley write them.

Parsed with bibtexparser v2 (`parse_string`: @string references resolved, enclosing braces/quotes removed).
Field values then go from TeX to Unicode with pylatexenc (`{\\"o}` → ö, `{{…}}` protection removed, `\\%` → %,
`--` → –); `$…$` math is kept verbatim so the abstract renderer can show it. A raw `%` (a comment in TeX, but
common in exported abstracts) is kept as text. Year from `year`, else BibLaTeX `date` (`2015-02-06`); `month`
(`nov`) is not needed. Venue from `booktitle`/`journal`/`journaltitle`/`eventtitle`, else from the file's
`@proceedings` entry (`shortname` + `year`, as PMLR writes it). arXiv id from `eprint` (with
`archiveprefix`/`eprinttype` arXiv) or an arxiv.org URL; OpenReview id from `openreview` or the URL.
`x-margin-title-source = {derived}` (Margin's own export of a paper without a title: `title` is Margin's
label) makes the title absent. An entry bibtexparser cannot parse (an unclosed brace) is skipped and reported
with its line.
Sources: bibtexparser 2.x docs (bibtexparser.readthedocs.io), BibLaTeX manual §2.2–2.3.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import bibtexparser
from bibtexparser.model import ParsingFailedBlock
from pylatexenc.latex2text import LatexNodes2Text

from db.formats.common import (
    DERIVED,
    Skipped,
    clean,
    finish,
    flip_name,
    norm_arxiv,
    norm_doi,
    openreview_from_url,
    split_list,
    year_of,
)
from db.paper import PaperRecord

_ENTRY = re.compile(r"^[ \t]*@[A-Za-z]+[ \t]*[{(]", re.MULTILINE)
_NOT_PAPERS = {"proceedings", "mvproceedings", "book", "mvbook", "collection", "mvcollection", "periodical"}
_RAW_PERCENT = re.compile(r"(?<!\\)%")
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_TEX = LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=True)
_URL_MACRO = re.compile(r"\\url\{([^}]*)\}")
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


def looks_like_bibtex(text: str) -> bool:
    """True when some line starts an `@type{` entry."""
    return bool(_ENTRY.search(text))


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
    """Records of a BibTeX/BibLaTeX file and skipped (line, reason)."""
    library = bibtexparser.parse_string(text)
    records: list[PaperRecord] = []
    skipped: list[Skipped] = []
    defaults: dict = {}
    entries = []
    for block in library.blocks:
        if isinstance(block, ParsingFailedBlock):
            skipped.append((block.start_line + 1, f"an entry that could not be parsed ({_reason(block)})"))
        elif hasattr(block, "entry_type"):
            if block.entry_type.lower() in _NOT_PAPERS:
                defaults = _volume(block) or defaults
            else:
                entries.append(block)
    for entry in entries:
        finish(_record(entry, path, defaults), skipped, records)
    return records, skipped, "bibtex"


def _reason(block: ParsingFailedBlock) -> str:
    error = getattr(block, "error", None)
    message = getattr(error, "abort_reason", None) or str(error or "")
    return clean(message) or "a syntax error"


def _fields(entry) -> dict[str, str]:
    return {field.key.lower(): field.value for field in entry.fields if isinstance(field.value, str)}


def _volume(entry) -> dict:
    fields = _fields(entry)
    year = year_of(fields.get("year") or fields.get("date"))
    short = clean(fields.get("shortname"))
    venue = f"{short} {year}" if short and year else tex_to_text(fields.get("booktitle") or fields.get("title"))
    return {"venue": venue, "year": year} if venue or year else {}


def _record(entry, path: Path, defaults: dict) -> PaperRecord:
    fields = _fields(entry)
    url = clean(_URL_MACRO.sub(r"\1", fields.get("url", ""))) or None
    note_url = _URL_MACRO.search(fields.get("note", "") + fields.get("howpublished", ""))
    eprint_type = (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower()
    arxiv = norm_arxiv(fields.get("eprint")) if eprint_type in ("", "arxiv") else None
    if not arxiv and note_url and "arxiv.org" in note_url.group(1):
        arxiv = norm_arxiv(note_url.group(1))
    authors = [flip_name(tex_to_text(name) or "") for name in _AND.split(fields.get("author", "")) if name.strip()]
    venue = tex_to_text(fields.get("booktitle") or fields.get("journal") or fields.get("journaltitle")
                        or fields.get("eventtitle"))
    return PaperRecord(
        title=None if clean(fields.get("x-margin-title-source")) == DERIVED else tex_to_text(fields.get("title")),
        abstract=tex_to_text(fields.get("abstract")) or "",
        authors=[name for name in authors if name],
        venue=venue or defaults.get("venue"),
        year=year_of(fields.get("year") or fields.get("date")) or defaults.get("year"),
        url=url, doi=norm_doi(fields.get("doi")), arxiv_id=arxiv,
        openreview_id=clean(fields.get("openreview")) or openreview_from_url(url),
        keywords=[tex_to_text(k) for k in split_list(fields.get("keywords"), ",;")],
        source=path.name, line=entry.start_line + 1,
    )
