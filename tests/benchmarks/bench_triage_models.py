"""The models bench_triage_replica.py can screen with (issue 32): `score(replica, name, pos)` gives every paper's
score from a model fitted on the liked papers `pos` (every other paper a negative, as the Recommender does on
ICLR 2018). A name is `model[.variant][@C]`:

- `tfidf` — the Recommender's linear SVM (db.recommend.linear_svm, classes balanced) on its tf-idf matrix;
  variants refit the vectorizer: `.uni` unigrams only, `.df1` min_df 1, `.nomax` no max_df, `.lin` no sublinear
  tf; `@C` the SVM's C (default --svm-c's first), `@auto` C from the number of liked papers (AUTO_C).
  `tfmax` (`tfmax2`) — that SVM applied to each sentence's tf-idf row (same vocabulary and idf, the title one
  sentence): a paper's score is its best sentence's (the mean of its best two). `tfautoK`: tfmax2 while
  fewer than K papers are liked (30 when K is left out), then tfidf; `tfauto30@0.1/0.01` the C of each phase.
- `nb` — multinomial naive Bayes on the tf-idf rows (ASReview's default model, alpha 3.822); `nbd` the same
  with ASReview's "double" balance as sample weights (its dynamic resampling's expected class weights);
  score log P(liked | x) − log P(not | x). `logreg` — logistic regression, classes balanced (`@C`, default 1).
- `semantic` — LinearSVC on the whole-abstract vectors (--vectors); `centroid` — cosine to the liked papers'
  mean vector.
- Sentence evidence (--sentences: the title and each sentence of the abstract embedded alone): `semmax` the
  `semantic` model applied to each sentence, a paper's score its best sentence's; `sentsvm` a LinearSVC on the
  sentences (a liked paper's sentences positive), best sentence; `sentnn` a paper's sentence nearest to any
  sentence of a liked paper (cosine); `sentcent` its sentence nearest the liked papers' mean vector. A `2` after
  the name (`sentsvm2`, `sentnn2`, …) averages the paper's best two sentences instead.
"""

from __future__ import annotations

import numpy as np

WORD_MODELS = ("tfidf", "tfmax", "tfmax2", "nb", "nbd", "logreg")
NB_ALPHA = 3.822  # ASReview's default for its nb classifier
# ASReview's double balance (Ferdinands et al.; asreview.models.balance.double): a, alpha, b, beta
DOUBLE = (2.155, 0.94, 0.789, 1.0)


def on_words(name: str) -> bool:
    return name.partition("@")[0].partition(".")[0].rstrip("0123456789") in WORD_MODELS + ("tfauto",)


def needs_vectors(name: str) -> bool:
    """Whether a model needs the whole-abstract vectors (--vectors); the sentence models sentsvm and sentnn do not."""
    model = name.partition("@")[0].partition(".")[0].rstrip("0123456789")
    return model in ("semantic", "centroid", "semmax", "sentcent")


def auto_c(positives: int) -> float:
    """AUTO_C: a cheap rule for the SVM's C from the number of liked papers (more when they are few)."""
    return float(np.clip(0.3 / max(positives, 1), 0.01, 0.1))


def score(replica, name: str, pos: list[int]) -> np.ndarray:
    model, _at, c_text = name.partition("@")
    model, _dot, variant = model.partition(".")
    if model.startswith("tfauto") and "/" in c_text:  # tfauto30@0.1/0.01: C 0.1 for tfmax2, then 0.01 for tfidf
        few = len(pos) < int(model.removeprefix("tfauto") or 30)
        c_text = c_text.split("/")[0 if few else 1]
    c = (auto_c(len(pos)) if c_text == "auto" else float(c_text)) if c_text else None
    labels = np.zeros(replica.n, bool)
    labels[pos] = True
    if model == "tfidf":
        return replica._words(pos, c, variant)
    if model.startswith("tfauto"):  # tfauto30: tfmax2 while fewer than 30 papers are liked, then tfidf
        few = len(pos) < int(model.removeprefix("tfauto") or 30)
        return score(replica, f"{'tfmax2' if few else 'tfidf'}{'.' + variant if variant else ''}"
                              f"{'@' + c_text if c_text else ''}", pos)
    if model in ("tfmax", "tfmax2"):
        w = replica.svm_words(pos, c, variant)
        per_sentence = replica.sentence_rows(variant) @ w[:-1] + w[-1]
        return replica.sentences.pool(per_sentence, 2 if model == "tfmax2" else 1)
    if model in ("nb", "nbd"):
        return _naive_bayes(replica.matrix(variant), labels, model == "nbd", c or NB_ALPHA)
    if model == "logreg":
        from sklearn.linear_model import LogisticRegression

        X = replica.matrix(variant)
        return LogisticRegression(C=c or 1.0, class_weight="balanced", max_iter=1000).fit(X, labels) \
            .decision_function(X)
    if model == "semantic":
        return replica._vectors(pos, c)
    if model == "centroid":
        return replica.V @ _unit(replica.V[pos].mean(axis=0))
    two = model.endswith("2")
    model = model.rstrip("2")
    S = replica.sentences
    if S.vectors is None:
        raise ValueError(f"{name} needs --sentences")
    if model == "semmax":
        from sklearn.svm import LinearSVC

        svm = LinearSVC(C=c or replica.c_vectors, class_weight="balanced").fit(replica.V, labels)
        per_sentence = svm.decision_function(S.vectors)
    elif model == "sentsvm":
        from sklearn.svm import LinearSVC

        svm = LinearSVC(C=c or replica.c_vectors, class_weight="balanced").fit(S.vectors, labels[S.owner])
        per_sentence = svm.decision_function(S.vectors)
    elif model == "sentnn":
        liked = S.vectors[labels[S.owner]]
        per_sentence = (S.vectors @ liked.T).max(axis=1)
    elif model == "sentcent":
        per_sentence = S.vectors @ _unit(replica.V[pos].mean(axis=0))
    else:
        raise ValueError(f"no model {name!r}")
    return S.pool(per_sentence, 2 if two else 1)


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / (np.linalg.norm(vector) or 1.0)


def _naive_bayes(X, labels: np.ndarray, double: bool, alpha: float) -> np.ndarray:
    from sklearn.naive_bayes import MultinomialNB

    weights = None
    if double:
        a, alpha_d, b, beta = DOUBLE
        ones, zeros = int(labels.sum()), int((~labels).sum())
        one_weight = a * (ones / zeros) ** (-alpha_d)
        zero_weight = 1 - (1 - b) * (1 + np.log(ones + zeros)) ** (-beta)
        weights = np.where(labels, one_weight, zero_weight)
    model = MultinomialNB(alpha=alpha).fit(X, labels, sample_weight=weights)
    log = model.predict_log_proba(X)
    return log[:, 1] - log[:, 0]


class Sentences:
    """Each paper's title and abstract sentences: sentence k belongs to paper `owner[k]` (grouped by paper, in
    paper order); `vectors` their centred unit vectors when embedded (None before `embedded`)."""

    def __init__(self, texts: list[str], owner: np.ndarray, n: int):
        self.texts, self.owner, self.vectors = texts, owner, None
        counts = np.bincount(owner, minlength=n)
        self.index = np.full((n, counts.max()), -1)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        for paper in range(n):
            self.index[paper, :counts[paper]] = starts[paper] + np.arange(counts[paper])

    def embedded(self, vectors: np.ndarray) -> None:
        vectors = vectors - vectors.mean(axis=0)
        self.vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    def pool(self, per_sentence: np.ndarray, top: int) -> np.ndarray:
        """Each paper's best sentence score (top=1) or the mean of its best `top`."""
        padded = np.where(self.index >= 0, per_sentence[self.index], -np.inf)
        if top == 1:
            return padded.max(axis=1)
        best = -np.sort(-padded, axis=1)[:, :top]
        best = np.where(np.isfinite(best), best, best[:, :1])  # a paper of one sentence: that one
        return best.mean(axis=1)
