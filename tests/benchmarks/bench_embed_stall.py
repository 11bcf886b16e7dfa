"""The window's stalls while its embedding job runs (issue 32): bench_app's window child with the background
embedding on beside the same child with it off (MARGIN_EMBED_BACKGROUND=0), rounds alternating, in one run.

Not part of the test run. From the project folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_embed_stall.py /work/bench-data/library-20000 \
        --work /tmp/NAME --rounds 2

Each round copies the prepared library (no vectors in it, so the job embeds all the while: the quick pass, then
the full one), runs `bench_app.py --child-gui COPY EXTRA` (a real window, offscreen: once the job has stored its
first vectors — so that it embeds all the while — real key events typed into the search box, the longest gap
between ticks of a 2 ms timer while typing, and while a 1,000-paper import
runs in the window), and meanwhile samples the embedding child (`python -m db.embed.job COPY`) every 0.25 s:
its nice level, threads, their scheduling policies (every thread's, from /proc, as last sampled) and CPU
seconds — so a row says how much the job really ran beside the window, and how. The load (`uptime`) is printed
before and after each child.

With --reader SECONDS instead: how long the window's opening of the vectors file (VectorStore(...).generation(),
as the recommender and the map do every few seconds) waits while the job writes, the way it opened until now
(the schema script, whose INSERT OR IGNORE takes the write lock) beside the way it opens now (a read), with
--busy N busy loops beside the job so that its SCHED_IDLE threads are held off the CPU (a busy laptop).

The configurations (--threads): `off` (no job), `default` (the job as this checkout ships it: SCHED_IDLE with
every core where Linux allows), `nice` (its fallback, MARGIN_EMBED_PRIORITY=nice: nice 10 and one thread, the
job as shipped before SCHED_IDLE), N (MARGIN_EMBED_THREADS=N with the default priority), or `nice:N`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "benchmarks"))

import bench_app  # noqa: E402

sys.path.insert(0, str(ROOT))
from db.embed import priority  # noqa: E402


def job_processes(library: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"db.embed.job" in words and str(library).encode() in words:
                found.append(int(entry.name))
    return found


def sample(library: Path, stop: threading.Event, seen: dict) -> None:
    """Every 0.25 s: the embedding child's nice, threads, their policies and CPU seconds (utime + stime), the
    last seen kept."""
    tick = os.sysconf("SC_CLK_TCK")
    while not stop.wait(0.25):
        for pid in job_processes(library):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                policies = {priority.policy_of(pid, int(task.name)) for task in Path(f"/proc/{pid}/task").iterdir()}
            except OSError:
                continue
            cpu = (int(fields[11]) + int(fields[12])) / tick
            before = seen.get(pid, {})
            seen[pid] = {"nice": int(fields[16]), "threads": int(fields[17]), "cpu_s": cpu,
                         "policies": policies,  # the last sample's: before it lowers itself a job is "other"
                         "first": before.get("first", time.perf_counter()), "last": time.perf_counter()}


def one(library: Path, work: Path, extra: Path, threads: str) -> dict:
    """One window child; `threads` a configuration (the module's doc), "off" no job."""
    embed = threads != "off"
    copy = work / f"embed-{threads.replace(':', '-')}"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(library, copy, symlinks=True)
    shutil.rmtree(copy / "embed", ignore_errors=True)
    env = {"MARGIN_EMBED_BACKGROUND": "1" if embed else "0", "BENCH_AFTER_EMBEDDING_STARTS": "1" if embed else "0"}
    kind, _, count = threads.rpartition(":") if ":" in threads else (threads, "", "")
    if kind == "nice":
        env[priority.PRIORITY_ENV] = priority.NICE
    count = count or (threads if threads.isdigit() else "")
    if count:
        env["MARGIN_EMBED_THREADS"] = count
    stop, seen = threading.Event(), {}
    sampler = threading.Thread(target=sample, args=(copy, stop, seen), daemon=True)
    sampler.start()
    started = time.perf_counter()
    try:
        figures = bench_app.run_json(["--child-gui", str(copy), str(extra)], env)
    finally:
        stop.set()
        sampler.join()
    figures["seconds"] = time.perf_counter() - started
    figures["job"] = {"processes": len(seen), "cpu_s": sum(s["cpu_s"] for s in seen.values()),
                      "nice": sorted({s["nice"] for s in seen.values()}),
                      "policies": sorted(set().union(*(s["policies"] for s in seen.values()))),
                      "threads": max((s["threads"] for s in seen.values()), default=0),
                      "ran_s": sum(s["last"] - s["first"] for s in seen.values())}
    vectors = copy / "embed" / "vectors.db"
    figures["vectors_mb"] = vectors.stat().st_size / 1e6 if vectors.exists() else 0.0
    shutil.rmtree(copy, ignore_errors=True)
    return figures


OLD_OPEN = """CREATE TABLE IF NOT EXISTS vectors (paper_id TEXT NOT NULL, model TEXT NOT NULL, digest INTEGER NOT NULL,
    quality INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (paper_id, model));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value);
INSERT OR IGNORE INTO meta VALUES ('generation', 0);"""  # what VectorStore ran on every opening until now


def reader_waits(library: Path, work: Path, seconds: float, busy: int) -> None:
    """The job (as shipped) on a copy of `library` with `busy` busy loops beside it; every 20 ms the vectors file
    is opened and its generation read, the old way and the new way in turn; milliseconds per opening."""
    import sqlite3
    import subprocess

    from db.embed.store import VectorStore

    copy = work / "embed-reader"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(library, copy, symlinks=True)
    shutil.rmtree(copy / "embed", ignore_errors=True)
    env = {key: value for key, value in os.environ.items() if key not in ("MARGIN_EMBED_THREADS",
                                                                          priority.PRIORITY_ENV)}
    job = subprocess.Popen([sys.executable, "-m", "db.embed.job", str(copy)], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL)
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
    times: dict[str, list[float]] = {"old (schema script)": [], "new (a read)": []}
    try:
        path = copy / "embed" / "vectors.db"
        while not path.exists():
            time.sleep(0.1)
        time.sleep(1)
        print(f"reader waits: job {job.pid}, {busy} busy loops, {bench_app.uptime()}", flush=True)
        first = VectorStore(copy)
        writes = first.generation()
        first.close()
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            started = time.perf_counter()
            conn = sqlite3.connect(path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(OLD_OPEN)
            conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
            conn.close()
            times["old (schema script)"].append((time.perf_counter() - started) * 1000)
            time.sleep(0.01)
            started = time.perf_counter()
            store = VectorStore(copy)
            store.generation()
            store.close()
            times["new (a read)"].append((time.perf_counter() - started) * 1000)
            time.sleep(0.01)
        last = VectorStore(copy)
        writes = last.generation() - writes
        last.close()
        print(f"the job's writes (batches stored) meanwhile: {writes}", flush=True)
    finally:
        for process in (*loops, job):
            process.kill()
            process.wait()
        shutil.rmtree(copy, ignore_errors=True)
    print("| opening vectors.db | openings | p50 ms | p99 ms | max ms | over 50 ms |\n|---|---:|---:|---:|---:|---:|")
    for name, values in times.items():
        values.sort()
        print(f"| {name} | {len(values)} | {values[len(values) // 2]:.1f} | {values[int(len(values) * 0.99)]:.1f} | "
              f"{values[-1]:.0f} | {sum(v > 50 for v in values)} |")
    print(f"end: {bench_app.uptime()}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path, help="a prepared library (copied, never written)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench-embed-stall"))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--threads", default="off,nice,default", help="the configurations, each in every round: "
                        "off (no job), default (as this checkout ships it), nice (nice 10, one thread), N, nice:N")
    parser.add_argument("--reader", type=float, default=0, help="seconds of the reader-wait measurement instead")
    parser.add_argument("--busy", type=int, default=2, help="busy loops beside the job in --reader")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    if args.reader:
        reader_waits(args.library, args.work, args.reader, args.busy)
        return
    extra = args.work / "extra.json"
    records = bench_app.source_records()
    bench_app.write_paper_list(extra, 1000, list(reversed(records)))
    extra_records = json.loads(extra.read_text())
    for record in extra_records:
        record["title"] = "Extra " + record["title"]
        record["abstract"] = "Extra batch. " + record["abstract"]
    extra.write_text(json.dumps(extra_records))
    print(f"bench_embed_stall: {args.library}, {os.cpu_count()} cores, {bench_app.uptime()}", flush=True)
    configurations = args.threads.split(",")
    rows: dict[str, list[dict]] = {name: [] for name in configurations}
    for round_ in range(args.rounds):
        for name in configurations[::-1] if round_ % 2 else configurations:
            figures = one(args.library, args.work, extra, name)
            figures["load"] = " ".join(f"{value:.2f}" for value in os.getloadavg())
            rows[name].append(figures)
            job = figures["job"]
            print(f"round {round_ + 1}, embedding job {name}: typing stall "
                  f"{figures['typing_stall']:.0f} ms, import stall {figures['import_stall']:.0f} ms, keystroke p50/p95 "
                  f"{figures['keystroke_p50']:.0f}/{figures['keystroke_p95']:.0f} ms; job: {job['processes']} "
                  f"process(es), nice {job['nice']}, {job['threads']} threads, policies {job['policies']}, "
                  f"{job['cpu_s']:.1f} CPU s over "
                  f"{job['ran_s']:.0f} s; child {figures['seconds']:.0f} s; {bench_app.uptime()}", flush=True)
    print("\n| embedding job | typing stall, median (each round) | import stall | keystroke p95 | job CPU s / s run "
          "| load after each round |")
    print("|---|---:|---:|---:|---:|---|")
    for name, found in rows.items():
        cpu = sum(f["job"]["cpu_s"] for f in found) / max(sum(f["job"]["ran_s"] for f in found), 1e-9)
        cells = [f"{statistics.median(f[key] for f in found):.0f} ({', '.join(format(f[key], '.0f') for f in found)})"
                 for key in ("typing_stall", "import_stall", "keystroke_p95")]
        print(f"| {name} | {' | '.join(cells)} | {cpu:.2f} | {'; '.join(f['load'] for f in found)} |")
    print(f"\nend: {bench_app.uptime()}")


if __name__ == "__main__":
    main()
