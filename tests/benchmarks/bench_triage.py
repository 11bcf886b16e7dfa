"""Triage simulation on ICLR 2018 (issue 16): how much screening Margin's queue saves, and whether the estimate
of liked papers still unseen holds the truth.

Not part of the test run. From the project folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_triage.py            # 10 runs per topic
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_triage.py --runs 3   # quicker

The shared ICLR 2018 list (995 papers with abstracts) is imported into a fresh library. Three topics are
labelled from the authors' OpenReview keywords, which never reach the model (the text is title + abstract):
reinforcement learning, GANs, interpretability. A simulated researcher starts from a seed of one liked and one
unliked paper of the topic (ten seed sets per topic, as the side-by-side with ASReview used), then screens one
paper at a time from the top of `is:recommended`, rating a paper of the topic 5 stars and any other 1 star.
The queue is recomputed after every rating, through the same Recommender the window uses.

Figures per topic (mean over the runs, min–max in brackets):
- WSS@95: work saved over random order at 95% recall, 1 − screened/N − 0.05 at the point 95% of the topic's
  papers are found (random order ≈ 0).
- recall at 10/20/30% screened.
- The estimate: at 10%, 20% and 30% screened the researcher presses "Rate 20 random unseen papers"
  (db.triage.progress.draw_check): at 10% it draws a check of 20 of the papers then unseen, at 20% and 30% it draws 20
  more into the same check (papers of it screened meanwhile count without being rated again, so the check grows
  to 20, ≤ 40, ≤ 60 papers). The stated 95% interval of liked papers still unseen is compared with the truth
  once the check was rated. Coverage is the share of checks whose interval holds the
  true count (target ≥ 90%); width is the interval's mean width.
- The next-100 figure (dropped from Margin by issue 29; computed here as it was): the share of checkpoints
  where the number of liked papers the next 100 screened did hold was inside the yield interval a–b of the
  last 100 (as a first version stated it), and at most b (as Margin stated it until issue 29).
- Cold start (`--cold-start`): see `cold_start`.
- Three interests: the three topics together, screened either from one `is:recommended` queue of the ratings
  (every liked paper 5 stars) or from the `is:interests` queue of three tags (db.triage.interests).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
if "--estimate" in sys.argv:  # one BLAS thread per process: the SVM fit is ~10× faster on a loaded machine
    for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_name, "1")

from db.library.library import Library  # noqa: E402
from db.paper import PaperRecord  # noqa: E402
from db.recommend.recommender import Recommender  # noqa: E402
from db.triage.interests import queue as interest_queue  # noqa: E402
from db.triage.progress import draw_check, progress  # noqa: E402

ICLR = ROOT.parent / "shared" / "data" / "real" / "iclr2018.json"
CHECKPOINTS = (0.10, 0.20, 0.30)
CHECK = 20


def _any(*needles: str) -> Callable[[list[str]], bool]:
    patterns = [re.compile(rf"\b{re.escape(needle)}") for needle in needles]
    return lambda keywords: any(p.search(k) for k in keywords for p in patterns)


TOPICS = {
    "reinforcement learning": _any("reinforcement learning", "policy gradient", "q-learning", "deep rl", "rl"),
    "GANs": _any("generative adversarial", "gan"),
    "interpretability": _any("interpretab", "explainab", "saliency", "attribution", "explanation"),
}


def make_library(folder: Path) -> tuple[Library, dict[str, list[str]]]:
    items = json.loads(ICLR.read_text(encoding="utf-8"))
    records = [PaperRecord(title=" ".join(item["title"].split()), abstract=" ".join(item["abstract"].split()),
                           keywords=[k.strip().lower() for k in item.get("keywords", "").split(";") if k.strip()],
                           venue="ICLR 2018", year=2018) for item in items if item.get("abstract")]
    library = Library.open(folder, seed=False)
    library.import_records(records)
    return library, {paper.id: paper.keywords for paper in library.papers()}


def reset(library: Library) -> None:
    """Every rating, read mark, tag and dismissal gone (the texts and the tf-idf cache stay; checks are per run)."""
    for (paper_id,) in library.rows("SELECT paper_id FROM annotations WHERE rating IS NOT NULL OR read = 1"):
        library.set_rating(paper_id, None)
        library.set_read(paper_id, False)
    for name, _count in library.tags():
        library.delete_tag(name)
    for paper_id, name in library.rows("SELECT d.paper_id, t.name FROM dismissals d JOIN tags t ON t.id = d.tag_id"):
        library.set_dismissed(paper_id, name, False)


def simulate(library: Library, recommender: Recommender, relevant: set[str], seed: int,
             interests: dict[str, set[str]] | None = None, label: str = "") -> dict:
    """One run: seeds, then one paper at a time from the top of the queue, with checks at the checkpoints.

    Without `interests`: one interest, the `is:recommended` queue of the ratings. With `interests` (name →
    its papers; `relevant` is their union): each is a tag made an interest, and the `is:interests` queue serves
    them; a paper is tagged with every interest it belongs to (accepted), else dismissed from the interest it
    came for. Either way a liked paper is rated 5 and any other 1, so that progress counts the same."""
    ids = library.ids()
    total = len(ids)
    rng = random.Random(seed)
    order: list[str] = []
    screened: set[str] = set()

    def screen(paper_id: str, came_for: str | None = None) -> None:
        library.set_rating(paper_id, 5 if paper_id in relevant else 1)
        library.set_read(paper_id, True)
        for name, papers in (interests or {}).items():
            if paper_id in papers:
                library.add_tags(paper_id, [name])
        if came_for is not None and paper_id not in interests[came_for]:
            library.set_dismissed(paper_id, came_for)
        screened.add(paper_id)
        order.append(paper_id)

    if interests is None:
        screen(rng.choice(sorted(relevant)))
    else:
        for name, papers in interests.items():
            library.set_interest(name)
            screen(rng.choice(sorted(papers - screened)))
    screen(rng.choice(sorted(set(ids) - relevant)))
    checks: list[dict] = []
    pending_next: list[tuple[int, int, int, int]] = []  # (screened at, found at, low, high)
    targets = [round(share * total) for share in CHECKPOINTS]
    recall_at: dict[float, float] = {}
    found_at_95 = None
    while len(screened) < total:
        for share, target in zip(CHECKPOINTS, targets, strict=True):
            if share not in recall_at and len(screened) >= target:
                recall_at[share] = len(relevant & screened) / len(relevant)
                scope = f"bench-{label}-{seed}"  # one check per run, grown at each checkpoint (the window's button)
                draw_check(library, scope, ids, CHECK, rng)
                result = progress(library, ids, scope)
                for paper_id in result.check_to_rate:
                    screen(paper_id)
                result = progress(library, ids, scope)
                truth = len(relevant - screened)
                estimate = result.estimate
                checks.append({"share": share, "truth": truth, "low": estimate.low, "high": estimate.high,
                               "point": estimate.remaining})
                pending_next.append((len(screened), len(relevant & screened), *_next_100(order, relevant, total)))
        if len(screened) >= total:
            break
        if interests is None:
            queue = recommender.recommend(limit=1).ids
            screen(queue[0] if queue else next(i for i in ids if i not in screened))
        else:
            served = interest_queue(library, recommender, limit=1, per_interest=1)
            if served.ids:
                screen(served.ids[0], served.interest[served.ids[0]])
            else:
                screen(next(i for i in ids if i not in screened))
        if found_at_95 is None and len(relevant & screened) >= 0.95 * len(relevant):
            found_at_95 = len(screened)
        if found_at_95 is not None and len(recall_at) == len(CHECKPOINTS) and \
                all(len(screened) >= at + 100 for at, *_rest in pending_next):
            break  # every figure is known: the rest of the run would change none of them
    next_hits = []
    for at, found, low, high in pending_next:
        held = len(relevant & set(order[at: at + 100])) if len(order) >= at + 100 else None
        if held is not None:
            next_hits.append((low <= held <= high, held <= high))
        del found
    return {"wss95": 1 - found_at_95 / total - 0.05, "recall": recall_at, "checks": checks, "next": next_hits}


def _next_100(order: list[str], relevant: set[str], total: int) -> tuple[int, int]:
    """The next-100 figure Margin stated before issue 29 dropped it: the Clopper–Pearson 95% interval of the
    yield of the last 100 screened, times the next 100 (kept here so the table stays comparable)."""
    import math

    from db.triage.progress import clopper_pearson

    window = [paper_id in relevant for paper_id in order[-100:]]
    low, high = clopper_pearson(sum(window), len(window))
    size = min(100, total - len(order))
    return math.floor(low * size), math.ceil(high * size)


NIPS = ICLR.parent / "nips2017.json"
FIRST = 50


def cold_start(runs: int) -> None:
    """Item 3: the first FIRST picks of `is:recommended venue:"ICLR 2018"` for reinforcement learning, from
    the usual seed (one liked, one unliked paper) with and without last year's liked papers: the NIPS 2017
    papers whose title or abstract says "reinforcement learning" (text, not the ICLR keywords), imported as
    venue NIPS 2017 and marked "papers I like". Also from that history alone, with no seed at all."""
    with tempfile.TemporaryDirectory() as tmp:
        library, keywords = make_library(Path(tmp) / "cold")
        items = json.loads(NIPS.read_text(encoding="utf-8"))
        history = [PaperRecord(title=" ".join(item["title"].split()), abstract=" ".join(item["abstract"].split()),
                               venue="NIPS 2017", year=2017) for item in items if item.get("abstract")
                   and "reinforcement learning" in (item["title"] + " " + item["abstract"]).lower()]
        library.import_records(history)
        recommender = Recommender(library)
        iclr = set(keywords)
        relevant = {paper_id for paper_id, words in keywords.items() if TOPICS["reinforcement learning"](words)}
        results: dict[str, list[int]] = {"seed only": [], "seed + history": [], "history only": []}
        for seed in range(runs):
            for mode in results:
                reset(library)
                library.set_liked_source("venue", "NIPS 2017", mode != "seed only")
                rng = random.Random(seed)
                picks = []
                if mode != "history only":
                    for paper_id in (rng.choice(sorted(relevant)), rng.choice(sorted(iclr - relevant))):
                        library.set_rating(paper_id, 5 if paper_id in relevant else 1)
                        library.set_read(paper_id, True)
                while len(picks) < FIRST:
                    paper_id = next(i for i in recommender.recommend(limit=None).ids if i in iclr)
                    library.set_rating(paper_id, 5 if paper_id in relevant else 1)
                    library.set_read(paper_id, True)
                    picks.append(paper_id in relevant)
                results[mode].append(sum(picks))
        library.close()
    print(f"\ncold start (reinforcement learning, {len(relevant)} liked of {len(iclr)}; history: {len(history)} "
          f"NIPS 2017 papers; {runs} seeds): liked papers among the first {FIRST} picks")
    print("| start | mean | worst | best |\n|---|---:|---:|---:|")
    for mode, counts in results.items():
        print(f"| {mode} | {statistics.mean(counts):.1f} | {min(counts)} | {max(counts)} |")


def embed_library(library: Library, vectors: Path | None, keep: bool = True) -> str:
    """Full-quality vectors for every paper (issue 32), from `vectors` when given and kept there after; returns
    a line with the throughput. A `.npz` path is a cache of whole texts (cached_vectors), anything else a
    vectors.db that `margin embed` wrote (title + first job.FULL_WORDS words, "passage: ")."""
    import shutil

    from db.embed import job
    from db.embed.store import FILE, FOLDER

    if vectors is not None and vectors.suffix == ".npz":
        return cached_vectors(library, vectors)
    target = library.folder / FOLDER / FILE
    if vectors is not None and vectors.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(vectors, target)
    started = time.perf_counter()
    before = job.status(library, job.load_model(job.configured(library.folder)))
    result = job.run(library, quick=False)
    seconds = time.perf_counter() - started
    embedded = result.full - before.full
    if vectors is not None and keep:
        shutil.copy(target, vectors)
    rate = f"{embedded / seconds:.1f} papers/s" if embedded else "all reused"
    return f"vectors: {result.model}, {embedded} papers embedded in {seconds:.0f} s ({rate}), {result.line()}"


EMBED_PREFIX = "query"  # --prefix: e5's "query: " on both sides for a symmetric task, or "passage: " (as the job)
EMBED_WORDS = 0  # --words: the first N words of title + abstract; 0 the whole of them


def cached_vectors(library: Library, cache: Path) -> str:
    """Vectors of every paper's title + abstract (EMBED_WORDS words, EMBED_PREFIX form) from the `.npz` cache
    (keyed by the texts' digests and the model), embedded once when missing and written there, then stored in
    the library as full-quality vectors of the default model, so the Recommender uses them as the job's."""
    import numpy as np

    from db.embed import job
    from db.embed.store import FULL, VectorStore

    model = job.load_model(job.configured(library.folder))
    rows = library.paper_texts()
    texts = [". ".join(part for part in (label, abstract) if part) for _id, label, abstract, _note in rows]
    texts = [" ".join(text.split()[:EMBED_WORDS] if EMBED_WORDS else text.split()) for text in texts]
    digests = [job.digest(f"{EMBED_PREFIX}:{text}") for text in texts]
    known: dict[int, np.ndarray] = {}
    if cache.exists():
        data = np.load(cache, allow_pickle=False)
        if str(data["model"]) == model.key:
            known = dict(zip(data["digests"].tolist(), data["vectors"], strict=True))
    missing = [i for i, key in enumerate(digests) if key not in known]
    started = time.perf_counter()
    embed = model.queries if EMBED_PREFIX == "query" else model.passages
    for start in range(0, len(missing), 8):
        chunk = missing[start:start + 8]
        for i, vector in zip(chunk, embed([texts[i] for i in chunk]), strict=True):
            known[digests[i]] = vector
    seconds = time.perf_counter() - started
    if missing:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, model=model.key, digests=np.array(list(known), dtype=np.int64),
                 vectors=np.array(list(known.values()), dtype=np.float32))
    store = VectorStore(library.derived_folder)
    ids = [paper_id for paper_id, *_rest in rows]
    store.put(model.key, ids, [job.digest(job.full_text(label, abstract)) for _id, label, abstract, _n in rows],
              FULL, np.array([known[key] for key in digests], dtype=np.float32))
    store.close()
    words = f"first {EMBED_WORDS} words" if EMBED_WORDS else "whole"
    rate = f"{len(missing) / seconds:.1f} papers/s" if missing else "all from the cache"
    return f"vectors: {model.key}, {words} title + abstract, \"{EMBED_PREFIX}: \"; {len(missing)} embedded ({rate})"


def compare_features(args) -> None:
    """Issue 32: the same seed sets per topic screened with each feature kind (tf-idf, semantic vectors, both),
    one table with WSS@95 and recall at 10/20/30% screened, side by side. With --jobs N the (topic, features)
    cells run in N processes at once, each on its own copy of the library (same papers, same seeds)."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    kinds = [kind.strip() for kind in args.features.split(",") if kind.strip()]
    print(f"ICLR 2018, {args.runs} seed sets per topic, features {kinds}; load {os.getloadavg()}", flush=True)
    topics = list(args.topics) + ([] if args.single_only else ["all three, one queue of the ratings"])
    from db.recommend import features, recommender

    args.svm_c = args.svm_c or (recommender.SVM_C, features.SEMANTIC_C)
    print(f"SVM C: tf-idf {args.svm_c[0]}, vectors {args.svm_c[1]}; vectors: {args.vectors or 'embedded now'} "
          f"({args.words or 'whole'} words, \"{args.prefix}: \")", flush=True)
    options = (args.svm_c, args.prefix, args.words)
    cells = [(topic, kind, args.runs, args.vectors, options) for topic in topics for kind in kinds]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = []
        for row in pool.map(_feature_cell, cells):
            rows.append(row)
            print("  " + " | ".join(str(cell) for cell in row), flush=True)
    print("\n| topic | liked | features | WSS@95 | recall @10% | @20% | @30% | s/run |")
    print("|---|---:|---|---|---|---|---|---:|")
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")
    print(f"load after: {os.getloadavg()}")


def _feature_cell(cell: tuple) -> tuple:
    """One (topic, features) cell of compare_features, in a library of its own."""
    global EMBED_PREFIX, EMBED_WORDS
    from db.recommend import features, recommender

    name, kind, runs_wanted, vectors, ((recommender.SVM_C, features.SEMANTIC_C), EMBED_PREFIX, EMBED_WORDS) = cell
    recommender_module = recommender
    base, _at, c = kind.partition("/")[0].partition("@")
    with tempfile.TemporaryDirectory() as tmp:
        library, keywords = make_library(Path(tmp) / "iclr")
        if base != "tfidf":
            line = embed_library(library, vectors, keep=False)
            if "all reused" not in line and "all from the cache" not in line:
                print(line, flush=True)
        papers_of = {topic: {paper_id for paper_id, words in keywords.items() if TOPICS[topic](words)}
                     for topic in TOPICS}
        relevant = papers_of[name] if name in papers_of else set().union(*papers_of.values())
        share, _slash, top = kind.partition("/")[2].partition("/")
        # `tfidf/1` or `tfidf/1/2`: sentence evidence's share (and how many best sentences)
        recommender = Recommender(library, features=base, sentence_share=float(share) if share else None)
        if c:  # `tfidf@0.01`: this kind's own C for the tf-idf model
            recommender_module.SVM_C = float(c)
        if top:
            recommender.sentence_top = int(top)
        runs, started = [], time.perf_counter()
        for seed in range(runs_wanted):
            reset(library)
            runs.append(simulate(library, recommender, relevant, seed, None, f"{name}-{kind}"))
        used = recommender.feature_rows().kind
        row = (name, len(relevant), kind if used == base else f"{kind} (ran as {used})",
               summary([run["wss95"] for run in runs]),
               *[summary([run["recall"][share] for run in runs], 2) for share in CHECKPOINTS],
               f"{(time.perf_counter() - started) / runs_wanted:.0f} s")
        library.close()
        return row


def summary(values: list[float], digits: int = 3) -> str:
    return f"{statistics.mean(values):.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--topics", nargs="*", default=list(TOPICS))
    parser.add_argument("--single-only", action="store_true", help="leave out the three-interest runs")
    parser.add_argument("--cold-start", action="store_true", help="only the cold-start table (item 3)")
    parser.add_argument("--estimate", action="store_true", help="only issue 29's table: check designs side by "
                        "side on the same runs, and the stopping rule (bench_triage_checks)")
    parser.add_argument("--cache", type=Path, help="with --estimate: keep each screening run here and reuse it")
    parser.add_argument("--target", type=float, default=95.0, help="the stopping rule's target, percent")
    parser.add_argument("--features", help="issue 32: compare features side by side, e.g. tfidf,semantic,both,rrf; "
                        "a kind may set its tf-idf C (tfidf@0.01) and the sentence evidence's share and top "
                        "(tfidf@0.01/0: whole papers alone, tfidf@0.1/1/2: the best two sentences alone)")
    parser.add_argument("--vectors", type=Path, help="a vectors.db to start from and keep (saves re-embedding), or "
                        "an .npz cache of whole-text vectors (--prefix, --words), embedded once when missing")
    parser.add_argument("--prefix", choices=("query", "passage"), default=EMBED_PREFIX,
                        help="with an .npz --vectors: e5's prefix for the papers' texts")
    parser.add_argument("--words", type=int, default=EMBED_WORDS, help="with an .npz --vectors: embed the first N "
                        "words of title + abstract (0: all)")
    parser.add_argument("--svm-c", type=lambda text: tuple(float(v) for v in text.split(",")),
                        help="with --features: the SVM's C for tf-idf,vectors (default: the Recommender's)")
    parser.add_argument("--jobs", type=int, default=1, help="with --features or --estimate: cells (topics) run in "
                        "this many processes")
    args = parser.parse_args()
    if not ICLR.exists():
        print(f"{ICLR} is missing: no table")
        return
    if args.features:
        compare_features(args)
        return
    if args.cold_start:
        cold_start(args.runs)
        return
    if args.estimate:
        from tests.benchmarks.bench_triage_checks import table

        table(args.runs, args.topics, args.target / 100, args.jobs, args.cache)
        return
    print(f"ICLR 2018, {args.runs} seed sets per topic; {platform.machine()}, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        library, keywords = make_library(Path(tmp) / "iclr")
        recommender = Recommender(library)
        recommender.refresh()
        rows, all_checks, all_next = [], [], []
        papers_of = {name: {paper_id for paper_id, words in keywords.items() if TOPICS[name](words)}
                     for name in TOPICS}
        modes = [(name, papers_of[name], None) for name in args.topics]
        if not args.single_only:
            union = set().union(*papers_of.values())
            modes.append(("all three, one queue of the ratings", union, None))
            modes.append(("all three as interests (is:interests)", union, papers_of))
        for name, relevant, interests in modes:
            runs = []
            started = time.perf_counter()
            for seed in range(args.runs):
                reset(library)
                runs.append(simulate(library, recommender, relevant, seed, interests, name))
            seconds = (time.perf_counter() - started) / args.runs
            checks = [check for run in runs for check in run["checks"]]
            covered = [check["low"] <= check["truth"] <= check["high"] for check in checks]
            nexts = [hit for run in runs for hit, _under in run["next"]]
            under = [below for run in runs for _hit, below in run["next"]]
            all_checks += covered
            all_next += nexts
            rows.append((name, len(relevant), summary([run["wss95"] for run in runs]),
                         *[summary([run["recall"][share] for run in runs], 2) for share in CHECKPOINTS],
                         f"{sum(covered)}/{len(covered)}",
                         f"{statistics.mean(check['high'] - check['low'] for check in checks):.0f}",
                         f"{sum(nexts)}/{len(nexts)}", f"{sum(under)}/{len(under)}", f"{seconds:.0f} s"))
            for share in CHECKPOINTS:
                picked = [check for check in checks if check["share"] == share]
                print(f"  {name} at {share:.0%}: truth mean {statistics.mean(c['truth'] for c in picked):.1f}, "
                      f"interval mean {statistics.mean(c['low'] for c in picked):.1f}–"
                      f"{statistics.mean(c['high'] for c in picked):.1f}, inside "
                      f"{sum(c['low'] <= c['truth'] <= c['high'] for c in picked)}/{len(picked)}")
        print()
        print("| topic | liked | WSS@95 | recall @10% | @20% | @30% | truth inside the 95% interval | mean width "
              "| next-100 in a–b | next-100 ≤ b | s/run |")
        print("|---|---:|---|---|---|---|---:|---:|---:|---:|---:|")
        for row in rows:
            print("| " + " | ".join(str(cell) for cell in row) + " |")
        print(f"\nestimate: the true count inside the stated interval in {sum(all_checks)} of {len(all_checks)} checks "
              f"({sum(all_checks) / len(all_checks):.0%}); next-100 figure held in {sum(all_next)} of {len(all_next)}")
        library.close()


if __name__ == "__main__":
    main()
