"""The estimate of liked papers left from a check (issue 29): Horvitz–Thompson points and intervals on synthetic
rankings whose answer is known, the check's design, and the stopping rule."""

from __future__ import annotations

import random

import numpy as np
import pytest

from db.triage.check import allocation, draw_check, strata_by_rank
from db.triage.estimate import (
    Stratum,
    grown,
    hypergeometric_interval,
    interval,
    more_ratings_for,
    none_floor,
    ratings_to_halve,
    upper_bound,
    zero_block_bound,
)
from db.triage.progress import Estimate, progress, stop_rule

DRAWS = 2000


def _ranking(rng: np.random.Generator, size: int, head: float, tail: float, scale: float) -> np.ndarray:
    """Labels (liked or not) of `size` papers in ranked order, each liked with a chance falling from `head` at
    the top to `tail` at the bottom (a ranker that is right on the whole, as the recommender is)."""
    chance = tail + (head - tail) * np.exp(-np.arange(size) / scale)
    return rng.random(size) < chance


def _check(rng: np.random.Generator, labels: np.ndarray, size: int, ranked: bool) -> list[Stratum]:
    """A check of `size` drawn from the unseen papers `labels` (ranked order) as db.triage.check draws it,
    rated: the strata as the estimate sees them."""
    ids = [str(i) for i in range(len(labels))]
    strata = np.array(strata_by_rank(ids, ids) if ranked else [0] * len(ids))
    sizes = [int((strata == h).sum()) for h in range(strata.max() + 1)]
    out = []
    for h, drawn in enumerate(allocation(sizes, size)):
        members = np.flatnonzero(strata == h)
        chosen = rng.choice(members, drawn, replace=False)
        liked = int(labels[chosen].sum())
        out.append(Stratum(len(members), drawn, liked, liked, drawn - liked))
    return out


@pytest.mark.slow  # about 5 s of CPU each
@pytest.mark.parametrize(("ranked", "head", "tail", "scale", "size"), [
    (True, 0.6, 0.01, 60, 40),  # a good ranking, a few liked papers in the tail
    (True, 0.3, 0.0, 30, 100),  # a sharp one: nothing below the top
    (True, 0.05, 0.05, 1, 40),  # a useless one: liked papers everywhere alike
    (False, 0.6, 0.01, 60, 40),
])
def test_the_interval_holds_the_truth_in_at_least_94_percent_of_2000_checks(ranked, head, tail, scale, size):
    rng = np.random.default_rng(29)
    covered, points, truths = 0, [], []
    for _draw in range(DRAWS):
        labels = _ranking(rng, 600, head, tail, scale)
        strata = _check(rng, labels, size, ranked)
        point, low, high = interval(strata)
        truth = int(labels.sum())
        covered += low <= truth <= high
        points.append(point)
        truths.append(truth)
    assert covered / DRAWS >= 0.94, covered / DRAWS
    # Horvitz–Thompson is unbiased: over the draws its mean is the truth's mean (within 4 standard errors)
    errors = np.array(points) - np.array(truths)
    assert abs(errors.mean()) <= 4 * errors.std() / np.sqrt(DRAWS) + 0.5


def test_known_values():
    # a census leaves no doubt; a stratum with nothing rated spans what is not yet certain
    assert interval([Stratum(10, 10, 3, 3, 7)]) == (3.0, 3, 3)
    assert interval([Stratum(10, 0, 0, 2, 5)]) == (2.0, 2, 5)
    # one stratum is the exact hypergeometric interval itself
    assert interval([Stratum(900, 40, 2, 2, 38)])[1:] == hypergeometric_interval(900, 40, 2)
    # the point is Σ size · liked / rated
    assert interval([Stratum(100, 10, 5, 5, 5), Stratum(800, 40, 1, 1, 39)])[0] == pytest.approx(50 + 20)
    # strata that found nothing are bounded together: (1 − 40/700)^K ≤ 2.5% → K ≤ 62; at least what is known
    assert zero_block_bound([Stratum(140, 8, 0), Stratum(560, 32, 0)]) == 62
    assert zero_block_bound([Stratum(140, 8, 0, 70, 8), Stratum(560, 32, 0)]) == 70
    assert interval([Stratum(140, 8, 0, 0, 8), Stratum(560, 32, 0, 0, 32)]) == (0.0, 0, 62)
    # a one-sided 95% bound is below the two-sided 95% interval's upper end
    strata = [Stratum(900, 40, 2, 2, 38)]
    assert upper_bound(strata) < interval(strata)[2]


@pytest.mark.slow  # about 10 s of CPU
def test_a_check_that_found_none_cannot_say_less_however_it_is_drawn():
    # liked papers spread evenly (a useless ranking): every design of n draws misses all K of them with the same
    # chance C(N − K, n) / C(N, n); none_floor is the largest K for which that chance exceeds 5%, so an interval
    # stopping below it whenever the check finds none holds the truth in fewer than 95% of checks
    from scipy.stats import hypergeom

    population, drawn = 600, 40
    floor = none_floor(population, drawn)
    assert 2.5 * population / drawn <= floor <= 3.2 * population / drawn
    assert hypergeom.pmf(0, population, floor, drawn) > 0.05 >= hypergeom.pmf(0, population, floor + 1, drawn)
    liked = round(0.6 * floor)
    expected = hypergeom.pmf(0, population, liked, drawn)  # about 16%
    rng = np.random.default_rng(3)
    for ranked in (False, True):
        misses = 0
        for _draw in range(1000):
            labels = np.zeros(population, dtype=bool)
            labels[rng.choice(population, liked, replace=False)] = True
            strata = _check(rng, labels, drawn, ranked)
            if not any(s.liked for s in strata):
                misses += 1
                # Margin's interval reaches at least that far (halving its bound here is the bug this catches)
                assert interval(strata)[2] >= floor
        assert abs(misses / 1000 - expected) < 0.04, (ranked, misses, expected)  # the same for either design


def test_what_would_halve_the_interval():
    strata = [Stratum(900, 40, 2, 2, 38)]
    more = ratings_to_halve(strata)
    assert 40 <= more <= 200  # about three times as many again, as 1/√n says
    _point, low, high = interval(grown(strata, (40 + more) / 40))
    before = interval(strata)
    assert high - low <= (before[2] - before[1]) / 2
    assert ratings_to_halve([Stratum(10, 10, 3, 3, 7)]) is None  # nothing left to halve
    assert more_ratings_for(strata, lambda candidate: False) is None


def test_design_of_a_ranked_check():
    ids = [f"p{i}" for i in range(50)]
    ranking = list(reversed(ids))[:40]  # ten papers are not ranked: they go last
    strata = strata_by_rank(ids, ranking)
    assert [paper_id for paper_id, s in zip(ids, strata, strict=True) if s == 0] == ids[40:50]  # the top fifth
    assert allocation([10, 40], 20) == [4, 16]  # in proportion to the sizes
    assert allocation([10, 40], 2) == [1, 1]  # at least one each
    assert allocation([3, 40], 100) == [3, 40]  # never more than a stratum holds
    assert sum(allocation([7, 93], 33)) == 33


def _estimate(upper: int, not_covered: int = 0, remaining: int = 0) -> Estimate:
    return Estimate(remaining, 0, upper, 0.95, 500, 40, 40, 0, not_covered, "random", upper, None)


def test_stopping_rule():
    strata = [Stratum(500, 40, 0, 0, 40)]
    rule = stop_rule(95, _estimate(5), strata, 0.95)
    assert rule.stop and rule.recall_low == pytest.approx(95 / 100)
    rule = stop_rule(60, _estimate(30, remaining=27), strata, 0.95)
    assert not rule.stop and rule.recall_low == pytest.approx(60 / 90)
    assert rule.more_liked == 26  # 0.95 × 90 = 85.5 → find 86 in all
    assert stop_rule(60, _estimate(30, remaining=10), strata, 0.95).more_liked is None  # 26 more are unlikely
    assert rule.more_ratings and rule.more_ratings > 0
    # unseen papers the check does not cover count as possibly liked
    assert not stop_rule(95, _estimate(5, not_covered=10), strata, 0.95).stop
    assert stop_rule(95, None, [], 0.95).recall_low is None


def test_a_ranked_check_through_the_library(library):
    ids = library.ids()
    rng = random.Random(5)
    liked = set(ids[:6])
    for paper_id in ids[:3] + ids[30:33]:
        library.set_rating(paper_id, 5 if paper_id in liked else 1)
    ranking = ids[3:30] + ids[33:]  # the liked papers first, as a good ranker would put them
    changes = draw_check(library, "", ids, 10, rng, ranking)
    sample = library.latest_check("")
    assert library.check_design(sample) == "ranked" and len(changes.papers) == 10
    rows = library.check_strata(sample)
    top = [paper_id for paper_id, stratum, _drawn in rows if stratum == 0]
    assert set(top) == set(ids[3:10])  # the top fifth of the 32 unseen (7), by the ranking
    for paper_id in changes.papers:
        library.set_rating(paper_id, 5 if paper_id in liked else 2)
    result = progress(library, ids, "", target=0.9)
    estimate = result.estimate
    truth = len(liked) - result.found
    assert estimate.design == "ranked" and estimate.rated == 10
    assert estimate.low <= truth <= estimate.high
    assert result.stop.target == 0.9 and result.stop.recall_low is not None
    # growing keeps the design and the population; asking for a random check starts a new one
    draw_check(library, "", ids, 5, rng, ranking)
    assert library.latest_check("") == sample
    draw_check(library, "", ids, 5, rng)
    assert library.latest_check("") != sample and library.check_design(library.latest_check("")) == "random"
