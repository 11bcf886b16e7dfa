"""Triage progress of a view: how many liked papers were found, and how many are likely still unseen.

A paper is *screened* when it is read or rated, and *liked* when it is rated 4 or 5 stars. The screening
order is the order in which papers were first read or rated (the library's change log; papers whose first
look predates the log come first, by their annotation time). The gain curve is the number of liked papers
after each screened one; the random-order line is what screening the same view in random order would be
expected to find by then (at the estimated share of liked papers, else at the share found so far).

What is left is estimated from a random check, as in the sampling-based stopping rules of technology-assisted
review (Callaghan & Müller-Hansen, "Statistical stopping criteria for automated screening in systematic
reviews", Systematic Reviews 9:273, 2020; Lewis, Yang & Frieder, "Certifying one-phase technology-assisted
reviews", CIKM 2021): the user rates a simple random sample drawn from the papers of the view that were unseen
when the check was drawn (its population, kept in the library). With k liked among n rated of the N papers of
the population, the number K of liked papers the population held has the exact 95% interval of the
hypergeometric distribution (the finite-population Clopper–Pearson interval: every K for which k is not in
either 2.5% tail; Buonaccorsi, "A note on confidence intervals for proportions in finite populations", The
American Statistician 41:215, 1987). The liked papers still unseen are K less those of the population found
since, so their interval is exact too, however the screening went on after the draw. Papers added to the view
after the draw are not covered, and the estimate says how many there are. Drawing more papers into the same
check keeps it one simple random sample of the same population (a paper screened meanwhile counts at once).

The stopping suggestion uses that interval when there is a check (the share of liked papers found is at
least found / (found + upper bound)); without one, the knee method (Cormack & Grossman, "Engineering quality
and reliability in technology-assisted review", SIGIR 2016): the gain curve's knee is the point farthest
above the line from the origin to the last point, and screening may stop once the slope before the knee is at
least 156 − min(found, 150) times the slope after it (with one liked paper added after it), after at least
150 papers. The next-100 figure is the upper end of the Clopper–Pearson 95% interval of the yield of the last
100 screened, times 100 (capped by what is left): a ranked queue rarely yields more than it just did, and often
less, so only the upper end is stated (the lower end held in a third of the benchmark's checkpoints only).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import asdict, dataclass, field

import numpy as np

from db.changes import Changes
from db.library.library import Library
from db.query_kind import without_kinds

LIKED = (4, 5)
LEVEL = 0.95
CHECK_SIZE = 20
NEXT = 100
KNEE_MIN_SCREENED = 150
STOP_RECALL = 0.9  # suggest stopping once at least this share of the liked papers is likely found
_READ_FILTER = re.compile(r"(?i)(?:^|(?<=\s))read:(?:yes|no|true|false)(?=\s|$)")


@dataclass
class Estimate:
    """Liked papers still unseen: `remaining` (point), `low`–`high` (the `level` interval). From a check
    drawn from `population` unseen papers, `rated` of its `drawn` papers screened, `liked` of them liked;
    `not_covered` unseen papers of the view were added after the draw."""

    remaining: int
    low: int
    high: int
    level: float
    population: int
    drawn: int
    rated: int
    liked: int
    not_covered: int = 0


@dataclass
class Progress:
    """The triage progress of the papers of `scope` (a query text; "" for the whole library).

    `curve[i]` is the number of liked papers among the first i + 1 screened; `random_line` the slope of the
    random-order line (liked per screened paper); `next_low`/`next_high` the likely liked papers among the next
    `next_size` recommended; `knee_stop` the knee method's verdict; `suggestion` one sentence for the user."""

    scope: str
    total: int
    screened: int
    found: int
    curve: list[int]
    random_line: float
    estimate: Estimate | None
    check_to_rate: list[str]
    next_size: int
    next_low: int
    next_high: int
    knee_stop: bool
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


def latest_check(library: Library, scope: str) -> int | None:
    return library.latest_check(scope)


def estimate(library: Library, scope: str, ids: list[str], screened: dict[str, bool]) -> tuple[Estimate | None,
                                                                                             list[str]]:
    """The estimate from the latest check of `scope` (None without one or before a drawn paper is rated), and
    the drawn papers still to rate, in draw order."""
    sample = latest_check(library, scope)
    if sample is None:
        return None, []
    rows = library.check_papers(sample)
    population = {paper_id for paper_id, _drawn in rows}
    drawn = [paper_id for paper_id, was_drawn in rows if was_drawn]
    to_rate = [paper_id for paper_id in drawn if paper_id not in screened]
    rated = [paper_id for paper_id in drawn if paper_id in screened]
    if not rated:
        return None, to_rate
    liked = sum(screened[paper_id] for paper_id in rated)
    low, high = hypergeometric_interval(len(population), len(rated), liked)
    found_since = sum(1 for paper_id, is_liked in screened.items() if is_liked and paper_id in population)
    unseen_in_population = sum(1 for paper_id in population if paper_id not in screened)
    point = liked / len(rated) * len(population)
    clip = lambda value: int(max(0, min(unseen_in_population, value)))  # noqa: E731
    not_covered = sum(1 for paper_id in ids if paper_id not in screened and paper_id not in population)
    return Estimate(clip(round(point - found_since)), clip(low - found_since), clip(high - found_since), LEVEL,
                    len(population), len(drawn), len(rated), liked, not_covered), to_rate


def progress(library: Library, ids: list[str], scope: str = "", interest: str | None = None) -> Progress:
    """The progress of the view `ids` (the papers `scope` finds): liked means rated 4–5, or for an `interest`
    (a tag) accepted into it; the random check is the view's either way, each paper of it judged by that."""
    order = screening(library, ids, interest)
    screened = dict(order)
    curve = list(np.cumsum([liked for _paper, liked in order]).tolist()) if order else []
    found = curve[-1] if curve else 0
    total, seen = len(ids), len(order)
    unseen = total - seen
    found_estimate, to_rate = estimate(library, scope, ids, screened)
    window = [liked for _paper, liked in order[-NEXT:]]
    low_rate, high_rate = clopper_pearson(sum(window), len(window))
    size = min(NEXT, unseen)
    next_low, next_high = math.floor(low_rate * size), math.ceil(high_rate * size)
    if found_estimate is not None:
        next_high = min(next_high, found_estimate.high + found_estimate.not_covered)
        next_low = min(next_low, next_high)
    liked_total = found + found_estimate.remaining if found_estimate else found
    result = Progress(scope, total, seen, found, curve, liked_total / total if total else 0.0, found_estimate,
                      to_rate, size, next_low, next_high, knee_stop(curve), unseen=unseen, interest=interest)
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
    estimate_ = p.estimate
    if estimate_ is None:
        text = (f"Rate {len(p.check_to_rate)} more papers of the random check to estimate what is left."
                if p.check_to_rate else f"Rate {CHECK_SIZE} random unseen papers to estimate how many liked papers "
                                         "are left.")
        if p.knee_stop:
            text += " The knee method suggests you can stop: the recent papers held few you liked."
        return text
    found_share = p.found / (p.found + estimate_.high) if p.found + estimate_.high else 1.0
    nxt = f"the next {p.next_size} recommended are likely to hold at most {p.next_high}"
    if found_share >= STOP_RECALL and not estimate_.not_covered:
        return (f"You can stop: you have likely found at least {found_share:.0%} of the papers you would like "
                f"({nxt}).")
    more = " Draw more check papers to tighten the estimate." if estimate_.high - estimate_.low > 10 else ""
    return f"Keep going: up to {estimate_.high} liked papers may be unseen; {nxt}.{more}"


def draw_check(library: Library, scope: str, ids: list[str], size: int = CHECK_SIZE,
               rng: random.Random | None = None) -> Changes:
    """Draw `size` random papers for the user to rate: into the latest check of `scope` when its population
    still has undrawn papers that are unseen (so the check stays one simple random sample), else into a new check
    whose population is the view's unseen papers now. Returns the library's change (nothing when every paper of
    the view is screened)."""
    rng = rng or random.SystemRandom()
    screened = {paper_id for paper_id, _liked in screening(library, ids)}
    sample = latest_check(library, scope)
    if sample is not None:
        rows = library.check_papers(sample)
        undrawn = [paper_id for paper_id, drawn in rows if not drawn]
        if any(paper_id not in screened for paper_id in undrawn):
            # a simple random sample of the same population, grown: papers screened meanwhile may be drawn
            # too (their ratings count at once), so fewer than `size` may be left to rate
            chosen = rng.sample(undrawn, min(size, len(undrawn)))
            return library.add_check_sample(scope, [], chosen, sample_id=sample)
    unseen = [paper_id for paper_id in ids if paper_id not in screened]
    if not unseen:
        from db.changes import NOTHING

        return NOTHING
    return library.add_check_sample(scope, unseen, rng.sample(unseen, min(size, len(unseen))))


def check_ids(library: Library, scope: str) -> list[str]:
    """The papers drawn in the latest check of `scope`, those still to rate first, each group in draw order."""
    sample = latest_check(library, scope)
    if sample is None:
        return []
    drawn = [paper_id for paper_id, was_drawn in library.check_papers(sample) if was_drawn]
    seen = {row[0] for row in library.screened()}
    return [i for i in drawn if i not in seen] + [i for i in drawn if i in seen]
