"""Helpers shared by the exporters: where a paper's title comes from, citation keys, author names."""

from __future__ import annotations

import re
import unicodedata

from db.paper import Paper

_WORD = re.compile(r"[a-z0-9]+")


def title_source(paper: Paper) -> str:
    """Where the title an export shows comes from: "user" (set in Margin), "file" (the imported file) or
    "derived" (no title anywhere, so the export uses the label Margin derived from the abstract)."""
    if paper.user_title:
        return "user"
    if paper.title:
        return "file"
    return "derived"


def export_title(paper: Paper) -> str:
    """The title an export writes: the paper's title, else its label (see `title_source`)."""
    return paper.title or paper.label


def ascii_word(text: str) -> str:
    """`text` folded to lower-case ASCII letters and digits only ("Müller-Lüdenscheidt" → "mullerludenscheidt")."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return "".join(_WORD.findall(folded))


def family_name(author: str) -> str:
    """The family name in "Given Family" or "Family, Given" (the last word of the first form)."""
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0].strip()
    parts = author.split()
    return parts[-1] if parts else ""


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


def split_name(author: str) -> dict[str, str]:
    """A CSL name object: {"family", "given"} for "Given Family" or "Family, Given"; {"literal"} for one word."""
    author = " ".join(author.split())
    if "," in author:
        family, given = (part.strip() for part in author.split(",", 1))
        return {"family": family, "given": given} if family and given else {"literal": author}
    parts = author.rsplit(" ", 1)
    if len(parts) == 2:
        return {"family": parts[1], "given": parts[0]}
    return {"literal": author}
