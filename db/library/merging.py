"""Merging two records of one paper field by field (db.library.importing), and telling when two records that share
a DOI or arXiv id are clearly different papers (db.library.matching).

The better source is the fuller record (`fullness`: how many of the bibliographic fields it fills; on a tie the
one given as `preferred`). A field that one record leaves empty takes the other's value (the fuller value wins a
missing field); a field both fill keeps the better source's value; a title or year on which they disagree is
kept from the better source and the other one is noted (`Merge.noted`), as Zotero's merge pane keeps one
version of each field and shows the others.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from db.paper import PaperRecord

_FIELDS = ("title", "authors", "abstract", "venue", "year", "url", "doi", "arxiv_id", "openreview_id", "keywords")
_SHOWN = {"doi": "DOI", "arxiv_id": "arXiv id", "openreview_id": "OpenReview id", "url": "URL"}
_NON_WORD = re.compile(r"[\W_]+")
SAME_TITLE = 0.5  # word-set Jaccard of two titles below which (neither being the other's start) they differ


@dataclass
class Merge:
    """The merged record, the fields it has that the preferred record (the paper as it was) lacked (`added`:
    names), and what was kept and noted where the two disagreed (`noted`: 'year 2001 kept, 2015 noted')."""

    record: PaperRecord
    added: list[str] = field(default_factory=list)
    noted: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """'authors, year, DOI added; year 2001 kept, 2015 noted' ('' when nothing was added or noted)."""
        parts = [", ".join(self.added) + " added"] if self.added else []
        return "; ".join(parts + self.noted)


def _filled(value: object) -> bool:
    return value not in (None, "", [], {})


def fullness(record: PaperRecord) -> int:
    """How many of the record's bibliographic fields are filled (scalars, authors, keywords and extra fields)."""
    return (sum(_filled(getattr(record, name)) for name in _FIELDS)
            + sum(_filled(value) for value in record.extra.values()))


def merge(preferred: PaperRecord, other: PaperRecord, update: bool = False) -> Merge:
    """`preferred` and `other` as one record: the fuller one is the better source (`preferred` on a tie). The
    merged record keeps `preferred`'s `source` and `line` when it has them. `update`: `preferred` is a file's
    record of a stored paper `other`, whose filled fields other than the title and year replace the stored
    ones even when the stored paper is fuller (a corrected list updates the library)."""
    disagree = any(_filled(mine) and _filled(theirs) and mine != theirs for mine, theirs in (
        (preferred.title, other.title), (preferred.year, other.year)))
    if update and not disagree:  # (the better source decides nothing then: a re-import's common case, kept fast)
        better, worse = preferred, other
    else:
        better, worse = (other, preferred) if fullness(other) > fullness(preferred) else (preferred, other)
    values, added, noted = {}, [], []
    for name in _FIELDS:
        first, second = (preferred, other) if update and name not in ("title", "year") else (better, worse)
        mine, theirs = getattr(first, name), getattr(second, name)
        values[name] = mine if _filled(mine) else theirs
        if not _filled(getattr(preferred, name)) and _filled(values[name]):
            added.append(_SHOWN.get(name, name))
    for name, kept, dropped in (("title", better.title, worse.title), ("year", better.year, worse.year)):
        if _filled(kept) and _filled(dropped) and kept != dropped and (
                name != "title" or title_key(kept) != title_key(dropped)):
            noted.append(f'{name} "{kept}" kept, "{dropped}" noted' if name == "title"
                         else f"{name} {kept} kept, {dropped} noted")
    first, second = (preferred, other) if update else (better, worse)
    extra = {**{key: value for key, value in second.extra.items() if _filled(value)},
             **{key: value for key, value in first.extra.items() if _filled(value)}}
    added += sorted(key for key in extra if not _filled(preferred.extra.get(key)))
    record = replace(first, **values, extra=extra, source=preferred.source or other.source,
                     line=preferred.line if preferred.line is not None else other.line)
    return Merge(record, added, noted)


def title_key(title: str | None) -> str:
    """The title as compared: NFC, case-folded, punctuation runs one space ('' when empty)."""
    return _NON_WORD.sub(" ", unicodedata.normalize("NFC", title or "").casefold()).strip()


# a title key (title_key) that names no paper: a DOI, an arXiv id (new or old style, any version), or a stand-in word
_PLACEHOLDER = re.compile(r"(?:doi )?10 \d{4,9}(?: \S+)+|(?:arxiv )?(?:\d{4} \d{4,5}|[a-z]+(?: [a-z]+)* \d{7})(?:v\d+)?"
                          r"|untitled|no title|title|unknown|tbd|placeholder")


def placeholder_title(title: str | None) -> bool:
    """True for a title (or title key) that names no paper: empty, only a DOI or arXiv id (`arXiv:1706.03762v2`,
    `hep-th/9901001`), or one of "Untitled", "No title", "Title", "Unknown", "TBD", "Placeholder" (case aside)."""
    key = title_key(title)
    return not key or bool(_PLACEHOLDER.fullmatch(key))


def titles_clash(a: str | None, b: str | None) -> bool:
    """True when two titles are clearly different papers' (a book and a review of it, two papers under one wrong
    DOI): both given and neither a placeholder (`placeholder_title`), neither the start of the other (a subtitle
    dropped), and their word sets' Jaccard similarity below SAME_TITLE. `a` and `b` are titles or title keys."""
    key_a, key_b = title_key(a), title_key(b)
    if placeholder_title(a) or placeholder_title(b):
        return False
    if not key_a or not key_b or key_a.startswith(key_b) or key_b.startswith(key_a):
        return False
    words_a, words_b = set(key_a.split()), set(key_b.split())
    return len(words_a & words_b) / len(words_a | words_b) < SAME_TITLE


def family_names(authors: Sequence[str]) -> frozenset[str]:
    """The case-folded last words of display names ("Ahmet Ünal" → "ünal"), for telling whether two author lists
    share anyone."""
    return frozenset(words[-1] for name in authors if (words := title_key(name).split()))


_NOT_NAME = frozenset("the of on in and proceedings conference international annual".split())


def venue_name(venue: str | None) -> str:
    """A venue as compared: its title key without numbers (years, volumes) and filler words ('NIPS 2018' →
    'nips', 'Proceedings of the 35th International Conference on Machine Learning' → '35th machine learning')."""
    return " ".join(word for word in title_key(venue).split() if not word.isdigit() and word not in _NOT_NAME)


def different_venues(a: str | None, b: str | None) -> bool:
    """True when both venues are named and clearly differ (neither name the start of the other)."""
    name_a, name_b = venue_name(a), venue_name(b)
    return bool(name_a and name_b) and not (name_a.startswith(name_b) or name_b.startswith(name_a))


def version_venue(venue: str | None, arxiv_id: str | None) -> str | None:
    """The venue a version is compared by: its venue, else "arXiv" for a paper with an arXiv id and no venue (a
    preprint as reference managers export it)."""
    return venue or ("arXiv" if arxiv_id else None)
