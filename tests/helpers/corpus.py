"""Where things are for tests: the checkout, the `../shared` folder beside it, and a few abstracts of our own."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# `../shared` beside the checkout; $MARGIN_SHARED names it for a checkout elsewhere (a git worktree)
SHARED = Path(os.environ.get("MARGIN_SHARED") or ROOT.parent / "shared")

# three short abstracts on different subjects, for tests that need a few untitled papers of their own
ABSTRACTS = [
    "We propose GraphFoo, a method for graph learning that works well on many benchmarks and is fast.",
    "This paper studies reasoning in large language models with chain of thought prompting on math problems.",
    "A new optimizer named Zap converges faster than Adam on vision transformers across many model scales.",
]
