"""bench_triage's feature comparison (issue 32) in minutes instead of hours: a replica of its screening loop.

Not part of the test run. From the project folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_triage_replica.py --vectors /tmp/iclr-query-whole.npz
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_triage_replica.py --features tfidf,rrf --svm-c 0.1,0.1
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_triage_replica.py \
        --features tfidf,tfidf@0.1,tfmax,tfidf@0.1+tfmax@0.1,nbd,logreg,tfidf.uni@0.1 --topics interpretability
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_triage_replica.py --vectors /tmp/iclr-query-whole.npz \
        --sentences /tmp/iclr-query-sentences.npz --features semantic,sentsvm@0.1,sentnn2,tfidf@0.1+sentnn2

The models and how to name and fuse them are in bench_triage_models.py (a name `model[.variant][@C]`, models
joined by + add their z-scores, `*W` weighs one, `rrf:` fuses ranks instead). --sentences embeds each paper's
title and abstract sentences alone once (about 7,900 texts for ICLR 2018) and keeps them in that .npz.

Why it can be fast: in `Recommender.recommend` on ICLR 2018 (991 papers, fewer than SAMPLE unrated) every paper
that is not liked is a negative of weight 1, rated or not, with the classes balanced; so the model, and the
queue's order, change only when a liked paper is found. The replica fits the same models (tf-idf: the
Recommender's own matrix and db.recommend.linear_svm; vectors: the same objective by scikit-learn's LinearSVC,
centred as db.embed.vectors does) once per liked paper found, and screens down that ranking until the next one,
with the same seeds (one liked paper drawn from the topic's sorted ids, one other), the same 20-paper random checks
at 10, 20 and 30% screened, the same filters (a paper with fewer than MIN_TERMS words is never recommended; with
tf-idf alone nor is one sharing no term with the liked papers) and the same figures as bench_triage --features.
On 3 seeds it gave tf-idf 0.188 / 0.770 / 0.761 where bench_triage gave 0.187 / 0.770 / 0.760 (README). It
differs from the Recommender in that it does not start each fit from the last solution (same optimum) and that
its check draws are its own (same design). "all three" is the three topics' papers liked together, one queue.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from db.recommend import features as feature_kinds  # noqa: E402
from db.recommend import linear_svm  # noqa: E402
from db.recommend.recommender import MIN_TERMS, SVM_C, Recommender, _word_counts  # noqa: E402
from db.recommend.sentences import split as sentence_split  # noqa: E402
from db.recommend.tfidf_cache import paper_text  # noqa: E402
from tests.benchmarks import bench_triage  # noqa: E402
from tests.benchmarks import bench_triage_models as models  # noqa: E402
from tests.benchmarks.bench_triage import ICLR, TOPICS, make_library, summary  # noqa: E402

SHARES = (0.10, 0.20, 0.30)
ALL = "all three, one queue"
TFIDF_VARIANTS = {"uni": {"analyzer": "uni"}, "df1": {"min_df": 1}, "nomax": {"max_df": 1.0},
                  "lin": {"sublinear_tf": False}}


class Replica:
    def __init__(self, library, keywords, c_words: float, c_vectors: float, sentences: Path | None = None):
        recommender = Recommender(library, features="semantic", sentence_share=1.0)  # its matrix with sentence rows
        tfidf = recommender.tfidf
        self.texts = {paper_id: (label, abstract) for paper_id, label, abstract, _note in library.paper_texts()}
        self._matrices, self._vectorizers, self.tfidf = {}, {}, tfidf
        self.ids = list(tfidf.ids)
        self.n = len(self.ids)
        self.X = tfidf.matrix.astype(np.float64).tocsr()
        self.words = _word_counts(tfidf, np.arange(self.n)) >= MIN_TERMS
        vectors = recommender.semantic_vectors()
        self.V = None if vectors is None else vectors.matrix.astype(np.float64)
        self.c_words, self.c_vectors = c_words, c_vectors
        self.by_id = sorted(range(self.n), key=lambda i: self.ids[i])
        self.topics = {name: {i for i, paper_id in enumerate(self.ids) if match(keywords[paper_id])}
                       for name, match in TOPICS.items()}
        self.topics[ALL] = set().union(*self.topics.values())
        self.sentences = self._split()
        if sentences is not None:
            self._embed_sentences(library, sentences)

    def matrix(self, variant: str = ""):
        """The tf-idf matrix (CSR, float64): the Recommender's, or a variant's (TFIDF_VARIANTS) fitted here on
        the same texts."""
        if not variant:
            return self.X
        if variant not in self._matrices:
            from db.recommend import tfidf_cache

            settings = dict(TFIDF_VARIANTS[variant])
            vectorizer = tfidf_cache.make_vectorizer(self.n)
            if settings.pop("analyzer", None) == "uni":
                vectorizer.set_params(analyzer=lambda text: [t for t in tfidf_cache.analyze(text) if " " not in t])
            vectorizer.set_params(**settings)
            texts = [tfidf_cache.paper_text(*self.texts[paper_id], None) for paper_id in self.ids]
            self._matrices[variant] = vectorizer.fit_transform(texts).astype(np.float64).tocsr()
            self._vectorizers[variant] = vectorizer
        return self._matrices[variant]

    def _split(self) -> models.Sentences:
        """Every paper's title and abstract sentences (SENTENCE), in paper order."""
        texts, owner = [], []
        for paper, paper_id in enumerate(self.ids):
            parts = sentence_split(paper_text(*self.texts[paper_id], None))
            texts += parts
            owner += [paper] * len(parts)
        return models.Sentences(texts, np.array(owner), self.n)

    def _embed_sentences(self, library, cache: Path) -> None:
        """The sentences embedded alone with e5's "query: " prefix, from the .npz cache (keyed by the texts'
        digests), the missing ones embedded now and added to it."""
        from db.embed import job

        model = job.load_model(job.configured(library.folder))
        texts = self.sentences.texts
        digests = [job.digest(f"query:{text}") for text in texts]
        known = {}
        if cache.exists():
            with np.load(cache, allow_pickle=False) as data:
                if str(data["model"]) == model.key:
                    known = dict(zip(data["digests"].tolist(), data["vectors"], strict=True))
        missing = sorted({key: i for i, key in enumerate(digests) if key not in known}.values())
        started = time.perf_counter()
        for start in range(0, len(missing), 16):
            chunk = missing[start:start + 16]
            known.update(zip([digests[i] for i in chunk], model.queries([texts[i] for i in chunk]), strict=True))
        if missing:
            np.savez(cache, model=model.key, digests=np.array(list(known), dtype=np.int64),
                     vectors=np.array(list(known.values()), dtype=np.float32))
        print(f"sentences: {len(texts)} of {self.n} papers ({len(texts) / self.n:.1f} a paper), {len(missing)} "
              f"embedded in {time.perf_counter() - started:.0f} s", flush=True)
        self.sentences.embedded(np.array([known[key] for key in digests], dtype=np.float64))

    def svm_words(self, pos, c=None, variant=""):
        labels = np.zeros(self.n, bool)
        labels[pos] = True
        return linear_svm.fit(self.matrix(variant), labels, c or self.c_words)

    def _words(self, pos, c=None, variant=""):
        w = self.svm_words(pos, c, variant)
        return self.matrix(variant) @ w[:-1] + w[-1]

    def sentence_rows(self, variant: str = ""):
        """The sentences' tf-idf rows (CSR, float64) in the vocabulary and idf of matrix(variant)."""
        key = f"sentences:{variant}"
        if key not in self._matrices:
            self.matrix(variant)
            if variant:
                rows = self._vectorizers[variant].transform(self.sentences.texts)
            else:  # the Recommender's own sentence rows
                rows = self.tfidf.sentence_rows
            self._matrices[key] = rows.astype(np.float64).tocsr()
        return self._matrices[key]

    def _vectors(self, pos, c=None):
        from sklearn.svm import LinearSVC  # the objective of linear_svm, faster on dense rows

        labels = np.zeros(self.n)
        labels[pos] = 1
        return LinearSVC(C=c or self.c_vectors, class_weight="balanced").fit(self.V, labels).decision_function(self.V)

    def parts(self, kind: str, pos: list[int]) -> tuple[list[np.ndarray], np.ndarray]:
        """Each model's scores of every paper, and which papers may be recommended at all. `kind` is one model
        or several joined by + (their z-scores added; `rrf:` before them: reciprocal ranks added instead);
        `both` is tfidf+semantic and `rrf` rrf:tfidf+semantic. A model may name its C after an @ (`tfidf@0.1`)
        and its weight in the sum after a * (`sentmax*0.5`); the models are in `models`
        (bench_triage_models.py). With tf-idf models alone, a paper sharing no term with the liked ones is
        not recommended (as the Recommender does with tf-idf)."""
        parts = [models.score(self, name, pos) for name in _models(kind)]
        usable = self.words.copy()
        if all(models.on_words(name) for name in _models(kind)):
            shared = np.asarray(self.X[pos].sum(axis=0) > 0).ravel().astype(np.float64)
            usable &= (self.X @ shared) > 0
        return parts, usable

    @staticmethod
    def best(kind: str, parts: list[np.ndarray], usable: np.ndarray, screened: np.ndarray) -> int | None:
        """The top of the queue: the parts fused over the unscreened papers (the Recommender's candidates), as
        Recommender._rank does (z-scores weighed and added, or 1 / (RRF_K + rank) added for rrf)."""
        candidates = np.flatnonzero(~screened)
        fuse = _reciprocal if kind == "rrf" or kind.startswith("rrf:") else _standard
        if len(parts) == 1:
            scores = parts[0][candidates]
        else:
            scores = sum(fuse(part[candidates]) * weight for part, weight in zip(parts, _weights(kind), strict=True))
        scores = np.where(usable[candidates], scores, -np.inf)
        top = int(np.argmax(scores))  # the first of equal scores: library order, as _top
        return int(candidates[top]) if np.isfinite(scores[top]) else None

    def simulate(self, kind: str, relevant: set[int], seed: int) -> dict:
        rng = random.Random(seed)
        screened, order, liked = np.zeros(self.n, bool), [], []

        def screen(i):
            if not screened[i]:
                screened[i] = True
                order.append(i)
                if i in relevant:
                    liked.append(i)

        screen(rng.choice([i for i in self.by_id if i in relevant]))
        screen(rng.choice([i for i in self.by_id if i not in relevant]))
        recall, population, drawn, found95, known, parts, usable = {}, None, set(), None, None, [], None
        while len(order) < self.n:
            for share in SHARES:
                if share not in recall and len(order) >= round(share * self.n):
                    recall[share] = len(liked) / len(relevant)
                    population = population or [i for i in range(self.n) if not screened[i]]
                    chosen = rng.sample([i for i in population if i not in drawn],
                                        min(bench_triage.CHECK, len(population) - len(drawn)))
                    drawn.update(chosen)
                    for i in chosen:
                        screen(i)
            if len(order) >= self.n:
                break
            if known != len(liked):
                (parts, usable), known = self.parts(kind, sorted(liked)), len(liked)
            top = self.best(kind, parts, usable, screened)
            screen(top if top is not None else int(np.flatnonzero(~screened)[0]))
            if found95 is None and len(liked) >= 0.95 * len(relevant):
                found95 = len(order)
            if found95 is not None and len(recall) == len(SHARES):
                break
        return {"wss95": 1 - found95 / self.n - 0.05, "recall": recall}


def _spelled(kind: str) -> list[str]:
    """A kind's models as written, each `name[@C][*weight]` (`both` and `rrf` spelled out)."""
    kind = {"both": f"tfidf+semantic*{feature_kinds.SEMANTIC_WEIGHT}", "rrf": "rrf:tfidf+semantic"}.get(kind, kind)
    return kind.removeprefix("rrf:").split("+")


def _models(kind: str) -> list[str]:
    """The models of a kind, each `name[@C]` (weights dropped)."""
    return [part.partition("*")[0] for part in _spelled(kind)]


def _weights(kind: str) -> list[float]:
    return [float(part.partition("*")[2] or 1) for part in _spelled(kind)]


def _standard(scores):
    return (scores - scores.mean()) / (scores.std() or 1.0)


def _reciprocal(scores):
    ranks = np.empty(len(scores))
    ranks[np.argsort(-scores, kind="stable")] = np.arange(len(scores))
    return 1.0 / (feature_kinds.RRF_K + ranks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--features", default="tfidf,semantic,both,rrf")
    parser.add_argument("--topics", nargs="*", default=[*TOPICS, ALL])
    parser.add_argument("--vectors", type=Path, help="an .npz cache of whole-text vectors (bench_triage --vectors)")
    parser.add_argument("--sentences", type=Path, help="an .npz cache of sentence vectors (for sent* and semmax)")
    parser.add_argument("--prefix", choices=("query", "passage"), default=bench_triage.EMBED_PREFIX)
    parser.add_argument("--words", type=int, default=bench_triage.EMBED_WORDS)
    parser.add_argument("--svm-c", type=lambda text: tuple(float(v) for v in text.split(",")),
                        default=(SVM_C, feature_kinds.SEMANTIC_C), help="the SVM's C for tf-idf,vectors")
    args = parser.parse_args()
    if not ICLR.exists():
        print(f"{ICLR} is missing: no table")
        return
    bench_triage.EMBED_PREFIX, bench_triage.EMBED_WORDS = args.prefix, args.words
    kinds = [kind.strip() for kind in args.features.split(",") if kind.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        library, keywords = make_library(Path(tmp) / "iclr")
        if any(models.needs_vectors(name) for kind in kinds for name in _models(kind)):
            print(bench_triage.embed_library(library, args.vectors, keep=True), flush=True)
        replica = Replica(library, keywords, *args.svm_c, sentences=args.sentences)
        print(f"ICLR 2018 ({replica.n} papers), {args.runs} seed sets per topic; SVM C tf-idf {args.svm_c[0]}, "
              f"vectors {args.svm_c[1]}; load {os.getloadavg()}", flush=True)
        print("\n| topic | liked | features | WSS@95 | recall @10% | @20% | @30% | s/run |")
        print("|---|---:|---|---|---|---|---|---:|")
        for topic in args.topics:
            relevant = replica.topics[topic]
            for kind in kinds:
                started = time.perf_counter()
                runs = [replica.simulate(kind, relevant, seed) for seed in range(args.runs)]
                print(f"| {topic} | {len(relevant)} | {kind} | {summary([r['wss95'] for r in runs])} | " +
                      " | ".join(summary([r["recall"][share] for r in runs], 2) for share in SHARES) +
                      f" | {(time.perf_counter() - started) / args.runs:.1f} s |", flush=True)
        print(f"load after: {os.getloadavg()}; means over seed sets, min–max in brackets")
        library.close()


if __name__ == "__main__":
    main()
