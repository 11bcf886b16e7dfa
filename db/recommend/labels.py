"""What the recommender learns from: the user's judgements of papers as labels (issue 29).

A rating of 4–5 stars is a like, 1–2 a dislike, 3 a "maybe"; a screening decision (db.library.decisions) counts
the same way: include as a like, exclude as a dislike, maybe as a maybe. Where a paper has both, the decision
wins: it is the later, deliberate judgement against written criteria. Every judged paper is left out of the
recommendations.
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

    @property
    def judged(self) -> frozenset[str]:
        return self.liked | self.disliked | self.maybe


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
    """The labels of a db.library Library's papers: its ratings and screening decisions."""
    return labels_of(library.ratings(), {paper_id: row[0] for paper_id, row in library.decisions().items()})
