"""What the window's thread does in its longest gaps while typing a query (issue 28): a probe, not a test.

    QT_QPA_PLATFORM=offscreen PYTHONPATH=. .venv/bin/python tests/benchmarks/gui_gaps.py LIBRARY [--code DIR]
        [--top 12] [--rounds 1] [--triage] [--settle 2]

LIBRARY is copied (never written). The window is opened as bench_app.py's typing figure opens it and the same
queries are typed the same way (one key at a time, waiting for each key's results). A 2 ms timer ticks on the
GUI thread; every gap between two ticks records its wall milliseconds, the GUI thread's CPU milliseconds in it
(time.thread_time: the load of other processes does not inflate it, unlike the wall gap), the CPU of the
process's other threads meanwhile (the search worker: a long gap with little CPU of either thread is the machine's
load; with the worker's, its hold on the interpreter lock) and what ran in it:
the window's Python steps wrapped at class level (inclusive CPU ms each; nested steps are counted in their
callers too) and the paints of the paper list and the reader (an event filter that runs the viewport's paint
itself, to time it). Prints the longest gaps by CPU and by wall, and CPU per gap p50 / p95 / max. `--triage`:
instead of typing a query, as bench_app.py's rating and note figures: 1–5 then j for 50 papers (150–300 ms apart)
from the first row, then ~300 characters typed word by word into the note editor while it autosaves.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

QUERIES = ["reinforcement learning", "graph neural", "\"neural network\"", "variational inference",
           "adversarial examples", "tag:bench"]


def main(argv: list[str]) -> None:
    args = list(argv)
    code = Path(args.pop(args.index("--code") + 1)) if "--code" in args else Path(__file__).resolve().parents[2]
    if "--code" in args:
        args.remove("--code")
    top = int(args.pop(args.index("--top") + 1)) if "--top" in args else 12
    if "--top" in args:
        args.remove("--top")
    rounds = int(args.pop(args.index("--rounds") + 1)) if "--rounds" in args else 1
    if "--rounds" in args:
        args.remove("--rounds")
    triage = "--triage" in args
    if triage:
        args.remove("--triage")
    settle = float(args.pop(args.index("--settle") + 1)) if "--settle" in args else 2.0
    if "--settle" in args:
        args.remove("--settle")
    source = Path(args[0])
    sys.path.insert(0, str(code))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    work = Path(tempfile.mkdtemp(prefix="gui-gaps-", dir=os.environ.get("MARGIN_BENCH_WORK")))
    library = work / "library"
    shutil.copytree(source, library)
    try:
        run(library, top, rounds, triage, settle)
    finally:
        shutil.rmtree(work, ignore_errors=True)


class Gaps:
    """The gaps between ticks of a 2 ms timer, with the GUI thread's CPU and the wrapped steps in each."""

    def __init__(self) -> None:
        self.rows: list[dict] = []
        self.steps: dict[str, float] = {}
        self.last_wall: float | None = None
        self.last_cpu = self.last_process = 0.0
        self.on = False

    def tick(self) -> None:
        wall, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
        if self.on and self.last_wall is not None:
            self.rows.append({"wall": (wall - self.last_wall) * 1000 - 2, "cpu": (cpu - self.last_cpu) * 1000,
                              "others": (process - self.last_process - cpu + self.last_cpu) * 1000,
                              "steps": self.steps})
        self.steps = {}
        self.last_wall, self.last_cpu, self.last_process = wall, cpu, process

    def add(self, name: str, ms: float) -> None:
        self.steps[name] = self.steps.get(name, 0.0) + ms


def wrap(gaps: Gaps, owner, name: str, label: str | None = None) -> None:
    original = getattr(owner, name)

    @functools.wraps(original)
    def timed(*args, **kwargs):
        started = time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            gaps.add(label or f"{getattr(owner, '__name__', owner)}.{name}", (time.thread_time() - started) * 1000)

    setattr(owner, name, timed)


def run(library: Path, top: int, rounds: int, triage: bool = False, settle: float = 2.0) -> None:
    from PySide6.QtCore import QEvent, QObject, QSettings, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication(sys.argv[:1])
    gaps = Gaps()
    from qt_pump import pump_until

    import desktop.docks.sidebar as sb
    import desktop.edits.operations as op
    import desktop.list.list_controller as lc
    import desktop.list.paper_model as pm
    import desktop.list.search_session as ss
    import desktop.reader.current_paper as cp
    import desktop.reader.note_session as ns
    import desktop.window.embedding as em
    import desktop.window.lazy_docks as ld
    import desktop.window.main_window as mw
    import desktop.window.status as st
    from desktop.app import create_window

    for owner, names in ((lc.ListController, ("_show_results", "select_paper", "select_row", "_current_changed",
                                              "_update_banner")),
                         (pm.PaperTableModel, ("set_ids", "refresh_papers")),
                         (ss.SearchSession, ("_typed", "start", "_show", "_page", "_results", "_emit")),
                         (cp.CurrentPaper, ("show", "show_if_new", "_set_html")),
                         (ns.NoteSession, ("show",)),
                         (mw.MainWindow, ("_current_changed", "apply_changes", "show_current", "_count_in_sidebar",
                                          "_recount", "_counted")),
                         (op.Operations, ("rate", "save_note_now", "mark_read")),
                         (ld.LazyDocks, ("build",)), (em.BackgroundEmbedding, ("_start_now",)),
                         (ns.NoteSession, ("save",)),
                         (sb.Sidebar, ("apply_changes", "refresh")),
                         (st.WindowStatus, ("recount_read", "set_counts")),
                         (st.WindowStatus, ("update",)),
                         (sb.Sidebar, ("mark_active",))):
        for name in names:
            if hasattr(owner, name):
                wrap(gaps, owner, name)
    for module, name in ((cp, "reader_html"), (cp, "paper_to_html")):
        if hasattr(module, name):
            wrap(gaps, module, name, f"{name}()")

    import gc
    import threading

    gui_thread, collecting = threading.get_ident(), {}

    def collected(phase, info) -> None:  # the cyclic collector's passes on the window's thread, as steps
        if threading.get_ident() != gui_thread:
            return
        if phase == "start":
            collecting["t"] = time.thread_time()
        elif "t" in collecting:
            gaps.add(f"gc gen {info['generation']}", (time.thread_time() - collecting.pop("t")) * 1000)

    gc.callbacks.append(collected)
    window = create_window(library)
    window.setProperty("quietImport", True)
    window.actions_.auto_read.setChecked(False)
    window.show()

    class PaintTimer(QObject):
        """Runs a scroll area's viewport paint itself, timed (returns True: the scroll area's own filter and the
        viewport see nothing more of that event)."""

        def __init__(self, area, label: str) -> None:
            super().__init__()
            self.area, self.label, self.inside = area, label, False
            area.viewport().installEventFilter(self)

        def eventFilter(self, _watched, event) -> bool:  # noqa: N802
            if event.type() != QEvent.Type.Paint or self.inside:
                return False
            self.inside = True
            started = time.thread_time()
            try:
                self.area.viewportEvent(event)
            finally:
                self.inside = False
                gaps.add(self.label, (time.thread_time() - started) * 1000)
            return True

    painters = [PaintTimer(window.paper_list, "paint list"), PaintTimer(window.reader, "paint reader")]

    window.set_query("learning")
    pump_until(lambda: window.search.query == "learning", 1800)
    window.set_query("")
    pump_until(lambda: False, settle)  # (bench_app.py types at once: --settle 0)

    timer = QTimer(interval=2)
    timer.timeout.connect(gaps.tick)
    timer.start()
    applied: list[float] = []
    window.search.resultsReady.connect(lambda _ids, _keep: applied.append(time.perf_counter()))
    keystrokes: list[float] = []
    cpu_started = time.thread_time()
    gaps.on = True
    if triage:
        rate_and_note(window, app)
    for _round in range(0 if triage else rounds):
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
    pump_until(lambda: False, 0.3)
    gaps.on = False
    timer.stop()
    cpu_total = (time.thread_time() - cpu_started) * 1000
    rows = gaps.rows
    cpus = sorted(row["cpu"] for row in rows)
    walls = sorted(row["wall"] for row in rows)

    def pct(values, fraction):
        return values[min(len(values) - 1, int(round(fraction * (len(values) - 1))))]

    if keystrokes:
        print(f"load: {os.getloadavg()}; {len(keystrokes)} keys; keystroke p50 {statistics.median(keystrokes):.1f} "
              f"p95 {pct(sorted(keystrokes), 0.95):.1f} ms; GUI CPU while typing {cpu_total:.0f} ms")
    else:
        print(f"load: {os.getloadavg()}; rating 50 papers and typing a note: GUI CPU {cpu_total:.0f} ms")
    print(f"gaps: {len(rows)}; CPU per gap p50 {pct(cpus, .5):.1f} p95 {pct(cpus, .95):.1f} max {cpus[-1]:.1f} ms; "
          f"wall max {walls[-1]:.1f} ms; over 50 ms wall {sum(w > 50 for w in walls)}, "
          f"CPU over 30 ms {sum(c > 30 for c in cpus)}")
    for title, key in (("longest gaps by CPU", "cpu"), ("longest gaps by wall", "wall")):
        print(title)
        for row in sorted(rows, key=lambda r: -r[key])[:top]:
            steps = ", ".join(f"{name} {ms:.1f}" for name, ms in sorted(row["steps"].items(), key=lambda x: -x[1]))
            print(f"  wall {row['wall']:6.1f}  cpu {row['cpu']:6.1f}  other threads {row['others']:6.1f}  | {steps}")
    totals: dict[str, float] = {}
    for row in rows:
        for name, ms in row["steps"].items():
            totals[name] = totals.get(name, 0.0) + ms
    print("CPU per step over the whole typing (ms, inclusive):",
          json.dumps({name: round(ms) for name, ms in sorted(totals.items(), key=lambda x: -x[1])}))
    del painters
    window.close()


def rate_and_note(window, app) -> None:
    """bench_app.py's rating (1–5 then j for 50 papers from the first row, 150–300 ms apart) and note (word by
    word, 0.3–0.4 s apart and 1–2 s after every eighth word) steps, in a real event loop."""
    import random

    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtTest import QTest

    rng = random.Random(12)

    def wait(ms: float) -> None:
        loop = QEventLoop()
        QTimer.singleShot(max(0, int(ms)), loop.quit)
        loop.exec()

    window.paper_list.setFocus()
    QTest.keyClick(window.paper_list, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    for _step in range(50):
        QTest.keyClick(window.paper_list, str(rng.randint(1, 5)))
        wait(rng.uniform(150, 300))
        QTest.keyClick(window.paper_list, "j")
        wait(rng.uniform(150, 300))
    wait(3000)
    QTest.keyClick(window.paper_list, "j")
    wait(3000)
    editor = window.note_editor.editor
    editor.setFocus()
    words = ("Reading notes: the method trains a small policy with a learned model of the reward and compares it "
             "against three baselines on the usual benchmarks. The gains look modest but consistent; ablations "
             "suggest most come from the replay schedule.").split()
    for number, word in enumerate(words, 1):
        QTest.keyClicks(editor, word + " ")
        wait(rng.uniform(1000, 2000) if number % 8 == 0 else rng.uniform(300, 400))
    wait(3000)


if __name__ == "__main__":
    main(sys.argv[1:])
