"""Issue 15: the shingle match keys are the same in every process (fresh interpreters, their own hash seeds);
the rest of the match keys is tested in tests/unit/library/test_match_keys.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from db.library.matching import (
    shingle_key,
    shingles,
)


def test_shingle_keys_are_the_same_in_every_process():
    code = "from db.library.matching import shingle_key; print(shingle_key('deep', 'neural', 'networks'))"
    root = Path(__file__).resolve().parents[2]
    values = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                             env={"PYTHONPATH": str(root), "PYTHONHASHSEED": seed}).stdout.strip()
              for seed in ("1", "2")}
    assert values == {str(shingle_key("deep", "neural", "networks"))}
    assert shingle_key("in", "this", "paper") >> 61 == 3 and shingle_key("deep", "neural", "networks") >> 61 == 0
    words = "deep neural networks learn in this paper we show".split()
    assert shingles(" ".join(words * 2)) == {shingle_key(*s) for s in zip(words * 2, (words * 2)[1:],
                                                                           (words * 2)[2:], strict=False)}
