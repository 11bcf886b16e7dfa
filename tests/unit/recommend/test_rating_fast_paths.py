"""Issue 28: a rating's recomputed queue got faster without changing what it ranks or says. The fit's design
matrix is built from the rows' arrays, and the reasons of all recommended papers are taken at once; both give
exactly what the earlier code gave (sparse.hstack; one X[i].multiply per paper)."""

from __future__ import annotations

import numpy as np
from scipy import sparse

from db.library.library import Library
from db.recommend.linear_svm import with_intercept
from db.recommend.reasons import why, whys
from db.recommend.recommender import Recommender
from tests.helpers.topics import two_topics


def test_the_intercept_column_is_what_hstack_gave():
    rng = np.random.default_rng(4)
    X = sparse.random(40, 25, density=0.15, format="csr", dtype=np.float32, random_state=rng)
    X = sparse.csr_matrix(X.multiply((np.arange(40) % 7 != 0)[:, None]))  # some rows empty
    X.eliminate_zeros()
    ours = with_intercept(X)
    theirs = sparse.hstack([X, np.ones((40, 1))], format="csr", dtype=np.float64)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    assert np.array_equal(ours.indptr, theirs.indptr) and np.array_equal(ours.indices, theirs.indices)
    assert np.array_equal(ours.data, theirs.data)
    assert with_intercept(sparse.csr_matrix((0, 5), dtype=np.float32)).shape == (0, 6)


def test_the_reasons_are_what_one_product_per_paper_gave(library_dir):
    with Library.open(library_dir, seed=False) as lib:
        lib.import_records(two_topics(30))
        ids = lib.ids()
        for paper_id in ids[:3]:
            lib.set_rating(paper_id, 5)
        lib.set_rating(ids[-1], 1)
        recommender = Recommender(lib)
        result = recommender.recommend(limit=None)
        tfidf = recommender.tfidf
        rows = [tfidf.row[i] for i in result.ids]
        weights = np.random.default_rng(1).standard_normal(tfidf.matrix.shape[1]).astype(np.float32)
        for row, reasons in zip(rows, whys(tfidf, rows, weights), strict=True):
            one = sparse.csr_matrix(tfidf.matrix[row].multiply(weights))  # the earlier code's product
            assert reasons == why(tfidf, one.indices, one.data)
        assert any(result.why.values())
