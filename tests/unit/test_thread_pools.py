"""Issue 28: the recommender, the map and progress run with one BLAS and one OpenMP thread (threadpoolctl), seen
from inside the work itself; and a first map stops at its next step once asked to (counted in steps, not seconds)."""

from __future__ import annotations

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


class Closing:
    """A map computation's step(): the window closes during the part after its `at`-th call; every later call
    raises Stop, as the dock's step() does once its stop flag is set. `shares` holds every call's share."""

    def __init__(self, at: int):
        self.at, self.shares = at, []

    def __call__(self, share: float) -> None:
        self.shares.append(share)
        if len(self.shares) > self.at:
            raise Stop


def test_a_first_map_stops_at_the_next_step_once_asked(library_dir):
    """However far the work got, no step comes after the one that stopped it, and nothing is kept."""
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(map_topics(30))  # 90 papers: t-SNE, with steps during it
        for at in (1, 2, 4):  # closed during the tf-idf fit, during the reduction, during t-SNE
            (lib.folder / "recommend" / "tfidf.npz").unlink(missing_ok=True)
            step = Closing(at)
            with pytest.raises(Stop):
                map_cache.MapCache(lib.folder).refresh(lib, step=step)
            assert len(step.shares) == at + 1 and step.shares[-1] < 1.0, step.shares  # stopped at the very next
            assert not map_cache.MapCache(lib.folder).path.exists()
            if at < 3:  # the step after the fit and the one after the reduction come before t-SNE
                assert step.shares[-1] <= layout.REDUCED
        shares = step.shares
        assert shares[:3] == [0.0, map_cache.FITTED, layout.REDUCED] and shares == sorted(shares)  # it only grows
        (lib.folder / "recommend" / "tfidf.npz").unlink(missing_ok=True)
        with pytest.raises(Stop):  # closed before anything: not even the tf-idf matrix is fitted
            map_cache.MapCache(lib.folder).refresh(lib, step=Closing(0))
        assert not TfidfCache(lib.folder).path.exists()
