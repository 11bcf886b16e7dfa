"""Search benchmark: index build time and query latency for Margin's index, a plain whoosh index and SQLite FTS5.

Not part of the test run. From the project folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_search.py            # 1k and 20k
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_search.py 1000 20000 50000
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_search.py --papers /work/bench-data/papers-100000.json

Text: the real paper lists in ../shared/data/real/*.json when present (title, abstract, author, keywords),
resampled to size (copies beyond the first get their sentences shuffled, so that each is a new paper);
synthetic abstracts otherwise; or the JSON paper list given by `--papers FILE` (bench_app's format). Each
query runs REPEATS times after one warm-up run; the table gives p50/p95 per query kind and for the whole mix,
in milliseconds.

Before it, Margin beside SQLite FTS5 and plain whoosh with the ratios: the stop-word phrase; each index built
in a fresh process from the JSON list (seconds, peak RSS); a fresh process opening the index and answering a
first query with its page's rows. After it, `first_page_agreement`: per query class, whether Margin's first
page (`find(q, limit=30)`) equals the exhaustive ranking's first 30 (`find(q).ids[:30]`), mismatches printed.
`Engines`, `measure`, `figure_row` and the children (`--child …`) serve bench_app.py too. Runs against the
`db.search` package or, on an older checkout, `db.search_index`.

`--before CHECKOUT` (e.g. /work/wt/base) prints only issue 28's index rows, before (CHECKOUT's db.search) and
after (this checkout's) side by side with SQLite FTS5 from the same run, each Margin in its own fresh process
(MARGIN_BENCH_CODE names the checkout a child imports): the stop-word phrase `"on the other hand"`, all matches
(median of 5, each a fresh ranking: the last query's scores forgotten, decoded posting lists kept as FTS5 keeps
its pages cached; and with those dropped too, "cold"); the first 100 of a stop-word phrase (p95 over the three
phrases × 5 runs; FTS5: `LIMIT 100`), and whether a first page ever cost more than the whole ranking; index
build CPU (fresh process, user + system, helpers included) and the index on disk (FTS5: the database, text
included), with Margin's by field (posting bytes per field; the rest is the term table, stored ids, lengths).
"""

from __future__ import annotations

import json
import os
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
# MARGIN_BENCH_CODE: another checkout whose db.search a child measures (the "before" of `--before`)
sys.path.insert(0, os.environ.get("MARGIN_BENCH_CODE") or str(ROOT))

from db.paper import Paper  # noqa: E402

try:  # the search package (main from 5be1ff5 on) or the single module before it
    from db.search import SearchIndex
except ImportError:  # pragma: no cover - an older checkout
    from db.search_index import SearchIndex

# the real paper lists; MARGIN_BENCH_REAL names them for a copy of the project elsewhere (as in bench_app)
REAL = Path(os.environ.get("MARGIN_BENCH_REAL") or ROOT.parent / "shared" / "data" / "real")
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
    ("stop-word phrase", '"state of the art"', '"state of the art"', '"state of the art"'),
    ("stop-word phrase", '"a set of"', '"a set of"', '"a set of"'),
    ("stop-word phrase", '"on the other hand"', '"on the other hand"', '"on the other hand"'),
    ("OR/NOT", "bayesian OR variational", "bayesian OR variational", "bayesian OR variational"),
    ("OR/NOT", "learning NOT reinforcement", "learning NOT reinforcement", "learning NOT reinforcement"),
    ("OR/NOT", "(graph OR kernel) -convolutional", "(graph OR kernel) NOT convolutional",
     "(graph OR kernel) NOT convolutional"),
]
STOP_WORD_PHRASE = '"state of the art"'  # the figure
PAGE = 30  # rows on the window's first screen
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]{2,}")


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

    def last_change(self) -> int:  # the change log's last entry (none here)
        return 0

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


def paper_record(paper: Paper) -> dict:
    """A paper as a record of a JSON paper list (the format bench_app writes and `main.py import` reads)."""
    return {"title": paper.label, "abstract": paper.abstract, "author": "; ".join(paper.authors),
            "keywords": ";".join(paper.keywords), "venue": paper.venue, "year": paper.year}


def papers_from_records(records: list[dict], first: int = 0) -> list[Paper]:
    """The papers of a JSON paper list, in its order; paper i gets the id f"{first + i:012x}" (FTS5 rowid
    first + i + 1)."""
    papers = []
    for number, record in enumerate(records, first):
        authors = record.get("authors") or [a.strip() for a in (record.get("author") or "").split(";") if a.strip()]
        keywords = record.get("keywords") or []
        if isinstance(keywords, str):
            keywords = [k.strip() for k in keywords.split(";") if k.strip()]
        papers.append(Paper(id=f"{number:012x}", label=record["title"], title=record["title"],
                            abstract=record["abstract"], authors=authors, venue=record.get("venue"),
                            year=record.get("year"), keywords=keywords, position=number))
    return papers


def load_papers(path: Path, first: int = 0) -> list[Paper]:
    return papers_from_records(json.loads(Path(path).read_text(encoding="utf-8")), first)


def build_margin(folder: Path, papers: list[Paper]) -> tuple[SearchIndex, float]:
    index = SearchIndex(folder / "margin")
    started = time.perf_counter()
    index.rebuild(MemoryLibrary(papers))
    return index, time.perf_counter() - started


def whoosh_schema() -> Schema:
    return Schema(id=ID(stored=True, unique=True), title=TEXT(analyzer=StemmingAnalyzer(), field_boost=2.0),
                  abstract=TEXT(analyzer=StemmingAnalyzer()), authors=TEXT(),
                  year=NUMERIC(int, bits=32, signed=False))


def whoosh_document(paper: Paper) -> dict:
    return {"id": paper.id, "title": paper.label, "abstract": paper.abstract, "authors": " ; ".join(paper.authors),
            "year": paper.year or 0}


def build_whoosh(folder: Path, papers: list[Paper]):
    (folder / "whoosh").mkdir(exist_ok=True)
    started = time.perf_counter()
    index = whoosh_index.create_in(str(folder / "whoosh"), whoosh_schema())
    writer = index.writer(limitmb=256)
    for paper in papers:
        writer.add_document(**whoosh_document(paper))
    writer.commit(optimize=True)
    return index, time.perf_counter() - started


FTS_TABLE = ("CREATE VIRTUAL TABLE papers USING fts5(title, abstract, authors, year, venue UNINDEXED,"
             " tokenize = 'porter unicode61 remove_diacritics 2')")


def fts_row(paper: Paper) -> tuple:
    return (int(paper.id, 16) + 1, paper.label, paper.abstract, " ; ".join(paper.authors), str(paper.year),
            paper.venue)


def build_fts(folder: Path, papers: list[Paper]):
    connection = sqlite3.connect(folder / "fts.db")
    started = time.perf_counter()
    connection.execute(FTS_TABLE)
    connection.executemany("INSERT INTO papers(rowid, title, abstract, authors, year, venue) VALUES (?, ?, ?, ?, ?, ?)",
                           (fts_row(p) for p in papers))
    connection.execute("INSERT INTO papers(papers) VALUES ('optimize')")
    connection.commit()
    return connection, time.perf_counter() - started


# ---------------------------------------------------------------------------------------------- engines
class Engines:
    """SQLite FTS5 and plain whoosh over one corpus, in `folder` (fts.db, whoosh/), for the figures beside
    Margin's: ranked queries, a query's first page with its rows fetched from SQLite (FTS5 holds the rows;
    whoosh's page is fetched from fts.db by rowid, as an app keeping its rows in SQLite would), updates."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.fts = sqlite3.connect(self.folder / "fts.db")
        self._whoosh = None  # opened when first used: an FTS5-only figure never pays for whoosh

    def _open_whoosh(self) -> None:
        self._whoosh = whoosh_index.open_dir(str(self.folder / "whoosh"))
        self._parser = MultifieldParser(["title", "abstract", "authors"], self._whoosh.schema)
        self._searcher = self._whoosh.searcher(weighting=scoring.BM25F())

    @property
    def whoosh(self):
        if self._whoosh is None:
            self._open_whoosh()
        return self._whoosh

    @property
    def parser(self) -> MultifieldParser:
        if self._whoosh is None:
            self._open_whoosh()
        return self._parser

    @property
    def searcher(self):
        if self._whoosh is None:
            self._open_whoosh()
        return self._searcher

    def close(self) -> None:
        if self._whoosh is not None:
            self._searcher.close()
        self.fts.close()

    def refresh(self) -> None:
        self._searcher = self.searcher.refresh()

    def fts_ids(self, text: str, limit: int | None = None) -> list[int]:
        sql = "SELECT rowid FROM papers WHERE papers MATCH ? ORDER BY bm25(papers, 2.0, 1.0, 1.0)"
        rows = self.fts.execute(sql + (f" LIMIT {int(limit)}" if limit else ""), (text,)).fetchall()
        return [row[0] for row in rows]

    def whoosh_ids(self, text: str, limit: int | None = None) -> list[int]:
        results = self.searcher.search(self.parser.parse(text), limit=limit)
        return [int(hit["id"], 16) + 1 for hit in results]

    def page_rows(self, rowids: list[int]) -> list[tuple]:
        if not rowids:
            return []
        marks = ",".join("?" * len(rowids))
        return self.fts.execute(f"SELECT rowid, title, authors, venue, year FROM papers WHERE rowid IN ({marks})",
                                rowids).fetchall()

    def first_page(self, engine: str, text: str) -> list[tuple]:
        """The best PAGE matches of `text` and their rows (what a list shows on its first screen)."""
        ids = (self.fts_ids if engine == "fts5" else self.whoosh_ids)(text, PAGE)
        return self.page_rows(ids)

    def add(self, engine: str, papers: list[Paper]) -> None:
        """Add or replace `papers` in one write (one transaction / one whoosh commit)."""
        if engine == "fts5":
            with self.fts:
                self.fts.executemany("DELETE FROM papers WHERE rowid = ?", [(int(p.id, 16) + 1,) for p in papers])
                self.fts.executemany("INSERT INTO papers(rowid, title, abstract, authors, year, venue)"
                                     " VALUES (?, ?, ?, ?, ?, ?)", [fts_row(p) for p in papers])
        else:
            writer = self.whoosh.writer(limitmb=128)
            for paper in papers:
                writer.update_document(**whoosh_document(paper))
            writer.commit()
            self.refresh()


ENGINES = ("fts5", "whoosh")
ENGINE_NAMES = {"fts5": "SQLite FTS5", "whoosh": "plain whoosh"}


def engine_text(text: str) -> str | None:
    """A query as typed so far, as the baselines take it: an unclosed quote closed (Margin closes it too);
    None when nothing is left to search. Margin's fields map as in MIX (author: → authors:)."""
    text = text.replace("author:", "authors:")
    if text.count('"') % 2:
        text += '"'
    return text if text.strip('" ') else None


def rss_peak_mb(usage) -> float:
    return usage.ru_maxrss / 1024


def measure(command: list[str], env: dict | None = None, timeout: float = 7200) -> dict:
    """Run `command` in a fresh process: wall seconds, CPU seconds (user + system, the children it waited for
    included) and peak resident memory, its stdout's last JSON line (as `json`), stdout and stderr.

    The peak is the one GNU time reports for the command (`/usr/bin/time -f %M`): Linux carries a process's
    high-water mark across fork and exec (ru_maxrss), so wait4 on a child of this process reports at least
    this process's own resident size (hundreds of MB with a paper list loaded), whatever the child used;
    `time` is small, so the command it starts inherits nothing. Without /usr/bin/time: wait4's figure."""
    import shutil
    import subprocess
    import threading

    started = time.perf_counter()
    with (tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err,
          tempfile.NamedTemporaryFile("r", suffix=".peak") as peak):
        timer = shutil.which("time", path="/usr/bin")
        wrapped = [timer, "-q", "-f", "%M", "-o", peak.name, *command] if timer else command
        process = subprocess.Popen(wrapped, stdout=out, stderr=err, text=True,
                                   env=dict(os.environ, **(env or {})))
        killer = threading.Timer(timeout, process.kill)
        killer.start()
        try:
            _pid, status, usage = os.wait4(process.pid, 0)
        finally:
            killer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        wall = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
        reported = peak.read().strip().splitlines()
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    peak_mb = int(reported[-1]) / 1024 if reported and reported[-1].isdigit() else rss_peak_mb(usage)
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": peak_mb,
            "code": process.returncode, "json": json.loads(lines[-1]) if lines else None, "stdout": stdout,
            "stderr": stderr}


def run_child(args: list[str], env: dict | None = None) -> dict:
    """`measure` this file run as a child with `args`."""
    return measure([sys.executable, str(Path(__file__).resolve()), *args], env)


def child(argv: list[str]) -> None:
    """The baselines' fresh processes: `--child build ENGINE PAPERS FOLDER` (the FTS5 table or the whoosh
    index from a JSON paper list), `--child update ENGINE FOLDER PAPERS` (replace those papers, one write),
    `--child open ENGINE FOLDER QUERY` (open, answer the first query with its page rows; seconds since
    $MARGIN_BENCH_T0, the process's start)."""
    action, engine = argv[0], argv[1]
    if action == "build":
        papers = load_papers(Path(argv[2]))
        folder = Path(argv[3])
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        if engine == "fts5":
            build_fts(folder, papers)[0].close()
        elif engine == "whoosh":
            build_whoosh(folder, papers)
        else:  # margin: its index alone, from papers held in memory
            build_margin(folder, papers)[0].close()
        print(json.dumps({"seconds": time.perf_counter() - started, "papers": len(papers)}))
    elif action == "update":
        engines = Engines(Path(argv[2]))
        papers = load_papers(Path(argv[3]))
        started = time.perf_counter()
        engines.add(engine, papers)
        print(json.dumps({"seconds": time.perf_counter() - started, "papers": len(papers)}))
    elif action == "open":
        if engine == "margin":  # its index alone; the page's rows from fts.db by rowid, as for whoosh
            index = SearchIndex(Path(argv[2]) / "margin")
            index.needs_rebuild()  # opens the index
            ids = index.find(argv[3], limit=PAGE).ids
            with sqlite3.connect(Path(argv[2]) / "fts.db") as connection:
                marks = ",".join("?" * len(ids))
                rows = connection.execute(f"SELECT rowid, title, authors, venue, year FROM papers"
                                          f" WHERE rowid IN ({marks})", [int(i, 16) + 1 for i in ids]).fetchall()
        else:
            rows = Engines(Path(argv[2])).first_page(engine, argv[3])
        print(json.dumps({"first_page": time.time() - float(os.environ["MARGIN_BENCH_T0"]), "rows": len(rows)}))


def build_baselines(papers_file: Path, folder: Path) -> dict:
    """Build FTS5 and plain whoosh from `papers_file`, each in a fresh process: {engine: measure()}."""
    figures = {}
    for engine in ENGINES:
        figures[engine] = run_child(["--child", "build", engine, str(papers_file), str(folder)])
        if figures[engine]["code"]:
            raise RuntimeError(f"building {engine} failed: {figures[engine]['stderr'][-2000:]}")
    return figures


def open_first_query(folder: Path, text: str, runs: int = 3, engines=ENGINES) -> dict[str, float]:
    """Per engine, median seconds from a fresh process's start to its first query's page (warm caches)."""
    out = {}
    for engine in engines:
        values = []
        for _ in range(runs):
            result = run_child(["--child", "open", engine, str(folder), text], {"MARGIN_BENCH_T0": repr(time.time())})
            if result["json"]:
                values.append(result["json"]["first_page"])
        out[engine] = statistics.median(values) if values else float("nan")
    return out


def typed_prefixes(queries: list[str]) -> list[str]:
    """Every prefix of each query, as typed one character at a time."""
    return [text[:end] for text in queries for end in range(1, len(text) + 1)]


def keystroke_figures(engines: Engines, queries: list[str]) -> dict[str, dict[str, float]]:
    """Per engine, over the typed prefixes of `queries`: p50 / p95 / longest of (query → first page's rows)."""
    out = {}
    for engine in ENGINES:
        times = []
        for prefix in typed_prefixes(queries):
            text = engine_text(prefix)
            if text is None:
                continue
            started = time.perf_counter()
            try:
                engines.first_page(engine, text)
            except (sqlite3.OperationalError, ValueError):  # a prefix the engine's syntax refuses
                pass
            times.append((time.perf_counter() - started) * 1000)
        out[engine] = {"p50": statistics.median(times), "p95": percentile(times, 0.95), "max": max(times),
                       "count": len(times)}
    return out


def query_ms(run, text: str) -> tuple[float, int]:
    """Median ms of `run(text)` over REPEATS runs after a warm-up, and its hit count."""
    values, count = timed(run, text)
    return statistics.median(values), count


def ratio(mine: float, theirs: float) -> str:
    """Margin's figure ÷ the baseline's ("n/a" when either is missing)."""
    try:
        if theirs != theirs or mine != mine or theirs <= 0:
            return "n/a"
        return f"{mine / theirs:.1f}×"
    except TypeError:
        return "n/a"


def figure_row(name: str, mine, theirs: dict, fmt) -> str:
    """| figure | Margin | FTS5 | Margin ÷ FTS5 | plain whoosh | Margin ÷ whoosh | (numbers through `fmt`)."""
    def cell(value):
        try:
            return fmt(value) if value is not None and value == value else "n/a"
        except (TypeError, ValueError):
            return "n/a"

    def number(value):
        return value[0] if isinstance(value, tuple) else value

    cells = [cell(mine)]
    for engine in ENGINES:
        cells += [cell(theirs.get(engine)), ratio(number(mine), number(theirs.get(engine)))
                  if mine is not None and theirs.get(engine) is not None else "n/a"]
    return f"| {name} | " + " | ".join(cells) + " |"


FIGURE_HEADER = ("| figure (baseline's nearest equivalent) | Margin | SQLite FTS5 | Margin ÷ FTS5 | plain whoosh |"
                 " Margin ÷ whoosh |\n|---|---|---|---|---|---|")


# ---------------------------------------------------------------------------------------------- quality
def quality_queries(papers: list[Paper]) -> list[tuple[str, str]]:
    """(class, Margin query) for the first-page check: MIX's queries by class, and CJK words when the corpus
    has CJK text (two-character runs taken from it)."""
    queries = [(kind, margin_q) for kind, margin_q, *_ in MIX]
    runs = []
    for paper in papers:
        runs += _CJK.findall(paper.label + " " + paper.abstract)
        if len(runs) >= 50:
            break
    for run in dict.fromkeys(r[:2] for r in runs):
        queries.append(("CJK", run))
    return queries


def first_page_agreement(index, queries, page: int = PAGE) -> int:
    """Margin's first page (`index.find(q, limit=page).ids`) against the exhaustive ranking's first page
    (`index.find(q).ids[:page]`) for each (class, query) — or bare query string — in `queries`. Prints each
    mismatch (first differing rank, ids only in one of them) and a line per class; returns the mismatches."""
    by_kind: dict[str, list[int]] = {}
    mismatches = 0
    for item in queries:
        kind, text = item if isinstance(item, tuple) else ("query", item)
        fast = list(index.find(text, limit=page).ids)
        full = list(index.find(text).ids[:page])
        same = fast == full
        counts = by_kind.setdefault(kind, [0, 0])
        counts[0] += 1
        counts[1] += same
        if not same:
            mismatches += 1
            pairs = enumerate(zip(fast, full, strict=False))
            at = next((i for i, (a, b) in pairs if a != b), min(len(fast), len(full)))
            print(f"  first page differs: `{text}` ({kind}) from rank {at + 1}; {len(fast)} vs {len(full)} ids; "
                  f"only in limit={page}: {sorted(set(fast) - set(full))[:5]}, "
                  f"only in the full ranking: {sorted(set(full) - set(fast))[:5]}")
    print("| query class | queries | first page = exhaustive first page |\n|---|---|---|")
    for kind, (total, agree) in by_kind.items():
        print(f"| {kind} | {total} | {agree} |")
    print(f"first-page mismatches: {mismatches} of {sum(t for t, _ in by_kind.values())} queries")
    return mismatches


# ---------------------------------------------------------------------------------------------- run
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


def bench(size: int, records: list[dict], papers_file: Path | None = None) -> None:
    papers = load_papers(papers_file) if papers_file else papers_of_size(records, size)
    size = len(papers)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if papers_file is None:
            papers_file = folder / "papers.json"
            papers_file.write_text(json.dumps([paper_record(p) for p in papers]), encoding="utf-8")
        # index builds, each in a fresh process: seconds and peak memory (the process reads the JSON list)
        built = {"margin": run_child(["--child", "build", "margin", str(papers_file), str(folder)])}
        built.update(build_baselines(papers_file, folder))
        for engine, result in built.items():
            if result["code"]:
                raise RuntimeError(f"building {engine} failed: {result['stderr'][-2000:]}")
        starts = open_first_query(folder, "reinforcement learning", engines=("margin", *ENGINES))
        margin = SearchIndex(folder / "margin")
        margin.needs_rebuild()  # opens the index (no library to catch up with here)
        baselines = Engines(folder)
        parser, plain_searcher, fts = baselines.parser, baselines.searcher, baselines.fts

        def run_plain(text):
            return [docnum for _score, docnum in plain_searcher.search(parser.parse(text), limit=None).top_n]

        def run_fts(text):
            return fts.execute("SELECT rowid FROM papers WHERE papers MATCH ? ORDER BY bm25(papers, 2.0, 1.0, 1.0)",
                               (text,)).fetchall()

        engines = {"margin (all ids)": lambda text: margin.search(text),
                   f"margin (first {PAGE})": lambda text: margin.search(text, limit=PAGE),
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
        phrase = {name: statistics.median(times[name, "stop-word phrase"][:REPEATS]) for name in engines}
        print(f"\n## {size:,} abstracts\n")
        print(FIGURE_HEADER)
        print(figure_row("phrase with stop words `\"state of the art\"`, all matches ranked (ms, median)",
                         phrase["margin (all ids)"], {"fts5": phrase["sqlite fts5 (all)"],
                                                      "whoosh": phrase["plain whoosh (all)"]}, lambda v: f"{v:.1f}"))
        print(figure_row("index build from the JSON list in a fresh process (s; Margin: its index alone)",
                         built["margin"]["wall"], {e: built[e]["wall"] for e in ENGINES}, lambda v: f"{v:.1f}"))
        print(figure_row("… its peak memory (MB, peak RSS, the JSON list read included)",
                         built["margin"]["peak_mb"], {e: built[e]["peak_mb"] for e in ENGINES}, lambda v: f"{v:.0f}"))
        print(figure_row("open the index, answer a first query and fetch its page's rows (s from a fresh "
                         "process's start, median of 3)", starts.pop("margin"), starts, lambda v: f"{v:.2f}"))
        print()
        kinds = list(dict.fromkeys(kind for kind, *_ in MIX)) + ["whole mix"]
        print("| engine | " + " | ".join(f"{kind} p50/p95 ms" for kind in kinds) + " |")
        print("|---|" + "---|" * len(kinds))
        for engine in engines:
            cells = [f"{percentile(times[engine, k], 0.5):.1f} / {percentile(times[engine, k], 0.95):.1f}"
                     for k in kinds]
            print(f"| {engine} | " + " | ".join(cells) + " |")
        print(f"\n| query | hits (margin / whoosh / fts5) | margin all ms | first {PAGE} ms | whoosh ms | fts5 ms |"
              " margin ÷ whoosh | margin ÷ fts5 |")
        print("|---|---|---|---|---|---|---|---|")
        for query, medians, counts in per_query:
            print(f"| `{query}` | {counts['margin (all ids)']} / {counts['plain whoosh (all)']} / "
                  f"{counts['sqlite fts5 (all)']} | {medians['margin (all ids)']:.1f} | "
                  f"{medians[f'margin (first {PAGE})']:.1f} | {medians['plain whoosh (all)']:.1f} | "
                  f"{medians['sqlite fts5 (all)']:.1f} | "
                  f"{ratio(medians['margin (all ids)'], medians['plain whoosh (all)'])} | "
                  f"{ratio(medians['margin (all ids)'], medians['sqlite fts5 (all)'])} |")
        print(f"\nfirst page ({PAGE} ids) with limit={PAGE} against the exhaustive ranking:\n")
        checked = quality_queries(papers)
        first_page_agreement(margin, checked)
        if not any(kind == "CJK" for kind, _text in checked):
            print("(no CJK class: the corpus has no CJK text)")
        baselines.close()
        margin.close()


STOP_PHRASES = [margin_q for kind, margin_q, *_ in MIX if kind == "stop-word phrase"]
OTHER_HAND = '"on the other hand"'
FIRST = 100  # issue 28's first page of a stop-word phrase


def index_rows_child(folder: Path, papers_file: Path) -> dict:
    """In a fresh process: build Margin's index (CPU seconds, this process and its helpers), its size on disk by
    field, and the stop-word phrase figures (see the module's docstring)."""
    import resource

    papers = load_papers(papers_file)
    started = time.process_time()
    index, wall = build_margin(folder, papers)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - started + children.ru_utime + children.ru_stime
    del papers
    index.close()
    sizes = field_sizes(folder / "margin")
    index = SearchIndex(folder / "margin")
    index.needs_rebuild()

    def forget(cold: bool) -> None:
        ranker = getattr(index, "_ranker", None)
        if ranker is not None and hasattr(ranker, "_last"):
            ranker._last = None
        cache = getattr(index, "_segments", None)
        if cold and cache is not None and hasattr(cache, "_postings"):
            cache._postings.clear()
            cache._size = 0

    def times(text: str, limit: int | None, cold: bool) -> list[float]:
        index.search(text, limit=limit)
        out = []
        for _ in range(REPEATS):
            forget(cold)
            began = time.perf_counter()
            index.search(text, limit=limit)
            out.append((time.perf_counter() - began) * 1000)
        return out

    figures = {"cpu": cpu, "wall": wall, "sizes": sizes, "hits": len(index.search(OTHER_HAND)), "phrases": {}}
    for cold in (False, True):
        name = "cold" if cold else "warm"
        figures[f"other_hand_{name}"] = statistics.median(times(OTHER_HAND, None, cold))
        firsts = []
        for text in STOP_PHRASES:
            first, whole = times(text, FIRST, cold), times(text, None, cold)
            firsts += first
            figures["phrases"][f"{text} {name}"] = (statistics.median(first), statistics.median(whole))
        figures[f"first_p95_{name}"] = percentile(firsts, 0.95)
    index.close()
    return figures


def field_sizes(folder: Path) -> dict[str, float]:
    """MB on disk: "total" (the folder), and the posting bytes of each field."""
    from whoosh import index as opened

    sizes: dict[str, float] = {"total": sum(f.stat().st_size for f in Path(folder).iterdir()) / 1e6}
    reader = opened.open_dir(str(folder)).reader()
    leaves = reader.leaf_readers() if hasattr(reader, "leaf_readers") else [(reader, 0)]
    for leaf, _offset in leaves:
        for name, text in leaf.all_terms():
            info = leaf.term_info(name, text)
            length = 0 if info.is_inlined() else info.extent()[1]
            length = length[0] if isinstance(length, tuple) else length
            sizes[name] = sizes.get(name, 0.0) + length / 1e6
    reader.close()
    return sizes


def index_rows(papers_file: Path, before: Path) -> None:
    """Issue 28's index rows: before (`before`'s db.search) and after (this checkout's), with FTS5."""
    import platform

    print(f"source: {papers_file}; before: {before}; after: {ROOT}; {platform.node()}")
    print("uptime:", os.popen("uptime").read().strip())
    with tempfile.TemporaryDirectory(prefix="bench-index-") as tmp:
        folder = Path(tmp)
        fts_build = run_child(["--child", "build", "fts5", str(papers_file), str(folder)])
        rows = {}
        for name, code in (("before", before), ("after", ROOT)):
            (folder / name).mkdir()
            result = run_child(["--child", "index-rows", str(folder / name), str(papers_file)],
                               {"MARGIN_BENCH_CODE": str(code)})
            if result["code"] or not result["json"]:
                raise RuntimeError(f"{name}: {result['stderr'][-3000:]}")
            rows[name] = result["json"]
            shutil_rmtree(folder / name / "margin")
            print("uptime:", os.popen("uptime").read().strip())
        fts = sqlite3.connect(folder / "fts.db")

        def fts_ms(text: str, limit: int | None) -> list[float]:
            return timed(lambda t: fts.execute("SELECT rowid FROM papers WHERE papers MATCH ? ORDER BY "
                                               "bm25(papers, 2.0, 1.0, 1.0)" + (f" LIMIT {limit}" if limit else ""),
                                               (t,)).fetchall(), text)[0]

        other = statistics.median(fts_ms(OTHER_HAND, None))
        first = percentile([v for text in STOP_PHRASES for v in fts_ms(text, FIRST)], 0.95)
        fts_hits = len(fts.execute("SELECT rowid FROM papers WHERE papers MATCH ?", (OTHER_HAND,)).fetchall())
        fts_mb = (folder / "fts.db").stat().st_size / 1e6
        fts.close()
    b, a = rows["before"], rows["after"]
    print(f"\n## issue 28's index rows, {papers_file.name} (hits of {OTHER_HAND}: before {b['hits']}, "
          f"after {a['hits']}, FTS5 {fts_hits})\n")
    print("| row | before | after | SQLite FTS5 | before ÷ FTS5 | after ÷ FTS5 | target |")
    print("|---|---|---|---|---|---|---|")

    def row(name, before_value, after_value, theirs, target, fmt="{:.1f}"):
        print(f"| {name} | {fmt.format(before_value)} | {fmt.format(after_value)} | {fmt.format(theirs)} | "
              f"{ratio(before_value, theirs)} | {ratio(after_value, theirs)} | {target} |")

    row(f"`{OTHER_HAND}`, all matches, ms (median; fresh ranking, decoded postings cached)",
        b["other_hand_warm"], a["other_hand_warm"], other, "≤ 2× FTS5")
    row("… the same with the decoded postings dropped before each run (cold)", b["other_hand_cold"],
        a["other_hand_cold"], other, "–")
    row(f"first {FIRST} of a stop-word phrase, p95 ms", b["first_p95_warm"], a["first_p95_warm"], first, "≤ 2× FTS5")
    row("… cold", b["first_p95_cold"], a["first_p95_cold"], first, "–")
    row("index build CPU, s (fresh process; helpers included)", b["cpu"], a["cpu"], fts_build["cpu"], "≤ 3× FTS5")
    row("index on disk, MB (FTS5: text included)", b["sizes"]["total"], a["sizes"]["total"], fts_mb, "≤ 1.5× FTS5")
    print(f"\n| phrase (first {FIRST} / all, median ms) | before | after |\n|---|---|---|")
    for key in a["phrases"]:
        fb, wb = b["phrases"].get(key, (float("nan"), float("nan")))
        fa, wa = a["phrases"][key]
        print(f"| `{key}` | {fb:.1f} / {wb:.1f} | {fa:.1f} / {wa:.1f} |")
    print("\n| index field: posting bytes, MB | before | after |\n|---|---|---|")
    for key in sorted(set(a["sizes"]) | set(b["sizes"]), key=lambda k: -a["sizes"].get(k, b["sizes"].get(k, 0))):
        print(f"| {key} | {b['sizes'].get(key, 0):.1f} | {a['sizes'].get(key, 0):.1f} |")


def shutil_rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--child":
        if argv[1] == "index-rows":
            print(json.dumps(index_rows_child(Path(argv[2]), Path(argv[3]))))
            return
        child(argv[1:])
        return
    if "--before" in argv:
        at = argv.index("--before")
        papers_at = argv.index("--papers") + 1 if "--papers" in argv else None
        if papers_at is None:
            raise SystemExit("--before needs --papers FILE")
        index_rows(Path(argv[papers_at]), Path(argv[at + 1]))
        return
    papers = None
    if "--papers" in argv:  # a JSON paper list (bench_app's); "{size}" in it stands for each size given
        at = argv.index("--papers")
        papers = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
    sizes = [int(arg) for arg in argv] or ([0] if papers else [1000, 20000])
    records = [] if papers else source_records()
    source = papers or (REAL if REAL.is_dir() else "synthetic text")
    print(f"source: {source}; {REPEATS} runs per query after a warm-up; margin from "
          f"{Path(sys.modules[SearchIndex.__module__].__file__).resolve().parents[1]}")
    for size in sizes:
        bench(size, records, Path(papers.replace("{size}", str(size))) if papers else None)


if __name__ == "__main__":
    main(sys.argv[1:])
