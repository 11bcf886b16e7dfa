"""What a change to the library changed: which papers, and which kinds of thing about them.

Every mutation of `db.library.library.Library` returns a `Changes` value, and changes that another process committed
are read back as one (`Library.changes_since`). The window reacts to that value alone: a view updates only
what a change touches (a rating repaints a row and the sidebar's rating counts; it re-searches nothing).

Kinds (strings, so they can be stored in the library's `change_log` table as a comma-separated list):

| kind | what changed |
|---|---|
| `rating`, `read`, `note`, `title` | that annotation of the papers (`title` = the user's own title) |
| `tags` | the papers' tags (added, removed, renamed, merged) |
| `bibliographic` | fields from a file: title, abstract, authors, venue, year, links, keywords |
| `added`, `removed` | papers added to or removed from the library |
| `triage` | the papers' triage bookkeeping: drawn into a random check sample (db.triage.progress) |
| `decision` | the papers' screening decision: include / exclude / maybe, the exclusion reason (db.library.decisions) |
| `versions` | which work the papers are versions of (grouped or split: db.library.works) |
| `shared` | the tags and notes other members of a shared project shared on the papers (db.library.shared_annotations) |

A value also says who made it (`initiator`: the view or name that asked for the edit, e.g. the sidebar for a tag
rename; OUTSIDE for changes read back from another process's log; None when nobody said), so that a view can
tell its own edit from another's (Anki's `handler is not self`). The initiator is not part of equality.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

RATING = "rating"
READ = "read"
NOTE = "note"
TITLE = "title"
TAGS = "tags"
BIBLIOGRAPHIC = "bibliographic"
ADDED = "added"
REMOVED = "removed"
TRIAGE = "triage"
DECISION = "decision"
VERSIONS = "versions"
SHARED = "shared"
KINDS = (RATING, READ, NOTE, TITLE, TAGS, BIBLIOGRAPHIC, ADDED, REMOVED, TRIAGE, DECISION, VERSIONS, SHARED)
MEMBERSHIP = frozenset({ADDED, REMOVED})  # the set of papers itself changed
OUTSIDE = "outside"  # the initiator of changes another process made (read back from the change log)


@dataclass(frozen=True)
class Changes:
    """`papers`: ids of the papers changed; `kinds`: what about them changed (module docstring).

    Combine with `|`; an empty value (no papers) means nothing changed. `by_paper` keeps, per paper, the kinds
    that changed for it (for changes read back from the change log, where papers differ in what changed).
    `initiator`: who made the change (module docstring); `a | b` keeps `a`'s, or `b`'s when `a` has none."""

    papers: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()
    by_paper: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, hash=False, repr=False)
    initiator: Any = field(default=None, compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, papers: Iterable[str], *kinds: str) -> Changes:
        """`papers` changed in the given `kinds`. Raises ValueError for an unknown kind."""
        unknown = set(kinds) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown kind of change: {', '.join(sorted(unknown))}")
        ids = frozenset(papers)
        if not ids:
            return NOTHING
        chosen = frozenset(kinds)
        return cls(ids, chosen, {paper_id: chosen for paper_id in ids})

    @classmethod
    def by_kinds(cls, by_paper: dict[str, Iterable[str]]) -> Changes:
        """Papers that changed in different kinds: `by_paper` maps a paper id to its kinds."""
        if not by_paper:
            return NOTHING
        kinds = {paper_id: frozenset(paper_kinds) for paper_id, paper_kinds in by_paper.items()}
        return cls(frozenset(kinds), frozenset().union(*kinds.values()), kinds)

    def __bool__(self) -> bool:
        return bool(self.papers)

    def __or__(self, other: Changes) -> Changes:
        initiator = self.initiator if self.initiator is not None else other.initiator
        if not other:
            return self.by(initiator)
        if not self:
            return other.by(initiator)
        by_paper = dict(self.by_paper)
        for paper_id, kinds in other.by_paper.items():
            by_paper[paper_id] = by_paper.get(paper_id, frozenset()) | kinds
        return Changes(self.papers | other.papers, self.kinds | other.kinds, by_paper, initiator)

    def by(self, initiator: Any) -> Changes:
        """The same change, made by `initiator` (the value itself when it already names that one)."""
        return self if initiator is self.initiator else replace(self, initiator=initiator)

    def touches(self, *kinds: str) -> bool:
        """True when any of `kinds` changed (for any paper)."""
        return not self.kinds.isdisjoint(kinds)

    def kinds_of(self, paper_id: str) -> frozenset[str]:
        """The kinds that changed for one paper (empty when it did not change)."""
        return self.by_paper.get(paper_id, frozenset())


NOTHING = Changes()
