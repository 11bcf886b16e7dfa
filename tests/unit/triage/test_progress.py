"""Triage progress and the estimate of liked papers still unseen (issue 16, item 1)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from db.library.library import SCHEMA_VERSION, Library
from db.triage.progress import (
    clopper_pearson,
    draw_check,
    hypergeometric_interval,
    knee_stop,
    progress,
    scope_of,
    screening,
)
from tests.helpers.runner import margin


def test_scope_drops_the_recommendation_part_and_read_filter():
    assert scope_of('is:recommended venue:"ICLR 2018"') == 'venue:"ICLR 2018"'
    assert scope_of('is:check  venue:"ICLR 2018" read:no') == 'venue:"ICLR 2018"'
    assert scope_of("") == ""


def test_screening_order_is_the_order_papers_were_first_read_or_rated(library):
    ids = library.ids()
    library.set_rating(ids[5], 5)
    library.set_read(ids[2], True)
    library.set_rating(ids[9], 2)
    library.set_rating(ids[5], 4)  # a later rating keeps the paper's first place
    assert screening(library, ids) == [(ids[5], True), (ids[2], False), (ids[9], False)]
    assert screening(library, ids[:6]) == [(ids[5], True), (ids[2], False)]


def test_hypergeometric_interval_is_exact_at_known_values():
    # every K of the population when nothing is drawn; the sample's own count is a floor
    assert hypergeometric_interval(50, 0, 0) == (0, 50)
    low, high = hypergeometric_interval(1000, 20, 0)
    assert low == 0 and 150 <= high <= 175  # about 1000 × (1 − 0.025^(1/20)) = 168
    assert hypergeometric_interval(10, 10, 3) == (3, 3)  # the whole population rated: no doubt left
    with pytest.raises(ValueError):
        hypergeometric_interval(10, 5, 6)


def test_hypergeometric_interval_covers_the_truth_at_least_95_percent():
    rng = np.random.default_rng(7)
    population, drawn, trials, covered = 400, 30, 400, 0
    for _trial in range(trials):
        liked = int(rng.integers(0, 60))
        labels = np.zeros(population, dtype=bool)
        labels[:liked] = True
        sample = rng.choice(labels, size=drawn, replace=False)
        low, high = hypergeometric_interval(population, drawn, int(sample.sum()))
        covered += low <= liked <= high
    assert covered / trials >= 0.95


def test_clopper_pearson_bounds():
    assert clopper_pearson(0, 0) == (0.0, 1.0)
    low, high = clopper_pearson(0, 100)
    assert low == 0.0 and 0.03 < high < 0.04  # the "rule of three": about 3/100
    low, high = clopper_pearson(50, 100)
    assert 0.39 < low < 0.41 and 0.59 < high < 0.61


def test_knee_method_stops_after_a_clear_knee_only():
    found_early = [min(i, 60) for i in range(1, 401)]  # 60 liked in the first 60, then none in 340
    assert knee_stop(found_early) is True
    steady = [i // 4 for i in range(1, 401)]  # one in four all along: no knee
    assert knee_stop(steady) is False
    assert knee_stop(found_early[:100]) is False  # fewer than 150 screened


def _rate_some(library: Library, liked: set[str], order: list[str]) -> None:
    for paper_id in order:
        library.set_rating(paper_id, 5 if paper_id in liked else 2)


def test_progress_counts_the_view_and_estimates_from_the_random_check(library):
    ids = library.ids()
    rng = random.Random(3)
    liked = set(rng.sample(ids, 10))
    _rate_some(library, liked, ids[:8])
    result = progress(library, ids, "")
    found = len(liked & set(ids[:8]))
    assert (result.total, result.screened, result.found) == (38, 8, found)
    assert result.curve[-1] == found and len(result.curve) == 8
    assert result.estimate is None and "Draw a check of 20 unseen papers" in result.suggestion
    draw_check(library, "", ids, 12, rng)
    result = progress(library, ids, "")
    assert len(result.check_to_rate) == 12 and not set(result.check_to_rate) & set(ids[:8])
    assert result.estimate is None  # nothing of the check rated yet
    for paper_id in result.check_to_rate:  # the user rates the check; a read paper without stars is not liked
        library.set_rating(paper_id, 4) if paper_id in liked else library.set_read(paper_id, True)
    result = progress(library, ids, "")
    estimate = result.estimate
    truth = len(liked) - result.found
    assert estimate.population == 30 and estimate.rated == 12 and estimate.not_covered == 0
    assert estimate.low <= truth <= estimate.high
    assert result.check_to_rate == []
    # drawing more grows the same check (one random sample of the same 30 papers)
    draw_check(library, "", ids, 30, rng)
    grown = progress(library, ids, "")
    assert grown.estimate is None or grown.estimate.population == 30
    assert len(grown.check_to_rate) == 30 - 12  # the rest of the population: all unseen
    for paper_id in grown.check_to_rate:
        library.set_rating(paper_id, 4) if paper_id in liked else library.set_read(paper_id, True)
    done = progress(library, ids, "")
    assert done.unseen == 0 and done.estimate.low == done.estimate.high == 0
    assert done.found == len(liked)


def test_papers_added_after_the_check_are_not_covered(library):
    ids = library.ids()
    library.set_rating(ids[0], 5)
    draw_check(library, "", ids[:30], 5, random.Random(1))
    result = progress(library, ids, "")
    assert result.estimate is None or result.estimate.not_covered == 8
    for paper_id in result.check_to_rate:
        library.set_read(paper_id, True)
    result = progress(library, ids, "")
    assert result.estimate.not_covered == 8 and result.estimate.population == 29
    assert result.suggestion.startswith("Go on: with 95% confidence at least")
    assert not result.stop.stop and result.stop.more_ratings is None  # uncovered papers: no check can show it


def test_a_check_changes_what_the_log_says_and_nothing_else(library):
    ids = library.ids()
    before = library.last_change()
    changes = draw_check(library, "", ids, 4, random.Random(2))
    assert len(changes.papers) == 4 and changes.kinds == {"triage"}
    found = library.changes_since(before)
    assert found[0].papers == changes.papers
    assert all(not paper.read and paper.rating is None for paper in library.papers(changes.papers))


def test_new_library_has_the_check_tables(library_dir):
    with Library.open(library_dir) as library:
        assert library.rows("PRAGMA user_version")[0][0] == SCHEMA_VERSION
        assert library.rows("SELECT COUNT(*) FROM check_papers") == [(0,)]


def test_migrating_a_schema_5_library_adds_the_check_tables(library_dir):
    import sqlite3

    Library.open(library_dir).close()
    conn = sqlite3.connect(library_dir / "library.db")
    conn.executescript("DROP TABLE check_papers; DROP TABLE check_samples; PRAGMA user_version = 5;")
    conn.close()
    with Library.open(library_dir) as library:
        assert library.rows("PRAGMA user_version")[0][0] == SCHEMA_VERSION
        draw_check(library, "", library.ids(), 3)
        assert library.rows("SELECT COUNT(*) FROM check_papers WHERE drawn = 1") == [(3,)]


def test_cli_progress_prints_the_same_figures_as_the_library(library_dir):
    with Library.open(library_dir) as library:
        ids = library.ids()
        for paper_id in ids[:6]:
            library.set_rating(paper_id, 5 if paper_id in ids[:3] else 1)
    result = margin("progress", "venue:\"ICML 2026\"", "--check", "5", "--json", library=library_dir)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["total"], data["screened"], data["found"], data["scope"]) == (38, 6, 3, 'venue:"ICML 2026"')
    assert len(data["check_to_rate"]) == 5 and data["curve"] == [1, 2, 3, 3, 3, 3]
    listed = margin("list", 'is:check venue:"ICML 2026"', "--json", library=library_dir)
    assert [paper["id"] for paper in json.loads(listed.stdout)] == data["check_to_rate"]
    bare = margin("list", "is:check", "--json", library=library_dir)  # no check of the whole library: the latest
    assert [paper["id"] for paper in json.loads(bare.stdout)] == data["check_to_rate"]
    for paper_id in data["check_to_rate"]:
        assert margin("annotate", paper_id, "--rating", "2", library=library_dir).returncode == 0
    text = margin("progress", 'is:recommended venue:"ICML 2026"', library=library_dir)
    assert text.returncode == 0, text.stderr
    assert "screened 11 of 38 papers (29%); liked (4–5 stars) 3" in text.stdout
    assert "liked papers still unseen: about 0 (0–" in text.stdout
    assert "from a check drawn at random of 5 rated papers (0 liked) of 32 unseen" in text.stdout
    assert "95% of checks drawn this way hold the true number" in text.stdout
    assert "the check found no liked paper: up to " in text.stdout  # what no check of 5 can rule out
    assert "stopping rule (95%): go on; with 95% confidence at least" in text.stdout
    ranked = margin("progress", 'venue:"ICML 2026"', "--check", "4", "--ranked", "--target", "80", "--json",
                    library=library_dir)
    assert ranked.returncode == 0, ranked.stderr
    data = json.loads(ranked.stdout)
    assert data["stop"]["target"] == 0.8 and len(data["check_to_rate"]) == 4
    with Library.open(library_dir) as library:
        assert library.check_design(library.latest_check('venue:"ICML 2026"')) == "ranked"
    assert margin("progress", "--target", "0", library=library_dir).returncode == 1
    bad = margin("progress", "--check", "0", library=library_dir)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
