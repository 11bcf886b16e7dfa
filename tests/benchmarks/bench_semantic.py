"""Semantic similarity (issue 32): figures for the vectors beside tf-idf, in one run, with the load printed.

Not part of the test run. From the project folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_semantic.py --vectors /tmp/iclr-vectors.db
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_semantic.py --only scale --bm25 20000
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_semantic.py --only similar --only map \
        --vectors /tmp/iclr-passage-60.npz --words 60    # the text length's effect (vectors cached in the .npz)

- similar: precision@10 of `similar:` on ICLR 2018 (995 papers): the share of each paper's 10 nearest that
  share an author keyword with it (the keywords are never part of the text), semantic vs tf-idf.
- map: the conference map's keyword-pair distance ratio (mean distance of pairs of papers sharing a keyword
  over that of random pairs, as tests/system/test_conference_map_fits.py; lower is better), laid out from the
  vectors vs from tf-idf.
- speed: embedding throughput (papers/s, and papers per CPU-second) for quick (title) and full (title + first
  FULL_WORDS words) texts, and title + 60 / 128 words / the whole abstract beside them, with 1 and 2 threads.
- first: the first minutes after `margin import` of 6,000 papers (--first): when the window's job has stored
  the first vectors, when every paper has one (the quick pass), and the full pass's rate and end (--watch 0:
  measured to the end), per configuration (as shipped: SCHED_IDLE with every core; `nice`: nice 10, one thread).
- scale: 100,000 stored vectors: disk, load time, memory; a `~` search's vector part (the query's embedding,
  cosine over every paper, the top 200, the fusion) p50/p95; with --bm25 N also the BM25 part on an index of N
  synthetic-from-real papers (bench_search's generator) and the whole `~` search.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from db.embed import job  # noqa: E402
from db.embed.models import load_model, normalize  # noqa: E402
from db.embed.store import FULL, VectorStore  # noqa: E402
from db.embed.vectors import SemanticVectors  # noqa: E402
from db.map import layout  # noqa: E402
from db.recommend.recommender import Recommender  # noqa: E402
from tests.benchmarks import bench_triage  # noqa: E402
from tests.benchmarks.bench_triage import ICLR, embed_library, make_library  # noqa: E402

QUERIES = ["how to make transformers faster on long documents", "explaining the predictions of deep networks",
           "robots that learn from few demonstrations", "why does batch normalization help optimisation",
           "protecting models against adversarial examples", "graph networks for molecules",
           "compressing large language models", "generating images from text descriptions"]


def load() -> str:
    return "load " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def similar_precision(library, keywords: dict[str, list[str]]) -> None:
    print(f"\nsimilar: precision@10 by shared author keywords ({load()})")
    print("| features | precision@10 | papers | ms per query |\n|---|---:|---:|---:|")
    for kind in ("tfidf", "semantic", "both"):
        recommender = Recommender(library, features=kind)
        recommender.refresh()
        precisions, started = [], time.perf_counter()
        for paper_id, words in keywords.items():
            mine = set(words)
            if not mine:
                continue
            nearest = recommender.similar(paper_id, limit=10, refresh=False).ids
            precisions.append(sum(bool(mine & set(keywords.get(i, []))) for i in nearest) / 10)
        ms = (time.perf_counter() - started) * 1000 / max(len(precisions), 1)
        print(f"| {kind} | {statistics.mean(precisions):.3f} | {len(precisions)} | {ms:.1f} |")


def map_ratio(library, keywords: dict[str, list[str]]) -> None:
    print(f"\nmap: keyword-pair distance ratio, lower is better ({load()})")
    print("| layout from | ratio | seconds |\n|---|---:|---:|")
    recommender = Recommender(library, features="semantic")
    tfidf = recommender.tfidf
    semantic = recommender.semantic_vectors()
    ids = list(tfidf.ids)
    for name, source, mode in (("tf-idf", None, "both"), ("semantic vectors", semantic, "vectors"),
                               ("both side by side", semantic, "both")):
        layout.SEMANTIC_LAYOUT = mode
        started = time.perf_counter()
        conference_map = layout.compute(tfidf, ids, source)
        seconds = time.perf_counter() - started
        by_keyword: dict[str, list[int]] = {}
        for paper_id in ids:
            for keyword in set(keywords.get(paper_id, [])):
                by_keyword.setdefault(keyword, []).append(conference_map.row[paper_id])
        pairs = {pair for rows in by_keyword.values() if 2 <= len(rows) <= 60
                 for pair in combinations(sorted(rows), 2)}
        xy = conference_map.xy
        first, second = np.array(sorted(pairs)).T
        sharing = np.hypot(*(xy[first] - xy[second]).T).mean()
        rng = np.random.default_rng(0)
        a, b = rng.integers(0, len(xy), 20_000), rng.integers(0, len(xy), 20_000)
        keep = a != b
        ratio = sharing / np.hypot(*(xy[a[keep]] - xy[b[keep]]).T).mean()
        print(f"| {name} | {ratio:.3f} | {seconds:.1f} |")


def speed(library) -> None:
    """Each thread count in a child process of its own (OpenMP reads its thread count once per process). Papers
    per CPU-second (the child's own CPU time) is the figure that the machine's other load changes least: the
    rate on an idle machine with one thread, or about twice it with two."""
    import json
    import subprocess

    print(f"\nembedding throughput on {os.cpu_count()} cores ({load()})")
    print("| text | tokens | threads | papers/s | papers per CPU-s | CPU ms per token | load |\n"
          "|---|---:|---:|---:|---:|---:|---|")
    rows = library.paper_texts()[:48]

    def words(count):
        return lambda label, abstract: " ".join(". ".join(p for p in (label, abstract) if p).split()[:count])

    texts = {name: [make(label, abstract) for _id, label, abstract, _note in rows]
             for name, make in (("quick (title)", job.quick_text), (f"full (title + {job.FULL_WORDS} words)",
                                                                    job.full_text),
                                ("title + 60 words", words(60)), ("title + 128 words", words(128)),
                                ("whole title + abstract", words(10**6)))}
    for threads in (1, 2):
        env = {**os.environ, "MARGIN_EMBED_THREADS": str(threads), "OMP_NUM_THREADS": str(threads)}
        out = subprocess.run([sys.executable, __file__, "--speed-child"], input=json.dumps(texts), text=True,
                             capture_output=True, env=env, check=True).stdout
        for name, (rate, per_cpu, tokens) in json.loads(out).items():
            print(f"| {name} | {tokens:.0f} | {threads} | {rate:.1f} | {per_cpu:.1f} | "
                  f"{1000 / per_cpu / tokens:.2f} | {load()} |")


def speed_child() -> None:
    import json

    model = load_model("")
    engine = getattr(model, "_model", None)
    rates = {}
    for name, texts in json.loads(sys.stdin.read()).items():
        model.passages(texts[:2])
        tokens = (statistics.mean(engine.token_count(text) for text in texts) if hasattr(engine, "token_count")
                  else float("nan"))
        started, cpu = time.perf_counter(), time.process_time()
        for start in range(0, len(texts), job.BATCH):
            model.passages(texts[start:start + job.BATCH])
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        rates[name] = (len(texts) / wall, len(texts) / cpu, tokens)
    print(json.dumps(rates))


def first_minutes(papers: int, source: Path, configurations: list[str], watch: float) -> None:
    """A fresh import of `papers` papers (the first of `source`), then the window's job (`python -m db.embed.job`)
    run on a copy of it per configuration — `default` (as this checkout ships it: SCHED_IDLE, every core, where
    Linux allows), `nice` (its fallback, MARGIN_EMBED_PRIORITY=nice: nice 10 and one thread, the job as shipped
    before SCHED_IDLE), N (MARGIN_EMBED_THREADS=N), `nice:N` — in turn: seconds (and the job's CPU seconds)
    to the first stored vectors, to every paper having one (the quick pass) and to every paper having its full
    vector; with `watch` > 0 the full pass is timed for that long only and its end extrapolated (marked ~).
    Then a `~` search through `margin list` answers by meaning."""
    import json
    import shutil
    import subprocess

    from db.embed import priority

    main_py = [sys.executable, str(ROOT / "main.py")]
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "papers.json"
        listing.write_text(json.dumps(json.loads(source.read_text(encoding="utf-8"))[:papers]))
        imported = Path(tmp) / "imported"
        started = time.perf_counter()
        subprocess.run([*main_py, "--library", str(imported), "import", str(listing)], check=True,
                       capture_output=True)
        print(f"\nfirst minutes after `margin import` of {papers:,} papers ({time.perf_counter() - started:.0f} s "
              f"to import; {load()})")
        print("| job | first vectors | every paper a title vector (CPU s) | full pass rate (papers/s) | every paper "
              "its full vector (CPU s) | load at the end |\n|---|---:|---:|---:|---:|---|")
        for name in configurations:
            library = Path(tmp) / f"library-{name.replace(':', '-')}"
            shutil.copytree(imported, library)
            env = dict(os.environ)
            env.pop("MARGIN_EMBED_THREADS", None)
            env.pop(priority.PRIORITY_ENV, None)
            kind, _, count = name.partition(":")
            if kind == "nice":
                env[priority.PRIORITY_ENV] = priority.NICE
            elif kind.isdigit():
                count = kind
            if count:
                env["MARGIN_EMBED_THREADS"] = count
            started = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-m", "db.embed.job", str(library)], cwd=ROOT, env=env,
                                     stdout=subprocess.PIPE, text=True)
            first = quick_done = full_start = full_done = None
            quick_cpu = full_cpu = float("nan")
            full_first, now, line, how = 0, 0.0, "", ""
            for line in child.stdout:
                now = time.perf_counter() - started
                words = line.split()
                if words[0] == "priority":
                    how = f"{words[1]}, {words[2]} thread(s)"
                if words[0] in ("quick", "full") and first is None:
                    first = now
                if words[0] == "quick" and words[1] == words[2]:
                    quick_done, quick_cpu = now, _cpu_seconds(child.pid)
                if words[0] == "full":
                    if full_start is None:
                        full_start, full_first = now, int(words[1])
                    if words[1] == words[2]:
                        full_done, full_cpu = now, _cpu_seconds(child.pid)
                        break
                    if watch and now - full_start >= watch:
                        break
            child.kill()
            child.wait()
            words = line.split()
            rate = (int(words[1]) - full_first) / max(now - full_start, 1e-9) if full_start is not None else 0.0
            total = int(words[2]) if len(words) == 3 else papers
            if full_done is not None:
                full_cell = f"{full_done:.0f} s ({full_cpu:.0f})"
            else:
                full_cell = f"~{(now + (total - int(words[1])) / rate) / 60:.0f} min" if rate else "–"
            print(f"| {name} ({how}) | {first or float('nan'):.1f} s | {quick_done or float('nan'):.0f} s "
                  f"({quick_cpu:.0f}) | {rate:.2f} | {full_cell} | {load()} |", flush=True)
            started = time.perf_counter()
            out = subprocess.run([*main_py, "--library", str(library), "list", "~" + QUERIES[0]],
                                 capture_output=True, text=True)
            print(f"  `margin list \"~{QUERIES[0]}\"` then: {(time.perf_counter() - started):.1f} s, "
                  f"{len(out.stdout.splitlines())} lines; {(out.stderr.strip().splitlines() or [''])[-1][:120]}")
            shutil.rmtree(library, ignore_errors=True)


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def scale(papers: int, bm25: int) -> None:
    print(f"\n{papers:,} stored vectors ({load()})")
    model = load_model("")
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        store = VectorStore(tmp)
        ids = [f"{i:012x}" for i in range(papers)]
        started = time.perf_counter()
        for start in range(0, papers, 5000):
            chunk = ids[start:start + 5000]
            store.put(model.key, chunk, list(range(start, start + len(chunk))), FULL,
                      normalize(rng.standard_normal((len(chunk), model.dim)).astype(np.float32)))
        written = time.perf_counter() - started
        store.close()
        disk = sum(f.stat().st_size for f in (Path(tmp) / "embed").iterdir())
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        semantic = SemanticVectors.load(tmp, ids, model)
        loaded = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"disk {disk / 1e6:.1f} MB (vectors.db), written in {written:.1f} s; loaded in {loaded:.2f} s; "
              f"matrix {semantic.matrix.nbytes / 1e6:.0f} MB; peak RSS {peak / 1024:.0f} MB "
              f"(+{(peak - before) / 1024:.0f} MB while loading)")
        index = None
        if bm25:
            from db.query import parse_query
            from tests.benchmarks.bench_search import build_margin, papers_of_size, source_records

            index, seconds = build_margin(Path(tmp), papers_of_size(source_records(), bm25))
            print(f"BM25 index of {bm25:,} papers built in {seconds:.0f} s")
        times, vector_times = [], []
        for round_ in range(6):
            for text in QUERIES:
                query = f"~{text} {round_}" if round_ else f"~{text}"
                started = time.perf_counter()
                lexical = index.find(parse_query(query).words, limit=200).ids if index is not None else []
                middle = time.perf_counter()
                scores = semantic.matrix @ semantic.query(query[1:])
                top = np.argpartition(-scores, 199)[:200]
                nearest = [semantic.ids[i] for i in top[np.argsort(-scores[top])]]
                fused: dict[str, float] = {}
                for ranking in (lexical, nearest):
                    for rank, paper_id in enumerate(ranking):
                        fused[paper_id] = fused.get(paper_id, 0.0) + 1 / (61 + rank)
                sorted(fused, key=fused.get, reverse=True)
                end = time.perf_counter()
                times.append((end - started) * 1000)
                vector_times.append((end - middle) * 1000)
        for name, values in (("vector part", vector_times), ("whole ~ search" if index else "", times)):
            if name:
                values = sorted(values)
                print(f"{name}: p50 {values[len(values) // 2]:.1f} ms, p95 {values[int(len(values) * 0.95)]:.1f} ms "
                      f"over {len(values)} queries")
        if index is not None:
            index.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", type=Path, help="a vectors.db of the ICLR papers to start from and keep")
    parser.add_argument("--only", choices=["similar", "map", "speed", "scale", "first"], action="append")
    parser.add_argument("--first", type=int, default=6000, help="papers imported for the first-minutes figures")
    parser.add_argument("--first-from", type=Path, default=Path("/work/bench-data/papers-20000.json"),
                        help="the JSON paper list they are the first of (bench_app's generator)")
    parser.add_argument("--first-threads", default="nice,default", help="the job's configurations compared "
                        "(default, nice, N, nice:N: first_minutes)")
    parser.add_argument("--watch", type=float, default=60, help="seconds of the full pass timed (0: to its end)")
    parser.add_argument("--papers", type=int, default=100_000, help="stored vectors for the scale figures")
    parser.add_argument("--bm25", type=int, default=0, help="also time BM25 + fusion on an index of N papers")
    parser.add_argument("--words", type=int, default=job.FULL_WORDS, help="with an .npz --vectors: embed the first "
                        "N words of title + abstract (0: the whole of them), as passages; the cache is keyed by text")
    parser.add_argument("--speed-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    bench_triage.EMBED_PREFIX, bench_triage.EMBED_WORDS = "passage", args.words
    if args.speed_child:
        speed_child()
        return
    wanted = set(args.only or ["similar", "map", "speed", "scale", "first"])
    print(f"bench_semantic: {os.cpu_count()} cores, {load()}")
    if wanted & {"similar", "map", "speed"} and ICLR.exists():
        with tempfile.TemporaryDirectory() as tmp:
            library, keywords = make_library(Path(tmp) / "iclr")
            if wanted & {"similar", "map"}:
                print(embed_library(library, args.vectors))
            if "similar" in wanted:
                similar_precision(library, keywords)
            if "map" in wanted:
                map_ratio(library, keywords)
            if "speed" in wanted:
                speed(library)
            library.close()
    if "first" in wanted:
        first_minutes(args.first, args.first_from, args.first_threads.split(","), args.watch)
    if "scale" in wanted:
        scale(args.papers, args.bm25)
    print(f"\nend: {load()}")


if __name__ == "__main__":
    main()
