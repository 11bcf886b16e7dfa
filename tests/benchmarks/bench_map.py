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


def main() -> None:
    sizes = [int(arg) for arg in sys.argv[1:]] or [6000, 20000]
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for size in sizes:
        run(size)


if __name__ == "__main__":
    main()
