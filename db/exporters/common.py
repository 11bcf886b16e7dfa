"""Helpers shared by the exporters: where a paper's title comes from, citation keys, entry types and venues.
Names go through db.names (one parser for readers and exporters)."""

from __future__ import annotations

import re
import unicodedata

from db.names import family_name
from db.paper import Paper, decision_note, implied_type
from db.paper import published as _published

_WORD = re.compile(r"[a-z0-9]+")


def title_source(paper: Paper) -> str:
    """Where the title an export shows comes from: "user" (set in Margin), "file" (the imported file) or
    "derived" (no title anywhere, so the export uses the label Margin derived from the abstract)."""
    if paper.user_title:
        return "user"
    if paper.title:
        return "file"
    return "derived"


def headline(paper: Paper) -> str:
    """The derived label without the "…" that marks where it was cut (for a paper without any title)."""
    return paper.label.rstrip().removesuffix("…").rstrip(" ,;:–—-(") or paper.label


def export_title(paper: Paper) -> str:
    """The title an export writes: the user's title, else the file's, else the derived headline (see
    `title_source`; exports mark the last as derived, and write the file's title beside a user's title)."""
    return paper.title or headline(paper)


def published(paper: Paper) -> bool:
    """False for a submission whose decision says it was not published (rejected, withdrawn, under review):
    exports then do not cite it as a paper of its venue."""
    return _published(paper.extra)


def export_venue(paper: Paper) -> str | None:
    """The venue an export cites: None for an unpublished submission (see `submission_note`)."""
    return paper.venue if paper.venue and published(paper) else None


def entry_type(paper: Paper) -> str:
    """The paper's entry type in BibTeX's words: the file's (db.paper.EXTRA_KEYS `type`), else
    `inproceedings` with a venue, `misc` without; an unpublished submission is `unpublished`."""
    kind = str(paper.extra.get("type") or "").lower()
    if not published(paper):
        return "unpublished"
    if kind and kind != "conference":
        return kind
    return implied_type(paper.venue, paper.extra)


def submission_note(paper: Paper) -> str | None:
    """What the export's note says of the decision (db.paper.decision_note), else None."""
    return decision_note(paper.venue, paper.extra)


def ascii_word(text: str) -> str:
    """`text` folded to lower-case ASCII letters and digits only ("Müller-Lüdenscheidt" → "mullerludenscheidt")."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return "".join(_WORD.findall(folded))


def citation_key(paper: Paper) -> str:
    """A citation key that stays the same on every export of the paper: first author's family name (else the
    venue's first word, else "paper"), the year (else "nd"), a hyphen and the first 6 digits of the Margin id.

    The id part keeps keys unique and independent of which other papers are exported with it; a key changes
    only when the file's authors, venue or year change. Example: `vaswani2017-3f2a1b`, `icml2026-0c41d2`.
    """
    stem = ascii_word(family_name(paper.authors[0])) if paper.authors else ""
    if not stem and paper.venue:
        stem = ascii_word(paper.venue.split()[0])
    year = str(paper.year) if paper.year else "nd"
    return f"{stem or 'paper'}{year}-{paper.id[:6]}"
