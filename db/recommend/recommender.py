"""Recommendations: unread papers ranked by what the researcher rated and tagged (issue 9).

As in arxiv-sanity-lite: a linear SVM on the papers' tf-idf vectors (db/recommend/tfidf_cache.py), trained for each
request. For `recommend`, the positives are the papers rated 4 or 5; the negatives are the papers rated 1 or 2
plus a fixed-seed sample of the rest (papers the user did not rate count as mildly uninteresting, so
the model learns what sets the positives apart from the library as a whole). Screening decisions count as
ratings do (db.recommend.labels: include as liked, exclude as disliked, maybe as a 3). For `more_like_tag`, the
positives are the papers carrying the tag. Every unread paper that is not a positive is scored with the
model's weights; each recommendation says why: its terms with the largest weight × tf-idf product among the
terms it shares with the positives. `similar` ranks every paper by cosine similarity to one paper.

The window keeps one `Recommender` per library and calls it from a worker thread; the command line uses the
module functions `recommend`, `more_like_tag` and `similar`.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from db.changes import ADDED, BIBLIOGRAPHIC, NOTE, REMOVED, TITLE
from db.errors import MarginError
from db.library.library import Library
from db.recommend import linear_svm
from db.recommend.features import (
    BOTH,
    FEATURES,
    RRF,
    RRF_K,
    SEMANTIC_WEIGHT,
    SENTENCE_C,
    SENTENCE_SHARE,
    SENTENCE_TOP,
    SENTENCE_UNTIL,
    SIMILAR_FEATURES,
    TFIDF,
    Features,
    SemanticSource,
)
from db.recommend.labels import labels
from db.recommend.reasons import BOILERPLATE, WHY_TERMS, whys  # noqa: F401 - BOILERPLATE, WHY_TERMS: still here
from db.recommend.reasons import word_keys as _word_keys  # noqa: F401 - the name tests know
from db.recommend.sentences import best as best_sentence
from db.recommend.tfidf_cache import RefreshReport, TfidfCache, TfidfMatrix
from db.system.threads import pin
from db.text.cleaning import tag_key

NO_POSITIVES = "Rate at least one paper 4 or 5 stars to get recommendations"
SAMPLE = 2000  # unrated papers drawn as negatives
# a paper with fewer distinct terms than this ("Test of Time Award", no abstract) is never recommended: on so
# little text one shared word makes a near-perfect match ("Recommended for: test time")
MIN_TERMS = 5
SVM_C = 0.01  # as arxiv-sanity-lite; best of 0.01, 0.1, 1 on the ICLR benchmark
# A tag's model weighs its negatives: a dismissal or a 1–2 star rating counts fully, a 3-star "maybe" as
# WEAK_NEGATIVE, an unjudged paper of the sample as UNJUDGED (so that a judgement teaches more than silence)
WEAK_NEGATIVE = 0.5
UNJUDGED = 0.25
DEFAULT_LIMIT = 50


class NoPositivesError(MarginError):
    """Nothing to learn from: no paper rated 4 or 5 (or no paper carries the tag)."""


@dataclass
class Recommendation:
    id: str
    score: float
    why: list[str] = field(default_factory=list)  # the shared terms that weigh most, heaviest first


@dataclass
class Recommendations:
    """Papers best first. `positives`/`negatives` count the training papers (0 for `similar`);
    `seconds` is the time spent fitting and scoring."""

    items: list[Recommendation]
    positives: int = 0
    negatives: int = 0
    seconds: float = 0.0

    @property
    def ids(self) -> list[str]:
        return [item.id for item in self.items]

    @property
    def why(self) -> dict[str, list[str]]:
        return {item.id: item.why for item in self.items}

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        return iter(self.items)


class Recommender:
    """Recommendations for one library, with its tf-idf matrix kept in memory.

    Every public method may be called from any thread; calls are serialized by an internal lock (the
    Library's own lock serializes its SQLite use). Each query first calls `refresh()`, which reads the
    papers' texts and compares their digests with the matrix (about 0.1 s at 20k papers) and transforms only
    new or edited papers; ratings, tags and read state are read afresh on every call, so a new rating
    counts at the next call. The first call on a library without a cache fits the vectorizer (seconds at
    20k papers): make it on a worker thread.
    """

    def __init__(self, library: Library, features: str | None = None, sentence_share: float | None = None):
        self.library = library
        # tfidf, semantic or both (db.recommend.features); None: the measured defaults (FEATURES for the
        # models, SIMILAR_FEATURES for similar:); tf-idf whenever no vectors are stored
        self.features = features
        # sentence evidence (db.recommend.features): the best sentences' share beside the whole paper (None: the
        # default, SENTENCE_SHARE), how many, until how many liked papers, the SVM's C meanwhile
        self.sentence_share = SENTENCE_SHARE if sentence_share is None else sentence_share
        self.sentence_top, self.sentence_until, self.sentence_c = SENTENCE_TOP, SENTENCE_UNTIL, SENTENCE_C
        self._semantic = SemanticSource(library.derived_folder)
        self._cache = TfidfCache(library.derived_folder, with_sentences=self.sentence_share > 0)
        self._tfidf: TfidfMatrix | None = None
        self._lock = threading.RLock()
        self.last_refresh: RefreshReport | None = None
        self._seq: int | None = None  # the library's change number the matrix is current with
        self._start: dict[str, np.ndarray] = {}  # each model's last solution, where its next fit starts

    def refresh(self) -> RefreshReport:
        """Bring the tf-idf matrix in step with the library's texts. The change log says what changed since the
        last refresh: nothing that touches a text (a rating, tags, read state) costs one small query; edited
        notes or titles re-read those papers only; anything else, or a log that no longer reaches back, reads
        every text and compares digests (db.recommend.tfidf_cache)."""
        with self._lock:
            started = time.perf_counter()
            found = self.library.changes_since(self._seq) if self._tfidf is not None and self._seq else None
            if found is not None:
                changes, newest = found
                if not changes.touches(NOTE, TITLE, BIBLIOGRAPHIC, ADDED, REMOVED):
                    self._seq = newest
                    self.last_refresh = RefreshReport("unchanged", 0, time.perf_counter() - started)
                    return self.last_refresh
                if not changes.touches(ADDED, REMOVED):
                    edited = [paper_id for paper_id in changes.papers
                              if changes.kinds_of(paper_id) & {NOTE, TITLE, BIBLIOGRAPHIC}]
                    self._tfidf, self.last_refresh = self._cache.update(self.library, self._tfidf, edited)
                    self._seq = newest
                    return self.last_refresh
            seq = self.library.last_change()  # before reading: a change made meanwhile is seen next time
            self._tfidf, self.last_refresh = self._cache.refresh(self.library, self._tfidf)
            self._seq = seq
            return self.last_refresh

    @property
    def tfidf(self) -> TfidfMatrix:
        with self._lock:
            if self._tfidf is None:
                self.refresh()
            return self._tfidf

    def feature_rows(self, similar: bool = False) -> Features:
        """The features in use now for the models (or with `similar`, for similar:): tf-idf rows and, where
        stored and wanted, the semantic vectors (db.recommend.features)."""
        with self._lock:
            wanted = self.features or (SIMILAR_FEATURES if similar else FEATURES)
            tfidf = self.tfidf
            semantic = self._semantic.current(tfidf.ids) if wanted != TFIDF else None
            return Features(tfidf, semantic, wanted)

    def semantic_vectors(self):
        """The library's semantic vectors (db.embed.vectors.SemanticVectors) in library order, None without a
        model or before any vector is stored. Does not fit the tf-idf matrix when it is not loaded yet."""
        with self._lock:
            ids = self._tfidf.ids if self._tfidf is not None else self.library.ids()
            return self._semantic.current(ids)

    # ----------------------------------------------------------------- queries
    def recommend(self, limit: int | None = DEFAULT_LIMIT, refresh: bool = True) -> Recommendations:
        """Unread, unjudged papers ranked by a model of the liked papers — rated 4–5 or included, or from a venue or
        file marked "papers I like" (Library.set_liked_source: a cold start from the user's own history) — against
        those rated 1–2 or excluded and a sample of the rest; at most `limit` (all unread papers when None). The
        marked papers are never recommended themselves. Raises NoPositivesError (NO_POSITIVES) when nothing is liked."""
        with self._lock:
            if refresh:
                self.refresh()
            judged = labels(self.library)  # ratings and screening decisions
            history = self.history()
            positives = set(judged.liked) | history
            if not positives:
                raise NoPositivesError(NO_POSITIVES)
            negatives = set(judged.disliked) - history
            return self._rank(positives, negatives, exclude=set(judged.judged) | self._read() | history, limit=limit)

    def history(self) -> set[str]:
        """Ids of the papers of the venues and files marked "papers I like"."""
        if not self.library.liked_sources():  # the usual case: no join over every paper (a seventh of a rating)
            return set()
        return self.library.liked_source_ids()

    def more_like_tag(self, tag: str, limit: int | None = DEFAULT_LIMIT, refresh: bool = True) -> Recommendations:
        """Unread papers most like the ones carrying `tag` (matched case-insensitively), the carriers and the
        papers dismissed from its suggestions left out. The tag's model learns from the carriers against the
        papers dismissed for it and those rated 1–2, with those rated 3 (a "maybe") as weak negatives
        (WEAK_NEGATIVE each), and a sample of the rest. Raises NoPositivesError when no paper carries the tag."""
        with self._lock:
            if refresh:
                self.refresh()
            key = tag_key(tag)
            carriers = set(self.library.tagged_ids(tag))
            if not carriers:
                raise NoPositivesError(f"No paper carries the tag '{tag}'; tag a few papers to find more like them")
            dismissed = set(self.library.dismissed(tag))
            judged = labels(self.library)  # ratings and screening decisions
            negatives = (set(judged.disliked) | dismissed) - carriers
            weak = set(judged.maybe) - carriers - negatives
            return self._rank(carriers, negatives, exclude=carriers | dismissed | self._read(), limit=limit,
                              model_key="tag:" + key, weak=weak, unjudged=UNJUDGED)

    def similar(self, paper_id: str, limit: int | None = 20, refresh: bool = True) -> Recommendations:
        """Papers (read or not) nearest `paper_id`: by the cosine of their semantic vectors when both have one
        (with features BOTH, plus the cosine of their tf-idf rows, each standardized), else by tf-idf cosine
        alone (only papers sharing a term); the paper itself left out.
        Raises KeyError for an unknown paper."""
        with self._lock:
            if refresh:
                self.refresh()
            started = time.perf_counter()
            pin()  # one BLAS thread (db.system.threads)
            features = self.feature_rows(similar=True)
            tfidf = features.tfidf
            row = tfidf.row[paper_id]  # KeyError for an unknown paper
            query = tfidf.matrix[row]
            semantic = features.semantic
            words = (tfidf.matrix @ query.T).toarray().ravel()
            if semantic is not None and semantic.has[row]:
                scores = (semantic.matrix @ semantic.matrix[row]).astype(np.float64)
                candidates = np.flatnonzero(semantic.has)
                if features.kind == BOTH and len(candidates) > 1:  # meaning and words, standardized, added
                    scores = _standard(scores, candidates) * SEMANTIC_WEIGHT + _standard(words, candidates)
            else:
                scores = words
                candidates = np.flatnonzero(scores > 0)
            scores[row] = 0.0
            candidates = candidates[candidates != row]
            top = _top(scores, candidates, limit)
            reasons = whys(tfidf, top, query.toarray().ravel())
            items = [Recommendation(tfidf.ids[i], float(scores[i]), why) for i, why in zip(top, reasons, strict=True)]
            return Recommendations(items, seconds=time.perf_counter() - started)

    # ----------------------------------------------------------------- the model
    def _read(self) -> set[str]:
        return self.library.read_ids()

    def _rank(self, positives: set[str], negatives: set[str], exclude: set[str],
              limit: int | None, model_key: str = "", weak: set[str] = frozenset(),
              unjudged: float = 1.0) -> Recommendations:
        started = time.perf_counter()
        pin()  # one BLAS thread: on a busy machine its helper threads made each small product wait (issue 28)
        features = self.feature_rows()
        tfidf = features.tfidf
        X = tfidf.matrix
        pos = np.array(sorted(tfidf.row[i] for i in positives if i in tfidf.row), dtype=np.int64)
        if not len(pos):  # only with refresh=False and positives newer than the matrix
            raise NoPositivesError(NO_POSITIVES)
        neg = np.array(sorted(tfidf.row[i] for i in negatives if i in tfidf.row), dtype=np.int64)
        maybe = np.array(sorted(tfidf.row[i] for i in weak if i in tfidf.row), dtype=np.int64)
        labelled = np.zeros(X.shape[0], dtype=bool)
        labelled[pos] = labelled[neg] = labelled[maybe] = True
        rest = np.flatnonzero(~labelled)
        rng = np.random.default_rng(0)  # the same sample for the same library: rankings do not jitter
        sample = rng.choice(rest, size=min(SAMPLE, len(rest)), replace=False) if len(rest) else rest
        neg_weights = np.concatenate([np.ones(len(neg)), np.full(len(maybe), WEAK_NEGATIVE),
                                      np.full(len(sample), unjudged)])
        excluded = np.zeros(X.shape[0], dtype=bool)
        excluded[[tfidf.row[i] for i in exclude if i in tfidf.row]] = True
        candidates = np.flatnonzero(~excluded)
        scores = np.zeros(X.shape[0], dtype=np.float64)
        word_weights = None
        parts = features.parts()
        sentences = self._sentences_now(len(pos)) and tfidf.sentence_rows is not None and len(candidates) > 1
        for part in parts:  # one model per kind of feature; with both, their standardized scores add up
            key = f"{part.kind}:{model_key}"
            with_sentences = sentences and part.words > 0
            solution = _weights(part, pos, np.concatenate([neg, maybe, sample]), start=self._start.get(key),
                                neg_weights=neg_weights, c=self.sentence_c if with_sentences else None)
            if solution is None:  # nothing to set the positives against: the positives' mean vector
                weights = np.asarray(part.take(pos).mean(axis=0)).ravel()
            else:
                self._start[key] = solution
                weights = solution[:-1].astype(np.float32)
            part_scores = part.scores(candidates, weights)
            if with_sentences:
                # sentence evidence: the same model on each sentence's row, the mean of the paper's best
                # sentences; the two z-scores weighed by share (db.recommend.sentences)
                best = best_sentence(tfidf.sentence_rows @ weights[:part.words], tfidf.sentence_ptr, candidates,
                                     self.sentence_top)
                # sentences alone keep the model's own units (a score stays comparable from one call to the next)
                part_scores = best if self.sentence_share >= 1 else \
                    (1 - self.sentence_share) * _standard(part_scores) + self.sentence_share * _standard(best)
            if len(parts) > 1 and len(candidates) > 1:
                part_scores = _reciprocal_rank(part_scores) if features.kind == RRF else \
                    _standard(part_scores) * part.share
            scores[candidates] += part_scores
            if part.kind == TFIDF or word_weights is None:
                word_weights = part.word_weights(weights, pos)
        shared = np.asarray(X[pos].sum(axis=0) > 0).ravel()
        if features.kind == TFIDF:
            # a paper with no term in common with any positive learns nothing from them: it is not recommended
            useful = candidates[np.asarray((X[candidates] @ shared.astype(np.float32)) > 0).ravel()]
        else:
            useful = candidates
        useful = useful[_word_counts(tfidf, useful) >= MIN_TERMS]  # too little text to judge
        top = _top(scores, useful, limit)
        support = word_weights * shared
        reasons = whys(tfidf, top, support)
        items = [Recommendation(tfidf.ids[i], float(scores[i]), why) for i, why in zip(top, reasons, strict=True)]
        return Recommendations(items, len(pos), len(neg) + len(maybe) + len(sample), time.perf_counter() - started)

    def _sentences_now(self, positives: int) -> bool:
        """Whether the sentence evidence counts for a model of this many positives (db.recommend.features)."""
        return bool(self.sentence_share) and (self.sentence_until is None or positives < self.sentence_until)


def _standard(scores: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """`scores` less their mean, over their standard deviation (both taken over `rows`, default all)."""
    part = scores if rows is None else scores[rows]
    return (scores - part.mean()) / (part.std() or 1.0)


def _reciprocal_rank(scores: np.ndarray) -> np.ndarray:
    """1 / (RRF_K + rank) of each score (rank 0 the highest; ties in order of position)."""
    ranks = np.empty(len(scores), dtype=np.float64)
    ranks[np.argsort(-scores, kind="stable")] = np.arange(len(scores))
    return 1.0 / (RRF_K + ranks)


def _word_counts(tfidf: TfidfMatrix, rows: np.ndarray) -> np.ndarray:
    """How many distinct single words (not word pairs) of the vocabulary each of `rows` has."""
    single = getattr(tfidf, "_single_words", None)
    if single is None:
        single = tfidf._single_words = (np.char.find(tfidf.terms.astype(str), " ") < 0).astype(np.float32)
    if not len(rows):
        return np.zeros(0)
    present = tfidf.matrix[rows].copy()
    present.data[:] = 1
    return np.asarray(present @ single).ravel()


def _weights(features: Features, pos: np.ndarray, neg: np.ndarray, start: np.ndarray | None = None,
             neg_weights: np.ndarray | None = None, c: float | None = None) -> np.ndarray | None:
    """The linear SVM's weights (db.recommend.linear_svm; the last one the intercept) for positives against
    negatives, None without negatives. `start` is the previous solution to begin from; `neg_weights` weigh the
    negatives against each other (1 each by default); the classes stay balanced
    (each weighs half of the rows in all). `c` is the SVM's C (default: the features' own, else SVM_C)."""
    if not len(pos) or not len(neg) or features.width == 0:
        return None
    rows = np.concatenate([pos, neg])
    labels = np.concatenate([np.ones(len(pos), dtype=bool), np.zeros(len(neg), dtype=bool)])
    weights = linear_svm.balanced_weights(labels)
    if neg_weights is not None:
        weights[len(pos):] = neg_weights * (len(rows) / 2 / neg_weights.sum())
    return linear_svm.fit(features.take(rows), labels, c or features.c or SVM_C, weights, start=start)


def _top(scores: np.ndarray, candidates: np.ndarray, limit: int | None) -> list[int]:
    """Candidate rows by score, best first (ties in library order), at most `limit`."""
    if limit is not None and limit <= 0:
        return []
    if limit is not None and len(candidates) > limit:
        candidates = candidates[np.argpartition(-scores[candidates], limit - 1)[:limit]]
    order = np.lexsort((candidates, -scores[candidates]))
    return candidates[order].tolist()


# --------------------------------------------------------------------- for the command line
def recommend(library: Library, limit: int | None = DEFAULT_LIMIT) -> Recommendations:
    """Unread papers ranked by the user's ratings (see Recommender.recommend)."""
    return Recommender(library).recommend(limit)


def more_like_tag(library: Library, tag: str, limit: int | None = DEFAULT_LIMIT) -> Recommendations:
    """Unread papers most like those carrying `tag` (see Recommender.more_like_tag)."""
    return Recommender(library).more_like_tag(tag, limit)


def similar(library: Library, paper_id: str, limit: int | None = 20) -> Recommendations:
    """Papers most like `paper_id` by tf-idf cosine (see Recommender.similar)."""
    return Recommender(library).similar(paper_id, limit)
