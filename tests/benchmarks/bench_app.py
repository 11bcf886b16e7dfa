"""Application benchmark (issue 8): import, start, typing, stalls, saving and memory at 1k / 20k / 50k papers.

Not part of the test run. From the project folder:

    .venv/bin/python tests/benchmarks/bench_app.py                 # 1k and 20k
    .venv/bin/python tests/benchmarks/bench_app.py 1000 20000 50000

Each size gets a JSON paper list made from the real lists in ../shared/data/real/*.json (synthetic text
without them), resampled to size: copies after the first get every fourth word replaced and " (part N)"
added to the title, so that each is a new paper for Margin's duplicate detection. Figures:

- cold import + index: `main.py import FILE` in a fresh library (a subprocess, wall clock);
- warm start: process start to the first painted paper list, on the imported library (a subprocess);
- keystroke → updated list: real key events typed into the search box of a real window (offscreen), one
  character at a time, each timed until the list shows the new result; p50 / p95 over all keystrokes;
- longest GUI-thread stall: the largest gap between ticks of a 2 ms timer on the GUI thread while typing,
  and while a 1,000-paper import runs in the window;
- save: Library.set_rating / add_tags / set_note on the GUI thread; searchable: save to the paper appearing
  in a search for a word of the new note (through the window's search worker);
- resident memory (VmRSS) with the window open and searched; library.db and index/ sizes on disk.
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
REAL = ROOT.parent / "shared" / "data" / "real"
QUERIES = ["reinforcement learning", "graph neural", "\"neural network\"", "variational inference",
           "adversarial examples", "tag:bench"]


# ---------------------------------------------------------------------------------------------- data
def source_records() -> list[dict]:
    """The real papers (or synthetic ones) of the search benchmark, as JSON paper-list records."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_search import source_records as search_records

    return [dict(record, author="; ".join(record["authors"]), keywords=";".join(record["keywords"]))
            for record in search_records()]


def write_paper_list(path: Path, size: int, records: list[dict]) -> None:
    """A JSON array of `size` distinct papers (see the module docstring)."""
    vocabulary = sorted({word for record in records[:500] for word in record["abstract"].split()})
    rng = random.Random(size)
    out: list[dict] = []
    copy = 0
    while len(out) < size:
        for record in records:
            if len(out) >= size:
                break
            words = record["abstract"].split()
            if copy:
                words = [rng.choice(vocabulary) if i % 4 == copy % 4 else w for i, w in enumerate(words)]
            fields = {k: v for k, v in record.items() if k != "authors"}
            out.append(dict(fields, title=record["title"] + (f" (part {copy})" if copy else ""),
                            abstract=" ".join(words)))
        copy += 1
    path.write_text(json.dumps(out), encoding="utf-8")


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))] if ordered else float("nan")


# ---------------------------------------------------------------------------------------------- children
def child_start(library: str) -> None:
    """Time from process start (MARGIN_BENCH_T0) to the paper list's first paint."""
    t0 = float(os.environ["MARGIN_BENCH_T0"])
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QObject, QSettings
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication(sys.argv[:1])
    from desktop.app import create_window

    painted: list[float] = []

    class PaintWatch(QObject):
        def eventFilter(self, watched, event):  # noqa: N802
            if event.type() == QEvent.Type.Paint and not painted:
                painted.append(time.time())
            return False

    window = create_window(Path(library))
    watch = PaintWatch()
    window.paper_list.viewport().installEventFilter(watch)
    window.show()
    while not painted:
        app.processEvents()
    print(json.dumps({"first_paint": painted[0] - t0, "rows": window.model.rowCount()}))
    window.close()


def child_gui(library: str, import_file: str) -> None:
    """Typing latency, stalls, save times and memory in a real window (offscreen)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QElapsedTimer, QSettings, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication(sys.argv[:1])
    from desktop.app import create_window

    window = create_window(Path(library))
    window.setProperty("quietImport", True)
    window.actions_.auto_read.setChecked(False)
    window.show()

    def pump_until(condition, timeout: float = 600.0) -> bool:
        end = time.perf_counter() + timeout
        while not condition() and time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.0005)
        return condition()

    # wait until the search worker has the index open (a first search answers)
    window.set_query("learning")
    pump_until(lambda: window._query == "learning", 1800)
    window.set_query("")

    ticks = QElapsedTimer()
    gaps: list[float] = []
    state = {"last": None}

    def tick() -> None:
        now_ms = ticks.nsecsElapsed() / 1e6
        if state["last"] is not None:
            gaps.append(now_ms - state["last"])
        state["last"] = now_ms

    timer = QTimer(interval=2)
    timer.timeout.connect(tick)
    ticks.start()
    timer.start()

    applied: list[float] = []
    original_apply = window._apply_ids

    def apply_and_note(ids):
        original_apply(ids)
        applied.append(time.perf_counter())

    window._apply_ids = apply_and_note
    keystrokes: list[float] = []
    window.paper_list.setFocus()
    for text in QUERIES:
        window.search_box.clear()
        pump_until(lambda: False, 0.3)
        window.search_box.setFocus()
        for char in text:
            before = len(applied)
            started = time.perf_counter()
            QTest.keyClicks(window.search_box, char)
            if pump_until(lambda b=before: len(applied) > b, 30):
                keystrokes.append((applied[-1] - started) * 1000)
    typing_stall = max(gaps) - 2 if gaps else float("nan")

    # import while measuring stalls
    gaps.clear()
    state["last"] = None
    window.actions_.last_import = None
    import_started = time.perf_counter()
    window.actions_.start_import([Path(import_file)])
    pump_until(lambda: window.actions_.last_import is not None, 1800)
    pump_until(lambda: False, 0.5)
    import_seconds = time.perf_counter() - import_started
    import_stall = max(gaps) - 2 if gaps else float("nan")
    timer.stop()

    # let the worker finish indexing the imported papers (a search answers after it), then save and find
    window.set_query("learning")
    pump_until(lambda: window._query == "learning", 1800)
    paper_id = window.library.ids()[len(window.library.ids()) // 2]
    saves = {}
    for name, action in (("rating", lambda: window.library.set_rating(paper_id, 4)),
                         ("tag", lambda: window.library.add_tags(paper_id, ["benchmarktag"])),
                         ("note", lambda: window.library.set_note(paper_id, "zyzzyva marker note"))):
        started = time.perf_counter()
        action()
        saves[name] = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    window.search_service.sync()
    window.set_query("zyzzyva")
    pump_until(lambda: window._query == "zyzzyva" and window.model.ids() == [paper_id], 60)
    searchable = (time.perf_counter() - started) * 1000
    rss = 0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) // 1024
    print(json.dumps({"keystroke_p50": statistics.median(keystrokes), "keystroke_p95": percentile(keystrokes, 0.95),
                      "keystrokes": len(keystrokes), "typing_stall": typing_stall, "import_stall": import_stall,
                      "import_in_window": import_seconds, "saves": saves, "searchable": searchable,
                      "rss_mb": rss}))
    window.close()


# ---------------------------------------------------------------------------------------------- driver
def run_json(args: list[str], env: dict | None = None) -> dict:
    result = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                            env=dict(os.environ, **(env or {})), timeout=7200)
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not lines:
        raise RuntimeError(f"{args[0]} failed: {result.stderr[-2000:]}")
    return json.loads(lines[-1])


def bench(size: int, records: list[dict], work: Path) -> dict:
    paper_list = work / f"papers-{size}.json"
    write_paper_list(paper_list, size, records)
    extra = work / f"extra-{size}.json"
    write_paper_list(extra, 1000, list(reversed(records)))
    extra_records = json.loads(extra.read_text())
    for record in extra_records:
        record["title"] = "Extra " + record["title"]
        record["abstract"] = "Extra batch. " + record["abstract"]
    extra.write_text(json.dumps(extra_records))
    library = work / f"library-{size}"
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "--library", str(library), "import",
                             str(paper_list)], capture_output=True, text=True, timeout=7200)
    cold = time.perf_counter() - started
    if result.returncode:
        raise RuntimeError(result.stderr)
    figures = {"size": size, "summary": result.stdout.strip(), "cold_import": cold,
               "db_mb": (library / "library.db").stat().st_size / 2**20,
               "index_mb": folder_size(library / "index") / 2**20}
    starts = [run_json(["--child-start", str(library)], {"MARGIN_BENCH_T0": repr(time.time())})["first_paint"]
              for _ in range(3)]
    figures["warm_start"] = statistics.median(starts)
    figures.update(run_json(["--child-gui", str(library), str(extra)]))
    return figures


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--child-start":
        child_start(argv[1])
        return
    if argv and argv[0] == "--child-gui":
        child_gui(argv[1], argv[2])
        return
    sizes = [int(a) for a in argv] or [1000, 20000]
    records = source_records()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            figures = bench(size, records, Path(tmp))
            rows.append(figures)
            print(json.dumps(figures), file=sys.stderr)
    print(f"\nMargin application benchmark — {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"offscreen Qt, {'real abstracts resampled' if REAL.is_dir() else 'synthetic abstracts'}\n")
    header = ["figure"] + [f"{row['size']:,}" for row in rows]
    lines = [
        ("cold import + index (s)", lambda r: f"{r['cold_import']:.1f}"),
        ("warm start to first painted list (s)", lambda r: f"{r['warm_start']:.2f}"),
        ("keystroke → list, p50 / p95 (ms)", lambda r: f"{r['keystroke_p50']:.0f} / {r['keystroke_p95']:.0f}"),
        ("longest GUI stall while typing (ms)", lambda r: f"{r['typing_stall']:.0f}"),
        ("longest GUI stall during a 1k import (ms)", lambda r: f"{r['import_stall']:.0f}"),
        ("1k import in the window (s)", lambda r: f"{r['import_in_window']:.1f}"),
        ("save rating / tag / note (ms)", lambda r: " / ".join(f"{r['saves'][k]:.1f}" for k in
                                                              ("rating", "tag", "note"))),
        ("note saved → found by search (ms)", lambda r: f"{r['searchable']:.0f}"),
        ("resident memory, window open (MB)", lambda r: f"{r['rss_mb']}"),
        ("library.db / index on disk (MB)", lambda r: f"{r['db_mb']:.1f} / {r['index_mb']:.1f}"),
    ]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, cell in lines:
        print(f"| {name} | " + " | ".join(cell(row) for row in rows) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
