"""Agreement between screeners (issue 27): percent agreement and Cohen's kappa per pair of reviewers, Fleiss'
kappa for three or more, and the conflicts under Rayyan's rules. Pure numpy; no database.

Cohen (1960): kappa = (p_o - p_e) / (1 - p_e), p_o the share of papers both decided alike, p_e the chance
agreement from each reviewer's own marginal shares. Fleiss (1971): over N papers each rated by the same n
reviewers, P_i = (sum_j n_ij^2 - n) / (n (n - 1)), P_bar their mean, p_j the share of all ratings in category j,
P_e = sum_j p_j^2, kappa = (P_bar - P_e) / (1 - P_e). When chance agreement is total (p_e = 1: everyone used one
category) kappa is undefined and returned as None.

Rayyan's rules for one paper's decisions: include and exclude both present → conflict; otherwise any maybe →
the maybe list; otherwise all alike → agreed. A paper with fewer than two decisions is awaiting.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

CATEGORIES = ("include", "exclude", "maybe")


def _codes(labels, categories) -> np.ndarray:
    index = {category: i for i, category in enumerate(categories)}
    try:
        return np.array([index[label] for label in labels], dtype=np.int64)
    except KeyError as error:
        raise ValueError(f"not one of {categories}: {error.args[0]!r}") from None


def percent_agreement(first, second) -> float:
    """Share (0..1) of positions where two equally long label sequences agree. Raises ValueError when empty or
    of unequal length."""
    if len(first) != len(second) or not len(first):
        raise ValueError("two non-empty label sequences of equal length are needed")
    return float(np.mean(np.asarray(first, dtype=object) == np.asarray(second, dtype=object)))


def cohen_kappa(first, second, categories=CATEGORIES) -> float | None:
    """Cohen's kappa of two raters' labels on the same items (sequences of labels from `categories`); None when
    chance agreement is 1 (both used one and the same category throughout). Raises ValueError as
    percent_agreement, or for a label not in `categories`."""
    if len(first) != len(second) or not len(first):
        raise ValueError("two non-empty label sequences of equal length are needed")
    k = len(categories)
    table = np.zeros((k, k))
    np.add.at(table, (_codes(first, categories), _codes(second, categories)), 1)
    table /= table.sum()
    observed = np.trace(table)
    expected = float(table.sum(axis=1) @ table.sum(axis=0))
    if np.isclose(expected, 1.0):
        return None
    return float((observed - expected) / (1 - expected))


def fleiss_kappa(counts) -> float | None:
    """Fleiss' kappa from an items × categories array of counts (each row: how many raters chose each category;
    every row sums to the same n ≥ 2). None when chance agreement is 1. Raises ValueError for unequal rows or
    n < 2."""
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 2 or not counts.shape[0]:
        raise ValueError("an items × categories array of counts is needed")
    raters = counts.sum(axis=1)
    n = raters[0]
    if n < 2 or not np.all(raters == n):
        raise ValueError("every item needs the same number (at least 2) of ratings")
    per_item = (np.square(counts).sum(axis=1) - n) / (n * (n - 1))
    shares = counts.sum(axis=0) / counts.sum()
    expected = float(np.square(shares).sum())
    if np.isclose(expected, 1.0):
        return None
    return float((per_item.mean() - expected) / (1 - expected))


def classify(decisions) -> str:
    """Rayyan's class of one paper's decisions (an iterable of labels): 'conflict', 'maybe', 'agreed' or
    'awaiting' (fewer than two)."""
    labels = list(decisions)
    if len(labels) < 2:
        return "awaiting"
    present = set(labels)
    if {"include", "exclude"} <= present:
        return "conflict"
    if "maybe" in present:
        return "maybe"
    return "agreed"


def agreement_report(decisions: dict[str, dict[str, str]], resolved=()) -> dict:
    """Agreement figures of a project from {paper: {reviewer: label}} and the papers whose conflict the owner or a
    resolver `resolved` (an iterable of paper ids):
    {"pairs": [{"reviewers": [a, b], "papers": N, "percent_agreement": 0..1, "cohen_kappa": k|None}, …],
     "fleiss_kappa": k|None (three or more reviewers, over the papers all of them decided; else None),
     "fleiss_papers": N, "conflicts": [paper, …], "resolved": [paper, …], "maybe": [paper, …], "agreed": N,
     "awaiting": N}.
    A pair's figures cover the papers both decided; a pair with none shares is left out. Agreement (pairs, kappa,
    per_reviewer, maybe, agreed) is the reviewers' original decisions, resolved or not; `conflicts` lists only the
    unresolved conflicts and `resolved` the conflicts resolved (as is:conflict)."""
    resolved = set(resolved)
    reviewers = sorted({reviewer for by in decisions.values() for reviewer in by})
    pairs = []
    for a, b in combinations(reviewers, 2):
        both = sorted(paper for paper, by in decisions.items() if a in by and b in by)
        if both:
            first, second = [decisions[p][a] for p in both], [decisions[p][b] for p in both]
            pairs.append({"reviewers": [a, b], "papers": len(both),
                          "percent_agreement": percent_agreement(first, second),
                          "cohen_kappa": cohen_kappa(first, second)})
    fleiss, fleiss_papers = None, 0
    if len(reviewers) >= 3:
        full = [by for by in decisions.values() if all(r in by for r in reviewers)]
        fleiss_papers = len(full)
        if full:
            counts = [[sum(1 for r in reviewers if by[r] == c) for c in CATEGORIES] for by in full]
            fleiss = fleiss_kappa(counts)
    classes = {paper: classify(by.values()) for paper, by in decisions.items()}
    return {"reviewers": reviewers, "pairs": pairs, "fleiss_kappa": fleiss, "fleiss_papers": fleiss_papers,
            "conflicts": sorted(p for p, c in classes.items() if c == "conflict" and p not in resolved),
            "resolved": sorted(p for p, c in classes.items() if c == "conflict" and p in resolved),
            "maybe": sorted(p for p, c in classes.items() if c == "maybe"),
            "agreed": sum(1 for c in classes.values() if c == "agreed"),
            "awaiting": sum(1 for c in classes.values() if c == "awaiting"),
            "per_reviewer": {r: {c: sum(1 for by in decisions.values() if by.get(r) == c) for c in CATEGORIES}
                             for r in reviewers}}
