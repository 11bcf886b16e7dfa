"""Rating in the window, before and after a change, side by side in one run (issue 33).

Not part of the test run. From the project folder, with a checkout of the earlier code beside it (a git
worktree: `git worktree add ../before COMMIT`):

    .venv/bin/python tests/benchmarks/bench_rating.py --before ../before            # 20,000 papers
    .venv/bin/python tests/benchmarks/bench_rating.py 20000 --before ../before --rounds 2

One JSON paper list of SIZE papers is made from the real lists (bench_app.write_paper_list) and imported once
by this checkout (`main.py import`); each code gets its own copy of that library, and bench_app's triage
child (a real window, offscreen, real key events: a digit 1–5 then j for 50 papers, in library order and in
a venue view; then a note typed with pauses) runs on it with that code imported (MARGIN_BENCH_CODE). Rounds
alternate before, after, before, after… so that both see the same load. Figures per code: the longest
GUI-thread stall while rating (library order; venue view), per-key latency p50 / p95, rating → repainted row
p50 / p95 (key press to the paper list's next paint), model resets and layout changes, whether the list kept
its place, and the load average around each run.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import bench_app  # noqa: E402


def triage_child(code: Path, library: Path, venue: str) -> dict:
    """bench_app's triage child on `library` with the Margin of checkout `code`; its figures (a dict)."""
    env = dict(os.environ, MARGIN_BENCH_CODE=str(code), QT_QPA_PLATFORM="offscreen")
    load_before = os.getloadavg()[0]
    result = subprocess.run([sys.executable, str(HERE / "bench_app.py"), "--child-triage", str(library), venue],
                            capture_output=True, text=True, env=env, timeout=3600, cwd=str(code))
    if result.returncode:
        raise RuntimeError(result.stderr[-3000:])
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    figures["load"] = (round(load_before, 2), round(os.getloadavg()[0], 2))
    return figures


def cell(runs: list[dict], name: str, key: str, spec: str = ".0f") -> str:
    values = [run[name][key] for run in runs if run.get(name) and run[name].get(key) is not None]
    if not values:
        return "n/a"
    return " / ".join(format(value, spec) for value in values)


def main(argv: list[str]) -> None:
    size, before, rounds, papers = 20000, None, 1, None
    args = iter(argv)
    for arg in args:
        if arg == "--before":
            before = Path(next(args)).resolve()
        elif arg == "--rounds":
            rounds = int(next(args))
        elif arg == "--papers":
            papers = Path(next(args))
        else:
            size = int(arg)
    if before is None or not (before / "desktop").is_dir():
        sys.exit("bench_rating: --before DIR must name a checkout of the earlier code (git worktree add DIR COMMIT)")
    records = bench_app.source_records()
    venue = bench_app.venue(records)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        paper_list = papers or work / f"papers-{size}.json"
        if papers is None:
            bench_app.write_paper_list(paper_list, size, records)
        library = work / "library"
        started = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "main.py"), "--library", str(library), "import", str(paper_list)],
                       check=True, capture_output=True, text=True)
        print(f"imported {size:,} papers in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        runs: dict[str, list[dict]] = {"before": [], "after": []}
        for number in range(rounds):
            for name, code in (("before", before), ("after", ROOT)):
                copy = work / f"{name}-{number}"
                shutil.copytree(library, copy, symlinks=True)
                try:
                    runs[name].append(triage_child(code, copy, venue))
                except (RuntimeError, subprocess.TimeoutExpired, ValueError) as error:
                    print(f"{name} round {number}: {error}", file=sys.stderr)
                shutil.rmtree(copy, ignore_errors=True)
                print(f"{name} round {number} done", file=sys.stderr)
    print(f"\nRating before / after — {size:,} papers, {os.cpu_count()} cores, offscreen Qt; before = {before}, "
          f"after = {ROOT}; each cell lists the rounds\n")
    print("| figure | before | after |")
    print("|---|---|---|")
    rows = [
        ("longest GUI stall rating 50 papers, library order (ms)", "rate_library", "stall"),
        ("longest GUI stall rating 50 papers, venue view (ms)", "rate_venue", "stall"),
        ("rating → repainted row p50, library order (ms)", "rate_library", "repaint_p50"),
        ("rating → repainted row p95, library order (ms)", "rate_library", "repaint_p95"),
        ("rating → repainted row p50, venue view (ms)", "rate_venue", "repaint_p50"),
        ("rating → repainted row p95, venue view (ms)", "rate_venue", "repaint_p95"),
        ("key → GUI free p50 / library order (ms)", "rate_library", "step_p50"),
        ("key → GUI free p95 / library order (ms)", "rate_library", "step_p95"),
        ("key → GUI free p95 / venue view (ms)", "rate_venue", "step_p95"),
        ("stalls > 50 ms, library order", "rate_library", "over_50"),
        ("stalls > 50 ms, venue view", "rate_venue", "over_50"),
        ("model resets, library order", "rate_library", "resets"),
        ("rows of the first 60 moved, venue view", "rate_venue", "rows_moved"),
        ("ratings saved of 50, library order", "rate_library", "ratings_saved"),
    ]
    for title, name, key in rows:
        print(f"| {title} | {cell(runs['before'], name, key)} | {cell(runs['after'], name, key)} |")
    note = [(name, [run["note"]["stall"] for run in runs[name] if run.get("note")]) for name in runs]
    print("| longest GUI stall typing a note (ms) | "
          + " | ".join(" / ".join(f"{v:.0f}" for v in values if v is not None) or "n/a" for _n, values in note)
          + " |")
    for name in runs:
        loads = [run["load"] for run in runs[name]]
        print(f"\n{name}: load average (1 min) before → after each run: {loads}; code "
              f"{[run.get('code') for run in runs[name]]}")
    if runs["before"] and runs["after"]:
        ratio = [statistics.median([r[n]["stall"] for r in runs["after"] if r.get(n)] or [float("nan")])
                 / statistics.median([r[n]["stall"] for r in runs["before"] if r.get(n)] or [float("nan")])
                 for n in ("rate_library", "rate_venue")]
        print(f"\nafter / before, longest stall: library order {ratio[0]:.2f}, venue view {ratio[1]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
