"""The conference map (issue 17) fitted for real: the cached layout is derived data, new papers are placed among
their neighbours, regions are named by their own papers' terms, the map of a query lights the list's set, and on the
shared ICLR 2018 file the layout keeps related papers near. In-process, but each t-SNE fit takes seconds of CPU
(10 to 80 s on a busy 2-core machine): here rather than in tests/unit, which stays under a minute."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from db.library.library import Library
from db.map import conference_map as cm
from db.recommend.tfidf_cache import analyze
from tests.helpers.runner import margin
from tests.helpers.topics import MAP_TOPICS as TOPICS
from tests.helpers.topics import map_topics as records


@pytest.fixture
def three(library_dir):
    """A library of three clearly separated topics, 30 papers each (titles "space 0" …)."""
    lib = Library.open(library_dir, seed=False)
    lib.import_records(records(30))
    yield lib
    lib.close()


def topic_rows(conference_map: cm.ConferenceMap, lib: Library) -> dict[str, list[int]]:
    rows: dict[str, list[int]] = {}
    for paper in lib.papers(conference_map.ids):
        rows.setdefault(paper.label.split()[0], []).append(conference_map.row[paper.id])
    return rows


@pytest.mark.slow
def test_the_cache_is_derived_deleting_it_rebuilds_the_same_map(three):
    cache = cm.MapCache(three.folder)
    first, report = cache.refresh(three)
    assert report.kind == "fitted" and cache.path.is_file()
    assert sorted(first.ids) == sorted(three.ids()) and first.xy.shape == (90, 2)
    again, report = cm.MapCache(three.folder).refresh(three)
    assert report.kind == "unchanged" and np.array_equal(again.xy, first.xy)
    cache.path.unlink()
    rebuilt, report = cm.MapCache(three.folder).refresh(three)
    assert report.kind == "fitted" and cache.path.is_file()
    assert rebuilt.ids == first.ids and np.allclose(rebuilt.xy, first.xy)  # seeded: the same library, the same map
    cache.path.write_bytes(b"garbage")
    assert cache.load() is None
    assert cm.MapCache(three.folder).refresh(three)[1].kind == "fitted"


@pytest.mark.slow
def test_topics_are_regions_and_a_lasso_round_a_topic_selects_its_papers(three):
    conference_map, _ = cm.MapCache(three.folder).refresh(three)
    rows = topic_rows(conference_map, three)
    for topic, members in rows.items():
        points = conference_map.xy[members]
        hull = points[ConvexHull(points).vertices]
        centre = points.mean(axis=0)
        lasso = centre + (hull - centre) * 1.05  # a loose lasso drawn round the topic
        chosen = set(conference_map.in_polygon([tuple(p) for p in lasso]))
        assert chosen == {conference_map.ids[i] for i in members}, topic
    # each coarse region holds one topic, and is named by that topic's words
    for number, region in enumerate(conference_map.regions_at(cm.COARSE)):
        names = {paper.label.split()[0] for paper in three.papers(conference_map.members(cm.COARSE, number))}
        assert len(names) == 1
        assert len(region.terms) >= 2 and set(region.terms) <= set(TOPICS[(name := names.pop())].split()) | {name}


def test_new_papers_are_placed_among_their_neighbours_without_a_refit(three):
    cache = cm.MapCache(three.folder)
    before, _ = cache.refresh(three)
    three.import_records(records(3, seed=99, start=30))  # 9 new papers: 10% of the map
    after, report = cache.refresh(three)
    assert report.kind == "placed" and report.changed == 9
    for i in before.ids:  # nobody else moved
        assert np.array_equal(after.xy[after.row[i]], before.xy[before.row[i]])
    rows = topic_rows(before, three)
    centres = {topic: before.xy[members].mean(axis=0) for topic, members in rows.items()}
    for paper in three.papers([i for i in after.ids if i not in before.row]):
        point = after.xy[after.row[paper.id]]
        nearest = min(centres, key=lambda topic: np.hypot(*(centres[topic] - point)))
        assert nearest == paper.label.split()[0]
    assert cm.MapCache(three.folder).load().ids == after.ids  # saved


@pytest.mark.slow
def test_many_new_papers_refit_the_map(three):
    cache = cm.MapCache(three.folder)
    cache.refresh(three)
    three.import_records(records(10, seed=5, start=30))  # 30 new papers: a third
    assert cache.refresh(three)[1].kind == "fitted"


def test_the_map_of_a_query_lights_the_lists_set(three, tmp_path):
    folder = str(three.folder)
    code, out, _ = margin("--library", folder, "list", "telescope OR oven", "--json")
    assert code == 0
    listed = [item["id"] for item in json.loads(out)]
    assert 0 < len(listed) < 90
    png = tmp_path / "map.png"
    code, out, err = margin("--library", folder, "map", "--output", str(png), "telescope OR oven", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["lit"] == listed and data["papers"] == 90
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from PIL import Image

    with Image.open(png) as image:
        assert image.size == (1800, 1300)
    code, out, _ = margin("--library", folder, "map", "--output", str(png))
    assert code == 0 and out.strip() == f"{png}: 90 papers, 3 regions"


def test_map_bad_input_is_one_line_and_exit_1(three, tmp_path):
    folder = str(three.folder)
    code, out, err = margin("--library", folder, "map", "--output", str(tmp_path / "m.png"), "--colour", "x")
    assert code == 1 and err.count("\n") == 1 and "--colour x" in err and not (tmp_path / "m.png").exists()
    code, _out, err = margin("--library", folder, "map", "--output", str(tmp_path))
    assert code == 1 and err.count("\n") == 1 and "is a folder" in err
    code, _out, err = margin("--library", folder, "map", "--output", str(tmp_path / "no" / "m.png" / "x"))
    assert code == 0 or (code == 1 and err.count("\n") == 1)


# ------------------------------------------------------------------------------------------ the real layout
@pytest.mark.slow
def test_iclr_2018_layout_keeps_papers_sharing_a_keyword_near(shared_dir, library_dir):
    """Papers sharing an author keyword (keywords are not part of the text the map is computed from) are
    nearer on average than random pairs; each region's terms are used by its own papers."""
    from db.import_job import import_paths

    lib = Library.open(library_dir, seed=False)
    import_paths(lib, [shared_dir / "data" / "real" / "iclr2018.json"], index=lambda _lib: None)
    conference_map, _ = cm.MapCache(lib.folder).refresh(lib)
    papers = lib.papers(conference_map.ids)
    by_keyword: dict[str, list[int]] = {}
    for paper in papers:
        for keyword in {k.strip().lower() for k in paper.keywords if k.strip()}:
            by_keyword.setdefault(keyword, []).append(conference_map.row[paper.id])
    pairs = {pair for rows in by_keyword.values() if 2 <= len(rows) <= 60 for pair in combinations(sorted(rows), 2)}
    assert len(pairs) > 500
    xy = conference_map.xy
    first, second = np.array(sorted(pairs)).T
    sharing = np.hypot(*(xy[first] - xy[second]).T).mean()
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, len(xy), 20_000), rng.integers(0, len(xy), 20_000)
    keep = a != b
    random_pairs = np.hypot(*(xy[a[keep]] - xy[b[keep]]).T).mean()
    ratio = sharing / random_pairs
    print(f"ICLR 2018: {len(pairs):,} keyword pairs, mean distance ratio to random pairs {ratio:.3f}")
    assert ratio < 0.8
    texts = {paper.id: set(analyze("\n".join(filter(None, (paper.label, paper.abstract, paper.note)))))
             for paper in papers}
    for level in (cm.COARSE, cm.FINE):
        for number, region in enumerate(conference_map.regions_at(level)):
            members = conference_map.members(level, number)
            assert len(region.terms) >= 2, region
            for term in region.terms:
                share = sum(term in texts[i] for i in members) / len(members)
                assert share >= cm.MIN_TERM_SHARE, (region.label, term, share)
    lib.close()
