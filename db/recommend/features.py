"""What the recommender learns from: tf-idf rows, semantic vectors (db.embed), or both.

With both, the recommender fits one linear SVM on each (`Features.parts`) and adds their scores, each
standardized over the candidates and weighed by its share (SEMANTIC_WEIGHT for the vectors' model, 1 for
tf-idf's); with RRF it adds 1 / (RRF_K + rank) of each model's ranking instead (reciprocal rank fusion,
Cormack et al., SIGIR 2009), which no outlying score can dominate. One joint model over the 60,000 tf-idf
columns and the 384 dense ones was tried first: on the ICLR benchmark it was several times slower per rating
(its conjugate gradients take many more steps). Which is used is chosen by measurement
(tests/benchmarks/bench_triage.py --features tfidf,semantic,both,rrf): FEATURES below.
A paper without a vector yet has zeros in the semantic part; with no vector stored at all, or no model
installed, the features are tf-idf alone whatever was asked.
"""

from __future__ import annotations

import time

import numpy as np
from scipy import sparse

from db.embed.vectors import SemanticVectors
from db.recommend.tfidf_cache import TfidfMatrix

TFIDF, SEMANTIC, BOTH = "tfidf", "semantic", "both"
RRF = "rrf"  # both models, their rankings fused by reciprocal rank (1 / (RRF_K + rank) added) instead of scores
RRF_K = 60
# The defaults, by measurement on ICLR 2018 (README, "Semantic similarity"; bench_triage_replica.py, 10 seed sets):
# recommendations on tf-idf (both, with whole-abstract vectors and C 0.1: WSS@95 0.223 / 0.775 / 0.769 for
# interpretability / reinforcement learning / GANs, tf-idf alone with C 0.1: 0.234 / 0.775 / 0.760, today's
# tf-idf with C 0.01: 0.188 / 0.769 / 0.757); similar: on both (precision@10 0.260, tf-idf 0.249, vectors 0.238)
FEATURES = TFIDF
SIMILAR_FEATURES = BOTH
SEMANTIC_WEIGHT = 1.0
# Sentence evidence (db.recommend.sentences): the tf-idf model's score of a paper is, standardized,
# (1 − SENTENCE_SHARE) × its score as a whole + SENTENCE_SHARE × the mean score of its SENTENCE_TOP best sentences
# (0: the whole paper alone, as before; 1: its sentences alone)
SENTENCE_SHARE = 0.0
SENTENCE_TOP = 2
SENTENCE_UNTIL = 30  # sentence evidence only while fewer papers than this are liked (None: always)
SENTENCE_C = 0.1  # the tf-idf SVM's C while sentence evidence counts (then recommender.SVM_C)
SEMANTIC_C = 0.01  # the SVM's C for the vectors' model (tf-idf's is recommender.SVM_C)
RELOAD_SECONDS = 15.0  # while a job writes vectors, reload them at most this often


class Features:
    """The feature rows of one library state. `kind` is what is in use (tf-idf when no vectors)."""

    def __init__(self, tfidf: TfidfMatrix, semantic: SemanticVectors | None, wanted: str, share: float = 1.0):
        self.tfidf = tfidf
        self.semantic = semantic if wanted != TFIDF else None
        self.kind = wanted if self.semantic is not None else TFIDF
        self.words = tfidf.matrix.shape[1] if self.kind != SEMANTIC else 0
        self.share = share  # this part's weight when scores of several parts add up
        self.c = SEMANTIC_C if self.kind == SEMANTIC else None  # the SVM's C (None: the recommender's own)

    def parts(self) -> list[Features]:
        """One Features per model to fit: itself, or for BOTH and RRF the tf-idf part and the semantic part."""
        if self.kind not in (BOTH, RRF):
            return [self]
        return [Features(self.tfidf, None, TFIDF), Features(self.tfidf, self.semantic, SEMANTIC, SEMANTIC_WEIGHT)]

    def take(self, rows: np.ndarray) -> sparse.csr_matrix:
        """The feature matrix of these rows (sparse, float32)."""
        parts = []
        if self.kind != SEMANTIC:
            parts.append(self.tfidf.matrix[rows])
        if self.semantic is not None:
            parts.append(sparse.csr_matrix(self.semantic.matrix[rows]))
        return parts[0] if len(parts) == 1 else sparse.hstack(parts, format="csr", dtype=np.float32)

    @property
    def width(self) -> int:
        return self.words + (self.semantic.matrix.shape[1] if self.semantic is not None else 0)

    def scores(self, rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """rows' features @ weights (weights without the intercept)."""
        total = np.zeros(len(rows), dtype=np.float64)
        if self.words:
            total += self.tfidf.matrix[rows] @ weights[:self.words]
        if self.semantic is not None:
            total += self.semantic.matrix[rows] @ weights[self.words:].astype(np.float32)
        return total

    def word_weights(self, weights: np.ndarray, positives: np.ndarray) -> np.ndarray:
        """Per term, how much it speaks for the positives (for the reasons shown): the model's tf-idf weights,
        or with semantic features alone the positives' mean tf-idf row."""
        if self.words:
            return weights[:self.words]
        return np.asarray(self.tfidf.matrix[positives].mean(axis=0)).ravel()


class SemanticSource:
    """Keeps a SemanticVectors in step with the stored vectors and the tf-idf rows' ids (reloads when the ids
    change, or when the store was written and RELOAD_SECONDS passed)."""

    def __init__(self, library_folder):
        self.folder = library_folder
        self.vectors: SemanticVectors | None = None
        self._checked = 0.0
        self._off = False

    def current(self, ids: list[str]) -> SemanticVectors | None:
        if self._off:
            return None
        now = time.monotonic()
        stale = self.vectors is None or self.vectors.ids != ids
        if not stale and now - self._checked < RELOAD_SECONDS:
            return self.vectors
        from db.embed.store import VectorStore

        store = VectorStore(self.folder)
        try:
            if not store.exists():
                self.vectors = None
            elif stale or store.generation() != self.vectors.generation:
                self.vectors = SemanticVectors.load(self.folder, ids, store=store)
        finally:
            store.close()
        self._checked = now
        if self.vectors is None:
            from db.embed.vectors import available

            self._off = available(self.folder) is not None  # no model: never ask again in this process
        return self.vectors
