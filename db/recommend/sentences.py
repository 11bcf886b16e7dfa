"""Sentence evidence for the recommender: each paper's title, and each sentence of its abstract and note, as a
tf-idf row of its own (the paper matrix's vocabulary and idf), and a paper's best sentence under a model.

Why: a paper whose whole text is about something else can still say, in one sentence, what the liked papers
are about ("The interpretability of BSNNs is also shown to be better than that of FNNs."). In the paper's row
that word is one of a hundred; in its sentence's row it is one of a few. The recommender applies the same
linear model to the paper rows and to the sentence rows and adds the two rankings' z-scores
(db.recommend.features.SENTENCE_WEIGHT); measured on ICLR 2018 by tests/benchmarks/bench_triage_replica.py
(README, "Semantic similarity").

A sentence ends at `.`, `!` or `?` followed by white space and a capital letter, `(` or `[` (abbreviations such
as "e.g. the" do not end one), and at a line break before a capital (the title's end). Each of these ends is
also a clause break of the tf-idf analyzer (db.recommend.tfidf_cache.analyze), so a sentence's terms are
exactly the paper's terms from that sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np
from scipy import sparse

# a sentence ends at . ! or ? before white space and a capital, ( or [; and at a line break before one (the
# title's end: db.recommend.tfidf_cache.paper_text puts title, abstract and note on lines of their own)
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])|\s*\n\s*(?=[A-Z(\[])")


def split(text: str) -> list[str]:
    """A paper's text (tfidf_cache.paper_text) as its sentences, in order, each stripped; [""] for a text
    without any (every paper has at least one row)."""
    return [part for part in (piece.strip() for piece in SENTENCE.split(text)) if part] or [""]


def transform(vectorizer, papers: Iterable[Sequence[str]]) -> tuple[sparse.csr_matrix, np.ndarray]:
    """The sentence rows of `papers` (each a list of its sentences, from `split`) under a fitted vectorizer:
    (matrix [sentences, terms] float32 CSR, ptr [papers + 1] int64) — paper i's sentences are rows
    ptr[i]:ptr[i + 1], at least one each."""
    texts: list[str] = []
    counts: list[int] = []
    for sentences in papers:
        texts += sentences
        counts.append(len(sentences))
    ptr = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    if not texts or not len(getattr(vectorizer, "vocabulary_", {}) or {}):
        return sparse.csr_matrix((len(texts), len(getattr(vectorizer, "vocabulary_", {}) or {})),
                                 dtype=np.float32), ptr
    return vectorizer.transform(texts).astype(np.float32).tocsr(), ptr


def take(matrix: sparse.csr_matrix, ptr: np.ndarray, papers: np.ndarray) -> tuple[sparse.csr_matrix, np.ndarray]:
    """The sentence rows of `papers` (paper positions, in the order given) and their ptr."""
    index, new_ptr = _index(ptr, np.asarray(papers, dtype=np.int64))
    return matrix[index], new_ptr


def best(per_sentence: np.ndarray, ptr: np.ndarray, papers: np.ndarray, top: int = 1) -> np.ndarray:
    """For each of `papers` (positions), the mean of its `top` highest sentence scores (all of them when it has
    fewer; top=1: its best sentence's) — float64 [len(papers)]. `per_sentence` has one score per sentence row
    of the whole matrix."""
    index, new_ptr = _index(ptr, np.asarray(papers, dtype=np.int64))
    if not len(index):
        return np.zeros(len(new_ptr) - 1)
    scores = np.asarray(per_sentence, dtype=np.float64)[index]
    if top == 1:
        return np.maximum.reduceat(scores, new_ptr[:-1])
    counts = np.diff(new_ptr)
    group = np.repeat(np.arange(len(counts)), counts)
    ordered = scores[np.lexsort((-scores, group))]  # each paper's sentences, best first
    total = np.zeros(len(counts))
    for k in range(top):  # the k-th best of each paper that has one
        has = counts > k
        total[has] += ordered[new_ptr[:-1][has] + k]
    return total / np.minimum(counts, top)


def _index(ptr: np.ndarray, papers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sentence rows of `papers`, in their order, and the ptr of that selection."""
    counts = ptr[papers + 1] - ptr[papers]
    new_ptr = np.zeros(len(papers) + 1, dtype=np.int64)
    np.cumsum(counts, out=new_ptr[1:])
    index = np.repeat(ptr[papers] - new_ptr[:-1], counts) + np.arange(int(new_ptr[-1]))
    return index, new_ptr
