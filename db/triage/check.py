"""Drawing a check of triage progress: papers of a view that are unseen, for the user to rate, so that
db.triage.estimate can say how many liked papers are still unseen.

Two designs, both with a known chance for every unseen paper (kept in the library: each paper's stratum, and
how many of each stratum were drawn):
- **random** (the default): one simple random sample of the unseen papers (Callaghan & Müller-Hansen,
  Systematic Reviews 9:273, 2020), whose interval is exact and needs no ranking at all.
- **ranked** (chosen in the dock or with `--ranked`; it needs a liked paper): the unseen papers are ordered by
  the recommender's ranking of the moment (papers it does not rank come last) and split into two strata, the
  top fifth and the rest; each stratum is a simple random sample of its papers, the draws shared out in
  proportion to the strata's sizes. The estimate keeps the top's count apart from the rest's, so screening the
  top of the queue later makes that stratum's count certain. Measured on ICLR 2018 it is no narrower than the
  random check, at the draw or 100 papers later, nor are the other designs tried (a top-heavy share, geometric
  strata; tests/benchmarks/bench_triage_checks.py); db.triage.estimate says why no check can be once liked
  papers are rare among the unseen (none_floor).

Drawing again grows the same check while its population still has undrawn unseen papers (the shares follow the
check's new size), so it stays one sample of the same population.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from db.changes import NOTHING, Changes
from db.library.library import Library

CHECK_SIZE = 20
TOP_SHARE = 0.2  # the first stratum of a ranked check: this share of the unseen papers, from the top
RANKED, RANDOM = "ranked", "random"


def ranking_for(library: Library, ids: Sequence[str]) -> list[str] | None:
    """The papers of `ids` in the recommender's order (is:recommended; those it does not rank are left out),
    or None when nothing is liked yet (no ranking to follow)."""
    from db.recommend.recommender import NoPositivesError, Recommender

    wanted = set(ids)
    try:
        ranked = Recommender(library).recommend(limit=None).ids
    except NoPositivesError:
        return None
    return [paper_id for paper_id in ranked if paper_id in wanted]


def strata_by_rank(unseen: Sequence[str], ranking: Sequence[str]) -> list[int]:
    """The stratum of each paper of `unseen` (parallel list): 0 for the top TOP_SHARE of them in `ranking`'s
    order (unseen papers missing from `ranking` last, in their own order), 1 for the rest."""
    position = {paper_id: i for i, paper_id in enumerate(ranking)}
    ordered = sorted(range(len(unseen)), key=lambda i: (position.get(unseen[i], len(position)), i))
    top = math.ceil(TOP_SHARE * len(unseen)) if len(unseen) > 1 else len(unseen)
    strata = [1] * len(unseen)
    for i in ordered[:top]:
        strata[i] = 0
    return strata


def allocation(sizes: Sequence[int], total: int) -> list[int]:
    """How many of `total` draws each stratum of `sizes` papers gets: in proportion to its size (largest
    remainders), at least one each while draws last, never more than its size. The shares depend on the sizes
    and the total only, never on what the check found, so each stratum stays a simple random sample."""
    total = min(total, sum(sizes))
    weights = [float(size) for size in sizes]
    share = [total * w / sum(weights) if sum(weights) else 0 for w in weights]
    least = 1 if total >= len(sizes) else 0
    counts = [min(size, max(least if size else 0, math.floor(s))) for size, s in zip(sizes, share, strict=True)]
    while sum(counts) > total:
        counts[max(range(len(counts)), key=lambda h: counts[h] - share[h])] -= 1
    while sum(counts) < total:
        open_ = [h for h in range(len(sizes)) if counts[h] < sizes[h]]
        counts[max(open_, key=lambda h: share[h] - counts[h])] += 1
    return counts


def draw_check(library: Library, scope: str, ids: list[str], size: int = CHECK_SIZE,
               rng: random.Random | None = None, ranking: Sequence[str] | None = None) -> Changes:
    """Draw `size` unseen papers of the view `ids` (the papers `scope` finds) for the user to rate.

    With `ranking` (the view's papers in the recommender's order, ranking_for), a ranked check, else a random
    one. The draws go into the latest check of `scope` when it has that design and its population still has
    undrawn unseen papers (it grows: one sample of the same population), else into a new check whose population
    is the view's unseen papers now. Returns the library's change (nothing when every paper is screened)."""
    rng = rng or random.SystemRandom()
    design = RANDOM if ranking is None else RANKED
    wanted = set(ids)
    screened = {paper_id for paper_id, *_rest in library.screened() if paper_id in wanted}  # read or rated
    sample = library.latest_check(scope)
    if sample is not None and library.check_design(sample) == design:
        rows = library.check_strata(sample)
        if any(not drawn and paper_id not in screened for paper_id, _stratum, drawn in rows):
            # grown: papers screened meanwhile may be drawn too (their ratings count at once)
            return library.add_check_sample(scope, [], _grow(rows, size, rng), sample_id=sample)
    unseen = [paper_id for paper_id in ids if paper_id not in screened]
    if not unseen:
        return NOTHING
    strata = strata_by_rank(unseen, ranking) if ranking is not None else [0] * len(unseen)
    rows = [(paper_id, stratum, False) for paper_id, stratum in zip(unseen, strata, strict=True)]
    chosen = _grow(rows, size, rng)
    return library.add_check_sample(scope, unseen, chosen, design=design, strata=strata)


def _grow(rows: list[tuple[str, int, bool]], size: int, rng: random.Random) -> list[str]:
    """`size` more papers of a check's population `rows` (id, stratum, drawn): each stratum's share of the
    check's new size (allocation), less what it already has, drawn at random from its undrawn papers."""
    count = max(stratum for _id, stratum, _drawn in rows) + 1
    papers = [[paper_id for paper_id, s, _drawn in rows if s == h] for h in range(count)]
    drawn = [sum(1 for _id, s, was in rows if s == h and was) for h in range(count)]
    target = allocation([len(p) for p in papers], sum(drawn) + size)
    chosen = []
    for h in range(count):
        undrawn = [paper_id for paper_id, s, was in rows if s == h and not was]
        chosen += rng.sample(undrawn, min(len(undrawn), max(0, target[h] - drawn[h])))
    return chosen


def check_ids(library: Library, scope: str | None) -> list[str]:
    """The papers drawn in the latest check of `scope` (None: of any scope), those still to rate first, each group
    in draw order."""
    sample = library.latest_check(scope)
    if sample is None:
        return []
    drawn = [paper_id for paper_id, was_drawn in library.check_papers(sample) if was_drawn]
    seen = {row[0] for row in library.screened()}
    return [i for i in drawn if i not in seen] + [i for i in drawn if i in seen]
