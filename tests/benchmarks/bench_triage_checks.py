"""Issue 29's figures: check designs side by side on the same screening runs, and the stopping rule.

Run through bench_triage (the library, topics and seeds are its):

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_triage.py --estimate [--runs 10] [--jobs 3] [--cache DIR]

Each run screens one paper at a time from the top of `is:recommended` (as bench_triage.simulate), with the
stopping rule running for real beside it (a random check of STOP_CHECK at 10% screened, rated; the rule looked at
every STOP_EVERY papers; the check grown when the rule says m ≤ STOP_GROW_MAX more ratings would do). At 10%, 20%
and 30% screened the run keeps a snapshot: the unseen papers, the recommender's ranking of that moment, and
(LATER papers of screening on) what was screened by then. Every design below is then drawn REPLICATES times at
each snapshot and size (the same rankings for all designs), rated from the topic's labels, and its stated 95%
interval of liked papers still unseen (db.triage.estimate.interval, Margin's own) compared with the truth, at the
draw and LATER papers later (papers of the check's population screened meanwhile made certain, as in Margin).

Designs (every unseen paper has a known, non-zero chance):
- random: Margin's default, one simple random sample (exact hypergeometric interval).
- ranked: Margin's "by rank" (db.triage.check: the recommender's top fifth and the rest, proportional shares).
- top-heavy: the same two strata, half of the draws in the top fifth (four times its proportional share).
- geometric: four strata by rank (top 5%, next 10%, next 25%, the last 60%), 15/15/20/50% of the draws (a
  stepwise probability-proportional-to-rank design; Horvitz–Thompson point, exact per stratum, MOVER).
- geometric, monotone: the same draws; the strata at the bottom whose check found no liked paper bounded as one
  pooled sample (hypergeometric on their papers and draws together) instead of by the least-sampled one. Valid
  only if liked papers are no denser further down the ranking (a ranker no worse than random at any depth).
`found none` is the share of checks with no liked paper among their draws: then any interval that holds the
truth 95% of the time whatever the ranking (in particular for a useless one, tests/unit/triage) must reach
about 3.7·N/n, N the population and n the draws of the least-sampled stratum (random: the whole check).
"""

from __future__ import annotations

import math
import os
import pickle
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from db.triage.check import allocation, strata_by_rank
from db.triage.estimate import Stratum, hypergeometric_interval, interval

CHECKPOINTS = (0.10, 0.20, 0.30)
SIZES = (40, 100)
REPLICATES = 5  # independent checks of each design and size at each snapshot
LATER = 100  # the same checks again once this many more papers were screened from the queue
STOP_CHECK = 40  # the stopping rule's first check (random, the default), drawn at 10% screened
STOP_EVERY = 20  # the rule is looked at after every this many papers screened
STOP_GROW_MAX = 400  # the check is grown when the rule says this many more ratings would do
STOP_LIMIT = 0.6  # a run that has not stopped by this share screened ends there (recall then counted)
GEOMETRIC = ((0.05, 0.15, 0.40, 1.0), (0.15, 0.15, 0.20, 0.50))  # cumulative rank shares, shares of the draws
DESIGNS = ("random", "ranked", "top-heavy", "geometric", "geometric, monotone")


# ----------------------------------------------------------------- the runs (the expensive part)
def run(library, recommender, relevant: set[str], seed: int, label: str, target: float) -> dict:
    """One screening run: snapshots at CHECKPOINTS (unseen ids, ranking, labels; `later`: screened LATER papers
    on) and the stopping rule's outcome (recall and papers screened at the stop)."""
    from db.triage.progress import draw_check, progress

    ids = library.ids()
    total = len(ids)
    rng = random.Random(seed)
    screened: dict[str, bool] = {}

    def screen(paper_id: str) -> None:
        library.set_rating(paper_id, 5 if paper_id in relevant else 1)
        library.set_read(paper_id, True)
        screened[paper_id] = paper_id in relevant

    screen(rng.choice(sorted(relevant)))
    screen(rng.choice(sorted(set(ids) - relevant)))
    snapshots, stop, next_look = [], None, None
    stop_scope = f"stop-{label}-{seed}"
    while len(screened) < total:
        for share in CHECKPOINTS:
            if share not in {s["share"] for s in snapshots} and len(screened) >= round(share * total):
                ranking = recommender.recommend(limit=None).ids
                unseen = [paper_id for paper_id in ids if paper_id not in screened]
                snapshots.append({"share": share, "at": len(screened), "unseen": unseen, "ranking": ranking,
                                  "liked": [paper_id in relevant for paper_id in unseen]})
                if share == CHECKPOINTS[0]:
                    for paper_id in draw_check(library, stop_scope, ids, STOP_CHECK, rng).papers:
                        screen(paper_id)
                    next_look = len(screened)
        for snapshot in snapshots:
            if "later" not in snapshot and len(screened) >= snapshot["at"] + LATER:
                snapshot["later"] = set(screened)
        if next_look is not None and stop is None and len(screened) >= next_look:
            next_look = len(screened) + STOP_EVERY
            result = progress(library, ids, stop_scope, target=target)
            if result.stop.stop or len(screened) >= STOP_LIMIT * total:
                stop = {"stopped": result.stop.stop, "recall": len(relevant & set(screened)) / len(relevant),
                        "screened": len(screened)}
            elif not result.check_to_rate and result.stop.more_ratings and result.stop.more_ratings <= STOP_GROW_MAX:
                for paper_id in draw_check(library, stop_scope, ids, result.stop.more_ratings, rng).papers:
                    screen(paper_id)
        if stop is not None and len(snapshots) == len(CHECKPOINTS) and all("later" in s for s in snapshots):
            break
        queue = recommender.recommend(limit=1).ids
        screen(queue[0] if queue else next(i for i in ids if i not in screened))
    if stop is None:
        stop = {"stopped": False, "recall": 1.0, "screened": len(screened)}
    return {"snapshots": snapshots, "stop": stop}


def topic_runs(cell: tuple) -> tuple[str, list[dict]]:
    """The runs of one topic (seeds 0..runs−1) in a library of its own; a run found in `cache` is reused."""
    from db.recommend.recommender import Recommender
    from tests.benchmarks.bench_triage import TOPICS, make_library, reset

    name, runs, target, cache = cell
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        library = recommender = None
        for seed in range(runs):
            path = cache / f"{name.replace(' ', '_')}-{seed}-{target}.pickle" if cache else None
            if path and path.exists():
                out.append(pickle.loads(path.read_bytes()))
                continue
            if library is None:
                library, keywords = make_library(Path(tmp) / "iclr")
                recommender = Recommender(library)
                recommender.refresh()
                relevant = {paper_id for paper_id, words in keywords.items() if TOPICS[name](words)}
            reset(library)
            started = time.perf_counter()
            out.append(run(library, recommender, relevant, seed, name, target))
            print(f"  {name} seed {seed}: {time.perf_counter() - started:.0f} s, stop {out[-1]['stop']}", flush=True)
            if path:
                path.write_bytes(pickle.dumps(out[-1]))
        if library is not None:
            library.close()
    return name, out


# ----------------------------------------------------------------- the designs (cheap: drawn many times)
def strata_of(design: str, unseen: Sequence[str], ranking: Sequence[str]) -> tuple[list[int], list[float] | None]:
    """Each unseen paper's stratum and the design's shares of the draws (None: in proportion to the sizes)."""
    if design == "random":
        return [0] * len(unseen), None
    if design in ("ranked", "top-heavy"):
        return strata_by_rank(unseen, ranking), None if design == "ranked" else [0.5, 0.5]
    position = {paper_id: i for i, paper_id in enumerate(ranking)}
    order = sorted(range(len(unseen)), key=lambda i: (position.get(unseen[i], len(position)), i))
    cuts, shares = GEOMETRIC
    bounds = [0] + [max(1, math.ceil(c * len(unseen))) for c in cuts[:-1]] + [len(unseen)]
    strata = [0] * len(unseen)
    for h in range(len(cuts)):
        for i in order[bounds[h]:bounds[h + 1]]:
            strata[i] = h
    return strata, list(shares)


def shares_allocation(sizes: list[int], total: int, shares: list[float]) -> list[int]:
    """`total` draws shared out by fixed `shares` (at least one each, at most a stratum's size)."""
    counts = [min(size, max(1, round(total * share))) for size, share in zip(sizes, shares, strict=True)]
    while sum(counts) > total:
        counts[max(range(len(counts)), key=lambda h: counts[h])] -= 1
    while sum(counts) < min(total, sum(sizes)):
        counts[max((h for h in range(len(sizes)) if counts[h] < sizes[h]), key=lambda h: sizes[h] - counts[h])] += 1
    return counts


def monotone_interval(strata: list[Stratum]) -> tuple[float, int, int]:
    """As db.triage.estimate.interval, but the strata at the bottom of the ranking whose check found no liked
    paper bounded as one pooled sample (valid if liked papers are no denser further down)."""
    bottom = len(strata)
    while bottom > 0 and strata[bottom - 1].rated and not strata[bottom - 1].liked:
        bottom -= 1
    if bottom == len(strata) or len(strata) == 1:
        return interval(strata)
    block = strata[bottom:]
    known = sum(s.known_liked for s in block)
    pooled = hypergeometric_interval(sum(s.size for s in block), sum(s.rated for s in block), 0)[1]
    high = max(known, min(sum(s.size - s.known_other for s in block), pooled))
    parts = [interval([s]) for s in strata[:bottom]] + [(float(known), known, high)]
    point = sum(p for p, _low, _high in parts)
    below = math.sqrt(sum((p - low) ** 2 for p, low, _high in parts))
    above = math.sqrt(sum((hi - p) ** 2 for p, _low, hi in parts))
    return point, max(0, math.floor(point - below + 1e-9)), math.ceil(point + above - 1e-9)


def judge(snapshot: dict, design: str, size: int, rng: np.random.Generator) -> dict:
    """One check of `design` and `size` drawn at `snapshot`: truth, interval and width of the liked papers still
    unseen, at the draw and (`later`) LATER papers on."""
    unseen, liked = snapshot["unseen"], np.array(snapshot["liked"])
    strata, shares = strata_of(design, unseen, snapshot["ranking"])
    strata = np.array(strata)
    sizes = [int((strata == h).sum()) for h in range(strata.max() + 1)]
    counts = allocation(sizes, size) if shares is None else shares_allocation(sizes, size, shares)
    drawn = np.zeros(len(unseen), dtype=bool)
    for h, count in enumerate(counts):
        drawn[rng.choice(np.flatnonzero(strata == h), count, replace=False)] = True
    bound = monotone_interval if design.endswith("monotone") else interval
    record = {"found_none": not liked[drawn].any()}
    for when, extra in (("draw", np.zeros(len(unseen), dtype=bool)),
                        ("later", np.array([i in snapshot.get("later", ()) for i in unseen]))):
        if when == "later" and "later" not in snapshot:
            continue
        seen = drawn | extra
        parts = [Stratum(sizes[h], counts[h], int(liked[drawn & (strata == h)].sum()),
                         int(liked[seen & (strata == h)].sum()), int((~liked[seen & (strata == h)]).sum()))
                 for h in range(len(sizes))]
        _point, low, high = bound(parts)
        found = int(liked[seen].sum())
        still = int((~seen).sum())
        low, high = max(0, min(still, low - found)), max(0, min(still, high - found))
        truth = int(liked[~seen].sum())
        record[when] = (low <= truth <= high, high - low)
    return record


def evaluate(results: dict[str, list[dict]], seed: int = 29) -> dict:
    """Every design drawn REPLICATES times at every snapshot and size: (topic, design, size, share) → records."""
    rng = np.random.default_rng(seed)
    out: dict[tuple, list[dict]] = {}
    for name, runs in results.items():
        for one in runs:
            for snapshot in one["snapshots"]:
                for size in SIZES:
                    for design in DESIGNS:
                        for _replicate in range(REPLICATES):
                            out.setdefault((name, design, size, snapshot["share"]), []).append(
                                judge(snapshot, design, size, rng))
    return out


# ----------------------------------------------------------------- the table
def table(runs: int, topics: list[str], target: float, jobs: int = 1, cache: Path | None = None) -> None:
    """Issue 29's figures: every design × size × topic (coverage, mean width, ratio to random, found none) at
    the draw and LATER papers on, pooled; then the stopping rule."""
    from concurrent.futures import ProcessPoolExecutor

    print(f"ICLR 2018, {runs} seed sets per topic; checks of {' and '.join(map(str, SIZES))} at "
          f"{', '.join(f'{s:.0%}' for s in CHECKPOINTS)} screened, {REPLICATES} of each design at each; "
          f"load {os.getloadavg()}", flush=True)
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = dict(pool.map(topic_runs, [(name, runs, target, cache) for name in topics]))
    print(f"runs: {time.perf_counter() - started:.0f} s; load {os.getloadavg()}", flush=True)
    started = time.perf_counter()
    checks = evaluate(results)
    print(f"designs: {time.perf_counter() - started:.0f} s", flush=True)

    def pick(design, size, topic=None, share=None):
        return [r for (t, d, n, s), rs in checks.items() if d == design and n == size
                and topic in (None, t) and share in (None, s) for r in rs]

    def cell(records, base, when="draw"):
        got = [r[when] for r in records if when in r]
        if not got:
            return "—"
        inside, width = sum(ok for ok, _w in got), statistics.mean(w for _ok, w in got)
        ratio = width / statistics.mean(w for _ok, w in (r[when] for r in base if when in r))
        return f"{inside}/{len(got)} ({inside / len(got):.1%}), {width:.1f} (×{ratio:.2f})"

    for when, title in (("draw", "at the draw"), ("later", f"{LATER} papers of screening later")):
        print(f"\nTruth inside the 95% interval of liked papers still unseen, {title}: inside/checks (coverage), "
              "mean width (× the random check's at the same size and runs); found none = checks with no liked "
              "paper drawn")
        print("| design | ratings | " + " | ".join(topics) + " | all | found none (all) |")
        print("|---|---:|" + "---|" * (len(topics) + 2))
        for size in SIZES:
            for design in DESIGNS:
                cells = [cell(pick(design, size, t), pick("random", size, t), when) for t in topics]
                every = pick(design, size)
                none = sum(r["found_none"] for r in every)
                print(f"| {design} | {size} | " + " | ".join(cells) + f" | {cell(every, pick('random', size), when)}"
                      f" | {none}/{len(every)} ({none / len(every):.0%}) |")
    print("\nBy checkpoint, all topics, at the draw:")
    print("| design | ratings | " + " | ".join(f"at {s:.0%}" for s in CHECKPOINTS) + " |")
    print("|---|---:|" + "---|" * len(CHECKPOINTS))
    for size in SIZES:
        for design in DESIGNS:
            print(f"| {design} | {size} | " + " | ".join(
                cell(pick(design, size, share=s), pick("random", size, share=s)) for s in CHECKPOINTS) + " |")
    print(f"\nStopping rule (target {target:.0%}, 95% confidence; a random check of {STOP_CHECK} at 10%, grown when "
          f"the rule says at most {STOP_GROW_MAX} more ratings would do; a run not stopped by {STOP_LIMIT:.0%} "
          "screened ends there):")
    print("| topic | said stop | recall ≥ target when it said stop | recall ≥ target, all runs | recall at the stop "
          "(or the limit), mean (min) | papers screened incl. check, mean (range) |\n|---|---:|---:|---:|---|---|")
    for name, runs_ in list(results.items()) + [("all", [r for rs in results.values() for r in rs])]:
        stops = [one["stop"] for one in runs_]
        said = [s for s in stops if s["stopped"]]
        print(f"| {name} | {len(said)}/{len(stops)} | {sum(s['recall'] >= target for s in said)}/{len(said)} | "
              f"{sum(s['recall'] >= target for s in stops)}/{len(stops)} | "
              f"{statistics.mean(s['recall'] for s in stops):.3f} ({min(s['recall'] for s in stops):.3f}) | "
              f"{statistics.mean(s['screened'] for s in stops):.0f} ({min(s['screened'] for s in stops)}–"
              f"{max(s['screened'] for s in stops)}) |")
    print(f"load after: {os.getloadavg()}")
