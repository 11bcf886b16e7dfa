"""Issue 28: a cold import's frequent match keys settled before the write — for a list held in memory with
Python lists and a Counter (match_keys.settled_frequent), for a longer one over flat arrays
(settled_frequent_arrays) — come out the same: the same frequent keys and the same prefixes made again, also
when making prefixes again makes further keys frequent, round after round."""

from __future__ import annotations

import random

import numpy as np
import pytest

from db.library import match_keys
from db.library.match_keys import settled_frequent, settled_frequent_arrays, sorted_prefix


def _papers(seed: int, count: int = 400) -> dict[str, list[int]]:
    """Shingle keys ascending per paper, drawn from a small set of keys (so that many are shared), the smaller
    keys more often."""
    rng = random.Random(seed)
    return {f"p{n:04d}": sorted({int(rng.paretovariate(0.6)) % 3000 for _ in range(rng.randint(12, 60))})
            for n in range(count)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_frequent_keys_settled_over_arrays_are_those_settled_in_dicts(monkeypatch, seed):
    monkeypatch.setattr(match_keys, "FREQUENT", 8)
    papers = _papers(seed)
    ids = list(papers)
    prefixes = {paper_id: sorted_prefix(keys, frozenset()) for paper_id, keys in papers.items()}
    keys = np.array([key for paper_id in ids for key in prefixes[paper_id]], dtype=np.int64)
    owners = np.array([number for number, paper_id in enumerate(ids) for _ in prefixes[paper_id]], dtype=np.int32)
    rounds = []

    def keys_of(paper_id: str) -> list[int]:
        rounds.append(paper_id)
        return papers[paper_id]

    expected = settled_frequent(dict(prefixes), keys_of)
    assert len(rounds) > len(set(rounds))  # (some prefixes made again twice: more than one round)
    frequent, changed = settled_frequent_arrays(keys, owners, lambda number: papers[ids[number]])
    assert frequent == expected[0]
    assert {ids[number]: prefix for number, prefix in changed} == expected[1]
