"""The estimate of liked papers a check says a population holds: a point, an interval, and what would narrow it.

A check (db.triage.check) is a sample of the papers of a view that were unseen when it was drawn (its
population), in one or more strata, each stratum a simple random sample without replacement of its papers: one
stratum for a random check, two for a check drawn by rank (the top of the ranking and the rest). With `liked` of
the `rated` papers of a stratum of `size` papers liked, the estimate of the liked papers of the population is
the Horvitz–Thompson sum Σ size · liked / rated (every paper of a stratum has the inclusion probability rated /
size, known from the design; Horvitz & Thompson, JASA 47:663, 1952).

The interval of one stratum is the exact interval of the hypergeometric distribution (the finite-population
Clopper–Pearson interval; Buonaccorsi, The American Statistician 41:215, 1987). Strata are combined by the
method of variance estimates recovery (MOVER; Zou & Donner, Statistics in Medicine 27:1693, 2008): low = point −
√Σ(point_h − low_h)², high = point + √Σ(high_h − point_h)². A stratum's interval is first narrowed to what is
known for certain: it holds at least the liked papers of it screened so far, and at most its size less the
others screened (that never excludes the truth, so coverage is kept). With one stratum this is the exact
interval itself. Coverage is shown by simulation (tests/unit/triage/test_estimate.py, and
tests/benchmarks/bench_triage.py on ICLR 2018).

What no check can do: when n papers drawn from N hold no liked paper, an interval that holds the truth 95% of
the time for every way the liked papers could lie must reach up to about 3·N/n (none_floor): if they were spread
evenly, as a useless ranking leaves them, every design of n draws misses all K of them with the same chance
C(N − K, n) / C(N, n), which exceeds 5% up to K ≈ 3·N/n; and a check that found none looks the same whether the
ranking was sharp or useless. Drawing by rank cannot change that (tests/benchmarks/bench_triage_checks.py
measures five designs on ICLR 2018: none is narrower than the random check by more than a few percent, since
after 20% screened most checks there find no liked paper). Only rating more check papers, or screening what the
interval counts, brings that down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LEVEL = 0.95


@dataclass(frozen=True)
class Stratum:
    """One stratum of a check: `size` papers of the population, `rated` of its drawn papers rated, `liked` of
    those liked; of all its papers screened so far (drawn or not), `known_liked` liked and `known_other` not
    (its count of liked papers is at least `known_liked` and at most `size` − `known_other`)."""

    size: int
    rated: int
    liked: int
    known_liked: int = 0
    known_other: int = 0


def hypergeometric_interval(population: int, drawn: int, liked: int, level: float = LEVEL) -> tuple[int, int]:
    """The exact `level` interval of K, the liked papers in a population of `population`, from `liked` liked
    among `drawn` drawn without replacement: the K for which P(X ≥ liked) and P(X ≤ liked) both exceed
    (1 − level) / 2 (Buonaccorsi 1987). Raises ValueError when the counts are impossible."""
    if not 0 <= liked <= drawn <= population:
        raise ValueError(f"impossible check: {liked} liked of {drawn} drawn from {population}")
    from scipy.stats import hypergeom

    alpha = (1 - level) / 2
    ks = np.arange(liked, population - (drawn - liked) + 1)
    upper_tail = hypergeom.sf(liked - 1, population, ks, drawn)  # P(X >= liked | K)
    lower_tail = hypergeom.cdf(liked, population, ks, drawn)  # P(X <= liked | K)
    low = ks[upper_tail > alpha]
    high = ks[lower_tail > alpha]
    return int(low.min() if len(low) else liked), int(high.max() if len(high) else ks[-1])


def stratum_interval(stratum: Stratum, level: float = LEVEL) -> tuple[float, int, int]:
    """(point, low, high) for the liked papers of one stratum: the Horvitz–Thompson point size · liked / rated
    and the exact `level` interval, both narrowed to what the screened papers of the stratum make certain. A
    stratum with nothing rated spans everything not yet certain. Raises ValueError for impossible counts."""
    s = stratum
    floor, ceiling = s.known_liked, s.size - s.known_other
    if floor > ceiling:
        raise ValueError(f"impossible stratum: {s.known_liked} liked and {s.known_other} others of {s.size}")
    if s.rated == 0:
        return float(floor), floor, ceiling
    low, high = hypergeometric_interval(s.size, s.rated, s.liked, level)
    point = s.size * s.liked / s.rated
    clip = lambda value: min(max(value, floor), ceiling)  # noqa: E731
    return clip(point), clip(low), clip(high)


def interval(strata: list[Stratum], level: float = LEVEL) -> tuple[float, int, int]:
    """(point, low, high): the liked papers of the whole population, a Horvitz–Thompson point and a `level`
    interval, low and high rounded outwards. The strata whose check found no liked paper are bounded together
    (zero_block_bound), the others each by their exact interval, and the parts combined by MOVER (module
    docstring). One stratum: its exact interval."""
    is_zero = [bool(s.rated and not s.liked and len(strata) > 1) for s in strata]
    zero = [s for s, flag in zip(strata, is_zero, strict=True) if flag]
    parts = [stratum_interval(s, level) for s, flag in zip(strata, is_zero, strict=True) if not flag]
    if zero:
        floor = sum(s.known_liked for s in zero)
        parts.append((float(floor), floor, zero_block_bound(zero, level)))
    point = sum(p for p, _low, _high in parts)
    below = math.sqrt(sum((p - low) ** 2 for p, low, _high in parts))
    above = math.sqrt(sum((high - p) ** 2 for p, _low, high in parts))
    floor = sum(s.known_liked for s in strata)
    ceiling = sum(s.size - s.known_other for s in strata)
    low = max(floor, math.floor(point - below + 1e-9))
    high = min(ceiling, math.ceil(point + above - 1e-9))
    return point, low, high


def zero_block_bound(strata: list[Stratum], level: float = LEVEL) -> int:
    """The upper end of the `level` interval of the liked papers of strata whose check found none, bounded
    together: with K liked papers among them, no stratum's draws hitting one has probability at most
    (1 − f)^K, f the smallest share of a stratum drawn, so K ≤ ln((1 − level) / 2) / ln(1 − f) (one bound for
    the block, where a bound per stratum would add up). At least what is known, at most what is possible."""
    alpha = (1 - level) / 2
    fraction = min(s.rated / s.size for s in strata)
    possible = sum(s.size - s.known_other for s in strata)
    known = sum(s.known_liked for s in strata)
    if fraction >= 1:
        return known
    bound = math.floor(math.log(alpha) / math.log1p(-fraction))
    return max(known, min(possible, bound))


def none_floor(population: int, drawn: int) -> int:
    """What a check of `drawn` papers of `population` that found no liked paper cannot rule out, however it was
    drawn: the largest K for which a population whose K liked papers are spread evenly (a useless ranking) gives
    such a check more than a 5% chance of drawing none of them (about 3·population/drawn). An interval whose upper
    end stops below it holds the truth less than 95% of the time for such a population."""
    return hypergeometric_interval(population, drawn, 0, 0.90)[1]


def upper_bound(strata: list[Stratum], confidence: float = LEVEL) -> int:
    """A one-sided `confidence` upper bound of the liked papers of the population (the high end of the
    two-sided 1 − 2·(1 − confidence) interval)."""
    return interval(strata, 1 - 2 * (1 - confidence))[2]


def grown(strata: list[Stratum], factor: float) -> list[Stratum]:
    """The strata as a check `factor` times as large would likely see them: each stratum's rated papers (at
    most its size) and liked ones at the same share. What is known for certain stays as it is."""
    out = []
    for s in strata:
        rated = min(s.size, max(s.rated, round(s.rated * factor)))
        liked = round(s.liked * rated / s.rated) if s.rated else 0
        liked = min(liked, rated)
        known_liked = min(s.size - s.known_other, s.known_liked + liked - s.liked)  # the new draws, rated
        known_other = min(s.size - known_liked, s.known_other + (rated - liked) - (s.rated - s.liked))
        out.append(Stratum(s.size, rated, liked, known_liked, known_other))
    return out


def more_ratings_for(strata: list[Stratum], reached, limit: float = 64.0) -> int | None:
    """How many more check ratings would likely make `reached(grown strata)` true, at the rates seen so far
    (bisection on the growth factor; db.triage.check draws them in the same proportions); 0 when it already
    is, None when not even the whole population rated (or `limit` times the check) would."""
    rated = sum(s.rated for s in strata)
    if reached(strata):
        return 0
    if rated == 0:
        return None
    top = min(limit, max(s.size / s.rated for s in strata if s.rated))
    if not reached(grown(strata, top)):
        return None
    low, high = 1.0, top
    for _step in range(30):
        middle = (low + high) / 2
        low, high = (low, middle) if reached(grown(strata, middle)) else (middle, high)
    return sum(s.rated for s in grown(strata, high)) - rated


def ratings_to_halve(strata: list[Stratum], level: float = LEVEL) -> int | None:
    """About how many more check ratings would halve the interval's width (None when it cannot be halved)."""
    _point, low, high = interval(strata, level)
    if high - low <= 1:
        return None

    def halved(candidate: list[Stratum]) -> bool:
        _p, lo, hi = interval(candidate, level)
        return hi - lo <= (high - low) / 2

    return more_ratings_for(strata, halved)
