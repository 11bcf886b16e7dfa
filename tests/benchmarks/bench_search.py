"""Search benchmark: index build time and query latency for Margin's index, a plain whoosh index and SQLite FTS5.

Not part of the test run. From the project folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_search.py            # 1k and 20k
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_search.py 1000 20000 50000

Text: the real paper lists in ../shared/data/real/*.json when present (title, abstract, author, keywords),
resampled to size (copies beyond the first get their sentences shuffled, so that each is a new paper);
synthetic abstracts otherwise. Each query runs REPEATS times after one warm-up run; the table gives p50/p95
per query kind and for the whole mix, in milliseconds.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh import scoring
from whoosh.analysis import StemmingAnalyzer
from whoosh.fields import ID, NUMERIC, TEXT, Schema
from whoosh.qparser import MultifieldParser

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from db.paper import Paper  # noqa: E402
from db.search.index import SearchIndex  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real"
REPEATS = 5

# kind, Margin query, plain whoosh query, FTS5 query
MIX = [
    ("single word", "learning", "learning", "learning"),
    ("single word", "reinforcement", "reinforcement", "reinforcement"),
    ("single word", "bayesian", "bayesian", "bayesian"),
    ("single word", "convolutional", "convolutional", "convolutional"),
    ("single word", "adversarial", "adversarial", "adversarial"),
    ("single word", "graph", "graph", "graph"),
    ("two words", "neural network", "neural network", "neural network"),
    ("two words", "reinforcement learning", "reinforcement learning", "reinforcement learning"),
    ("two words", "variational inference", "variational inference", "variational inference"),
    ("two words", "graph convolution", "graph convolution", "graph convolution"),
    ("two words", "deep learning", "deep learning", "deep learning"),
    ("phrase", '"neural network"', '"neural network"', '"neural network"'),
    ("phrase", '"reinforcement learning"', '"reinforcement learning"', '"reinforcement learning"'),
    ("phrase", '"state of the art"', '"state of the art"', '"state of the art"'),
    ("phrase", '"stochastic gradient descent"', '"stochastic gradient descent"', '"stochastic gradient descent"'),
    ("field filter", "title:attention", "title:attention", "title:attention"),
    ("field filter", "author:bengio", "authors:bengio", "authors:bengio"),
    ("field filter", "year:2017 learning", "year:2017 learning", "year:2017 learning"),
    ("field filter", "title:graph year:2016..2018", "title:graph year:[2016 TO 2018]",
     "title:graph AND (year:2016 OR year:2017 OR year:2018)"),
    ("wildcard", "reinforc*", "reinforc*", "reinforc*"),
    ("wildcard", "optim*", "optim*", "optim*"),
    ("wildcard", "bayes* network*", "bayes* network*", "bayes* network*"),
    ("wildcard", "conv*", "conv*", "conv*"),
]


class MemoryLibrary:
    """Just what SearchIndex.rebuild needs from a Library, holding papers in memory."""

    def __init__(self, papers: list[Paper]):
        self._papers = {paper.id: paper for paper in papers}

    def ids(self) -> list[str]:
        return list(self._papers)

    def count(self) -> int:
        return len(self._papers)

    def papers(self, ids):
        return [self._papers[i] for i in ids if i in self._papers]

    def index_queue(self) -> list[str]:
        return []

    def clear_index_queue(self, ids) -> None:
        pass


def source_records() -> list[dict]:
    records = []
    for path in sorted(REAL.glob("*.json")) if REAL.is_dir() else []:
        venue = re.match(r"([a-z]+)(\d{4})", path.stem)
        for item in json.loads(path.read_text(encoding="utf-8")):
            abstract = " ".join((item.get("abstract") or "").split())
            if len(abstract) < 80:
                continue
            records.append({
                "title": " ".join((item.get("title") or "").split()),
                "abstract": abstract,
                "authors": [a.strip() for a in re.split(r";", item.get("author") or "") if a.strip()],
                "keywords": [k.strip() for k in (item.get("keywords") or "").split(";") if k.strip()],
                "venue": f"{venue.group(1).upper()} {venue.group(2)}" if venue else None,
                "year": int(venue.group(2)) if venue else None,
            })
    random.Random(1).shuffle(records)  # every venue and year in each size
    return records or synthetic_records(2000)


def synthetic_records(count: int) -> list[dict]:
    rng = random.Random(7)
    words = ("learning neural network graph reinforcement bayesian convolutional adversarial inference "
             "variational gradient stochastic descent attention model deep policy optimization state art "
             "kernel sparse training data representation generative agent reward estimation the of a to in "
             "and for with we our method results show").split()
    return [{"title": " ".join(rng.choices(words, k=8)).capitalize(),
             "abstract": ". ".join(" ".join(rng.choices(words, k=15)) for _ in range(8)) + ".",
             "authors": [f"Author {rng.randrange(3000)}" for _ in range(3)], "keywords": [],
             "venue": "SYN 2017", "year": rng.choice(range(2014, 2019))} for _ in range(count)]


def papers_of_size(records: list[dict], size: int) -> list[Paper]:
    rng = random.Random(size)
    papers, seen = [], set()
    copy = 0
    while len(papers) < size:
        for record in records:
            if len(papers) >= size:
                break
            abstract = record["abstract"]
            if copy:
                sentences = re.split(r"(?<=\.)\s+", abstract)
                rng.shuffle(sentences)
                abstract = " ".join(sentences) + f" (v{copy})"
            paper_id = f"{len(papers):012x}"
            if abstract in seen:
                continue
            seen.add(abstract)
            papers.append(Paper(id=paper_id, label=record["title"], title=record["title"], abstract=abstract,
                                authors=record["authors"], venue=record["venue"], year=record["year"],
                                keywords=record["keywords"], position=len(papers)))
        copy += 1
    return papers


def build_margin(folder: Path, papers: list[Paper]) -> tuple[SearchIndex, float]:
    index = SearchIndex(folder / "margin")
    started = time.perf_counter()
    index.rebuild(MemoryLibrary(papers))
    return index, time.perf_counter() - started


def build_whoosh(folder: Path, papers: list[Paper]):
    schema = Schema(id=ID(stored=True), title=TEXT(analyzer=StemmingAnalyzer(), field_boost=2.0),
                    abstract=TEXT(analyzer=StemmingAnalyzer()), authors=TEXT(),
                    year=NUMERIC(int, bits=32, signed=False))
    (folder / "whoosh").mkdir()
    started = time.perf_counter()
    index = whoosh_index.create_in(str(folder / "whoosh"), schema)
    writer = index.writer(limitmb=256)
    for paper in papers:
        writer.add_document(id=paper.id, title=paper.label, abstract=paper.abstract,
                            authors=" ; ".join(paper.authors), year=paper.year or 0)
    writer.commit(optimize=True)
    return index, time.perf_counter() - started


def build_fts(folder: Path, papers: list[Paper]):
    connection = sqlite3.connect(folder / "fts.db")
    started = time.perf_counter()
    connection.execute("CREATE VIRTUAL TABLE papers USING fts5(title, abstract, authors, year,"
                       " tokenize = 'porter unicode61 remove_diacritics 2')")
    connection.executemany("INSERT INTO papers VALUES (?, ?, ?, ?)",
                           [(p.label, p.abstract, " ; ".join(p.authors), str(p.year)) for p in papers])
    connection.execute("INSERT INTO papers(papers) VALUES ('optimize')")
    connection.commit()
    return connection, time.perf_counter() - started


def timed(run, query: str) -> tuple[list[float], int]:
    count = len(run(query))  # warm-up
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        run(query)
        times.append((time.perf_counter() - started) * 1000)
    return times, count


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench(size: int, records: list[dict]) -> None:
    papers = papers_of_size(records, size)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        margin, margin_build = build_margin(folder, papers)
        plain, plain_build = build_whoosh(folder, papers)
        fts, fts_build = build_fts(folder, papers)
        parser = MultifieldParser(["title", "abstract", "authors"], plain.schema)
        plain_searcher = plain.searcher(weighting=scoring.BM25F())

        def run_plain(text):
            return [docnum for _score, docnum in plain_searcher.search(parser.parse(text), limit=None).top_n]

        def run_fts(text):
            return fts.execute("SELECT rowid FROM papers WHERE papers MATCH ? ORDER BY bm25(papers, 2.0, 1.0, 1.0)",
                               (text,)).fetchall()

        engines = {"margin (all ids)": lambda text: margin.search(text),
                   "margin (first 200)": lambda text: margin.search(text, limit=200),
                   "plain whoosh (all)": run_plain, "sqlite fts5 (all)": run_fts}
        times: dict[tuple[str, str], list[float]] = {}
        per_query: list[tuple[str, dict[str, float], dict[str, int]]] = []
        for kind, margin_q, plain_q, fts_q in MIX:
            medians, counts = {}, {}
            for engine, run in engines.items():
                query = {"plain whoosh (all)": plain_q, "sqlite fts5 (all)": fts_q}.get(engine, margin_q)
                values, counts[engine] = timed(run, query)
                times.setdefault((engine, kind), []).extend(values)
                times.setdefault((engine, "whole mix"), []).extend(values)
                medians[engine] = statistics.median(values)
            per_query.append((margin_q, medians, counts))
        plain_searcher.close()
        margin.close()
        fts.close()

    print(f"\n## {size:,} abstracts\n")
    print(f"index build: margin {margin_build:.1f} s, plain whoosh {plain_build:.1f} s, "
          f"sqlite fts5 {fts_build:.1f} s\n")
    kinds = list(dict.fromkeys(kind for kind, *_ in MIX)) + ["whole mix"]
    print("| engine | " + " | ".join(f"{kind} p50/p95 ms" for kind in kinds) + " |")
    print("|---|" + "---|" * len(kinds))
    for engine in engines:
        cells = [f"{percentile(times[engine, k], 0.5):.1f} / {percentile(times[engine, k], 0.95):.1f}"
                 for k in kinds]
        print(f"| {engine} | " + " | ".join(cells) + " |")
    print("\n| query | hits (margin / whoosh / fts5) | margin all ms | first 200 ms | whoosh ms | fts5 ms |"
          " margin ÷ whoosh |")
    print("|---|---|---|---|---|---|---|")
    for query, medians, counts in per_query:
        ratio = medians["margin (all ids)"] / max(medians["plain whoosh (all)"], 1e-6)
        print(f"| `{query}` | {counts['margin (all ids)']} / {counts['plain whoosh (all)']} / "
              f"{counts['sqlite fts5 (all)']} | {medians['margin (all ids)']:.1f} | "
              f"{medians['margin (first 200)']:.1f} | {medians['plain whoosh (all)']:.1f} | "
              f"{medians['sqlite fts5 (all)']:.1f} | {ratio:.2f} |")


def main(argv: list[str]) -> None:
    sizes = [int(arg) for arg in argv] or [1000, 20000]
    records = source_records()
    print(f"source: {len(records)} records from {REAL if REAL.is_dir() else 'synthetic text'}; "
          f"{REPEATS} runs per query after a warm-up")
    for size in sizes:
        bench(size, records)


if __name__ == "__main__":
    main(sys.argv[1:])
