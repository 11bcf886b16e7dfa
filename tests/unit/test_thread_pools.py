"""Issue 28: the recommender, the map and progress run with one BLAS and one OpenMP thread (threadpoolctl), seen
from inside the work itself; and a first map stops at its next step once asked to (counted in steps, not seconds)."""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from db.library.library import Library
from db.map import cache as map_cache
from db.map import layout
from db.recommend import linear_svm
from db.recommend.recommender import Recommender
from db.recommend.tfidf_cache import TfidfCache
from db.triage import progress as triage_progress
from tests.helpers.topics import map_topics, two_topics


def pools() -> dict[str, int]:
    """Each loaded pool's thread count, by library prefix and API (several OpenBLAS copies may be loaded)."""
    return {f"{pool['prefix']}:{pool['user_api']}:{pool['filepath']}": pool["num_threads"]
            for pool in threadpool_info()}


def spy(monkeypatch, module, name: str) -> list[dict[str, int]]:
    """Wrap module.name so that each call records the pools' thread counts while it runs."""
    seen: list[dict[str, int]] = []
    original = getattr(module, name)

    def wrapper(*args, **kwargs):
        seen.append(pools())
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return seen


@pytest.fixture
def two_threads():
    """Every pool at two threads, as OpenBLAS starts on a 2-core laptop (restored afterwards)."""
    with threadpool_limits(limits=2):
        assert any(count == 2 for count in pools().values())
        yield


def test_the_svm_fit_runs_with_one_blas_thread(library_dir, two_threads, monkeypatch):
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(two_topics(40))
        ids = lib.ids()
        lib.set_rating(ids[0], 5)
        lib.set_rating(ids[-1], 1)
        seen = spy(monkeypatch, linear_svm, "_line_search")  # inside the Newton steps of the fit
        assert Recommender(lib).recommend(limit=5).ids
    assert seen and all(count == 1 for call in seen for count in call.values()), seen


def test_the_map_lays_out_and_clusters_with_one_thread(library_dir, two_threads, monkeypatch):
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(map_topics(20))
        seen = spy(monkeypatch, layout, "cluster")  # k-means: OpenMP and BLAS
        seen_reduce = spy(monkeypatch, layout, "embed")
        conference_map, report = map_cache.MapCache(lib.folder).refresh(lib)
    assert report.kind == "fitted" and len(conference_map.ids) == 60
    assert seen and seen_reduce
    assert all(count == 1 for call in seen + seen_reduce for count in call.values()), seen + seen_reduce


def test_progress_runs_with_one_thread(library_dir, two_threads, monkeypatch):
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(two_topics(5))
        lib.set_rating(lib.ids()[0], 5)
        seen = spy(monkeypatch, triage_progress, "screening")
        assert triage_progress.progress(lib, lib.ids()).found == 1
    assert seen and all(count == 1 for call in seen for count in call.values()), seen


class Stop(Exception):
    pass


def test_a_first_map_stops_at_the_next_step_once_asked(library_dir):
    """The window closing sets a flag; the computation's step() raises at its next call. However far the work
    got, no step comes after the one that stopped it, nothing is kept, and the cache is not written."""
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(map_topics(30))  # 90 papers: t-SNE, with steps during it
        for stop_at in (1, 2, 4):  # before the tf-idf fit, after the reduction, during t-SNE
            (lib.folder / "recommend" / "tfidf.npz").unlink(missing_ok=True)
            calls: list[float] = []
            asked = False

            def step(share: float) -> None:
                nonlocal asked
                calls.append(share)
                if asked:
                    raise Stop
                asked = len(calls) >= stop_at  # the window closes while this part runs

            with pytest.raises(Stop):
                map_cache.MapCache(lib.folder).refresh(lib, step=step)
            assert len(calls) == stop_at + 1 and calls[-1] < 1.0, calls  # stopped at the very next step
            assert not map_cache.MapCache(lib.folder).path.exists()
            if stop_at == 1:  # asked at the first step: the next one comes before any layout work
                assert calls[-1] <= layout.REDUCED
        assert calls == sorted(calls) and calls[0] == 0.0 and calls[2] > layout.REDUCED  # a share that only grows
        # asked before anything: not even the tf-idf matrix is fitted
        (lib.folder / "recommend" / "tfidf.npz").unlink(missing_ok=True)

        def at_once(_share: float) -> None:
            raise Stop

        with pytest.raises(Stop):
            map_cache.MapCache(lib.folder).refresh(lib, step=at_once)
        assert not TfidfCache(lib.folder).path.exists()


def test_the_same_library_gives_the_same_map_whatever_the_idle_cores(library_dir, monkeypatch):
    """t-SNE's worker count follows the idle cores; the layout does not."""
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(map_topics(20))
        tfidf, _report = TfidfCache(lib.folder).refresh(lib)
        maps = []
        for idle in (1, 2):
            monkeypatch.setattr(layout, "spare_cores", lambda idle=idle: idle)
            maps.append(layout.compute(tfidf, lib.ids()))
    assert np.array_equal(maps[0].xy, maps[1].xy)
