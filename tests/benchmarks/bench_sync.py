"""Sync through a real PostgreSQL server at 20,000 papers (issue 26). Not part of the test run.

    .venv/bin/python tests/benchmarks/bench_sync.py            # 20,000 papers
    .venv/bin/python tests/benchmarks/bench_sync.py 5000 --rounds 10
    .venv/bin/python tests/benchmarks/bench_sync.py --first-only       # the first syncs and the peer only
    .venv/bin/python tests/benchmarks/bench_sync.py --no-peer          # all but the peer

Starts a throwaway PostgreSQL (tests/helpers/postgres.py), makes a library of SIZE papers (the bundled abstracts,
words varied per copy) and reports, with the load average (`uptime`) around each step:
- the first sync of that library to the server, and of a new, empty library from it (`margin sync` in a child
  process: wall time and the child's peak memory), beside the peer — today's way across: `margin export
  --format json --all` on one side, `margin import` on the other;
- a sync of 100 random edits (in-process, ROUNDS times): p50 / p95 of sending them and of receiving them;
- the window on the receiving library (offscreen, a child process) while the user types into a note, one key
  every 30 ms, and the automatic sync (every second) brings the other side's edits in: the longest stall of the
  GUI thread (a 5 ms timer's longest late tick) while a sync ran, and outside syncs. Target: ≤ 50 ms.

    .venv/bin/python tests/benchmarks/bench_sync.py --lab [PAPERS]     # issue 27: a lab's shared project

With --lab: a project of PAPERS papers (default 1,000) owned by alice, bob and carol members, each a PostgreSQL
role with a library of their own in a child process; all three decide at once — 1,000 decisions each (one every
25 ms on a thread, a tenth of them changes of mind) — while the main thread syncs every 5 s; then a last sync.
Reports each member's sync latency (p50 / p95 / max over the syncs) and checks that no decision was lost: the
server holds for each member exactly the decisions their library holds, and the owner's library, synced last,
reads all three members' (the project unblinded at the end). There is no peer: no other tool syncs this.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def make_records(size: int):
    from db.formats.corpus import bundled_corpus_files
    from db.formats.importer import read_file
    from db.paper import PaperRecord

    base = [record for path in bundled_corpus_files() for record in read_file(path).records]
    vocabulary = sorted({word for record in base for word in record.abstract.split()})
    rng = random.Random(size)
    records = []
    copy = 0
    while len(records) < size:
        for record in base:
            if len(records) >= size:
                break
            words = record.abstract.split()
            if copy:
                words = [rng.choice(vocabulary) if i % 5 == copy % 5 else w for i, w in enumerate(words)]
            records.append(PaperRecord(title=f"Paper {len(records)}", abstract=" ".join(words) + f" ({copy})",
                                       authors=["A. Author", "B. Author"], venue="ICML 2026", year=2026))
        copy += 1
    return records


def child(args: list[str], env: dict | None = None) -> tuple[float, float, subprocess.CompletedProcess]:
    """Run `main.py ARGS` in a child: (wall seconds, the child's peak memory in MB, the process)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=dict(os.environ, **(env or {})), cwd=ROOT)
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    out, err = process.stdout.read(), process.stderr.read()
    done = subprocess.CompletedProcess(args, os.waitstatus_to_exitcode(status), out.decode(), err.decode())
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return wall, usage.ru_maxrss / 1024, done


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main(argv: list[str]) -> None:
    from db.library import Library
    from tests.helpers.postgres import start_postgres
    from tests.helpers.sync import random_edits, sync_folder

    size = int(argv[0]) if argv and argv[0].isdigit() else 20000
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 20
    work = Path(tempfile.mkdtemp(prefix="bench-sync-"))
    server = start_postgres()
    try:
        print(f"bench_sync: {size:,} papers, {rounds} rounds of 100 edits; {load()}", flush=True)
        laptop, desktop, peer = work / "laptop", work / "desktop", work / "peer"
        with Library.open(laptop, seed=False) as library:
            library.import_records(make_records(size))
        print(f"library made ({size:,} papers); {load()}", flush=True)

        print("\nfirst sync                          wall s   child peak MB", flush=True)
        wall, peak, done = child(["sync", "--server", server.conninfo, "--library", str(laptop)])
        print(f"  send {size:,} papers (margin sync)     {wall:7.1f}   {peak:8.0f}   {load()}", flush=True)
        wall, peak, done = child(["sync", "--server", server.conninfo, "--library", str(desktop)])
        print(f"  receive them into a new library      {wall:7.1f}   {peak:8.0f}   {load()}", flush=True)
        if "--no-peer" not in argv:
            export = work / "all.json"
            wall, peak, done = child(["export", "--format", "json", "--all", "--output", str(export),
                                      "--library", str(laptop)])
            print(f"  peer: margin export --format json    {wall:7.1f}   {peak:8.0f}   {load()}", flush=True)
            wall, peak, done = child(["import", str(export), "--library", str(peer)])
            print(f"  peer: margin import into a new one   {wall:7.1f}   {peak:8.0f}   {load()}", flush=True)

        if "--first-only" in argv:
            return
        sends, receives = [], []
        typed: set = set()
        for number in range(rounds):
            with Library.open(laptop) as library:
                random_edits(library, 100, seed=1000 + number, side="laptop", typed=typed, deletes=False)
            start = time.perf_counter()
            report = sync_folder(laptop)
            sends.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            received = sync_folder(desktop)
            receives.append((time.perf_counter() - start) * 1000)
        print(f"\nsync of 100 edits ({rounds} rounds; last: {report.sent} fields sent, {received.received} received)")
        print(f"  send     p50 {statistics.median(sends):6.0f} ms   p95 {percentile(sends, 0.95):6.0f} ms")
        print(f"  receive  p50 {statistics.median(receives):6.0f} ms   p95 {percentile(receives, 0.95):6.0f} ms"
              f"   {load()}", flush=True)

        with Library.open(desktop) as library:
            library.sync_book.set_sync_state({"interval": 1})
        gui = subprocess.Popen([sys.executable, __file__, "--child-gui", str(desktop)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), cwd=ROOT)
        deadline = time.monotonic() + 25
        number = 0
        while time.monotonic() < deadline and gui.poll() is None:  # the other machine keeps editing and syncing
            with Library.open(laptop) as library:
                random_edits(library, 100, seed=5000 + number, side="laptop", typed=typed, deletes=False)
            sync_folder(laptop)
            number += 1
            time.sleep(1)
        out, err = gui.communicate(timeout=120)
        if gui.returncode:
            raise RuntimeError(err.decode()[-3000:])
        figures = json.loads(out.decode().strip().splitlines()[-1])
        print(f"\nwindow at {size:,} papers, typing one key per 30 ms while the automatic sync runs every second")
        print(f"  automatic syncs finished: {figures['syncs']}, changes received: {figures['received']}")
        print(f"  longest GUI stall while a sync ran: {figures['stall_sync']:.0f} ms (target ≤ 50);"
              f" outside syncs: {figures['stall_other']:.0f} ms;  keys typed: {figures['keys']}   {load()}")
    finally:
        server.stop()
        import shutil

        shutil.rmtree(server.folder, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def child_gui(folder: str) -> None:
    """The window on `folder`, typing into the current paper's note while the automatic sync runs; prints JSON."""
    from PySide6.QtCore import QElapsedTimer, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from desktop.window import sync

    sync.FIRST_SYNC_MS = 500
    app = QApplication([])
    from desktop.app import create_window

    window = create_window(Path(folder))
    window.show()
    stalls = {"sync": 0.0, "other": 0.0}
    clock = QElapsedTimer()
    clock.start()
    last = [clock.elapsed()]
    results = {"syncs": 0, "received": 0, "keys": 0}

    def tick():
        now = clock.elapsed()
        gap = now - last[0] - 5
        last[0] = now
        key = "sync" if window.sync.running else "other"
        if now > 3000:  # after start-up
            stalls[key] = max(stalls[key], gap)

    def finished(report):
        results["syncs"] += 1
        results["received"] += getattr(report, "received", 0)

    window.sync.finished.connect(finished)
    timer = QTimer(interval=5)
    timer.timeout.connect(tick)
    timer.start()
    editor = window.note_editor.editor

    def type_key():
        QTest.keyClick(editor, "abcdefghij "[results["keys"] % 11])
        results["keys"] += 1

    typing = QTimer(interval=30)
    typing.timeout.connect(type_key)
    QTimer.singleShot(2000, lambda: (editor.setFocus(), typing.start()))
    QTimer.singleShot(22000, app.quit)
    app.exec()
    typing.stop()
    timer.stop()
    window.close()
    print(json.dumps({"stall_sync": stalls["sync"], "stall_other": stalls["other"], **results}))


LAB = ("alice", "bob", "carol")
LAB_DECISIONS, LAB_EVERY_S, LAB_PAUSE_S = 1000, 5.0, 0.025


def lab(argv: list[str]) -> None:
    """--lab: three members deciding concurrently, synced every 5 s (module docstring)."""
    from db.library import Library
    from db.sync import open_for_sync, sync_library
    from db.sync.projects import Projects
    from tests.helpers.postgres import start_postgres

    size = next((int(a) for a in argv if a.isdigit()), 1000)
    work = Path(tempfile.mkdtemp(prefix="bench-lab-"))
    server = start_postgres()
    try:
        print(f"bench_sync --lab: {size:,} papers, {len(LAB)} members x {LAB_DECISIONS:,} decisions, sync every"
              f" {LAB_EVERY_S:.0f} s; {load()}", flush=True)
        with Projects(server.conninfo):
            pass
        conninfo = {role: server.conninfo.replace("user=margin", f"user={role}") for role in LAB}
        for role in LAB:
            server.sql(f"CREATE ROLE {role} LOGIN")
        with Library.open(work / "alice", seed=False) as library:
            library.import_records(make_records(size))
            ids = library.ids()
            states = library.sync_book.paper_states(ids)
            with Projects(conninfo["alice"]) as alice:
                alice.create("bench", criteria="papers about learning", reasons=("off-topic", "no code"))
                alice.add_papers("bench", [(i, states[i]["paper"]["title"], states[i]["paper"]) for i in ids])
                for role in LAB[1:]:
                    alice.invite("bench", role)
        for role in LAB:
            if role != "alice":
                with Projects(conninfo[role]) as projects:
                    projects.join("bench")
            with Library.open(work / role, seed=False) as library:
                library.project_book.put_project("bench", conninfo[role])
            started = time.perf_counter()
            with open_for_sync(work / role) as library:
                sync_library(library)
            print(f"  {role} joined and synced once ({(time.perf_counter() - started):.1f} s)", flush=True)
        started = time.perf_counter()
        children = {role: subprocess.Popen([sys.executable, __file__, "--lab-child", role, str(work / role)],
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
                    for role in LAB}
        results = {}
        for role, process in children.items():
            out, err = process.communicate(timeout=1200)
            if process.returncode:
                raise RuntimeError(err.decode()[-3000:])
            results[role] = json.loads(out.decode().strip().splitlines()[-1])
        wall = time.perf_counter() - started
        print(f"\nall three deciding at once: {wall:.1f} s; {load()}")
        print("  member   decisions  syncs   sync p50 ms   p95 ms   max ms   decisions on the server = library's")
        every = []
        for role in LAB:
            figures = results[role]
            latencies = figures["latencies"]
            every += latencies
            with Library.open(work / role, seed=False) as library:
                mine = {paper: (d, r or "") for paper, (d, r, _at) in library.decisions().items()}
            held = {paper: (d, r) for paper, d, r in server.sql(
                "SELECT paper, decision, reason FROM margin_project_decisions WHERE reviewer = %s", (role,))}
            same = held == mine
            print(f"  {role:7s} {figures['decisions']:9,d} {len(latencies):6d}   {statistics.median(latencies):11.0f}"
                  f"   {percentile(latencies, 0.95):6.0f}   {max(latencies):6.0f}   {same} ({len(held):,} papers)")
            if not same:
                raise SystemExit(f"{role}: decisions lost or changed: {len(set(mine.items()) ^ set(held.items()))}")
        print(f"  all      p50 {statistics.median(every):.0f} ms, p95 {percentile(every, 0.95):.0f} ms over"
              f" {len(every)} syncs")
        with Projects(conninfo["alice"]) as alice:
            alice.unblind("bench")
        with open_for_sync(work / "alice") as library:
            sync_library(library)
            readable = len(library.project_book.decisions("bench"))
        total = server.sql("SELECT count(*) FROM margin_project_decisions")[0][0]
        print(f"  the owner's library reads {readable:,} of the server's {total:,} decisions after unblinding;"
              f" {load()}")
    finally:
        server.stop()
        import shutil

        shutil.rmtree(server.folder, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def lab_child(role: str, folder: str) -> None:
    """One member: a thread makes LAB_DECISIONS decisions (one every LAB_PAUSE_S) on its own library connection
    while this thread syncs every LAB_EVERY_S, then once more; prints {"decisions", "latencies" (ms)}."""
    import threading

    from db.library import Library
    from db.sync import open_for_sync, sync_library

    rng = random.Random(role)
    done = threading.Event()
    made = [0]

    def decide():
        with Library.open(folder, seed=False) as library:
            ids = library.ids()
            order = rng.sample(ids, len(ids))
            for number in range(LAB_DECISIONS):
                paper = order[number % len(order)] if number < LAB_DECISIONS * 9 // 10 else rng.choice(order[:number])
                decision = rng.choice(("include", "exclude", "exclude", "maybe"))
                library.set_decision(paper, decision, rng.choice(("off-topic", "no code", None))
                                     if decision == "exclude" else None)
                made[0] += 1
                time.sleep(LAB_PAUSE_S)
        done.set()

    thread = threading.Thread(target=decide)
    thread.start()
    latencies = []
    while True:
        finished = done.wait(LAB_EVERY_S)
        started = time.perf_counter()
        with open_for_sync(folder) as library:
            sync_library(library)
        latencies.append((time.perf_counter() - started) * 1000)
        if finished:
            break
    thread.join()
    print(json.dumps({"decisions": made[0], "latencies": latencies}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child-gui"]:
        child_gui(sys.argv[2])
    elif sys.argv[1:2] == ["--lab-child"]:
        lab_child(sys.argv[2], sys.argv[3])
    elif "--lab" in sys.argv:
        lab(sys.argv[1:])
    else:
        main(sys.argv[1:])
