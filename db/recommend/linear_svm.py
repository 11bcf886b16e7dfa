"""A linear support vector machine with the squared hinge loss (L2-SVM), trained in the primal by the modified
finite Newton method of Keerthi & DeCoste ("A modified finite Newton method for fast solution of large scale
linear SVMs", JMLR 6:341–361, 2005).

It minimizes the objective of scikit-learn's `LinearSVC(loss="squared_hinge", penalty="l2")` (liblinear), with
the intercept as one more feature of value 1 that is regularized too:

    ½‖w‖² + C Σᵢ cᵢ max(0, 1 − yᵢ (w·xᵢ + b))²,   yᵢ ∈ {−1, +1}

where cᵢ is the row's weight (a class weight times a sample weight). Each Newton step fixes the rows inside the
margin, solves that regularized least-squares problem by conjugate gradients (scipy), and searches the line to
it exactly (the objective is a piecewise quadratic along it); it ends when the set of rows inside the margin
does not change. Started from the previous solution (after one more rating) it usually takes one or two steps.

Why not LinearSVC itself: importing scikit-learn costs about a second, which `margin list is:recommended`
paid before it could answer; numpy and scipy.sparse are needed anyway.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from db.system.threads import pin

MAX_NEWTON = 50
CG_TOL = 1e-8


def balanced_weights(labels: np.ndarray) -> np.ndarray:
    """scikit-learn's class_weight="balanced": n / (2 × rows of the class), for labels of 0/1."""
    labels = np.asarray(labels, dtype=bool)
    n, positives = len(labels), int(labels.sum())
    weights = np.empty(n, dtype=np.float64)
    weights[labels] = n / (2 * positives) if positives else 0.0
    weights[~labels] = n / (2 * (n - positives)) if n > positives else 0.0
    return weights


def fit(X: sparse.csr_matrix, labels: np.ndarray, C: float, weights: np.ndarray | None = None,
        start: np.ndarray | None = None, tol: float = 1e-4) -> np.ndarray:
    """The weights of the L2-SVM for rows `X` (n × d, sparse) and `labels` (n, 0/1 or booleans): an array of
    d + 1 values, the last one the intercept. `weights` (n) weigh the rows (default: class-balanced); `start`
    (d + 1) is where the Newton iterations begin (default: zero). Raises ValueError when the shapes differ."""
    from scipy.sparse.linalg import LinearOperator, cg

    n, d = X.shape
    y = np.where(np.asarray(labels, dtype=bool), 1.0, -1.0)
    if len(y) != n:
        raise ValueError(f"{n} rows but {len(y)} labels")
    c = balanced_weights(y > 0) if weights is None else np.asarray(weights, dtype=np.float64)
    pin()  # one BLAS thread: its helper threads cost more than they save on these vectors (db.system.threads)
    Xb = with_intercept(X)
    w = np.zeros(d + 1) if start is None or len(start) != d + 1 else np.asarray(start, dtype=np.float64).copy()
    active = None
    for _step in range(MAX_NEWTON):
        now = y * (Xb @ w) < 1  # the rows inside the margin
        rows = Xb[now]
        ca, ya = 2 * C * c[now], y[now]

        def product(v, rows=rows, ca=ca):
            return v + rows.T @ (ca * (rows @ v))

        operator = LinearOperator((d + 1, d + 1), matvec=product, dtype=np.float64)
        target, _info = cg(operator, rows.T @ (ca * ya), x0=w, rtol=CG_TOL, maxiter=1000)
        step = _line_search(Xb, y, c, C, w, target - w) * (target - w)
        w = w + step
        if active is not None and np.array_equal(now, active) and \
                np.abs(step).max() <= tol * max(1.0, np.abs(w).max()):
            break
        active = now
    return w


def with_intercept(X: sparse.spmatrix) -> sparse.csr_matrix:
    """`X` (n × d) with one more column of ones (n × (d + 1), float64, CSR), each row's entries in X's order and
    its 1 last: what `sparse.hstack([X, ones])` gives, built from X's arrays without the detour through COO
    (that detour was an eighth of a rating's recomputed queue)."""
    X = sparse.csr_matrix(X)
    n, d = X.shape
    indptr = X.indptr.astype(np.int64) + np.arange(n + 1)
    last = indptr[1:] - 1  # where each row's 1 goes
    mask = np.ones(int(indptr[-1]), dtype=bool)
    mask[last] = False
    indices = np.empty(int(indptr[-1]), dtype=np.int64)
    data = np.empty(int(indptr[-1]), dtype=np.float64)
    indices[mask], data[mask] = X.indices, X.data
    indices[last], data[last] = d, 1.0
    return sparse.csr_matrix((data, indices, indptr), shape=(n, d + 1))


def _line_search(Xb, y, c, C, w, direction) -> float:
    """The step t in [0, 1] minimizing the objective along w + t·direction: its derivative is piecewise linear
    and increasing in t, so the root is found between the breakpoints (Keerthi & DeCoste 2005, section 3)."""
    out = y * (Xb @ w)  # margins now
    slope = y * (Xb @ direction)  # how each margin moves with t
    wd, dd = w @ direction, direction @ direction

    def derivative(t: float) -> float:
        gap = 1 - (out + t * slope)
        inside = gap > 0
        return wd + t * dd - 2 * C * float(np.sum(c[inside] * gap[inside] * slope[inside]))

    if derivative(1.0) <= 0:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(40):  # bisection on an increasing function: 40 halvings are below float precision
        mid = (low + high) / 2
        if derivative(mid) > 0:
            high = mid
        else:
            low = mid
    return (low + high) / 2
