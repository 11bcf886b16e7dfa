"""Import benchmark (issues 15, 28): CPU, wall and peak memory of a cold import, beside the floor and the code
before, all measured in one run. Not part of the test run. From the project folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_import.py                       # 20k, both lists
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_import.py 20000 100000 --before /work/wt/base
    … --lists hard --papers /work/bench-data/papers-{size}.json --no-reimport --records-only

Two paper lists per size (`--lists`):
- `hard`: bench_app's generator (`write_paper_list`): the real lists in ../shared/data/real resampled to size,
  every fourth word of each copy replaced — ~16 near-copies of every real abstract at 100k, which no real list
  has, but the worst case the duplicate detection meets (`--papers` gives a file of it instead);
- `realistic`: every real abstract once, then abstracts whose sentences are drawn from three or four real
  abstracts of any list (titles likewise mixed): a long list of distinct papers, as a year of arXiv is.

Per list and size, each in a fresh process under GNU time (bench_search.measure: CPU = user + system with the
children waited for, peak = the process's maximum resident set):
- floor: `sqlite-utils insert` of the JSON list plus `sqlite-utils enable-fts` on title and abstract (the FTS5
  build), the two commands' figures summed (peak: the larger);
- Margin `main.py import FILE` into a new library (import + search index), this checkout and, with
  `--before DIR`, another checkout (the code before, e.g. /work/wt/base);
- the record import alone (db.import_job.read_inputs + Library.import_records, no index), in a child that
  reports its CPU, its peak (VmHWM) and its resident memory before the import (base);
  (`--records-only`: only this, not `main.py import`: the search index is db/search's own figure);
- unless `--no-reimport`: a re-import of 1,000 changed papers (new title, one abstract word replaced) into a
  copy of the library (the worst case: every record found again by its abstract).

The targets (issue 28): import + index CPU ≤ 3× the floor; cold import peak ≤ 400 MB at 100k.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

CHILD = r"""
import json, resource, sys, time
from pathlib import Path

def status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

from db.import_job import read_inputs
from db.library.library import Library

base = status("VmRSS")
before = resource.getrusage(resource.RUSAGE_SELF)
started = time.perf_counter()
with Library.open(sys.argv[1], seed=False) as library:
    report = library.import_records(read_inputs([sys.argv[2]]).records)
after = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
                  "wall": time.perf_counter() - started, "peak_mb": status("VmHWM"), "base_mb": base,
                  "summary": report.summary()}))
"""


# ---------------------------------------------------------------------------------------------- lists
def realistic_list(path: Path, size: int, records: list[dict]) -> None:
    """`size` distinct papers: every real one once, then papers whose abstract is as many sentences as a real
    one's, drawn from 3–4 random real abstracts, and whose title joins the halves of two real titles."""
    rng = random.Random(size + 28)
    sentences = [[part for part in re.split(r"(?<=[.!?])\s+", record["abstract"]) if part] for record in records]
    out = [{k: v for k, v in record.items() if k != "authors"} for record in records[:size]]
    while len(out) < size:
        template = rng.choice(records)
        donors = [rng.choice(sentences) for _ in range(rng.randint(3, 4))]
        count = max(3, len(re.split(r"(?<=[.!?])\s+", template["abstract"])))
        abstract = " ".join(rng.choice(rng.choice(donors)) for _ in range(count))
        first, second = template["title"].split(), rng.choice(records)["title"].split()
        title = " ".join(first[: max(1, len(first) // 2)] + second[len(second) // 2:])
        out.append(dict({k: v for k, v in template.items() if k != "authors"}, title=title, abstract=abstract))
    path.write_text(json.dumps(out), encoding="utf-8")


def changed_list(paper_list: Path, target: Path, count: int = 1000) -> None:
    """`count` papers of `paper_list` (spread over it) with a new title and one abstract word replaced."""
    records = json.loads(paper_list.read_text(encoding="utf-8"))
    chosen = random.Random(15).sample(records, min(count, len(records)))
    for record in chosen:
        words = record["abstract"].split()
        words[len(words) // 2] = "revised"
        record["abstract"] = " ".join(words)
        record["title"] = "Revised: " + record["title"]
    target.write_text(json.dumps(chosen), encoding="utf-8")


# ---------------------------------------------------------------------------------------------- runs
def floor(paper_list: Path, work: Path) -> dict:
    """sqlite-utils insert + FTS5 build of the list: CPU and wall summed, the larger peak."""
    from bench_search import measure

    tool = str(Path(sys.executable).with_name("sqlite-utils"))
    database = work / "floor.db"
    database.unlink(missing_ok=True)
    insert = measure([tool, "insert", str(database), "papers", str(paper_list)])
    fts = measure([tool, "enable-fts", str(database), "papers", "title", "abstract"])
    database.unlink(missing_ok=True)
    return {"cpu": insert["cpu"] + fts["cpu"], "wall": insert["wall"] + fts["wall"],
            "peak_mb": max(insert["peak_mb"], fts["peak_mb"])}


def margin_import(code: Path, library: Path, paper_list: Path) -> dict:
    """`main.py import` (records + search index) of `code` into a new library under GNU time."""
    from bench_search import measure

    result = measure([sys.executable, str(code / "main.py"), "--library", str(library), "import", str(paper_list)],
                     env={"PYTHONPATH": str(code), "QT_QPA_PLATFORM": "offscreen"})
    said = result["stdout"].strip()
    return {"cpu": result["cpu"], "wall": result["wall"], "peak_mb": result["peak_mb"],
            "summary": said.splitlines()[-1] if said else result["stderr"][-300:]}


def records_only(code: Path, library: Path, paper_list: Path) -> dict:
    result = subprocess.run([sys.executable, "-c", CHILD, str(library), str(paper_list)], capture_output=True,
                            text=True, timeout=7200, cwd=code, env=dict(os.environ, PYTHONPATH=str(code)))
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode or not lines:
        raise RuntimeError(result.stderr[-3000:])
    return json.loads(lines[-1])


def bench(name: str, size: int, paper_list: Path, codes: dict[str, Path], work: Path, reimport: bool,
          full: bool = True) -> dict:
    row = {"list": name, "size": size, "floor": floor(paper_list, work)}
    changed = work / f"changed-{name}-{size}.json"
    if reimport:
        changed_list(paper_list, changed)
    for label, code in codes.items():
        if full:
            library = work / f"{label}-{name}-{size}-full"
            row[label] = margin_import(code, library, paper_list)
            shutil.rmtree(library, ignore_errors=True)
        alone = work / f"{label}-{name}-{size}"
        row[label + "_records"] = records_only(code, alone, paper_list)
        if reimport:
            row[label + "_reimport"] = records_only(code, alone, changed)
        shutil.rmtree(alone, ignore_errors=True)
        print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def main(argv: list[str]) -> None:
    from bench_app import source_records, write_paper_list

    sizes = [int(a) for a in argv if a.isdigit()] or [20000]
    option = {key: argv[argv.index(key) + 1] for key in ("--before", "--lists", "--papers", "--work") if key in argv}
    lists = option.get("--lists", "hard,realistic").split(",")
    codes = {"after": ROOT}
    if "--before" in option:
        codes = {"before": Path(option["--before"]).resolve(), "after": ROOT}
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    records = source_records()
    rows = []
    with tempfile.TemporaryDirectory(prefix="margin-bench-import-", dir=option.get("--work")) as folder:
        work = Path(folder)
        for size in sizes:
            for name in lists:
                paper_list = work / f"{name}-{size}.json"
                if name == "hard" and "--papers" in option:
                    paper_list = Path(option["--papers"].replace("{size}", str(size)))
                elif name == "hard":
                    write_paper_list(paper_list, size, records)
                else:
                    realistic_list(paper_list, size, records)
                rows.append(bench(name, size, paper_list, codes, work, "--no-reimport" not in argv,
                                  "--records-only" not in argv))
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print_table(rows, codes)


def print_table(rows: list[dict], codes: dict[str, Path]) -> None:
    print("| list | papers | floor CPU / wall s, peak MB | " + " | ".join(
        f"{label}: import + index CPU s (× floor) / wall s (× floor) / peak MB | {label}: records alone CPU s /"
        " wall s / peak MB (peak − base)" for label in codes) + " |")
    print("|---|---|---|" + "---|---|" * len(codes))
    for row in rows:
        ground = row["floor"]
        cells = [row["list"], f"{row['size']:,}",
                 f"{ground['cpu']:.1f} / {ground['wall']:.1f}, {ground['peak_mb']:.0f}"]
        for label in codes:
            full, alone = row.get(label), row[label + "_records"]
            cells.append(f"{full['cpu']:.1f} ({full['cpu'] / ground['cpu']:.1f}×) / {full['wall']:.1f} "
                         f"({full['wall'] / ground['wall']:.1f}×) / {full['peak_mb']:.0f}" if full else "–")
            cells.append(f"{alone['cpu']:.1f} / {alone['wall']:.1f} / {alone['peak_mb']:.0f} "
                         f"({alone['peak_mb'] - alone['base_mb']:.0f})")
        print("| " + " | ".join(cells) + " |")
    for row in rows:
        for label in codes:
            again = row.get(label + "_reimport")
            if again:
                print(f"{row['list']} {row['size']:,} {label}: re-import of 1,000 changed: {again['cpu']:.1f} s CPU, "
                      f"peak − base {again['peak_mb'] - again['base_mb']:.0f} MB ({again['summary']})")
            print(f"{row['list']} {row['size']:,} {label}: {(row.get(label) or row[label + '_records'])['summary']}")


if __name__ == "__main__":
    main(sys.argv[1:])
