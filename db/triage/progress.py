"""Triage progress of a view: how many liked papers were found, and how many are likely still unseen.

A paper is *screened* when it is read or rated, and *liked* when it is rated 4 or 5 stars. The screening
order is the order in which papers were first read or rated (the library's change log; papers whose first
look predates the log come first, by their annotation time). The gain curve is the number of liked papers
after each screened one; the random-order line is what screening the same view in random order would be
expected to find by then (at the estimated share of liked papers, else at the share found so far).

What is left is estimated from a check (db.triage.check draws it, db.triage.estimate computes the figures), as
in the sampling-based stopping rules of technology-assisted review (Callaghan & Müller-Hansen, Systematic
Reviews 9:273, 2020; Lewis, Yang & Frieder, CIKM 2021): the user rates papers drawn from those of the view that
were unseen when the check was drawn (its population, kept in the library), at random or by rank. The liked
papers the population held are estimated with their interval; the liked papers still unseen are that less the
liked papers of the population found since, so the interval holds however the screening went on after the draw.
Papers added to the view after the draw are not covered, and the estimate says how many there are.

The stopping rule: "with 95% confidence at least R of the liked papers are found" holds when found / (found +
U) ≥ R, U being the one-sided 95% upper bound of the liked papers still unseen (plus every unseen paper the
check does not cover). What it would take otherwise: finding d more liked papers (found + U stays the same as
liked papers of the population are found, so d = ⌈R·(found + U)⌉ − found, offered when the check's point
estimate holds that many), or about m more check
ratings (db.triage.estimate.more_ratings_for, at the rates seen so far). Without a check, the knee method
(Cormack & Grossman, "Engineering quality and reliability in technology-assisted review", SIGIR 2016): the gain
curve's knee is the point farthest above the line from the origin to the last point, and screening may stop
once the slope before the knee is at least 156 − min(found, 150) times the slope after it (with one liked paper
added after it), after at least 150 papers.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field

import numpy as np

from db.library.library import Library
from db.query_kind import without_kinds
from db.system.threads import pin
from db.text.counts import counted
from db.triage.check import CHECK_SIZE, RANDOM, check_ids, draw_check  # noqa: F401 - the module's face
from db.triage.estimate import (  # noqa: F401 - hypergeometric_interval: the module's face
    LEVEL,
    Stratum,
    hypergeometric_interval,
    interval,
    more_ratings_for,
    none_floor,
    ratings_to_halve,
    upper_bound,
)

LIKED = (4, 5)
KNEE_MIN_SCREENED = 150
TARGET = 0.95  # the stopping rule's default: with 95% confidence at least this share of the liked papers found
CONFIDENCE = 0.95
_READ_FILTER = re.compile(r"(?i)(?:^|(?<=\s))read:(?:yes|no|true|false)(?=\s|$)")


@dataclass
class Estimate:
    """Liked papers still unseen: `remaining` (point), `low`–`high` (the `level` interval), `upper` (the
    one-sided 95% upper bound the stopping rule uses). From a check (`design` "random" or "ranked") drawn from
    `population` unseen papers, `rated` of its `drawn` papers screened, `liked` of them liked; `not_covered`
    unseen papers of the view were added after the draw; about `halve` more check ratings would halve the
    interval (None: it cannot be halved); when the check found no liked paper, `none_floor` is how many liked
    papers could still be unseen with a check of this size, however drawn, missing all of them more than 5% of
    the time (db.triage.estimate.none_floor, less those found since), else None."""

    remaining: int
    low: int
    high: int
    level: float
    population: int
    drawn: int
    rated: int
    liked: int
    not_covered: int = 0
    design: str = RANDOM
    upper: int = 0
    halve: int | None = None
    none_floor: int | None = None


@dataclass
class Stop:
    """The stopping rule for `target` (a share): `recall_low`, the share of the liked papers found with 95%
    confidence at least (None without a check); `stop` whether it reaches `target`; else `more_liked`, the liked
    papers still to find, and `more_ratings`, the check ratings, that would likely reach it (None: not by
    that route alone)."""

    target: float
    recall_low: float | None
    stop: bool
    more_liked: int | None = None
    more_ratings: int | None = None


@dataclass
class Progress:
    """The triage progress of the papers of `scope` (a query text; "" for the whole library).

    `curve[i]` is the number of liked papers among the first i + 1 screened; `random_line` the slope of the
    random-order line (liked per screened paper); `knee_stop` the knee method's verdict; `stop` the stopping
    rule; `suggestion` one sentence for the user."""

    scope: str
    total: int
    screened: int
    found: int
    curve: list[int]
    random_line: float
    estimate: Estimate | None
    check_to_rate: list[str]
    knee_stop: bool
    stop: Stop | None = None
    suggestion: str = ""
    unseen: int = field(default=0)
    interest: str | None = None  # the interest whose progress this is (None: liked = rated 4–5)

    def to_json(self) -> dict:
        data = asdict(self)
        data.pop("curve")
        data["curve"] = self.curve
        return data


def scope_of(query: str) -> str:
    """The view a query's progress is about: the query without its recommendation part (`is:recommended`,
    `similar:…`, `is:check`) and read filter, whitespace collapsed (`is:recommended venue:"ICLR 2018"` →
    `venue:"ICLR 2018"`)."""
    text = without_kinds(query)
    return " ".join(_READ_FILTER.sub(" ", text).split())


def screening(library: Library, ids: list[str], interest: str | None = None) -> list[tuple[str, bool]]:
    """The screened papers among `ids` in screening order, each with whether it is liked (rated 4–5; for an
    `interest`, a tag: carrying it, i.e. accepted into it)."""
    wanted = set(ids)
    states = {paper_id: (rating, read) for paper_id, rating, read, _at in library.screened()
              if paper_id in wanted}
    if not states:
        return []
    first = library.first_screened()
    when = {paper_id: at for paper_id, _rating, _read, at in library.screened()}
    order = sorted(states, key=lambda i: (i in first, first.get(i, 0), when.get(i, ""), i))
    if interest is not None:

        carriers = set(library.tagged_ids(interest))
        return [(paper_id, paper_id in carriers) for paper_id in order]
    return [(paper_id, states[paper_id][0] in LIKED) for paper_id in order]


def clopper_pearson(successes: int, trials: int, level: float = LEVEL) -> tuple[float, float]:
    """The exact binomial interval of a rate (Clopper & Pearson 1934); (0, 1) for no trials."""
    if trials == 0:
        return 0.0, 1.0
    from scipy.stats import beta

    alpha = (1 - level) / 2
    low = 0.0 if successes == 0 else float(beta.ppf(alpha, successes, trials - successes + 1))
    high = 1.0 if successes == trials else float(beta.ppf(1 - alpha, successes + 1, trials - successes))
    return low, high


def knee_stop(curve: list[int]) -> bool:
    """The knee method's stopping rule (Cormack & Grossman 2016; module docstring) on a gain curve."""
    screened = len(curve)
    found = curve[-1] if curve else 0
    if screened < KNEE_MIN_SCREENED or found == 0:
        return False
    y = np.asarray(curve, dtype=float)
    x = np.arange(1, screened + 1, dtype=float)
    knee = int(np.argmax(y / found - x / screened))
    at_knee, knee_x = y[knee], x[knee]
    if knee_x >= screened:
        return False
    ratio = (at_knee / knee_x) / ((found - at_knee + 1) / (screened - knee_x))
    return bool(ratio >= 156 - min(found, 150))  # a bool, not numpy.bool_ (json, `is True`)


def check_strata(library: Library, sample: int, screened: dict[str, bool]) -> tuple[list[Stratum], list[str], set[str]]:
    """The strata of check `sample` as the screening `screened` (id → liked) sees them, its drawn papers still
    to rate (draw order) and its population."""
    rows = library.check_strata(sample)
    count = max((stratum for _id, stratum, _drawn in rows), default=-1) + 1
    strata = []
    for h in range(count):
        members = [(paper_id, drawn) for paper_id, stratum, drawn in rows if stratum == h]
        rated = [paper_id for paper_id, drawn in members if drawn and paper_id in screened]
        seen = [paper_id for paper_id, _drawn in members if paper_id in screened]
        liked = sum(screened[paper_id] for paper_id in seen)
        strata.append(Stratum(len(members), len(rated), sum(screened[i] for i in rated), liked, len(seen) - liked))
    to_rate = [paper_id for paper_id, _stratum, drawn in rows if drawn and paper_id not in screened]
    return strata, to_rate, {paper_id for paper_id, _stratum, _drawn in rows}


def estimate(library: Library, scope: str, ids: list[str], screened: dict[str, bool],
             halve: bool = True) -> tuple[Estimate | None, list[str], list]:
    """The estimate from the latest check of `scope` (None without one or before a drawn paper is rated), the
    drawn papers still to rate, in draw order, and the check's strata (db.triage.estimate.Stratum). `halve`
    false leaves out what would halve the interval (a bisection; the benchmark's thousands of checks skip it)."""
    sample = library.latest_check(scope)
    if sample is None:
        return None, [], []
    strata, to_rate, population = check_strata(library, sample, screened)
    rated = sum(s.rated for s in strata)
    if not rated:
        return None, to_rate, strata
    point, low, high = interval(strata, LEVEL)
    found_since = sum(s.known_liked for s in strata)
    unseen_in_population = sum(s.size - s.known_liked - s.known_other for s in strata)
    clip = lambda value: int(max(0, min(unseen_in_population, value)))  # noqa: E731
    not_covered = sum(1 for paper_id in ids if paper_id not in screened and paper_id not in population)
    liked = sum(s.liked for s in strata)
    floor = clip(none_floor(len(population), rated) - found_since) if not liked else None
    return Estimate(clip(round(point - found_since)), clip(low - found_since), clip(high - found_since), LEVEL,
                    len(population), rated + len(to_rate), rated, liked, not_covered,
                    library.check_design(sample), clip(upper_bound(strata, CONFIDENCE) - found_since),
                    ratings_to_halve(strata, LEVEL) if halve else None, floor), to_rate, strata


def stop_rule(found: int, estimate_: Estimate | None, strata: list, target: float = TARGET) -> Stop:
    """The stopping rule for `target` (module docstring) from the found liked papers and the check."""
    if estimate_ is None:
        return Stop(target, None, False)
    total = found + estimate_.upper + estimate_.not_covered
    recall_low = found / total if total else 1.0
    if recall_low >= target:
        return Stop(target, recall_low, True, 0, 0)
    more_liked = math.ceil(target * total - 1e-9) - found
    found_since = sum(s.known_liked for s in strata)

    def reached(candidate) -> bool:
        upper = max(0, upper_bound(candidate, CONFIDENCE) - max(found_since, sum(s.known_liked for s in candidate)))
        whole = found + upper + estimate_.not_covered
        return not whole or found / whole >= target

    more_ratings = more_ratings_for(strata, reached) if not estimate_.not_covered else None
    # finding d more is offered only when the check makes d of them likely (d ≤ its point estimate)
    return Stop(target, recall_low, False, more_liked if more_liked <= estimate_.remaining else None, more_ratings)


def progress(library: Library, ids: list[str], scope: str = "", interest: str | None = None,
             target: float = TARGET) -> Progress:
    """The progress of the view `ids` (the papers `scope` finds): liked means rated 4–5, or for an `interest`
    (a tag) accepted into it; the check is the view's either way, each paper of it judged by that. `target`:
    the stopping rule's share of the liked papers (0 < target ≤ 1)."""
    pin()  # one BLAS and OpenMP thread, as the recommender (db.system.threads)
    order = screening(library, ids, interest)
    screened = dict(order)
    curve = list(np.cumsum([liked for _paper, liked in order]).tolist()) if order else []
    found = curve[-1] if curve else 0
    total, seen = len(ids), len(order)
    unseen = total - seen
    found_estimate, to_rate, strata = estimate(library, scope, ids, screened)
    liked_total = found + found_estimate.remaining if found_estimate else found
    result = Progress(scope, total, seen, found, curve, liked_total / total if total else 0.0, found_estimate,
                      to_rate, knee_stop(curve), stop_rule(found, found_estimate, strata, target), unseen=unseen,
                      interest=interest)
    result.suggestion = suggestion(result)
    return result


def suggestion(p: Progress) -> str:
    """One sentence: go on, check, or stop (English; the window translates its own)."""
    if p.total == 0:
        return "No papers in this view."
    if p.unseen == 0:
        return "Every paper of this view has been screened."
    if p.found == 0:
        return "Rate the papers you like 4 or 5 stars; progress is counted from the first one."
    if p.estimate is None:
        text = (f"Rate {counted(len(p.check_to_rate), 'more paper')} of the check to estimate what is left."
                if p.check_to_rate else f"Draw a check of {CHECK_SIZE} unseen papers and rate them to estimate how "
                                         "many liked papers are left.")
        if p.knee_stop:
            text += " The knee method suggests you can stop: the recent papers held few you liked."
        return text
    stop = p.stop
    if stop.stop:
        return f"Stop now: with 95% confidence at least {stop.target:.0%} of the liked papers are found."
    ways = []
    if stop.more_liked is not None:
        ways.append(f"find {counted(stop.more_liked, 'more liked paper')}")
    if stop.more_ratings:
        ways.append(f"rate about {counted(stop.more_ratings, 'more check paper')}")
    how = " or ".join(ways) if ways else "screen on (the check cannot show it by itself)"
    return (f"Go on: with 95% confidence at least {stop.recall_low:.0%} of the liked papers are found; to show "
            f"{stop.target:.0%}, {how}.")
