"""Import benchmark (issue 15, bounded memory): CPU time and peak memory of `margin import`'s record import.

Not part of the test run. From the project folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_import.py              # 20k
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_import.py 20000 100000 # and 100k (slow: minutes)

The papers come from bench_app's generator (`source_records`, `write_paper_list`: the real lists in
../shared/data/real resampled to size), so the figures compare with bench_app's. For each size:

- cold import: the whole list into a new, empty library (db.import_job.read_inputs + Library.import_records,
  i.e. `margin import` without the search index build, which db/search bounds on its own);
- re-import of 1,000 changed papers: 1,000 papers of the library again, each with a new title and one word of
  its abstract replaced, so that every record goes through near-duplicate abstract matching (the worst case:
  titles and years no longer identify them) and is updated in place.

Each figure is measured in a fresh child process: CPU seconds (user + system) and peak resident memory (VmHWM,
ru_maxrss) of the child, and the child's resident memory before the import started (Python + Margin loaded), so
that "peak − base" is what the import itself held. The target at 100k (issue 15): re-import ≤ 5 s CPU and
≤ 300 MB peak.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))


def vm(field: str) -> float:
    """VmHWM / VmRSS of this process in MB (from /proc; ru_maxrss where there is no /proc)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_import(library: str, paper_list: str) -> None:
    """Import one file into the library (no search index) and print the figures as one JSON line."""
    from db.import_job import read_inputs
    from db.library.library import Library

    base = vm("VmRSS")
    before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    with Library.open(library, seed=False) as lib:
        inputs = read_inputs([paper_list])
        report = lib.import_records(inputs.records)
        count = lib.count()
    after = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
                      "wall": time.perf_counter() - started, "peak_mb": vm("VmHWM"), "base_mb": base,
                      "summary": report.summary(), "papers": count,
                      "db_mb": (Path(library) / "library.db").stat().st_size / 2**20}))


def run_child(library: Path, paper_list: Path) -> dict:
    result = subprocess.run([sys.executable, __file__, "--child-import", str(library), str(paper_list)],
                            capture_output=True, text=True, timeout=7200,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode or not lines:
        raise RuntimeError(result.stderr[-3000:])
    return json.loads(lines[-1])


def changed_list(paper_list: Path, target: Path, count: int = 1000) -> None:
    """`count` papers of `paper_list` (spread over it) with a new title and one abstract word replaced."""
    records = json.loads(paper_list.read_text(encoding="utf-8"))
    rng = random.Random(15)
    chosen = rng.sample(records, min(count, len(records)))
    for record in chosen:
        words = record["abstract"].split()
        words[len(words) // 2] = "revised"
        record["abstract"] = " ".join(words)
        record["title"] = "Revised: " + record["title"]
    target.write_text(json.dumps(chosen), encoding="utf-8")


def bench(size: int, records: list[dict], work: Path) -> dict:
    from bench_app import write_paper_list

    paper_list = work / f"papers-{size}.json"
    write_paper_list(paper_list, size, records)
    changed = work / f"changed-{size}.json"
    changed_list(paper_list, changed)
    library = work / f"library-{size}"
    cold = run_child(library, paper_list)
    copy = work / f"copy-{size}"
    shutil.copytree(library, copy)
    again = run_child(copy, changed)
    return {"size": size, "cold": cold, "reimport": again}


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child-import"]:
        child_import(argv[1], argv[2])
        return
    from bench_app import source_records

    sizes = [int(a) for a in argv] or [20000]
    records = source_records()
    rows = []
    with tempfile.TemporaryDirectory(prefix="margin-bench-import-") as folder:
        for size in sizes:
            row = bench(size, records, Path(folder))
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    print("| papers | cold import CPU s | cold peak MB (base) | re-import 1k CPU s | re-import peak MB (base) "
          "| library.db MB |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        cold, again = row["cold"], row["reimport"]
        print(f"| {row['size']:,} | {cold['cpu']:.1f} | {cold['peak_mb']:.0f} ({cold['base_mb']:.0f}) "
              f"| {again['cpu']:.1f} | {again['peak_mb']:.0f} ({again['base_mb']:.0f}) | {cold.get('db_mb', 0):.0f} |")
    for row in rows:
        print(f"{row['size']:,}: cold: {row['cold']['summary']}; re-import: {row['reimport']['summary']}")


if __name__ == "__main__":
    main(sys.argv[1:])
