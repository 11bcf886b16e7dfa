"""Recommendation benchmark: quality on ICLR 2018 and speed at 20k papers (issue 9).

Not part of the test run. From the project folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_recommend.py           # quality and 20k timing
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_recommend.py quality   # only one of the two
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_recommend.py speed 50000

Quality: each ICLR 2018 paper's OpenReview `keywords` stand in for a researcher's interest. For an area (a
keyword predicate), a trial rates K papers of the area 5 and NEG papers outside it 1, and every other paper
stays unread; precision@20 is the share of the top 20 that belong to the area (all of them held out). Compared
with: random unread papers (the area's share of the candidates), plain whoosh more-like-this (Margin's
SearchIndex.similar for each positive, merged by reciprocal rank), and the tf-idf centroid of the positives
(cosine, no model). TRIALS trials per area, each with other positives; the table gives the mean.

Speed: the real abstracts of ../shared/data/real resampled to N papers (copies get their sentences shuffled),
imported into a fresh library; times the first fit, a refresh with nothing changed, `recommend()` after a
rating (refresh + fit + score, the matrix in memory), loading the cache in a new process, `similar`, and the
incremental update after importing 50 papers.

Rating → recomputed queue (issue 28), before and after side by side in one run:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_recommend.py queue 4000 --before ../base [--busy] [--rounds 30]

The real abstracts resampled to N papers are imported once (this checkout); each code (`--before DIR`, a checkout
of earlier code, and this one) opens its own copy in a child process with that code imported, fits its tf-idf
matrix (not timed), rates 20 papers 5 and 20 papers 1 and marks 400 read, then ROUNDS times: a rating of a random
paper (1 or 4 stars) and `Recommender.recommend()` — what the window's search worker runs for `is:recommended` after
a rating, the matrix in memory. Wall and CPU per rating → queue, median and p95; whether both codes rank the same
papers in the same order. `--busy`: two busy-loop processes beside the children (tests/benchmarks/busy_loops.py).
"""

from __future__ import annotations

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

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from db.library.library import Library  # noqa: E402
from db.paper import PaperRecord  # noqa: E402
from db.recommend.recommender import Recommender  # noqa: E402
from db.recommend.tfidf_cache import TfidfCache  # noqa: E402
from db.search.index import ensure_index  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real"
ICLR = REAL / "iclr2018.json"
TRIALS = 10
NEG = 5
AT = 20


def _any(*needles: str) -> Callable[[list[str]], bool]:
    patterns = [re.compile(rf"\b{re.escape(needle)}") for needle in needles]
    return lambda keywords: any(p.search(k) for k in keywords for p in patterns)


AREAS = {
    "reinforcement learning": _any("reinforcement learning", "policy gradient", "q-learning"),
    "GANs": _any("generative adversarial", "gan"),
    "adversarial robustness": _any("adversarial example", "adversarial attack", "adversarial training",
                                   "adversarial robustness", "adversarial defense"),
    "language": _any("natural language", "language model", "machine translation", "question answering",
                     "nlp", "text"),
}


# --------------------------------------------------------------------- quality
def iclr_library(folder: Path) -> tuple[Library, dict[str, list[str]]]:
    items = json.loads(ICLR.read_text(encoding="utf-8"))
    records = [PaperRecord(title=" ".join(item["title"].split()), abstract=" ".join(item["abstract"].split()),
                           keywords=[k.strip().lower() for k in item.get("keywords", "").split(";") if k.strip()],
                           venue="ICLR 2018", year=2018) for item in items if item.get("abstract")]
    library = Library.open(folder, seed=False)
    library.import_records(records)
    keywords = {paper.id: paper.keywords for paper in library.papers()}
    return library, keywords


def rrf(lists: list[list[str]], exclude: set[str]) -> list[str]:
    scores: dict[str, float] = {}
    for ranked in lists:
        for rank, paper_id in enumerate(ranked):
            if paper_id not in exclude:
                scores[paper_id] = scores.get(paper_id, 0.0) + 1.0 / (60 + rank)
    return sorted(scores, key=lambda i: -scores[i])


def centroid(recommender: Recommender, positives: list[str], exclude: set[str]) -> list[str]:
    tfidf = recommender.tfidf
    mean = np.asarray(tfidf.matrix[[tfidf.row[i] for i in positives]].mean(axis=0)).ravel()
    scores = tfidf.matrix @ mean
    return [tfidf.ids[i] for i in np.argsort(-scores, kind="stable") if tfidf.ids[i] not in exclude][:AT]


def quality(k_values=(5, 10)) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        library, keywords = iclr_library(Path(tmp) / "iclr")
        index = ensure_index(library)
        recommender = Recommender(library)
        recommender.refresh()
        ids = list(keywords)
        print(f"ICLR 2018: {len(ids)} papers, {recommender.tfidf.matrix.shape[1]} tf-idf terms; "
              f"precision@{AT}, mean of {TRIALS} trials; {NEG} papers of other areas rated 1\n")
        header = "| area (papers) | K rated 5 | random | whoosh more-like-this | tf-idf centroid | recommend() |"
        print(header)
        print("|---|---:|---:|---:|---:|---:|")
        totals: dict[str, list[float]] = {}
        for area, predicate in AREAS.items():
            members = [i for i in ids if predicate(keywords[i])]
            others = [i for i in ids if i not in set(members)]
            for k in k_values:
                rows: dict[str, list[float]] = {"random": [], "whoosh": [], "centroid": [], "recommend": []}
                for trial in range(TRIALS):
                    rng = random.Random(f"{area}/{k}/{trial}")
                    positives, negatives = rng.sample(members, k), rng.sample(others, NEG)
                    for paper_id in library.rows("SELECT paper_id FROM annotations WHERE rating IS NOT NULL"):
                        library.set_rating(paper_id[0], 0)
                    for paper_id in positives:
                        library.set_rating(paper_id, 5)
                    for paper_id in negatives:
                        library.set_rating(paper_id, 1)
                    rated = set(positives) | set(negatives)
                    held_out = set(members) - rated
                    hit = lambda ranked, held_out=held_out: sum(i in held_out for i in ranked[:AT]) / AT
                    rows["random"].append(len(held_out) / (len(ids) - len(rated)))
                    rows["whoosh"].append(hit(rrf([index.similar(i, limit=100) for i in positives], rated)))
                    rows["centroid"].append(hit(centroid(recommender, positives, rated)))
                    rows["recommend"].append(hit(recommender.recommend(AT).ids))
                means = {name: statistics.mean(values) for name, values in rows.items()}
                for name, value in means.items():
                    totals.setdefault(name, []).append(value)
                print(f"| {area} ({len(members)}) | {k} | {means['random']:.2f} | {means['whoosh']:.2f} | "
                      f"{means['centroid']:.2f} | {means['recommend']:.2f} |")
        print(f"| **mean** | | {statistics.mean(totals['random']):.2f} | {statistics.mean(totals['whoosh']):.2f} | "
              f"{statistics.mean(totals['centroid']):.2f} | {statistics.mean(totals['recommend']):.2f} |")
        index.close()
        library.close()


# --------------------------------------------------------------------- speed
def real_records() -> list[dict]:
    records = []
    for path in sorted(REAL.glob("*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")):
            abstract = " ".join((item.get("abstract") or "").split())
            if len(abstract) >= 80:
                records.append({"title": " ".join((item.get("title") or "").split()), "abstract": abstract})
    random.Random(1).shuffle(records)
    return records


def resampled(records: list[dict], size: int, offset: int = 0) -> list[PaperRecord]:
    rng = random.Random(size + offset)
    out: list[PaperRecord] = []
    copy = 0
    while len(out) < size:
        for record in records:
            if len(out) >= size:
                break
            abstract, title = record["abstract"], record["title"]
            if copy or offset:
                sentences = re.split(r"(?<=\.)\s+", abstract)
                rng.shuffle(sentences)
                abstract = " ".join(sentences) + f" (v{copy}.{offset})"
                title = f"{title} ({copy}.{offset})"
            out.append(PaperRecord(title=title, abstract=abstract, venue="SYN 2018", year=2018))
        copy += 1
    return out


def best_of(run: Callable[[], object], repeats: int = 5) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times), max(times)


def speed(size: int) -> None:
    records = real_records()
    print(f"\n{size:,} papers (real abstracts resampled); {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}\n")
    with tempfile.TemporaryDirectory() as tmp:
        library = Library.open(Path(tmp) / "big", seed=False)
        started = time.perf_counter()
        library.import_records(resampled(records, size))
        print(f"import (for the set-up only): {time.perf_counter() - started:.1f} s")
        recommender = Recommender(library)
        report = recommender.refresh()
        tfidf = recommender.tfidf
        size_mb = TfidfCache(library.folder).path.stat().st_size / 1e6
        print(f"first fit: {report.seconds:.2f} s ({tfidf.matrix.shape[1]:,} terms, {tfidf.matrix.nnz:,} non-zeros, "
              f"cache file {size_mb:.1f} MB)")
        ids = library.ids()
        rng = random.Random(3)
        for paper_id in rng.sample(ids, 20):
            library.set_rating(paper_id, 5)
        for paper_id in rng.sample(ids, 20):
            library.set_rating(paper_id, 1)
        for paper_id in rng.sample(ids, 2000):
            library.set_read(paper_id, True)
        rows = [("refresh, nothing changed", best_of(recommender.refresh))]
        result = recommender.recommend()
        print(f"recommend(): {result.positives} positives, {result.negatives} negatives; "
              f"fit + score {result.seconds * 1000:.0f} ms")
        rows.append(("recommend() (refresh + fit + score)", best_of(recommender.recommend)))

        def rate_then_recommend():
            library.set_rating(rng.choice(ids), 4)
            recommender.recommend()

        rows.append(("set_rating + recommend()", best_of(rate_then_recommend)))
        rows.append(("similar(id)", best_of(lambda: recommender.similar(ids[5]))))
        library.set_tags(ids[7], ["x"])
        library.set_tags(ids[9], ["x"])
        rows.append(("more_like_tag()", best_of(lambda: recommender.more_like_tag("x"))))
        rows.append(("load the cache (a new process, e.g. `list`)", best_of(lambda: TfidfCache(library.folder).load())))
        library.import_records(resampled(records, 50, offset=1))
        started = time.perf_counter()
        report = recommender.refresh()
        rows.append((f"refresh after importing 50 papers ({report.kind} {report.changed})",
                     (time.perf_counter() - started, time.perf_counter() - started)))
        library.set_note(ids[11], "a note about graph neural networks and message passing")
        rows.append(("refresh after a note edit", best_of(recommender.refresh, 1)))
        print("| step | median | max |\n|---|---:|---:|")
        for name, (median, worst) in rows:
            print(f"| {name} | {median * 1000:.0f} ms | {worst * 1000:.0f} ms |")
        library.close()


# --------------------------------------------------------------------- rating → recomputed queue (issue 28)
QUEUE_CHILD = """
import json, random, statistics, sys, time
from pathlib import Path
from db.library.library import Library
from db.recommend.recommender import Recommender
folder, rounds = sys.argv[1], int(sys.argv[2])
with Library.open(folder, seed=False) as library:
    recommender = Recommender(library)
    recommender.refresh()
    ids = library.ids()
    rng = random.Random(3)
    for paper_id in rng.sample(ids, 20):
        library.set_rating(paper_id, 5)
    for paper_id in rng.sample(ids, 20):
        library.set_rating(paper_id, 1)
    for paper_id in rng.sample(ids, 400):
        library.set_read(paper_id, True)
    recommender.recommend()
    wall, cpu, queues = [], [], []
    for _ in range(rounds):
        paper_id, stars = rng.choice(ids), rng.choice([1, 4])
        started, cpu_started = time.perf_counter(), time.process_time()
        library.set_rating(paper_id, stars)
        queue = recommender.recommend()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        queues.append(queue.ids)
wall.sort(); cpu.sort()
p95 = lambda values: values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
print(json.dumps({"wall_p50": statistics.median(wall), "wall_p95": p95(wall), "cpu_p50": statistics.median(cpu),
                  "cpu_p95": p95(cpu), "queues": queues}))
"""


def queue_side_by_side(size: int, before: Path, busy: bool, rounds: int) -> None:
    """Rating → recomputed queue at `size` papers, the code in `before` and this checkout, one child each."""
    import contextlib
    import shutil
    import subprocess

    from busy_loops import busy_loops, uptime

    with tempfile.TemporaryDirectory() as tmp:
        library = Library.open(Path(tmp) / "library", seed=False)
        library.import_records(resampled(real_records(), size))
        library.close()
        figures = {}
        print(f"rating → recomputed queue at {size:,} papers{' (busy: two busy loops beside it)' if busy else ''}; "
              f"{uptime()} before", flush=True)
        with busy_loops() if busy else contextlib.nullcontext():
            for name, code in (("before", before), ("after", ROOT)):
                copy = Path(tmp) / name
                shutil.copytree(Path(tmp) / "library", copy)
                load = os.getloadavg()[0]
                out = subprocess.run([sys.executable, "-c", QUEUE_CHILD, str(copy), str(rounds)], cwd=str(code),
                                     env=dict(os.environ, PYTHONPATH=str(code)), capture_output=True, text=True,
                                     check=True).stdout
                figures[name] = json.loads(out.strip().splitlines()[-1])
                figures[name]["load"] = (load, os.getloadavg()[0])
        print(f"{uptime()} after\n")
        print(f"| rating → recomputed queue, {size:,} papers | before ({before}) | after | after / before |")
        print("|---|---:|---:|---:|")
        for key, title in (("wall_p50", "wall p50"), ("wall_p95", "wall p95"), ("cpu_p50", "CPU p50"),
                           ("cpu_p95", "CPU p95")):
            b, a = figures["before"][key], figures["after"][key]
            print(f"| {title} | {b * 1000:.0f} ms | {a * 1000:.0f} ms | {a / b:.2f} |")
        print(f"| load (1 min) at start → end | {figures['before']['load'][0]:.1f} → {figures['before']['load'][1]:.1f}"
              f" | {figures['after']['load'][0]:.1f} → {figures['after']['load'][1]:.1f} | |")
        same = figures["before"]["queues"] == figures["after"]["queues"]
        print(f"\nthe same {rounds} queues (ids in order) from both codes: {same}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "queue":
        options = iter(args[1:])
        size, before, busy, rounds = 4000, None, False, 30
        for arg in options:
            if arg == "--before":
                before = Path(next(options)).resolve()
            elif arg == "--busy":
                busy = True
            elif arg == "--rounds":
                rounds = int(next(options))
            else:
                size = int(arg)
        if before is None:
            sys.exit("bench_recommend queue: --before DIR names a checkout of the earlier code")
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        queue_side_by_side(size, before, busy, rounds)
        sys.exit(0)
    sizes = [int(a) for a in args if a.isdigit()] or [20_000]
    if not args or "quality" in args:
        if ICLR.exists():
            quality()
        else:
            print(f"{ICLR} is missing: no quality table")
    if not args or "speed" in args or any(a.isdigit() for a in args):
        for n in sizes:
            speed(n)
