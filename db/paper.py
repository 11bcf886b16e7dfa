"""The paper record and its identity.

A paper's id is the first 12 hex digits of SHA-256 over the UTF-8 bytes of its abstract after NFC
normalization, whitespace runs collapsed to one space and ends stripped (its title when it has no
abstract). The id is assigned on first import and never changes (ARCHITECTURE.md, "Paper identity").
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import unquote, urlparse

# Bibliographic fields kept beyond the columns: `type` is the entry type in BibTeX's words (article,
# inproceedings, book, incollection, phdthesis, techreport, misc, …); `decision` is an OpenReview/ICLR
# decision ("Accept (Poster)", "Reject", "Workshop"); the rest as the file wrote them. What a web source
# (db.fetch) adds: `presentation` (oral, spotlight, poster), `session`, `tldr`, `pdf` and `forum` (links),
# `venue_id` (OpenReview's), `primary_category` (arXiv's), `dblp` (the DBLP record's link).
EXTRA_KEYS = ("type", "pages", "volume", "issue", "publisher", "month", "isbn", "issn", "editors", "language",
              "address", "edition", "series", "note", "decision", "presentation", "session", "tldr", "pdf",
              "forum", "venue_id", "primary_category", "dblp", "file")

# A screening decision of the user's (db.library.decisions), not a venue's `decision` above
SCREENING_DECISIONS = ("include", "exclude", "maybe")


# Decisions of a submission that was not published at its venue (words in `decision`, lower case)
_NOT_PUBLISHED = ("reject", "withdraw", "desk", "active", "submitted", "under review", "pending")


def published(extra: dict) -> bool:
    """False when `extra["decision"]` says the submission was not published (rejected, withdrawn, in review)."""
    decision = str(extra.get("decision") or "").lower()
    return not any(word in decision for word in _NOT_PUBLISHED)


def decision_note(venue: str | None, extra: dict) -> str | None:
    """What exports say of a decision in a `note`: "Submitted to ICLR 2018 (decision: Reject)" for an
    unpublished submission, "ICLR 2018, workshop track" for a paper sent to the workshop; else None. Readers of
    Margin's own exports drop it again (it is not the file's note)."""
    decision = str(extra.get("decision") or "")
    if not venue or not decision:
        return None
    if not published(extra):
        return f"Submitted to {venue} (decision: {decision})"
    if "workshop" in decision.lower() and "workshop" not in venue.lower():
        return f"{venue}, workshop track"
    return None


def implied_type(venue: str | None, extra: dict) -> str:
    """The entry type a paper has when its file names none: `unpublished` for an unpublished submission,
    else `inproceedings` with a venue, `misc` without. The library stores a file's type only when it differs."""
    if not published(extra):
        return "unpublished"
    return "inproceedings" if venue else "misc"


def normalize_text(text: str) -> str:
    """Return `text` in NFC with every whitespace run replaced by one space and the ends stripped."""
    # (str.split's whitespace is exactly the regex \s's, str.isspace: five times faster than re.sub)
    return " ".join(unicodedata.normalize("NFC", text).split())


def paper_id(abstract: str | None, title: str | None = None) -> str:
    """Return the 12-hex-digit id of a paper with this abstract (or, without one, this title).

    Raises ValueError when both are empty after normalization.
    """
    basis = normalize_text(abstract or "") or normalize_text(title or "")
    if not basis:
        raise ValueError("a paper needs an abstract or a title")
    return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:12]


def linked_files(value: object) -> list[str]:
    """The paths in a `file` field as JabRef (`Full Text:/a/x.pdf:application/pdf;…`, `:PDF/x.pdf:PDF`),
    Better BibTeX (`/a/x.pdf;/a/y.pdf`) or Mendeley write it, or in a `file://` URL (BibDesk/Papers `local-url`);
    JabRef's `\\:` and `\\;` escapes undone. Empty for nothing usable."""
    text = str(value or "").strip()
    if not text:
        return []
    paths = []
    for part in _split_unescaped(text, ";"):
        pieces = _split_unescaped(part, ":")
        if len(pieces) >= 3 and not re.fullmatch(r"[A-Za-z]", pieces[-2] or ""):
            # description:path:type; a Windows drive letter makes the path itself hold one colon
            path = ":".join(pieces[1:-1])
        else:
            path = part
        path = path.replace("\\:", ":").replace("\\;", ";").strip()
        if path.lower().startswith("file:"):
            path = unquote(urlparse(path).path)
        if path:
            paths.append(path)
    return paths


def _split_unescaped(text: str, separator: str) -> list[str]:
    return re.split(rf"(?<!\\){re.escape(separator)}", text)


DOCUMENT_SUFFIXES = (".pdf", ".djvu", ".epub", ".ps", ".html", ".htm", ".txt", ".md")  # what the reader opens


_PAGE_DASH = re.compile(r"\s*[\u2010-\u2015-]+\s*")


@dataclass
class Annotations:
    """The user's annotations a file carries with a record (issue 30): Margin's own exports, and other tools'
    fields (Zotero/JabRef/BibDesk `keywords`, `rating`/`ranking`, `read`/`readstatus`, `annote`/`comment`).

    `tags` in the file's order; `rating` 1..5 or None (none given); `read` True (read), False (explicitly
    unread), None (the file says nothing); `note` the note text, None when the file has none; `title` the
    user's title (Margin's exports mark it `user`), None when the file has none. The import fills only what the
    paper lacks (db.library.imported_annotations). `decision` the screening decision as Margin's CSV export
    writes it ({"decision": include/exclude/maybe, "reason": text or None, "decided_at": ISO time or None}),
    None when the file has none."""

    tags: list[str] = field(default_factory=list)
    rating: int | None = None
    read: bool | None = None
    note: str | None = None
    title: str | None = None
    decision: dict | None = None

    def __bool__(self) -> bool:
        return bool(self.tags or self.rating or self.read or (self.note or "").strip() or (self.title or "").strip()
                    or self.decision)


@dataclass
class PaperRecord:
    """One paper as a reader (parser) found it in a file, before it enters the library.

    `line` is the 1-based line of the file where the record starts (for error messages). `extra` holds what
    the file says beyond Margin's columns, under the keys of EXTRA_KEYS (text, `editors` a list of names,
    `file` the linked files as the file's field wrote them). `annotations` are the user's marks the file
    carries (None: it carries none); they are not part of the paper's identity or bibliographic fields.
    `left_out` names what the reader found but could not take (`rating "7" is not 1 to 5`), one phrase each,
    for the import's summary (db.import_job); nothing of it is stored.
    """

    abstract: str = ""
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    venue: str | None = None
    year: int | None = None
    url: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    openreview_id: str | None = None
    keywords: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    source: str | None = None
    line: int | None = None
    margin_id: str | None = None  # the id Margin's own export gave it (matched first on import; not stored)
    annotations: Annotations | None = None
    left_out: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        pages = self.extra.get("pages")
        if isinstance(pages, str):  # a range with an en dash, however the file wrote it (`1-22`, BibTeX's
            self.extra["pages"] = _PAGE_DASH.sub("–", pages).strip()  # `1--22`): a round trip changes nothing

    @property
    def id(self) -> str:
        return paper_id(self.abstract, self.title)


@dataclass
class Paper:
    """A paper in the library with the user's annotations.

    `label` is what the list row shows: the user's title, else the file's title, else a label derived from
    the abstract. `title` is the user's title, else the file's; `file_title` is always the file's (None when the
    file had none). `rating` is 1..5 or None; `tags` are in the case the user first typed them. `extra` holds
    the bibliographic fields beyond the columns (EXTRA_KEYS). `decision` is the screening decision (include,
    exclude, maybe or None; db.library.decisions), `reason` the exclusion reason, `decided_at` its ISO time.
    """

    id: str
    label: str
    title: str | None
    abstract: str
    authors: list[str]
    venue: str | None
    year: int | None
    url: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    openreview_id: str | None = None
    keywords: list[str] = field(default_factory=list)
    rating: int | None = None
    tags: list[str] = field(default_factory=list)
    read: bool = False
    note: str = ""
    user_title: str | None = None
    position: int = 0
    added_at: str | None = None
    file_title: str | None = None
    extra: dict = field(default_factory=dict)
    decision: str | None = None
    reason: str | None = None
    decided_at: str | None = None

    def to_json(self) -> dict:
        """The `list --json` element of ARCHITECTURE.md, plus the bibliographic fields and the screening decision
        (`screening_decision`: include, exclude, maybe or null; `exclusion_reason`: text or null)."""
        return {
            "id": self.id, "label": self.label, "title": self.title, "venue": self.venue, "year": self.year,
            "rating": self.rating, "tags": list(self.tags), "read": self.read, "note": self.note,
            "authors": list(self.authors), "abstract": self.abstract, "url": self.url, "doi": self.doi,
            "arxiv_id": self.arxiv_id, "openreview_id": self.openreview_id, "keywords": list(self.keywords),
            "screening_decision": self.decision, "exclusion_reason": self.reason,
        }

    @property
    def is_annotated(self) -> bool:
        return bool(self.rating or self.tags or self.note.strip() or self.user_title or self.decision)
