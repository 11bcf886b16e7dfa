"""The conference map's layout: one point per paper, placed by text similarity, and named regions.

Placement: the papers' semantic vectors (db.embed, issue 32) when every paper has one, else the library's tf-idf
rows (db.recommend.tfidf_cache, shared with the recommendations) → 50 dimensions (PCA of the vectors, truncated SVD
of the tf-idf rows; scikit-learn), rows L2-normalized → a 2-D t-SNE (openTSNE: cosine-like neighbourhoods, PCA
initialization, FFT gradients, a fixed seed, so the same library gives the same map). A library too small for
t-SNE (under 2 × MIN_TSNE papers) is laid out by its first two SVD components. Papers added to a map later are
placed among their NEIGHBOURS most similar papers (`extend`); db.map.cache decides when to refit.

Regions: k-means on the 2-D positions at two levels (COARSE for the whole map, FINE for a zoomed-in view);
each region is named by its most characteristic terms: terms that at least MIN_TERM_SHARE of its papers use,
ranked by share × log(share in the region / share in the library).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from db.recommend.tfidf_cache import TfidfMatrix
from db.system.threads import pin

SVD_DIMENSIONS = 50
MIN_TSNE = 25
NEIGHBOURS = 10
# t-SNE's iterations: early exaggeration, then the rest. openTSNE's defaults are 250 + 500; on the 6,000 real
# abstracts of bench_map.py 125 + 250 keep as many of each paper's 10 nearest neighbours (44%) at a fifth of the CPU
# (55 s → 11.5 s with FFT gradients and exact neighbours), and the map's regions are k-means on the result either way
TSNE_EARLY, TSNE_ITERATIONS = 125, 250
TSNE_STEP = 25  # embed's step() is called every this many iterations
FFT_FROM = 4000  # t-SNE's gradients by FFT interpolation from this many papers, Barnes–Hut below (less CPU there:
# 1.7 against 7.5 s at 1,000 papers, the same at 4,000, 25 against 15 s at 6,000)
EXACT_NEIGHBOURS = 20_000  # up to this many papers t-SNE's neighbours are found exactly (faster there than Annoy)
SEED = 20260
MIN_TERM_SHARE = 0.12
TERMS_PER_REGION = 3
COARSE, FINE = 0, 1
SEMANTIC_LAYOUT = "both"  # with vectors: "both" (tf-idf and vectors side by side) or "vectors" (README, measured)


@dataclass
class Region:
    """One named region: `level` COARSE or FINE, `terms` best first, `center` (x, y), `papers` how many."""

    level: int
    terms: list[str]
    center: tuple[float, float]
    papers: int

    @property
    def label(self) -> str:
        return " · ".join(self.terms)


@dataclass
class ConferenceMap:
    """Positions of a library's papers: `xy[row[id]]` is a paper's point; `cluster[level][i]` the index in
    `regions_at(level)` of paper i's region."""

    ids: list[str]
    xy: np.ndarray  # (n, 2) float32
    cluster: np.ndarray  # (2, n) int32
    regions: list[Region]
    fitted_rows: int
    placed_by: str = "tfidf"  # what the points were laid out from: "tfidf" or a semantic model's key (issue 32)
    row: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self):
        self.row = {paper_id: i for i, paper_id in enumerate(self.ids)}

    def regions_at(self, level: int) -> list[Region]:
        return [region for region in self.regions if region.level == level]

    def rows_of(self, ids: Iterable[str]) -> np.ndarray:
        """Rows of the papers among `ids` that are on the map, in the order given."""
        return np.fromiter((self.row[i] for i in ids if i in self.row), dtype=np.int64)

    def members(self, level: int, region: int) -> list[str]:
        """Ids of the papers in region number `region` of `level`."""
        return [self.ids[i] for i in np.flatnonzero(self.cluster[level] == region)]

    def nearest(self, x: float, y: float, radius: float) -> str | None:
        """The paper whose point is nearest (x, y) within `radius` (map units), else None."""
        if not self.ids:
            return None
        distance = np.hypot(self.xy[:, 0] - x, self.xy[:, 1] - y)
        best = int(np.argmin(distance))
        return self.ids[best] if distance[best] <= radius else None

    def in_polygon(self, polygon: Sequence[tuple[float, float]]) -> list[str]:
        """Ids of the papers whose points lie inside `polygon` (a lasso or a rectangle, map units)."""
        return [self.ids[i] for i in np.flatnonzero(points_in_polygon(self.xy, polygon))]



def points_in_polygon(xy: np.ndarray, polygon: Sequence[tuple[float, float]]) -> np.ndarray:
    """A boolean mask: which rows of `xy` (n, 2) lie inside `polygon` (even-odd rule; fewer than 3 corners
    enclose nothing)."""
    corners = np.asarray(polygon, dtype=np.float64).reshape(-1, 2)
    inside = np.zeros(len(xy), dtype=bool)
    if len(corners) < 3 or not len(xy):
        return inside
    x, y = xy[:, 0].astype(np.float64), xy[:, 1].astype(np.float64)
    x0, y0 = corners[-1]
    for x1, y1 in corners:
        crosses = (y1 > y) != (y0 > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            at = (x0 - x1) * (y - y1) / (y0 - y1) + x1
        inside ^= crosses & (x < at)
        x0, y0 = x1, y1
    return inside


def reduce_vectors(vectors: np.ndarray) -> np.ndarray:
    """Semantic vectors (n, d) in SVD_DIMENSIONS dimensions (PCA; fewer for a small library), rows L2-normalized."""
    n, d = vectors.shape
    dimensions = min(SVD_DIMENSIONS, n - 1, d)
    if dimensions < 2:
        reduced = np.zeros((n, 2), dtype=np.float32)
        reduced[:, 0] = np.arange(n)
        return reduced
    centred = vectors.astype(np.float32) - vectors.mean(axis=0)
    _u, _s, components = np.linalg.svd(centred[: min(n, 20_000)], full_matrices=False)
    reduced = centred @ components[:dimensions].T
    norms = np.linalg.norm(reduced, axis=1, keepdims=True)
    return (reduced / np.where(norms > 0, norms, 1)).astype(np.float32)


def reduce(tfidf: TfidfMatrix) -> np.ndarray:
    """The tf-idf rows in SVD_DIMENSIONS dimensions (fewer for a small library), rows L2-normalized."""
    matrix = tfidf.matrix
    n, terms = matrix.shape
    dimensions = min(SVD_DIMENSIONS, n - 1, terms - 1)
    if dimensions < 2:
        reduced = np.zeros((n, 2), dtype=np.float32)
        reduced[:, 0] = np.arange(n)
        return reduced
    from sklearn.decomposition import TruncatedSVD

    reduced = TruncatedSVD(dimensions, random_state=SEED).fit_transform(matrix).astype(np.float32)
    norms = np.linalg.norm(reduced, axis=1, keepdims=True)
    return reduced / np.where(norms > 0, norms, 1)


def embed(reduced: np.ndarray, step: Callable[[float], object] | None = None) -> np.ndarray:
    """2-D positions (n, 2) float32 of the reduced rows: t-SNE from 2 × MIN_TSNE papers on, else the first two
    components, scaled to the same spread. `step(share done)` is called every TSNE_STEP iterations of t-SNE's
    optimization (0 < share ≤ 1); an exception it raises stops the computation and comes out of here."""
    n = len(reduced)
    if n < 2 * MIN_TSNE:
        xy = reduced[:, :2].astype(np.float32) * 30
        return xy if len(xy) else np.zeros((0, 2), dtype=np.float32)
    from openTSNE import TSNE

    calls = iter(range(1, 10**9))
    total = (TSNE_EARLY + TSNE_ITERATIONS) / TSNE_STEP

    def tell(_iteration, _error, _embedding) -> bool:
        step(min(1.0, next(calls) / total))
        return False

    pin()  # one BLAS and OpenMP thread for the neighbours and the PCA start (db.system.threads)
    # one worker: t-SNE's workers meet every iteration, and on a busy machine each meeting waits for a core (at
    # load ~15 a 60-paper layout took 57 s with two workers, 22 s with one; 13 and 5 s of CPU)
    tsne = TSNE(perplexity=min(30.0, (n - 1) / 3), metric="euclidean", initialization="pca", n_jobs=1,
                random_state=SEED, negative_gradient_method="fft" if n >= FFT_FROM else "bh", verbose=False,
                neighbors="exact" if n <= EXACT_NEIGHBOURS else "annoy",
                early_exaggeration_iter=TSNE_EARLY, n_iter=TSNE_ITERATIONS,
                callbacks=[tell] if step else None, callbacks_every_iters=TSNE_STEP)
    return np.asarray(tsne.fit(reduced), dtype=np.float32)


def place(tfidf: TfidfMatrix, placed: dict[str, np.ndarray], new_ids: Sequence[str], semantic=None) -> np.ndarray:
    """Positions (len(new_ids), 2) of papers new to a map: the mean position of their NEIGHBOURS most similar
    placed papers (cosine of the semantic vectors when `semantic` (db.embed.vectors.SemanticVectors) has every
    one, else of the tf-idf rows); a paper with no word in common with any sits at the centre."""
    old_ids = list(placed)
    source, rows = (semantic.matrix, semantic.row) if _covers(semantic, [*old_ids, *new_ids]) else \
        (tfidf.matrix, tfidf.row)
    old = sparse.csr_matrix(source[[rows[i] for i in old_ids]])
    new = sparse.csr_matrix(source[[rows[i] for i in new_ids]])
    old_xy = np.array([placed[i] for i in old_ids], dtype=np.float32).reshape(-1, 2)
    centre = old_xy.mean(axis=0) if len(old_xy) else np.zeros(2, dtype=np.float32)
    out = np.empty((len(new_ids), 2), dtype=np.float32)
    for start in range(0, len(new_ids), 500):
        similar = (new[start : start + 500] @ old.T).toarray()
        k = min(NEIGHBOURS, similar.shape[1])
        for j, scores in enumerate(similar):
            if k == 0 or scores.max() <= 0:
                out[start + j] = centre
                continue
            best = np.argpartition(-scores, k - 1)[:k]
            weights = np.maximum(scores[best], 0)
            out[start + j] = (old_xy[best] * weights[:, None]).sum(axis=0) / weights.sum()
    return out


def region_count(papers: int, level: int) -> int:
    """How many regions a map of `papers` papers has at `level` (COARSE: about one per 150 papers, 3..14;
    FINE: about one per 60, 6..48)."""
    if level == COARSE:
        wanted = min(14, max(3, round(papers / 150)))
    else:
        wanted = min(48, max(6, round(papers / 60)))
    return max(1, min(wanted, papers // 5)) if papers else 0


def cluster(xy: np.ndarray) -> np.ndarray:
    """(2, n) region numbers at the COARSE and FINE level (k-means on the positions)."""
    n = len(xy)
    out = np.zeros((2, n), dtype=np.int32)
    for level in (COARSE, FINE):
        k = region_count(n, level)
        if k > 1:
            from sklearn.cluster import KMeans

            out[level] = KMeans(k, n_init=3, random_state=SEED).fit_predict(xy)
    return out


def name_regions(tfidf: TfidfMatrix, ids: Sequence[str], xy: np.ndarray, clusters: np.ndarray) -> list[Region]:
    """The regions of both levels, each with its TERMS_PER_REGION most characteristic terms (see the module)."""
    rows = [tfidf.row[i] for i in ids]
    present = (tfidf.matrix[rows] > 0).astype(np.float32).tocsc() if rows else sparse.csc_matrix((0, 0))
    total = np.asarray(present.sum(axis=0)).ravel() / max(len(rows), 1)
    regions: list[Region] = []
    for level in (COARSE, FINE):
        labels = clusters[level]
        for number in range(int(labels.max()) + 1 if len(labels) else 0):
            mask = labels == number
            count = int(mask.sum())
            if not count:
                regions.append(Region(level, [], (0.0, 0.0), 0))
                continue
            share = np.asarray(present[np.flatnonzero(mask)].sum(axis=0)).ravel() / count
            usable = (share >= MIN_TERM_SHARE) & (share * count >= 2)
            with np.errstate(divide="ignore", invalid="ignore"):
                score = np.where(usable, share * np.log(share / np.maximum(total, 1e-9)), -np.inf)
            terms: list[str] = []
            for index in np.argsort(-score)[: 40]:
                if not np.isfinite(score[index]) or len(terms) == TERMS_PER_REGION:
                    break
                term = str(tfidf.terms[index])
                words = {_stem(word) for word in term.split()}
                if any(words & {_stem(word) for word in chosen.split()} for chosen in terms):
                    continue  # "score matching" after "score" says nothing new
                terms.append(term)
            centre = xy[mask].mean(axis=0)
            regions.append(Region(level, terms, (float(centre[0]), float(centre[1])), count))
    return regions


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _side_by_side(words: np.ndarray, meaning: np.ndarray) -> np.ndarray:
    """Reduced tf-idf rows and reduced vectors next to each other, each half of unit length (rows of unit length)."""
    joined = np.hstack([words, meaning]).astype(np.float32)
    norms = np.linalg.norm(joined, axis=1, keepdims=True)
    return joined / np.where(norms > 0, norms, 1)


def _covers(semantic, ids: Sequence[str]) -> bool:
    """Whether `semantic` (SemanticVectors or None) has a vector for every one of `ids`."""
    return semantic is not None and all(i in semantic.row and semantic.has[semantic.row[i]] for i in ids)


# the share of a whole map's work done when compute() reaches each part (its step() is told, and may stop it there)
REDUCED, LAID_OUT = 0.15, 0.92


def compute(tfidf: TfidfMatrix, ids: Sequence[str], semantic=None,
            step: Callable[[float], object] | None = None) -> ConferenceMap:
    """The whole map of the papers `ids` (rows of `tfidf`), from scratch: placed by their semantic vectors when
    `semantic` (db.embed.vectors.SemanticVectors) has every one, else by tf-idf; regions named by tf-idf terms.
    `step(share done)` (0 ≤ share ≤ 1) is called when the reduction is done (REDUCED), during t-SNE (embed) and
    when the points are laid out (LAID_OUT): an exception it raises stops the work there and comes out of here."""
    pin()  # one BLAS and OpenMP thread for the SVD and k-means (db.system.threads)
    tell = step or (lambda _share: None)
    ids = list(ids)
    sub = TfidfMatrix(ids, tfidf.matrix[[tfidf.row[i] for i in ids]], tfidf.terms, tfidf.idf,
                      tfidf.digests[[tfidf.row[i] for i in ids]] if ids else tfidf.digests[:0], tfidf.fitted_rows)
    within = (lambda share: tell(REDUCED + (LAID_OUT - REDUCED) * share)) if step else None
    if not ids:
        xy = np.zeros((0, 2), dtype=np.float32)
    elif _covers(semantic, ids):
        meaning = reduce_vectors(semantic.matrix[[semantic.row[i] for i in ids]])
        reduced = _side_by_side(reduce(sub), meaning) if SEMANTIC_LAYOUT == "both" else meaning
        tell(REDUCED)
        xy = embed(reduced, within)
    else:
        reduced = reduce(sub)
        tell(REDUCED)
        xy = embed(reduced, within)
    tell(LAID_OUT)
    clusters = cluster(xy)
    return ConferenceMap(ids, xy, clusters, name_regions(sub, ids, xy, clusters), len(ids))


def extend(current: ConferenceMap, tfidf: TfidfMatrix, ids: list[str], semantic=None) -> ConferenceMap:
    """`current` with its removed papers dropped and the papers of `ids` it lacks placed among their
    neighbours (each joins the region, at each level, whose centre is nearest)."""
    pin()  # one BLAS thread for the similarity products (db.system.threads)
    keep = [i for i in ids if i in current.row]
    new = [i for i in ids if i not in current.row]
    placed = {i: current.xy[current.row[i]] for i in keep}
    new_xy = place(tfidf, placed, new, semantic) if new else np.zeros((0, 2), dtype=np.float32)
    where = dict(zip(new, new_xy, strict=True))
    xy = np.array([placed[i] if i in placed else where[i] for i in ids], dtype=np.float32).reshape(-1, 2)
    clusters = np.zeros((2, len(ids)), dtype=np.int32)
    for level in (COARSE, FINE):
        centres = np.array([region.center for region in current.regions_at(level)], dtype=np.float32)
        for j, paper_id in enumerate(ids):
            if paper_id in current.row:
                clusters[level, j] = current.cluster[level, current.row[paper_id]]
            elif len(centres):
                clusters[level, j] = int(np.argmin(np.hypot(*(centres - xy[j]).T)))
    regions = [Region(r.level, r.terms, r.center, int((clusters[r.level] == n).sum()))
               for level in (COARSE, FINE) for n, r in enumerate(current.regions_at(level))]
    return ConferenceMap(ids, xy, clusters, regions, current.fitted_rows, current.placed_by)

