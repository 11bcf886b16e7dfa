"""Several interests in one triage pass (issue 16, item 2).

Each tag the user marks as an interest (Library.set_interest) has its own model: the papers carrying the tag
against those dismissed from its suggestions, those rated 1–2 and, weakly, those rated 3
(db.recommend.Recommender.more_like_tag). The queue (`is:interests`) serves the papers of all interests in
turns: the best paper of the first interest, the best of the second, …, then the second best of each, a paper
claimed by an earlier interest not served twice; each paper says which interest it came for. Accepting a
paper (`a`) gives it the tag; dismissing it (`x`) is kept (Library.set_dismissed) and teaches that interest's
model a negative.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from db.library import Library
from db.recommend import DEFAULT_LIMIT, NoPositivesError, Recommender

NO_INTERESTS = ("No interests yet: right-click a tag in the sidebar → Use as an interest "
                "(or: margin interest TAG)")


@dataclass
class InterestQueue:
    """Paper ids in the order served, the interest each came for, the reasons, and the interests that could
    not be served yet (no paper carries the tag)."""

    ids: list[str] = field(default_factory=list)
    interest: dict[str, str] = field(default_factory=dict)
    why: dict[str, list[str]] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)


def queue(library: Library, recommender: Recommender | None = None, limit: int | None = DEFAULT_LIMIT,
          per_interest: int | None = DEFAULT_LIMIT) -> InterestQueue:
    """The triage queue across every interest, at most `limit` papers (module docstring). Raises
    NoPositivesError (NO_INTERESTS) when no tag is an interest."""
    names = library.interests()
    if not names:
        raise NoPositivesError(NO_INTERESTS)
    recommender = recommender or Recommender(library)
    recommender.refresh()
    ranked: list[tuple[str, list]] = []
    result = InterestQueue()
    for name in names:
        try:
            ranked.append((name, list(recommender.more_like_tag(name, per_interest, refresh=False))))
        except NoPositivesError:
            result.waiting.append(name)
    longest = max((len(items) for _name, items in ranked), default=0)
    for rank in range(longest):
        for name, items in ranked:
            if rank < len(items) and items[rank].id not in result.interest:
                item = items[rank]
                result.ids.append(item.id)
                result.interest[item.id] = name
                result.why[item.id] = item.why
                if limit is not None and len(result.ids) >= limit:
                    return result
    return result
