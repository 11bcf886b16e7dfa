"""Several interests in one triage pass (issue 16, item 2).

Each tag the user marks as an interest (Library.set_interest) has its own model: the papers carrying the tag
against those dismissed from its suggestions, those rated 1–2 and, weakly, those rated 3
(db.recommend.recommender.Recommender.more_like_tag). The queue (`is:interests`) serves the papers of all interests in
one order, by each interest's model score (the models are trained alike, so their margins compare): an
interest whose papers have been found stops taking turns while another still has likely ones. A paper wanted by
several interests is served once, for the one that scores it highest, and says which interest it came for.
(Serving the interests strictly in turns did worse on ICLR 2018: WSS@95 0.01 against 0.56,
tests/benchmarks/bench_triage.py.) Accepting a
paper (`a`) gives it the tag; dismissing it (`x`) is kept (Library.set_dismissed) and teaches that interest's
model a negative.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from db.library.library import Library
from db.recommend.recommender import DEFAULT_LIMIT, NoPositivesError, Recommender

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
    # one order across the interests: by each model's score (SVM margins of models trained alike are
    # comparable), so an interest whose papers are found stops being served while others still have some
    served = sorted(((item.score, rank, name, item) for name, items in ranked for rank, item in enumerate(items)),
                    key=lambda entry: (-entry[0], entry[1]))
    for _score, _rank, name, item in served:
        if item.id in result.interest:
            continue
        result.ids.append(item.id)
        result.interest[item.id] = name
        result.why[item.id] = item.why
        if limit is not None and len(result.ids) >= limit:
            return result
    return result
    return result
