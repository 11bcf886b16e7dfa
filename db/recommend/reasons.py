"""Why a paper is recommended: the terms it shares with the liked papers that weigh most (db.recommend.recommender).

Each reason is a term (a word or a pair of neighbouring words) of the paper's tf-idf row, ranked by its weight in
the model × its tf-idf value (for similar papers: the other paper's tf-idf value); a word is left out when a chosen
phrase holds it, and no term with a BOILERPLATE or CITATION word is given, nor a PREFIX alone.
"""

from __future__ import annotations

import functools

import numpy as np

from db.recommend.tfidf_cache import TfidfMatrix

WHY_TERMS = 5
# Words of claims and set phrases that every abstract has ("significantly outperforms", "algorithm
# significantly", "state art", "experiments demonstrate"): no term holding one is given as a reason. They stay
# in the model, which weighs them as it finds them.
BOILERPLATE = frozenset("""
significantly substantially considerably consistently dramatically remarkably notably greatly
outperform outperforms outperformed outperforming surpass surpasses surpassing beat beats
state art novel propose proposes proposed proposing present presents presented introduce introduces introduced
demonstrate demonstrates demonstrated demonstrating show shows shown showing achieve achieves achieved achieving
result results experiment experiments experimental empirical empirically extensive extensively effectiveness
superior competitive improvement improvements improve improves improved improving existing previous prior
paper work approach approaches method methods framework based using use uses new recent recently various
performance better best strong stronger baseline baselines leading leads lead wide widely
allow allows allowing enable enables enabling efficient efficiently solve solves solving
particularly especially specifically produce produces produced producing provide provides provided providing
end
""".split())  # `end`: "end-to-end" gives `end`, `convex end`, `end training` (a new user's trial)
# Pieces of citations left in abstracts ("Lee et al. (2019)" gives `lee et`, `et al`): never a reason.
CITATION = frozenset({"et", "al", "cf", "eg", "ie", "etc", "vs"})
# The first half of a hyphenated word, as the tf-idf words split it ("non-convex" gives `non`, `convex` and
# `non convex`): meaningful in its pair, not alone.
PREFIX = frozenset({"non", "pre", "post", "multi", "self", "semi", "co", "re", "sub", "anti", "cross", "inter",
                    "intra", "over", "under", "de", "un", "bi", "tri", "mid", "meta", "quasi", "pseudo"})


def whys(tfidf: TfidfMatrix, rows: list[int], weights: np.ndarray) -> list[list[str]]:
    """For each of `rows` (tf-idf rows), `why` of its entries times `weights` (one per term): the rows taken
    at once and multiplied on their arrays (one `X[i].multiply(weights)` per row cost a third of a rating's
    recomputed queue)."""
    if not rows:
        return []
    block = tfidf.matrix[rows].sorted_indices()  # each row's terms in column order, as multiply() leaves them
    products = block.data * weights[block.indices]
    return [why(tfidf, block.indices[start:end], products[start:end])
            for start, end in zip(block.indptr[:-1], block.indptr[1:], strict=True)]


def why(tfidf: TfidfMatrix, indices: np.ndarray, contributions: np.ndarray) -> list[str]:
    """The terms (columns `indices`, in column order) with the largest positive `contributions`, a word left out
    when a chosen phrase holds it, no term with a BOILERPLATE or CITATION word, and no PREFIX alone."""
    positive = contributions > 0
    indices, values = indices[positive], contributions[positive]
    chosen: list[str] = []
    for i in indices[np.argsort(-values, kind="stable")]:
        term = str(tfidf.terms[i])
        parts = term.split()
        if not BOILERPLATE.isdisjoint(parts) or not CITATION.isdisjoint(parts) or (len(parts) == 1 and term in PREFIX):
            continue
        words = word_keys(term)
        if any(words <= word_keys(other) for other in chosen):  # `agents` after `multi agent` or `agent`
            continue
        chosen = [other for other in chosen if not word_keys(other) <= words]  # a phrase replaces its word
        chosen.append(term)
        if len(chosen) == WHY_TERMS:
            break
    return chosen


@functools.lru_cache(maxsize=65536)
def word_keys(term: str) -> frozenset[str]:
    """The words of a term with a plural `s` dropped, so that `skill` and `skills`, `policy` and
    `policies` count as one reason."""
    return frozenset({word[:-3] + "y" if len(word) > 4 and word.endswith("ies") else
            word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
            for word in term.split()})
