"""Cheaper recommendation steps (issue 16, item 5): the SVM without scikit-learn, a refresh that reads only
what the change log says changed, no boilerplate reasons (no scikit-learn import: tests/system)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from db.recommend import linear_svm, tfidf_cache
from db.recommend.recommender import BOILERPLATE, Recommender
from tests.helpers.records import papers


def test_newton_svm_finds_liblinears_solution():
    from sklearn.svm import LinearSVC

    rng = np.random.default_rng(4)
    X = sparse.random(300, 500, density=0.03, format="csr", random_state=5, dtype=np.float64)
    truth = rng.normal(size=500)
    labels = (X @ truth + 0.1 * rng.normal(size=300)) > 0.05
    for C in (0.01, 1.0):
        reference = LinearSVC(C=C, class_weight="balanced", tol=1e-8, max_iter=200_000, dual=True).fit(X, labels)
        ours = linear_svm.fit(X, labels, C, linear_svm.balanced_weights(labels))
        assert np.allclose(ours[:-1], reference.coef_.ravel(), atol=1e-3 * max(1, np.abs(ours).max()))
        assert ours[-1] == pytest.approx(reference.intercept_[0], abs=1e-3 * max(1, abs(ours[-1])))
        mine = _objective(X, labels, C, ours[:-1], ours[-1])
        assert mine <= _objective(X, labels, C, reference.coef_.ravel(), reference.intercept_[0]) * (1 + 1e-7)
        # started from the answer, it stays there
        again = linear_svm.fit(X, labels, C, linear_svm.balanced_weights(labels), start=ours)
        assert np.allclose(again, ours, atol=1e-6)


def _objective(X, labels, C, w, b):
    y = np.where(labels, 1.0, -1.0)
    margin = np.maximum(0, 1 - y * (X @ w + b))
    return 0.5 * (w @ w + b * b) + C * np.sum(linear_svm.balanced_weights(labels) * margin**2)


def test_row_weights_count_like_repeated_rows():
    X = sparse.csr_matrix(np.array([[1.0, 0], [0, 1.0], [1.0, 1.0], [0.2, 0.9]]))
    labels = np.array([1, 0, 1, 0], dtype=bool)
    doubled = linear_svm.fit(X, labels, 1.0, np.array([1.0, 2.0, 1.0, 1.0]))
    repeated = linear_svm.fit(sparse.vstack([X, X[1]]).tocsr(), np.r_[labels, False], 1.0, np.ones(5))
    assert np.allclose(doubled, repeated, atol=1e-6)


def test_a_rating_refreshes_without_reading_any_text(topics, monkeypatch):
    lib, ids = topics
    recommender = Recommender(lib)
    lib.set_rating(ids["Space 1"], 5)
    recommender.recommend()
    reads = []
    original = lib.store.read  # every read of the library goes through its store
    monkeypatch.setattr(lib.store, "read", lambda sql, params=(): reads.append(sql) or original(sql, params))
    lib.set_rating(ids["Space 2"], 4)
    lib.set_read(ids["Kitchen 3"], True)
    lib.add_tags(ids["Kitchen 4"], ["baking"])
    assert recommender.refresh().kind == "unchanged"
    assert not any("p.abstract" in sql for sql in reads)
    lib.set_note(ids["Kitchen 5"], "galaxy telescope notes")  # a note is text: that one paper is read again
    report = recommender.refresh()
    assert (report.kind, report.changed) == ("updated", 1)
    texts = [sql for sql in reads if "p.abstract" in sql]
    assert len(texts) == 1 and "WHERE p.id IN (?)" in texts[0]
    fresh = tfidf_cache.fit(*zip(*[(i, t) for i, t in _texts(lib)], strict=True))  # same digests as a full read
    assert np.array_equal(fresh.digests, recommender.tfidf.digests)


def _texts(lib):
    return [(paper_id, tfidf_cache.paper_text(label, abstract, note))
            for paper_id, label, abstract, note in lib.rows(tfidf_cache._TEXT_SQL)]


def _reasons_after_liking_graphs(library_dir, graph: str, bake: str) -> list[str]:
    """The recommendations' reasons in a library of six graph and six baking papers (abstracts `graph` and
    `bake`, `{i}` numbered) after two graph papers are liked and one baking paper disliked."""
    from db.library.library import Library

    records = (papers(6, title="Graph {i}", abstract=graph, venue="X 2024", year=2024)
               + papers(6, title="Bake {i}", abstract=bake, venue="X 2024", year=2024))
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(records)
        by_label = {paper.label: paper.id for paper in lib.papers()}
        lib.set_rating(by_label["Graph 0"], 5)
        lib.set_rating(by_label["Graph 1"], 5)
        lib.set_rating(by_label["Bake 0"], 1)
        return [term for item in Recommender(lib).recommend() for term in item.why]


def test_reasons_leave_out_boilerplate(library_dir):
    claim = "Our algorithm significantly outperforms the state of the art"
    reasons = _reasons_after_liking_graphs(library_dir, claim + ". Message passing graph neural networks for "
                                           "molecules {i}. Particularly, they produce and provide molecules.",
                                           claim + ". Sourdough bread baking with yeast {i}.")
    assert len(reasons) >= 5 and not any(set(term.split()) & BOILERPLATE for term in reasons)
    assert not [term for term in reasons if {"particularly", "produce", "provide"} & set(term.split())], reasons
    assert "significantly outperforms" not in reasons and "algorithm significantly" not in reasons
    assert any("graph" in term or "message" in term for term in reasons)


def test_reasons_leave_out_citation_pieces_and_a_prefix_alone(library_dir):
    """"Lee et al." gave `lee et` and `et al` as reasons, "non-convex" gave `non`, "end-to-end" `end` (new users'
    trials)."""
    reasons = _reasons_after_liking_graphs(
        library_dir, "As Lee et al. (2019) showed, non-convex end-to-end message passing graph networks fit "
                     "molecules {i}.", "Sourdough bread baking with yeast and flour {i}.")
    assert reasons
    assert not [term for term in reasons if {"et", "al", "end"} & set(term.split()) or term == "non"], reasons
