"""Helpers shared by the exporters: where a paper's title comes from, citation keys, entry types and venues.
Names go through db.text.names (one parser for readers and exporters)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from db.paper import Paper, decision_note, implied_type
from db.paper import published as _published
from db.text.names import family_name

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


def key_stem(paper: Paper) -> str:
    """The author-year part of a citation key: first author's family name (else the venue's first word, else
    "paper") and the year (else "nd"). Example: `vaswani2017`, `icml2026`."""
    stem = ascii_word(family_name(paper.authors[0])) if paper.authors else ""
    if not stem and paper.venue:
        stem = ascii_word(paper.venue.split()[0])
    year = str(paper.year) if paper.year else "nd"
    return f"{stem or 'paper'}{year}"


def citation_keys(papers: Sequence[Paper]) -> dict[str, str]:
    """Paper id → citation key for one export: the author-year stem alone where it is unique among `papers`
    (`grave2017`); on a clash the first paper (in the order of Margin ids, so the keys do not depend on the
    list's sort order) keeps the stem and the others get `a`, `b`, … after it (`grave2017a`, `grave2017b`).
    A key changes only when the file's authors, venue or year change, or a paper with the same stem joins."""
    return keys_of_stems({paper.id: key_stem(paper) for paper in papers})


def keys_of_stems(stems: dict[str, str]) -> dict[str, str]:
    """Paper id → citation key from paper id → author-year stem, by `citation_keys`' rule (db.vault keeps the
    stems of a whole vault and asks again when one changes)."""
    groups: dict[str, list[str]] = {}
    for paper_id, stem in stems.items():
        groups.setdefault(stem, []).append(paper_id)
    keys: dict[str, str] = {}
    taken = set(groups)
    for stem, ids in groups.items():
        first, *others = sorted(ids)
        keys[first] = stem
        suffixes = _suffixes()
        for paper_id in others:
            key = stem + next(suffixes)
            while key in taken:
                key = stem + next(suffixes)
            taken.add(key)
            keys[paper_id] = key
    return keys


def _suffixes():
    """a, b, …, z, aa, ab, … (BibTeX's own habit for same author-year keys)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    length = 1
    while True:
        for number in range(len(letters) ** length):
            word = ""
            for _ in range(length):
                number, digit = divmod(number, len(letters))
                word = letters[digit] + word
            yield word
        length += 1


def citation_key(paper: Paper) -> str:
    """The citation key of `paper` exported alone (its author-year stem); exports of several papers use
    `citation_keys`, which adds a letter only where stems clash."""
    return key_stem(paper)
