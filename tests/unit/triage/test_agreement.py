"""Agreement math of issue 27 (db.triage.agreement): Cohen's and Fleiss' kappa against hand computations and
published examples, percent agreement, Rayyan's conflict rules, the per-pair report."""

from __future__ import annotations

import pytest

from db.triage.agreement import agreement_report, classify, cohen_kappa, fleiss_kappa, percent_agreement


def test_cohen_kappa_by_hand_two_categories():
    # 50 items: both yes 20, a yes b no 5, a no b yes 10, both no 15 (Wikipedia's "Cohen's kappa" example)
    a = ["include"] * 25 + ["exclude"] * 25
    b = ["include"] * 20 + ["exclude"] * 5 + ["include"] * 10 + ["exclude"] * 15
    p_o = 35 / 50
    p_e = (25 / 50) * (30 / 50) + (25 / 50) * (20 / 50)
    assert abs(cohen_kappa(a, b) - (p_o - p_e) / (1 - p_e)) < 1e-12
    assert abs(cohen_kappa(a, b) - 0.4) < 1e-12
    assert percent_agreement(a, b) == pytest.approx(0.7)


def test_cohen_kappa_three_categories_and_symmetry():
    a = ["include", "exclude", "maybe", "exclude", "include", "maybe", "exclude", "exclude"]
    b = ["include", "exclude", "exclude", "exclude", "maybe", "maybe", "include", "exclude"]
    # by hand: agree 5 of 8; a: inc 2, exc 4, maybe 2; b: inc 2, exc 4, maybe 2 → p_e = (4 + 16 + 4) / 64
    p_e = 24 / 64
    assert abs(cohen_kappa(a, b) - (5 / 8 - p_e) / (1 - p_e)) < 1e-12
    assert cohen_kappa(a, b) == cohen_kappa(b, a)
    assert cohen_kappa(a, a) == 1.0


def test_cohen_kappa_matches_scikit_learn_when_installed():
    metrics = pytest.importorskip("sklearn.metrics")
    import random

    rng = random.Random(7)
    labels = ("include", "exclude", "maybe")
    a = [rng.choice(labels) for _ in range(300)]
    b = [x if rng.random() < 0.6 else rng.choice(labels) for x in a]
    assert abs(cohen_kappa(a, b) - metrics.cohen_kappa_score(a, b)) < 1e-9


def test_kappa_undefined_when_everyone_used_one_category():
    assert cohen_kappa(["exclude"] * 5, ["exclude"] * 5) is None
    assert fleiss_kappa([[0, 3, 0]] * 4) is None


def test_fleiss_kappa_published_example():
    # Fleiss (1971) as worked in Wikipedia's "Fleiss' kappa": 10 subjects, 14 raters, 5 categories → 0.210
    counts = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
              [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    assert fleiss_kappa(counts) == pytest.approx(0.20993070442195522, abs=1e-12)


def test_fleiss_kappa_with_two_raters_is_scotts_pi():
    a = ["include", "exclude", "exclude", "maybe", "include", "exclude"]
    b = ["include", "exclude", "include", "maybe", "exclude", "exclude"]
    cats = ("include", "exclude", "maybe")
    counts = [[(x == c) + (y == c) for c in cats] for x, y in zip(a, b, strict=True)]
    shares = [(a.count(c) + b.count(c)) / 12 for c in cats]
    p_e = sum(s * s for s in shares)
    assert abs(fleiss_kappa(counts) - (4 / 6 - p_e) / (1 - p_e)) < 1e-12


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        cohen_kappa(["include"], [])
    with pytest.raises(ValueError):
        cohen_kappa(["include"], ["perhaps"])
    with pytest.raises(ValueError):
        fleiss_kappa([[1, 1, 0], [3, 0, 0]])


@pytest.mark.parametrize("labels,expected", [
    (["include", "exclude"], "conflict"), (["exclude", "maybe"], "maybe"), (["include", "maybe"], "maybe"),
    (["include", "exclude", "maybe"], "conflict"), (["maybe", "maybe"], "maybe"), (["exclude", "exclude"], "agreed"),
    (["include", "include", "include"], "agreed"), (["include"], "awaiting"), ([], "awaiting")])
def test_rayyan_rules(labels, expected):
    assert classify(labels) == expected


def test_report_pairs_cover_papers_both_decided_and_fleiss_papers_all_decided():
    decisions = {"p1": {"a": "include", "b": "include", "c": "exclude"},
                 "p2": {"a": "exclude", "b": "maybe"},
                 "p3": {"a": "exclude", "b": "exclude", "c": "exclude"},
                 "p4": {"c": "include"}}
    report = agreement_report(decisions)
    assert report["reviewers"] == ["a", "b", "c"]
    assert [(p["reviewers"], p["papers"]) for p in report["pairs"]] == [(["a", "b"], 3), (["a", "c"], 2),
                                                                        (["b", "c"], 2)]
    assert report["pairs"][0]["percent_agreement"] == pytest.approx(2 / 3)
    assert report["fleiss_papers"] == 2
    assert report["conflicts"] == ["p1"] and report["maybe"] == ["p2"]
    assert report["agreed"] == 1 and report["awaiting"] == 1
    assert report["per_reviewer"] == {"a": {"include": 1, "exclude": 2, "maybe": 0},
                                      "b": {"include": 1, "exclude": 1, "maybe": 1},
                                      "c": {"include": 1, "exclude": 2, "maybe": 0}}


def test_a_resolved_conflict_leaves_the_conflicts_but_agreement_stays_on_the_original_decisions():
    decisions = {"a": {"x": "include", "y": "exclude"}, "b": {"x": "include", "y": "exclude"},
                 "c": {"x": "include", "y": "include"}}
    plain, resolved = agreement_report(decisions), agreement_report(decisions, resolved=["a", "c", "zzz"])
    assert plain["conflicts"] == ["a", "b"] and plain["resolved"] == []
    assert resolved["conflicts"] == ["b"] and resolved["resolved"] == ["a"]  # c was no conflict
    assert resolved["pairs"] == plain["pairs"] and resolved["per_reviewer"] == plain["per_reviewer"]
