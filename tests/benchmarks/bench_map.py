"""Conference map benchmark (issue 17): embedding time, open-from-cache time, placing new papers, and the frame
time while panning, at 6k and 20k papers.

Not part of the test run. From the project folder:

    QT_QPA_PLATFORM=offscreen PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_map.py          # 6000 and 20000
    QT_QPA_PLATFORM=offscreen PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_map.py 6000

Papers: the real abstracts of ../shared/data/real (4,079 with an abstract) resampled to N (copies get their
sentences shuffled, as bench_recommend.py does), imported into a fresh library.

- first map: MapCache.refresh on a library without a cache (the tf-idf fit, SVD, t-SNE, k-means, region names),
  and the same in parts;
- open from cache: a new process that opens the library and gets the map (MapCache.refresh: file read, ids
  compared), wall time including Python start and imports, and the refresh call alone;
- 50 papers added: the refresh that places them among their neighbours;
- frame time while panning: the dock's two ScatterPlotItems (every paper faint, half of them lit) in a 1000×700
  plot, 60 pans of 1% each, each painted synchronously (QWidget.repaint), median and 95th percentile; and the
  time to relight half of the points (what a new search costs the map).

First map, before and after side by side in one run (issue 28):

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_map.py first 6000 --before ../base [--busy]

The library is imported once (this checkout); each code opens its own copy in a child process with that code
imported and computes its first map (MapCache.refresh on a library without a map or tf-idf cache: the tf-idf fit,
the reduction, t-SNE, k-means, region names): wall and CPU seconds, and how many of each paper's 10 nearest
neighbours (cosine of the 50-dimension SVD rows, this checkout's reduction) are among its 10 nearest on the map.
`--busy`: two busy-loop processes beside the children (tests/benchmarks/busy_loops.py).
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "benchmarks"))

from bench_recommend import real_records, resampled  # noqa: E402

from db.library.library import Library  # noqa: E402
from db.map import conference_map as cm  # noqa: E402
from db.recommend.tfidf_cache import TfidfCache  # noqa: E402

OPEN_SCRIPT = """
import sys, time
started = time.perf_counter()
from db.library.library import Library
from db.map.conference_map import MapCache
with Library.open(sys.argv[1], seed=False) as library:
    inner = time.perf_counter()
    conference_map, report = MapCache(library.folder).refresh(library)
    inner = time.perf_counter() - inner
assert report.kind == "unchanged", report
print(len(conference_map.ids), inner, time.perf_counter() - started)
"""


def timed(function):
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started


def frame_times(conference_map: cm.ConferenceMap) -> dict[str, float]:
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    from desktop.docks.map_lasso import MapViewBox
    from desktop.docks.map_plot import FAINT

    app = QApplication.instance() or QApplication([])
    view_box = MapViewBox()
    plot = pg.PlotWidget(viewBox=view_box, background=None)
    plot.resize(1000, 700)
    plot.hideAxis("left")
    plot.hideAxis("bottom")
    faint = pg.ScatterPlotItem(size=5, pen=None, brush=pg.mkBrush(*FAINT), hoverable=False)
    lit = pg.ScatterPlotItem(size=7, pen=None, hoverable=False)
    plot.addItem(faint)
    plot.addItem(lit)
    plot.show()
    app.processEvents()
    faint.setData(pos=conference_map.xy)
    rng = np.random.default_rng(0)
    palette = np.array([*cm.RATING_COLOURS.values(), cm.UNRATED])
    rgb = palette[rng.integers(0, len(palette), len(conference_map.ids))]  # as the dock: a handful of colours
    rows = np.sort(rng.choice(len(conference_map.ids), len(conference_map.ids) // 2, replace=False))

    def relight():
        brushes: dict[tuple, object] = {}
        lit.setData(pos=conference_map.xy[rows],
                    brush=[brushes.get(c) or brushes.setdefault(c, pg.mkBrush(*c)) for c in map(tuple, rgb[rows])])

    _none, relight_seconds = timed(relight)
    view_box.autoRange(padding=0.03)
    app.processEvents()
    plot.repaint()
    (x0, x1), _ = view_box.viewRange()
    step = (x1 - x0) / 100
    times = []
    for i in range(60):
        view_box.translateBy(x=step if i < 30 else -step)
        started = time.perf_counter()
        app.processEvents()
        plot.repaint()
        times.append(time.perf_counter() - started)
    times.sort()
    plot.close()
    return {"relight": relight_seconds, "median": statistics.median(times), "p95": times[int(0.95 * len(times)) - 1]}


def run(size: int) -> None:
    records = real_records()
    with tempfile.TemporaryDirectory() as folder:
        library = Library.open(Path(folder) / "library", seed=False)
        library.import_records(resampled(records, size))
        cache = cm.MapCache(library.folder)
        (conference_map, report), first = timed(lambda: cache.refresh(library))
        assert report.kind == "fitted"
        tfidf, fit_seconds = timed(lambda: TfidfCache(library.folder).refresh(library)[0])
        reduced, svd_seconds = timed(lambda: cm.reduce(tfidf))
        _xy, tsne_seconds = timed(lambda: cm.embed(reduced))
        print(f"{size:,} papers: first map {first:.1f} s (tf-idf fit, SVD {svd_seconds:.1f} s, t-SNE "
              f"{tsne_seconds:.1f} s, k-means and names the rest); tf-idf from its cache {fit_seconds:.2f} s")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        outputs = [subprocess.run([sys.executable, "-c", OPEN_SCRIPT, str(library.folder)], capture_output=True,
                                  text=True, env=env, check=True).stdout.split() for _ in range(3)]
        inner = min(float(out[1]) for out in outputs)
        wall = min(float(out[2]) for out in outputs)
        print(f"  open from cache in a new process: {wall:.2f} s wall (imports included), "
              f"refresh {inner * 1000:.0f} ms")
        library.import_records(resampled(records, 50, offset=7))
        (_placed, report), place_seconds = timed(lambda: cache.refresh(library, conference_map))
        print(f"  50 papers added: {report.kind} in {place_seconds:.2f} s")
        frames = frame_times(conference_map)
        print(f"  panning {size:,} points: frame {frames['median'] * 1000:.1f} ms median, "
              f"{frames['p95'] * 1000:.1f} ms p95; relighting half the points {frames['relight'] * 1000:.0f} ms")
        library.close()


FIRST_CHILD = """
import sys, time
import numpy as np
from db.library.library import Library
from db.map.conference_map import MapCache
with Library.open(sys.argv[1], seed=False) as library:
    started, cpu = time.perf_counter(), time.process_time()
    conference_map, report = MapCache(library.folder).refresh(library)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
assert report.kind == "fitted", report
np.save(sys.argv[2], conference_map.xy)
print(wall, cpu)
"""


def neighbours_kept(reduced: np.ndarray, xy: np.ndarray, k: int = 10) -> float:
    """The mean share of each row's k nearest neighbours in `reduced` that are among its k nearest in `xy`."""
    from sklearn.neighbors import NearestNeighbors

    near = [NearestNeighbors(n_neighbors=k + 1).fit(x).kneighbors(x, return_distance=False)[:, 1:]
            for x in (reduced, xy)]
    return float(np.mean([len(set(a) & set(b)) / k for a, b in zip(*near, strict=True)]))


def first_side_by_side(size: int, before: Path, busy: bool) -> None:
    import contextlib
    import shutil

    from busy_loops import busy_loops, uptime

    with tempfile.TemporaryDirectory() as tmp:
        with Library.open(Path(tmp) / "library", seed=False) as library:
            library.import_records(resampled(real_records(), size))
        print(f"first map at {size:,} papers{' (busy: two busy loops beside it)' if busy else ''}; {uptime()} before",
              flush=True)
        figures = {}
        with busy_loops() if busy else contextlib.nullcontext():
            for name, code in (("before", before), ("after", ROOT)):
                copy = Path(tmp) / name
                shutil.copytree(Path(tmp) / "library", copy)
                load = os.getloadavg()[0]
                out = subprocess.run([sys.executable, "-c", FIRST_CHILD, str(copy), str(Path(tmp) / f"{name}.npy")],
                                     cwd=str(code), env=dict(os.environ, PYTHONPATH=str(code)), capture_output=True,
                                     text=True, check=True).stdout.split()
                figures[name] = {"wall": float(out[-2]), "cpu": float(out[-1]), "load": (load, os.getloadavg()[0])}
                print(f"  {name} done: {figures[name]}", flush=True)
        print(f"{uptime()} after\n")
        with Library.open(Path(tmp) / "library", seed=False) as library:
            reduced = cm.reduce(TfidfCache(library.folder).refresh(library)[0])
        for name in figures:
            figures[name]["kept"] = neighbours_kept(reduced, np.load(Path(tmp) / f"{name}.npy"))
    print(f"| first map, {size:,} papers | before ({before}) | after | after / before |")
    print("|---|---:|---:|---:|")
    b, a = figures["before"], figures["after"]
    print(f"| wall | {b['wall']:.1f} s | {a['wall']:.1f} s | {a['wall'] / b['wall']:.2f} |")
    print(f"| CPU | {b['cpu']:.1f} s | {a['cpu']:.1f} s | {a['cpu'] / b['cpu']:.2f} |")
    print(f"| 10 nearest neighbours kept on the map | {b['kept']:.3f} | {a['kept']:.3f} | |")
    print(f"| load (1 min) at start → end | {b['load'][0]:.1f} → {b['load'][1]:.1f} | "
          f"{a['load'][0]:.1f} → {a['load'][1]:.1f} | |")


def main() -> None:
    if sys.argv[1:2] == ["first"]:
        args = iter(sys.argv[2:])
        size, before, busy = 6000, None, False
        for arg in args:
            if arg == "--before":
                before = Path(next(args)).resolve()
            elif arg == "--busy":
                busy = True
            else:
                size = int(arg)
        if before is None:
            sys.exit("bench_map first: --before DIR names a checkout of the earlier code")
        first_side_by_side(size, before, busy)
        return
    sizes = [int(arg) for arg in sys.argv[1:]] or [6000, 20000]
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for size in sizes:
        run(size)


if __name__ == "__main__":
    main()
