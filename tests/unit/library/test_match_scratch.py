"""Issue 28: the matcher's two stores of an import's own papers (db.library.match_scratch) answer alike — the
dicts of a list held in memory (MemoryScratch) and the one for longer lists (DiskScratch: abstracts and shingle
keys in a temporary database, the prefix keys' index in memory, merged into sorted arrays every PENDING_KEYS) —
through papers added, added again under other keys and identifiers, and looked up."""

from __future__ import annotations

import random

import pytest

from db.library import match_scratch
from db.library.match_scratch import DiskScratch, MemoryScratch


def _operations(seed: int, count: int = 600) -> list[tuple]:
    rng = random.Random(seed)
    ops: list[tuple] = []
    for n in range(count):
        paper_id = f"p{rng.randrange(count // 3)}"  # (about three adds a paper: most are added again)
        keys = sorted(rng.sample(range(200), rng.randint(0, 6)))  # prefix keys: few, so that papers share them
        shingle_keys = frozenset(rng.sample(range(10**6), rng.randint(12, 40))) if keys else None
        ident = (rng.choice([None, f"10.1/{n % 17}"]), rng.choice([None, f"arxiv{n % 13}"]), None)
        title = rng.choice([None, f"title {n % 23}"])
        ops.append(("add", paper_id, len(keys) * 3, keys, ident, title, rng.choice([None, 2020]),
                    f"abstract {n}", rng.choice([None, "NeurIPS 2020", "arXiv"]), shingle_keys))
        ops.append(("ask", sorted(rng.sample(range(200), 5)), rng.randint(0, 9), rng.randint(9, 20)))
    return ops


def _answers(scratch, ops: list[tuple]) -> list:
    answers = []
    added: list[str] = []
    for op in ops:
        if op[0] == "add":
            scratch.add(*op[1:])
            added.append(op[1])
            paper_id = op[1]
            answers.append((scratch.mine(paper_id), scratch.abstract(paper_id), scratch.shingle_set(paper_id)))
        else:
            _, keys, low, high = op
            answers.append(sorted({(paper_id, size, tuple(prefix))
                                   for paper_id, size, prefix in scratch.candidates(keys, low, high)}))
    for paper_id in dict.fromkeys(added):
        answers.append(scratch.mine(paper_id))
    answers += [scratch.by_ident(kind, value) for kind in (0, 1) for value in {f"10.1/{n}" for n in range(17)}
                | {f"arxiv{n}" for n in range(13)}]
    answers += [scratch.by_title(f"title {n}", year) for n in range(23) for year in (None, 2020)]
    answers.append(scratch.mine("never added"))
    return answers


@pytest.mark.parametrize("pending", [1 << 17, 7, 1])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_disk_scratch_answers_as_the_memory_scratch(monkeypatch, pending, seed):
    monkeypatch.setattr(match_scratch, "PENDING_KEYS", pending)  # (small: keys merged into the arrays often)
    ops = _operations(seed)
    memory, disk = MemoryScratch(keep_sets=True), DiskScratch(keep_sets=True)
    try:
        assert _answers(disk, ops) == _answers(memory, ops)
    finally:
        memory.close()
        disk.close()
