"""Embedding a library's papers: what is missing or stale, in two passes, stored as it goes.

The first pass (QUICK) embeds the title alone of every paper that has no current vector — about 45 papers per
CPU-second, so a 6,000-paper import has vectors for ranking after about two minutes of one idle core; the
second (FULL) embeds title and the first words of the abstract (FULL_WORDS), about 8 papers per CPU-second,
replacing the quick vectors in the background. A paper whose text
changed (its digest differs) is embedded again; nothing else is. Runs in the caller's thread: the window
starts it in a child process that takes only idle CPU (`python -m db.embed.job LIBRARY`, db.embed.priority;
desktop.window.embedding), the command line in `margin embed`.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from db.embed.models import EmbeddingModel, configured, load_model
from db.embed.store import FULL, QUICK, VectorStore

BATCH = 8
FULL_WORDS = 60  # words of title + abstract embedded (about 100 tokens): the cost is about 1.3 ms of CPU per token
# whatever the batch (tests/benchmarks/bench_semantic.py --only speed), so 60 words take half of 128 words' time;
# measured on ICLR 2018 they rank as well (README, Semantic similarity: similar:, the map, triage)
QUICK_FIRST = 100  # fewer stale papers than this: straight to full quality


def full_text(label: str | None, abstract: str | None) -> str:
    """What a paper's full vector is computed from: its label (title) and abstract, whitespace collapsed, the
    first FULL_WORDS words."""
    return " ".join(". ".join(part for part in (label, abstract) if part).split()[:FULL_WORDS])


def quick_text(label: str | None, abstract: str | None) -> str:
    """What a paper's quick vector is computed from: its label (or, for a paper without one, the abstract's
    first 32 words)."""
    return " ".join((label or " ".join((abstract or "").split()[:32])).split())


def digest(text: str) -> int:
    """A signed 64-bit digest of a text (BLAKE2b)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little", signed=True)


@dataclass
class Status:
    """How far the vectors of `model` are: `full` papers at full quality, `quick` at quick quality, of `total`."""

    model: str
    total: int
    full: int
    quick: int

    @property
    def missing(self) -> int:
        return self.total - self.full - self.quick

    def line(self) -> str:
        return (f"semantic vectors ({self.model}): {self.full} of {self.total} papers at full quality, "
                f"{self.quick} from the title only, {self.missing} missing")


def _plan(library, store: VectorStore, model: EmbeddingModel):
    rows = library.paper_texts()
    full = {paper_id: full_text(label, abstract) for paper_id, label, abstract, _note in rows}
    quick = {paper_id: quick_text(label, abstract) for paper_id, label, abstract, _note in rows}
    digests = {paper_id: digest(text) for paper_id, text in full.items()}
    have = store.state(model.key)
    stale = [paper_id for paper_id in full if have.get(paper_id, (None, 0))[0] != digests[paper_id]]
    upgrade = [paper_id for paper_id in full if paper_id not in stale and have[paper_id][1] < FULL]
    return full, quick, digests, have, stale, upgrade


def status(library, model: EmbeddingModel, store: VectorStore | None = None) -> Status:
    """How many papers have current vectors of `model` (full or quick quality)."""
    store = store or VectorStore(library.derived_folder)
    full, _quick, digests, have, stale, upgrade = _plan(library, store, model)
    done_full = sum(1 for paper_id in full if paper_id not in stale and paper_id not in upgrade)
    return Status(model.key, len(full), done_full, len(upgrade))


def run(library, model: EmbeddingModel | None = None, progress: Callable[[str, int, int], None] | None = None,
        should_stop: Callable[[], bool] | None = None, quick: bool = True, whole: bool = False) -> Status:
    """Embed what is missing or stale. `progress(phase, done, total)` is called after each batch (phase
    "quick" or "full"): of this run's papers, or with `whole` of the library's (done: papers with a current
    vector of that phase's quality or better, total: every paper — the figures `status` gives); `should_stop()`
    ends the job between batches. Returns the status at the end. Raises ModelUnavailable without a model."""
    model = model or load_model(configured(library.folder))
    store = VectorStore(library.derived_folder)
    full, quick_texts, digests, _have, stale, upgrade = _plan(library, store, model)
    store.prune(model.key, set(full))
    passes = []
    if quick and len(stale) >= QUICK_FIRST:
        passes.append(("quick", stale, quick_texts, QUICK))
        passes.append(("full", stale + upgrade, full, FULL))
    else:
        passes.append(("full", stale + upgrade, full, FULL))
    for phase, ids, texts, quality in passes:
        already = 0 if not whole else len(full) - len(ids)  # papers this pass leaves as they are
        shown = len(full) if whole else len(ids)
        for start in range(0, len(ids), BATCH):
            if should_stop is not None and should_stop():
                store.close()
                return status(library, model)
            chunk = ids[start:start + BATCH]
            vectors = model.passages([texts[paper_id] for paper_id in chunk])
            store.put(model.key, chunk, [digests[paper_id] for paper_id in chunk], quality, vectors)
            if progress is not None:
                progress(phase, already + min(start + BATCH, len(ids)), shown)
    store.close()
    return status(library, model)


def main(argv: list[str]) -> int:
    """`python -m db.embed.job LIBRARY`: the window's background job. Takes only idle CPU (db.embed.priority:
    SCHED_IDLE with every core, else nice 10 and one thread; MARGIN_EMBED_THREADS, when set, rules the threads),
    says how in its first line (`priority POLICY THREADS`), then prints one progress line per batch: `PHASE
    DONE TOTAL` of the library's papers (as `margin embed --status` counts them)."""
    from db.embed import priority
    from db.embed.models import THREADS_ENV, ModelUnavailable
    from db.library.library import Library

    background = priority.lower()  # before the model loads: its OpenMP threads inherit the policy
    threads = os.environ.get(THREADS_ENV) or str(background.threads)
    os.environ[THREADS_ENV] = threads
    os.environ.setdefault("OMP_NUM_THREADS", threads)
    print("priority", background.policy, threads, flush=True)
    library = Library.open(Path(argv[0]), seed=False)
    try:
        def report(phase: str, done: int, total: int) -> None:
            print(phase, done, total, flush=True)

        started = time.monotonic()
        try:
            result = run(library, progress=report, whole=True)
        except ModelUnavailable as error:
            print("off", error, flush=True)
            return 0
        print("done", result.full, result.total, f"{time.monotonic() - started:.1f}", flush=True)
    finally:
        library.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
