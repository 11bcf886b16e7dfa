"""What the recommender learns from: the user's judgements of papers as labels (issue 29).

A rating of 4–5 stars is a like, 1–2 a dislike, 3 a "maybe"; a screening decision (db.library.decisions) counts
the same way: include as a like, exclude as a dislike, maybe as a maybe. Where a paper has both, the decision
wins: it is the later, deliberate judgement against written criteria. Every judged paper is left out of the
recommendations.

One model for the crowd (issue 27): in a shared project whose owner turned the crowd model on, the other members'
decisions this member may read (db.library.shared_projects.crowd_decisions: once the project is unblinded) label
the papers the member has not judged: only includes → liked, only excludes → disliked, both → maybe. Those papers
stay in the member's own queue (`crowd`): the member still screens them.
"""

from __future__ import annotations

from dataclasses import dataclass

POSITIVE_RATINGS = (4, 5)
NEGATIVE_RATINGS = (1, 2)
MAYBE_RATINGS = (3,)
_DECISION_LABEL = {"include": "liked", "exclude": "disliked", "maybe": "maybe"}


@dataclass(frozen=True)
class Labels:
    """Ids of the papers `liked`, `disliked` and judged `maybe` (disjoint sets); `judged` is all three."""

    liked: frozenset[str]
    disliked: frozenset[str]
    maybe: frozenset[str]
    crowd: frozenset[str] = frozenset()  # labelled by other members only (still recommendable)

    @property
    def judged(self) -> frozenset[str]:
        """The papers this user judged (left out of recommendations): not those the crowd alone labelled."""
        return (self.liked | self.disliked | self.maybe) - self.crowd


def labels_of(ratings: dict[str, int], decisions: dict[str, str]) -> Labels:
    """Labels from `ratings` (id → 1..5) and `decisions` (id → include / exclude / maybe); a decision wins over
    a rating of the same paper."""
    label = {paper_id: ("liked" if rating in POSITIVE_RATINGS else "disliked" if rating in NEGATIVE_RATINGS
                        else "maybe") for paper_id, rating in ratings.items()}
    label.update({paper_id: _DECISION_LABEL[decision] for paper_id, decision in decisions.items()
                  if decision in _DECISION_LABEL})
    return Labels(*(frozenset(i for i, value in label.items() if value == kind) for kind in ("liked", "disliked",
                                                                                             "maybe")))


def labels(library) -> Labels:
    """The labels of a db.library Library's papers: its ratings and screening decisions, and the crowd's labels of
    the papers it has not judged (module docstring)."""
    own = labels_of(library.ratings(), {paper_id: row[0] for paper_id, row in library.decisions().items()})
    book = getattr(library, "project_book", None)
    crowd = book.crowd_decisions() if book is not None else {}
    given = {paper_id: ("liked" if set(votes) == {"include"} else "disliked" if set(votes) == {"exclude"} else "maybe")
             for paper_id, votes in crowd.items() if paper_id not in own.judged}
    if not given:
        return own
    extra = {kind: frozenset(i for i, value in given.items() if value == kind)
             for kind in ("liked", "disliked", "maybe")}
    return Labels(own.liked | extra["liked"], own.disliked | extra["disliked"], own.maybe | extra["maybe"],
                  frozenset(given))
