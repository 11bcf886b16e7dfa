"""The stored paper vectors: `<library>/embed/vectors.db`, an SQLite file of its own (derived data, like the
search index: deleting it costs only the time to embed again; library.db is never touched).

One row per (paper, model): the vector as float16 bytes, the 64-bit digest of the text it was computed from,
and its quality (QUICK: from the title alone, the first pass; FULL: title and abstract). A vector whose digest
no longer matches the paper's text is stale and embedded again; rows of another model are dropped when a job
for the model in force runs (`prune`). `generation` grows with every write, so a reader knows when to reload.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import numpy as np

FOLDER = "embed"
FILE = "vectors.db"
QUICK, FULL = 1, 2

_SCHEMA = """
BEGIN IMMEDIATE;
CREATE TABLE IF NOT EXISTS vectors (paper_id TEXT NOT NULL, model TEXT NOT NULL, digest INTEGER NOT NULL,
    quality INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (paper_id, model));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value);
INSERT OR IGNORE INTO meta VALUES ('generation', 0);
COMMIT;
"""
_READY = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"


class VectorStore:
    """The vectors file of one library folder. Safe to share between threads (one lock); several processes
    may open it (SQLite WAL: readers never wait for the writer, and opening an existing file writes nothing)."""

    def __init__(self, library_folder: Path | str):
        self.path = Path(library_folder) / FOLDER / FILE
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            try:
                # only a new file gets the schema: even a no-op INSERT OR IGNORE takes the write lock, and a
                # reader (the window) would then wait for the embedding job's write — which, running under
                # SCHED_IDLE on a busy machine, can be stopped mid-transaction for a second or more
                if conn.execute(_READY).fetchone() is None:
                    conn.executescript(_SCHEMA)
            except sqlite3.DatabaseError:  # not a database: derived data, start afresh
                conn.close()
                self.path.unlink(missing_ok=True)
                conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(_SCHEMA)
            self._conn = conn
        return self._conn

    def exists(self) -> bool:
        return self.path.exists()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def generation(self) -> int:
        """A number that grows with every write (0 for a new file)."""
        with self._lock:
            return int(self._db().execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0])

    def state(self, model: str) -> dict[str, tuple[int, int]]:
        """paper id → (text digest, quality) of every vector stored for `model`."""
        with self._lock:
            rows = self._db().execute("SELECT paper_id, digest, quality FROM vectors WHERE model = ?", (model,))
            return {paper_id: (digest, quality) for paper_id, digest, quality in rows}

    def put(self, model: str, ids: list[str], digests: list[int], quality: int, vectors: np.ndarray) -> None:
        """Store `vectors` (float32 [n, d]) of papers `ids` computed from texts with these `digests`."""
        rows = [(paper_id, model, int(digest), quality, np.asarray(vector, dtype="<f2").tobytes())
                for paper_id, digest, vector in zip(ids, digests, vectors, strict=True)]
        with self._lock:
            db = self._db()
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?, ?)", rows)
                db.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def prune(self, model: str, keep: set[str]) -> int:
        """Drop the vectors of other models and of papers not in `keep`; how many rows went."""
        with self._lock:
            db = self._db()
            gone = [(paper_id, name) for paper_id, name in db.execute("SELECT paper_id, model FROM vectors")
                    if name != model or paper_id not in keep]
            if gone:
                db.execute("BEGIN IMMEDIATE")
                db.executemany("DELETE FROM vectors WHERE paper_id = ? AND model = ?", gone)
                db.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
                db.execute("COMMIT")
            return len(gone)

    def load(self, model: str, ids: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(vectors float16 [len(ids), d], has bool [len(ids)], quality int8 [len(ids)]) of `model`, in the order of
        `ids`; a paper without a vector has a zero row, has=False, quality 0. d is 0 when none is stored."""
        row = {paper_id: i for i, paper_id in enumerate(ids)}
        with self._lock:
            cursor = self._db().execute("SELECT paper_id, quality, vector FROM vectors WHERE model = ?", (model,))
            vectors = np.zeros((len(ids), 0), dtype=np.float16)
            has = np.zeros(len(ids), dtype=bool)
            quality = np.zeros(len(ids), dtype=np.int8)
            for paper_id, level, blob in cursor:  # row by row into one array: no list of 100k blobs
                at = row.get(paper_id)
                if at is None:
                    continue
                if not vectors.shape[1]:
                    vectors = np.zeros((len(ids), len(blob) // 2), dtype=np.float16)
                vectors[at] = np.frombuffer(blob, dtype="<f2")
                has[at] = True
                quality[at] = level
        return vectors, has, quality

    def counts(self, model: str) -> dict[int, int]:
        """quality → how many vectors of `model` are stored."""
        with self._lock:
            return dict(self._db().execute("SELECT quality, COUNT(*) FROM vectors WHERE model = ? GROUP BY quality",
                                           (model,)).fetchall())
