"""The store under the Library (Calibre's db/backend is the model): the connection to `library.db`, write
transactions (`BEGIN IMMEDIATE` with the busy waits), the change log every mutation writes in its transaction,
and the reads of that log. Every write to the library runs inside `Store.transaction()`; the concept modules
(db.library.annotations, tags, triage, importing, deleting) execute their SQL on the connection it yields.

The change log is read by the search index to catch up, and by the window to see what another process changed.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from db.changes import NOTHING, Changes
from db.errors import LibraryBusy, LibraryError
from db.library import damage, unwritable
from db.library.damage import damaged, is_damage
from db.library.migrations import migrate
from db.library.schema import DB_NAME, SCHEMA_VERSION, create_script

BIBLIOGRAPHIC_COLUMNS = ("title", "abstract", "authors", "venue", "year", "url", "doi", "arxiv_id",
                         "openreview_id", "keywords", "extra", "source")
CHANGE_LOG_KEEP = 200_000  # changes kept in `change_log` (one row per paper and change; an import adds one per paper)
BUSY_TIMEOUT_MS = 10000  # how long a write waits for another process's write transaction to end
_NOTICE_MS = 300  # after this long, the waiting process is told (Store.waiting)


def now() -> str:
    """The current UTC time as an ISO 8601 string with seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def wall_ms() -> int:
    """This machine's wall clock in milliseconds since the epoch: the time of each logged change, which a sync's
    hybrid logical clock starts from (db.sync.clock). One function, so a test can set a machine's clock off."""
    return time.time_ns() // 1_000_000


def log_change(conn: sqlite3.Connection, writer: str, kinds: Iterable[str], ids: Iterable[str] = (),
               select: str | None = None, params: Sequence = ()) -> None:
    """Record in the caller's transaction that papers changed in `kinds` (db.changes): `ids`, or the ids a
    `select` statement returns. Each row gets the next change number (`seq`); `writer` names the Library
    connection that made the change, so a window can tell its own changes from another process's."""
    text = ",".join(sorted(set(kinds)))
    at = wall_ms()
    if select is not None:
        conn.execute(f"INSERT INTO change_log (paper_id, kinds, writer, at) SELECT chosen.*, ?, ?, ?"
                     f" FROM ({select}) AS chosen", (text, writer, at, *params))
    conn.executemany("INSERT INTO change_log (paper_id, kinds, writer, at) VALUES (?, ?, ?, ?)",
                     [(paper_id, text, writer, at) for paper_id in ids])


def prune_change_log(conn: sqlite3.Connection, keep: int = CHANGE_LOG_KEEP) -> None:
    """Forget all but the newest `keep` changes (in the caller's transaction). A search index further behind
    than that is rebuilt (db.search.index), as after any gap in the log."""
    conn.execute("DELETE FROM change_log WHERE seq <= (SELECT seq FROM sqlite_sequence WHERE name = 'change_log') - ?",
                 (keep,))


class Store:
    """One open `library.db`: use from any thread, one call at a time (`lock`, re-entrant, serializes calls).

    `writer` names this connection's changes in the change log; `waiting` is called when a write must wait for
    another process; `write_wait_ms` is how long a write waits for another process's write transaction before
    it fails as busy (the window waits briefly and keeps the edit to retry; the command line waits the full
    BUSY_TIMEOUT_MS)."""

    def __init__(self, folder: Path, connection: sqlite3.Connection):
        self.folder = folder
        self.conn = connection
        self.lock = threading.RLock()
        self.writer = uuid.uuid4().hex[:16]
        self.waiting: Callable[[], None] | None = None
        self.write_wait_ms = BUSY_TIMEOUT_MS
        self._depth = 0  # transactions open on this connection (inner ones join the outer one)
        self._db = None
        self.unwritable: str | None = None  # READ_ONLY or DISK_FULL (db.library.unwritable) when opened read-only

    @classmethod
    def open(cls, folder: Path, read_pages: bool = True) -> tuple[Store, int]:
        """Connect to `folder/library.db` (created empty when missing) and bring it to SCHEMA_VERSION. Damage is
        looked for at both ends of the papers and annotations tables, and with `read_pages` on every leaf page
        of them too (db.library.damage.read_ends, read_pages; False: the caller reads them later, db.library.
        damage.scan).

        Returns the store and the schema version found (0: a new, empty database, see `create`). Raises
        LibraryDamaged for a damaged file, LibraryError when it cannot be opened, is from a newer Margin, or
        an upgrade failed (db.library.migrations; the library is then left as it was)."""
        path = folder / DB_NAME
        before = unwritable.side_files(path)
        reason = None
        try:
            try:
                connection = _connect(path)
                if path.exists() and not unwritable.writable(folder, path):  # SQLite fell back to reading only
                    reason = unwritable.READ_ONLY  # (the WAL side files were there): say so, refuse writes
            except sqlite3.OperationalError:
                reason = unwritable.why_unwritable(folder, path) if path.exists() else None
                if reason is None:
                    raise
                unwritable.remove_new_side_files(before)  # the failed attempt's empty -wal and -shm
                connection = unwritable.open_unwritable(path, reason)
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > 0:  # the cheap part of an integrity check: the schema, the small indexes, both ends
                damage.read_ends(connection)  # of the tables; then their pages (60-240 ms at 100k papers)
                if read_pages:
                    damage.read_pages(connection)
        except sqlite3.DatabaseError as error:
            if is_damage(error):
                raise damaged(folder, error) from None
            raise LibraryError(f"{path}: cannot open the library database ({error})") from None
        if version > SCHEMA_VERSION:
            connection.close()
            raise LibraryError(
                f"{path}: this library was written by a newer Margin (schema {version}, this Margin reads "
                f"up to {SCHEMA_VERSION}); update Margin to open it")
        if 0 < version < SCHEMA_VERSION:
            if reason is not None:
                connection.close()
                raise LibraryError(f"{path}: this library is from an older Margin and must be upgraded, but it "
                                   f"cannot be written ({reason}); copy the folder somewhere writable to open it")
            try:
                migrate(connection, folder, version, SCHEMA_VERSION)
            except LibraryError:
                connection.close()
                raise
        store = cls(folder, connection)
        store.unwritable = reason
        return store, version

    @property
    def db(self):
        """The library as a `sqlite_utils.Database` on the same connection (hold no lock across calls).

        Imported on first use: sqlite-utils loads numpy when it is installed, which the window need not pay for.
        """
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn)
        return self._db

    def create(self) -> None:
        """Create the tables of a new library (db.library.schema) in one transaction: a crash leaves an empty
        file (version 0), never half a schema. Raises LibraryError when the file holds other tables."""
        with self.lock:
            existing = set(self.db.table_names()) | set(self.db.view_names())
            if existing - {"sqlite_sequence"}:
                raise LibraryError(f"{self.folder / DB_NAME}: not a Margin library (it has other tables)")
            self.conn.executescript(f"BEGIN IMMEDIATE;{create_script()}PRAGMA user_version = {SCHEMA_VERSION};COMMIT;")

    closed = False  # True once close() ran (a late background result checks it before reading)

    def close(self) -> None:
        """Close the connection (waiting for a call in another thread to end); the store is unusable after."""
        with self.lock:
            self.conn.close()
            self.closed = True

    # ----------------------------------------------------------------- writing
    @contextmanager
    def waiting_at_most(self, milliseconds: int | None):
        """Writes inside wait at most `milliseconds` for another process's write (None: as set, write_wait_ms)."""
        before = self.write_wait_ms
        if milliseconds is not None:
            self.write_wait_ms = milliseconds
        try:
            yield
        finally:
            self.write_wait_ms = before

    @contextmanager
    def transaction(self):
        """One write transaction (BEGIN IMMEDIATE … COMMIT, rolled back on any exception); yields the connection.

        Waits up to `write_wait_ms` for another process's write (calling `waiting()` once it takes a moment).
        Raises LibraryError when the library stays busy or cannot be written (disk full, read-only); nothing
        of the transaction is then kept. A transaction opened inside another on the same store joins it:
        several mutations in one `with library.transaction():` are saved together or not at all."""
        with self.lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            if self.unwritable:
                raise LibraryError(self.refusal)
            self._begin()
            self._depth = 1
            try:
                yield self.conn
                self.conn.commit()
            except BaseException as error:
                self.conn.rollback()
                if isinstance(error, sqlite3.OperationalError):
                    raise LibraryError(f"{self.folder / DB_NAME}: cannot write to the library ({error}); "
                                       f"nothing of this change was saved") from None
                if is_damage(error):
                    raise damaged(self.folder, error) from None
                raise
            finally:
                self._depth = 0

    @property
    def refusal(self) -> str | None:
        """The one line every write gets on a library opened read-only (db.library.unwritable), else None."""
        return unwritable.refusal(self.folder / DB_NAME, self.unwritable) if self.unwritable else None

    @property
    def writing(self) -> bool:
        """True inside `transaction()` (the only place the library is written)."""
        return self._depth > 0

    def _begin(self) -> None:
        try:
            self.conn.execute(f"PRAGMA busy_timeout = {min(_NOTICE_MS, self.write_wait_ms)}")
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
            if self.write_wait_ms <= _NOTICE_MS:
                raise sqlite3.OperationalError("database is locked")
            if self.waiting is not None:
                self.waiting()
            self.conn.execute(f"PRAGMA busy_timeout = {self.write_wait_ms - _NOTICE_MS}")
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            busy = "locked" in str(error) or "busy" in str(error)
            waited = (f"has been writing to it for over {self.write_wait_ms // 1000} seconds"
                      if self.write_wait_ms >= 2000 else "is writing to it")
            raise LibraryBusy(
                f"{self.folder / DB_NAME}: the library is busy: another Margin process {waited}; "
                f"try again when it has finished") if busy else LibraryError(
                f"{self.folder / DB_NAME}: cannot write to the library ({error})") from None
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    def log(self, conn: sqlite3.Connection, ids: Sequence[str], *kinds: str) -> Changes:
        """Log that papers `ids` changed in `kinds` (inside `conn`'s transaction); returns that as Changes."""
        log_change(conn, self.writer, kinds, ids)
        return Changes.of(ids, *kinds)

    # ----------------------------------------------------------------- reading
    def read(self, sql: str, params: Sequence = ()) -> list[tuple]:
        """The rows of a read-only query, as tuples (for db.library's own modules: outside the package, the
        Library's named reads are the API)."""
        with self.lock:
            return [tuple(row) for row in self.conn.execute(sql, params)]

    def column(self, sql: str, params: Sequence = ()) -> list:
        """The first column of a read-only query's rows."""
        with self.lock:
            return [row[0] for row in self.conn.execute(sql, params)]

    def data_version(self) -> int:
        """SQLite's `PRAGMA data_version`: changes whenever another connection commits to the library."""
        return self.read("PRAGMA data_version")[0][0]

    def last_change(self) -> int:
        """The number of the newest change ever committed to the library (0 for none); it only grows."""
        with self.lock:
            row = self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'").fetchone()
            return row[0] if row else 0

    def changes_since(self, seq: int, others_only: bool = False) -> tuple[Changes, int] | None:
        """What changed after change number `seq`: (Changes, the newest change number read).

        With `others_only`, changes made through this store are left out (a window's own edits, which it has
        already shown). Returns None when the log no longer reaches back to `seq` (older changes were pruned;
        the caller must reload everything it derived)."""
        with self.lock:
            newest = self.last_change()
            if newest < seq:  # the index or window is ahead of this database: it was replaced
                return None
            if newest == seq:
                return NOTHING, newest
            oldest = self.conn.execute("SELECT MIN(seq) FROM change_log").fetchone()[0]
            if oldest is None or oldest > seq + 1:
                return None
            sql = "SELECT paper_id, kinds FROM change_log WHERE seq > ? AND seq <= ?"
            params: tuple = (seq, newest)
            if others_only:
                sql, params = sql + " AND writer != ?", (*params, self.writer)
            by_paper: dict[str, set[str]] = {}
            for paper_id, kinds in self.conn.execute(sql, params):
                by_paper.setdefault(paper_id, set()).update(kinds.split(","))
        return Changes.by_kinds(by_paper), newest


def _connect(path: Path) -> sqlite3.Connection:
    """The ordinary read-write connection in WAL mode. Raises sqlite3.OperationalError where the file or its WAL
    side files cannot be made or written (Store.open then tries db.library.unwritable)."""
    connection = sqlite3.connect(path, check_same_thread=False, timeout=10.0)
    try:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute("PRAGMA user_version").fetchone()
    except sqlite3.DatabaseError:
        connection.close()
        raise
    return connection
