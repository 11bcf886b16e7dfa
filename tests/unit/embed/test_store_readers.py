"""The vectors file's readers (the window: generation, counts, load) never wait for the embedding job's write
(issue 32): the job runs under SCHED_IDLE and can be held inside a write for a second or more on a busy machine."""

from __future__ import annotations

import threading

import numpy as np

from db.embed.store import FULL, VectorStore


def test_a_reader_of_the_vectors_never_waits_for_the_jobs_write(tmp_path):
    """The window opens the vectors file (generation, counts, load) while the job may be inside a write, and
    under SCHED_IDLE on a busy machine the job can be held there for a second or more: opening must write
    nothing (it once ran INSERT OR IGNORE, which waited up to 30 s for the write lock)."""
    store = VectorStore(tmp_path)
    store.put("m", ["a"], [1], FULL, np.ones((1, 4), np.float32))
    db = store._db()
    db.execute("BEGIN IMMEDIATE")  # the job, stopped inside its write
    db.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    read: list = []

    def reader():
        other = VectorStore(tmp_path)
        read.append((other.generation(), other.counts("m"), other.load("m", ["a"])[1].tolist()))
        other.close()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    thread.join(5)
    read_while_writing = list(read)
    db.execute("COMMIT")
    thread.join(40)
    store.close()
    assert read_while_writing == [(1, {FULL: 1}, [True])]  # at once, what was committed before the write began
