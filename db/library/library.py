"""The library: one folder holding `library.db` (SQLite, the source of truth), `index/` and `backups/`.

This is the one API the window and the command line use to read and change papers and annotations.
Every mutation returns what it changed (db.changes.Changes) and records it in the `change_log` table in the
same transaction: the search index (derived data) catches up from that log, keeping the number of the last
change it applied with itself (it never writes here), and a window reads there what another process changed.
Importing lives in db.library.importing, deleting in db.library.deleting (both mixed into Library); shared SQL
pieces in db.library.store.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from pathlib import Path

from db.changes import ADDED, NOTE, NOTHING, TAGS, TRIAGE, Changes
from db.errors import LibraryBusy, LibraryError
from db.library.deleting import DeleteMixin
from db.library.importing import ImportMixin, ImportReport  # noqa: F401 - ImportReport is part of this API
from db.library.integrity import damaged, is_damage
from db.library.store import log_change, now
from db.paper import Paper, PaperRecord
from db.text.cleaning import clean_note, clean_tag, clean_title, tag_key

SCHEMA_VERSION = 8
DB_NAME = "library.db"
BUSY_TIMEOUT_MS = 10000  # how long a write waits for another process's write transaction to end
_NOTICE_MS = 300  # after this long, the waiting process is told (Library.waiting)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS papers (
    id TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    title TEXT,
    abstract TEXT NOT NULL DEFAULT '',
    label TEXT NOT NULL,
    authors TEXT NOT NULL DEFAULT '[]',
    venue TEXT,
    year INTEGER,
    url TEXT,
    doi TEXT,
    arxiv_id TEXT,
    openreview_id TEXT,
    keywords TEXT NOT NULL DEFAULT '[]',
    extra TEXT NOT NULL DEFAULT '{}',
    source TEXT,
    added_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS papers_position ON papers(position, id);
CREATE INDEX IF NOT EXISTS papers_venue ON papers(venue);
CREATE INDEX IF NOT EXISTS papers_doi ON papers(doi);
CREATE INDEX IF NOT EXISTS papers_arxiv ON papers(arxiv_id);
CREATE INDEX IF NOT EXISTS papers_openreview ON papers(openreview_id);
CREATE TABLE IF NOT EXISTS annotations (
    paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
    rating INTEGER CHECK (rating BETWEEN 1 AND 5),
    read INTEGER NOT NULL DEFAULT 0,
    note TEXT NOT NULL DEFAULT '',
    title TEXT,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tags (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS paper_tags (
    paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    PRIMARY KEY (paper_id, tag_id)
);
CREATE INDEX IF NOT EXISTS paper_tags_tag ON paper_tags(tag_id);
CREATE TABLE IF NOT EXISTS note_history (
    id INTEGER PRIMARY KEY,
    paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    note TEXT NOT NULL,
    saved_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS note_history_paper ON note_history(paper_id);
CREATE TABLE IF NOT EXISTS change_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    paper_id TEXT NOT NULL,
    kinds TEXT NOT NULL,
    writer TEXT NOT NULL DEFAULT ''
);
"""

class Library(ImportMixin, DeleteMixin):
    """A library folder. Open with `Library.open(folder)`; close with `close()` (or use as a context manager).

    The connection may be used from any thread, one call at a time (an internal lock serializes calls).
    Raises LibraryError when the database is from a newer Margin or is not a Margin library.
    """

    def __init__(self, folder: Path, connection: sqlite3.Connection):
        self.folder = folder
        self._conn = connection
        self._db = None
        self._lock = threading.RLock()
        self.created = False  # True when this open created the library (a first start)
        self.writer = uuid.uuid4().hex[:16]  # names this connection's changes in the change log
        self.waiting: Callable[[], None] | None = None  # called when a write must wait for another process
        # how long a write waits for another process's write transaction before it fails as busy (the window
        # waits briefly and keeps the edit to retry; the command line waits the full BUSY_TIMEOUT_MS)
        self.write_wait_ms = BUSY_TIMEOUT_MS
        self._depth = 0  # transactions open on this connection (inner ones join the outer one)

    @property
    def db(self):
        """The library as a `sqlite_utils.Database` on the same connection (hold no lock across calls).

        Imported on first use: sqlite-utils loads numpy when it is installed, which the window need not pay for.
        """
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self._conn)
        return self._db

    # ----------------------------------------------------------------- opening
    @classmethod
    def open(cls, folder: Path | str, seed: bool = True) -> Library:
        """Open the library in `folder`, creating it when missing.

        A new library is seeded with the bundled corpus when `seed` is true.
        Raises LibraryError when the folder or database cannot be used.
        """
        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise LibraryError(f"{folder}: cannot create the library folder ({error.strerror})") from None
        path = folder / DB_NAME
        try:
            connection = sqlite3.connect(path, check_same_thread=False, timeout=10.0)
            connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("PRAGMA synchronous = NORMAL")
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > 0:  # the cheap part of an integrity check: the schema, the small indexes, both ends
                for table in ("papers", "annotations"):  # of the tables (a few ms at 100k papers)
                    connection.execute(f"SELECT count(*) FROM {table}").fetchone()
                    connection.execute(f"SELECT min(rowid), max(rowid) FROM {table} NOT INDEXED").fetchone()
        except sqlite3.DatabaseError as error:
            if is_damage(error):
                raise damaged(folder, error) from None
            raise LibraryError(f"{path}: cannot open the library database ({error})") from None
        library = cls(folder, connection)
        if version > SCHEMA_VERSION:
            connection.close()
            raise LibraryError(
                f"{path}: this library was written by a newer Margin (schema {version}, this Margin reads "
                f"up to {SCHEMA_VERSION}); update Margin to open it")
        if 0 < version < SCHEMA_VERSION:
            from db.library.migrations import migrate

            try:
                migrate(connection, folder, version, SCHEMA_VERSION)
            except LibraryError:
                connection.close()
                raise
        created = version == 0
        library.created = created
        if created:
            library._create_schema()
            if seed:
                from db.formats.corpus import bundled_corpus_files
                from db.formats.importer import read_file

                records: list[PaperRecord] = []
                for corpus_file in bundled_corpus_files():
                    records += read_file(corpus_file).records
                library.import_records(records)
        library.keep_labels_current()  # labels made under an older db.text.labels rule are derived again
        return library

    def _create_schema(self) -> None:
        with self._lock:
            existing = set(self.db.table_names()) | set(self.db.view_names())
            if existing - {"sqlite_sequence"}:
                raise LibraryError(f"{self.folder / DB_NAME}: not a Margin library (it has other tables)")
            # one transaction: a crash leaves an empty file (version 0), never half a schema
            from db.library.migrations import SCHEMA_6, SCHEMA_7, SCHEMA_8

            schema = _SCHEMA + "".join(f"{statement};\n" for statement in SCHEMA_6 + SCHEMA_7 + SCHEMA_8)
            self._conn.executescript(f"BEGIN IMMEDIATE;{schema}PRAGMA user_version = {SCHEMA_VERSION};COMMIT;")

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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
        """One write transaction (BEGIN IMMEDIATE … COMMIT, rolled back on any exception).

        Waits up to `write_wait_ms` for another process's write (calling `waiting()` once it takes a moment).
        Raises LibraryError when the library stays busy or cannot be written (disk full, read-only); nothing
        of the transaction is then kept. A transaction opened inside another on the same Library joins it:
        several mutations in one `with library.transaction():` are saved together or not at all."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._conn
                finally:
                    self._depth -= 1
                return
            self._begin()
            self._depth = 1
            try:
                yield self._conn
                self._conn.commit()
            except BaseException as error:
                self._conn.rollback()
                if isinstance(error, sqlite3.OperationalError):
                    raise LibraryError(f"{self.folder / DB_NAME}: cannot write to the library ({error}); "
                                       f"nothing of this change was saved") from None
                if is_damage(error):
                    raise damaged(self.folder, error) from None
                raise
            finally:
                self._depth = 0

    def _begin(self) -> None:
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {min(_NOTICE_MS, self.write_wait_ms)}")
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
            if self.write_wait_ms <= _NOTICE_MS:
                raise sqlite3.OperationalError("database is locked")
            if self.waiting is not None:
                self.waiting()
            self._conn.execute(f"PRAGMA busy_timeout = {self.write_wait_ms - _NOTICE_MS}")
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            busy = "locked" in str(error) or "busy" in str(error)
            waited = (f"has been writing to it for over {self.write_wait_ms // 1000} seconds"
                      if self.write_wait_ms >= 2000 else "is writing to it")
            raise LibraryBusy(
                f"{self.folder / DB_NAME}: the library is busy: another Margin process {waited}; "
                f"try again when it has finished") if busy else LibraryError(
                f"{self.folder / DB_NAME}: cannot write to the library ({error})") from None
        finally:
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    # ----------------------------------------------------------------- reading
    def count(self) -> int:
        """The number of papers in the library."""
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM papers").fetchone()[0]

    def ids(self) -> list[str]:
        """Every paper id in library order (the order papers were first imported)."""
        with self._lock:
            return [row[0] for row in self._conn.execute("SELECT id FROM papers ORDER BY position")]

    def paper(self, paper_id: str) -> Paper:
        """The paper with this id. Raises KeyError when there is none."""
        papers = self.papers([paper_id])
        if not papers:
            raise KeyError(paper_id)
        return papers[0]

    def find_id(self, prefix: str) -> str:
        """The full id of the one paper whose id starts with `prefix` (at least 4 hex digits).

        Raises KeyError when none or several match.
        """
        prefix = prefix.strip().lower()
        with self._lock:
            rows = self._conn.execute("SELECT id FROM papers WHERE id >= ? AND id < ? LIMIT 2",
                                      (prefix, prefix + "g")).fetchall() if len(prefix) >= 4 else []
        if len(rows) != 1:
            raise KeyError(prefix)
        return rows[0][0]

    def papers(self, ids: Iterable[str] | None = None) -> list[Paper]:
        """Papers with these ids in the order given (unknown ids are left out); all in library order if None."""
        with self._lock:
            if ids is None:
                rows = self._conn.execute(_PAPER_SELECT + " ORDER BY p.position").fetchall()
            else:
                wanted = list(ids)
                rows = []
                for start in range(0, len(wanted), 500):
                    chunk = wanted[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    rows += self._conn.execute(_PAPER_SELECT + f" WHERE p.id IN ({marks})", chunk).fetchall()
                order = {paper_id: i for i, paper_id in enumerate(wanted)}
                rows.sort(key=lambda row: order[row[0]])
            tags = self._tags_by_paper([row[0] for row in rows] if ids is not None else None)
        return [_paper_from_row(row, tags.get(row[0], [])) for row in rows]

    def _tags_by_paper(self, ids: list[str] | None) -> dict[str, list[str]]:
        query = ("SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id")
        result: dict[str, list[str]] = {}
        if ids is None:
            rows = self._conn.execute(query + " ORDER BY t.name COLLATE NOCASE").fetchall()
        else:
            rows = []
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                rows += self._conn.execute(
                    query + f" WHERE pt.paper_id IN ({','.join('?' * len(chunk))}) ORDER BY t.name COLLATE NOCASE",
                    chunk).fetchall()
        for paper_id, name in rows:
            result.setdefault(paper_id, []).append(name)
        return result

    def tags(self) -> list[tuple[str, int]]:
        """Every tag with the number of papers carrying it, sorted by name (case-insensitive)."""
        with self._lock:
            return [tuple(row) for row in self._conn.execute(
                "SELECT t.name, COUNT(pt.paper_id) FROM tags t LEFT JOIN paper_tags pt ON pt.tag_id = t.id"
                " GROUP BY t.id HAVING COUNT(pt.paper_id) > 0 ORDER BY t.name COLLATE NOCASE")]

    def annotated_ids(self) -> list[str]:
        """Ids of papers with a rating, a tag, a note or a user title, in library order."""
        with self._lock:
            return [row[0] for row in self._conn.execute(
                "SELECT p.id FROM papers p LEFT JOIN annotations a ON a.paper_id = p.id"
                " WHERE a.rating IS NOT NULL OR trim(COALESCE(a.note, '')) != '' OR a.title IS NOT NULL"
                " OR EXISTS (SELECT 1 FROM paper_tags pt WHERE pt.paper_id = p.id) ORDER BY p.position")]

    def note_history(self, paper_id: str) -> list[tuple[str, str]]:
        """Earlier saved versions of a paper's note as (saved_at, text), oldest first."""
        with self._lock:
            return [tuple(row) for row in self._conn.execute(
                "SELECT saved_at, note FROM note_history WHERE paper_id = ? ORDER BY id", (paper_id,))]

    def read_counts(self) -> dict[str | None, tuple[int, int]]:
        """Per venue: (papers read, papers in all)."""
        with self._lock:
            # two indexed counts instead of a join over every paper: annotations are few, papers many. CROSS
            # JOIN keeps that order (SQLite's planner chose to walk every paper: 17 ms at 20k, now 0.2 ms)
            read = dict(self._conn.execute("SELECT p.venue, COUNT(*) FROM annotations a CROSS JOIN papers p"
                                           " ON p.id = a.paper_id WHERE a.read = 1 GROUP BY p.venue"))
            return {venue: (read.get(venue, 0), total) for venue, total in self._conn.execute(
                "SELECT venue, COUNT(*) FROM papers GROUP BY venue ORDER BY venue")}

    # ----------------------------------------------------------------- annotating
    # Each call is one transaction and returns what it changed (db.changes.Changes; empty when nothing did).
    def _annotate(self, conn: sqlite3.Connection, paper_id: str, **values) -> Changes:
        """Set annotation columns of one paper (inside `conn`'s transaction) where they differ; log the change."""
        if not conn.execute("SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone():
            raise KeyError(paper_id)
        conn.execute("INSERT OR IGNORE INTO annotations (paper_id, updated_at) VALUES (?, ?)", (paper_id, now()))
        if not values:
            return NOTHING
        row = conn.execute(f"SELECT {', '.join(values)} FROM annotations WHERE paper_id = ?", (paper_id,)).fetchone()
        changed = {column: value for (column, value), old in zip(values.items(), row, strict=True) if value != old}
        if not changed:
            return NOTHING
        assignments = ", ".join(f"{column} = ?" for column in changed)
        conn.execute(f"UPDATE annotations SET {assignments}, updated_at = ? WHERE paper_id = ?",
                     (*changed.values(), now(), paper_id))
        return self._log(conn, [paper_id], *changed)

    def _log(self, conn: sqlite3.Connection, ids: Sequence[str], *kinds: str) -> Changes:
        log_change(conn, self.writer, kinds, ids)
        return Changes.of(ids, *kinds)

    def set_rating(self, paper_id: str, rating: int | None) -> Changes:
        """Set the rating to 1..5, or clear it with None or 0. Raises ValueError for other values, KeyError
        for an unknown paper."""
        if rating == 0:
            rating = None
        if rating is not None and not (isinstance(rating, int) and 1 <= rating <= 5):
            raise ValueError("a rating is a whole number from 1 to 5 (0 clears it)")
        with self.transaction() as conn:
            return self._annotate(conn, paper_id, rating=rating)

    def set_read(self, paper_id: str, read: bool) -> Changes:
        """Mark the paper read or unread."""
        with self.transaction() as conn:
            return self._annotate(conn, paper_id, read=int(bool(read)))

    def set_title(self, paper_id: str, title: str | None) -> Changes:
        """Set the user's title for a paper (wins over the file's title and the derived label); None or "" clears.

        Stored as `clean_title` gives it (C0 control characters other than tab/LF/CR removed, whitespace
        collapsed). Raises ValueError, changing nothing, for a title longer than MAX_TITLE (1,000) characters."""
        title = clean_title(title)
        with self.transaction() as conn:
            return self._annotate(conn, paper_id, title=title)

    def set_note(self, paper_id: str, note: str, keep_version: bool = True) -> Changes:
        """Save the Markdown note; the version it replaces goes to the note history, unless `keep_version` is
        false (the window's saves while the user keeps typing, which would otherwise add one version a second).
        The note is stored as written except for C0 control characters other than tab, LF and CR (NUL, escape,
        …), which are removed (`clean_note`). Returns NOTHING when the note was already this text."""
        note = clean_note(note)
        with self.transaction() as conn:
            row = conn.execute("SELECT note FROM annotations WHERE paper_id = ?", (paper_id,)).fetchone()
            previous = row[0] if row else ""
            changes = self._annotate(conn, paper_id, note=note)
            if changes and previous and keep_version:
                conn.execute("INSERT INTO note_history (paper_id, note, saved_at) VALUES (?, ?, ?)",
                             (paper_id, previous, now()))
        return changes

    def add_note_history(self, paper_id: str, entries: Iterable[tuple[str, str]]) -> Changes:
        """Add earlier versions of a paper's note, as (saved_at ISO time, text), that the history lacks (same
        time and text), in the order given. Returns a `note` change when any was added."""
        with self.transaction() as conn:
            have = set(conn.execute("SELECT saved_at, note FROM note_history WHERE paper_id = ?", (paper_id,)))
            new = [(paper_id, clean_note(text), saved_at) for saved_at, text in entries
                   if (saved_at, clean_note(text)) not in have]
            if not new:
                return NOTHING
            self._annotate(conn, paper_id)
            conn.executemany("INSERT INTO note_history (paper_id, note, saved_at) VALUES (?, ?, ?)", new)
            return self._log(conn, [paper_id], NOTE)

    def add_tags(self, paper_id: str, names: Iterable[str]) -> Changes:
        """Add tags to a paper, reusing an existing tag that matches case-insensitively in NFC (each tag as
        `clean_tag` stores it: no C0 control characters, whitespace collapsed; `Paper.tags` gives the names).

        Raises ValueError for an empty tag, KeyError for an unknown paper."""
        cleaned = [clean_tag(name) for name in names]
        added = 0
        with self.transaction() as conn:
            self._annotate(conn, paper_id)
            for name in cleaned:
                key = tag_key(name)
                conn.execute("INSERT OR IGNORE INTO tags (name, key) VALUES (?, ?)", (name, key))
                tag_id = conn.execute("SELECT id FROM tags WHERE key = ?", (key,)).fetchone()[0]
                added += conn.execute("INSERT OR IGNORE INTO paper_tags VALUES (?, ?)", (paper_id, tag_id)).rowcount
            return self._log(conn, [paper_id], TAGS) if added else NOTHING

    def remove_tags(self, paper_id: str, names: Iterable[str]) -> Changes:
        """Remove tags (matched case-insensitively in NFC) from a paper; unknown tags are ignored."""
        keys = [tag_key(name) for name in names]
        removed = 0
        with self.transaction() as conn:
            self._annotate(conn, paper_id)
            for key in keys:
                removed += conn.execute("DELETE FROM paper_tags WHERE paper_id = ? AND tag_id IN"
                                        " (SELECT id FROM tags WHERE key = ?)", (paper_id, key)).rowcount
            return self._log(conn, [paper_id], TAGS) if removed else NOTHING

    def set_tags(self, paper_id: str, names: Iterable[str]) -> Changes:
        """Make the paper's tags exactly `names` (matched case-insensitively)."""
        wanted = {tag_key(clean_tag(name)): name for name in names}
        current = {tag_key(name) for name in self.paper(paper_id).tags}
        return (self.remove_tags(paper_id, [key for key in current if key not in wanted])
                | self.add_tags(paper_id, list(wanted.values())))

    def rename_tag(self, old: str, new: str) -> Changes:
        """Rename tag `old` to `new` on every paper; when `new` exists already, the two tags are merged.

        Raises KeyError when `old` does not exist, ValueError when `new` is empty or too long."""
        new_name = clean_tag(new)
        old_key, new_key = tag_key(old), tag_key(new_name)
        with self.transaction() as conn:
            row = conn.execute("SELECT id, name FROM tags WHERE key = ?", (old_key,)).fetchone()
            if row is None:
                raise KeyError(old)
            old_id, old_name = row
            if old_name == new_name:
                return NOTHING
            ids = [r[0] for r in conn.execute("SELECT paper_id FROM paper_tags WHERE tag_id = ?", (old_id,))]
            target = conn.execute("SELECT id FROM tags WHERE key = ?", (new_key,)).fetchone()
            if target is None or target[0] == old_id:
                conn.execute("UPDATE tags SET name = ?, key = ? WHERE id = ?", (new_name, new_key, old_id))
            else:
                conn.execute("INSERT OR IGNORE INTO paper_tags SELECT paper_id, ? FROM paper_tags WHERE tag_id = ?",
                             (target[0], old_id))
                conn.execute("DELETE FROM tags WHERE id = ?", (old_id,))
            return self._log(conn, ids, TAGS)

    def delete_tag(self, name: str) -> Changes:
        """Remove tag `name` from every paper (nothing changes when there is no such tag)."""
        with self.transaction() as conn:
            row = conn.execute("SELECT id FROM tags WHERE key = ?", (tag_key(name),)).fetchone()
            if row is None:
                return NOTHING
            ids = [r[0] for r in conn.execute("SELECT paper_id FROM paper_tags WHERE tag_id = ?", row)]
            conn.execute("DELETE FROM tags WHERE id = ?", row)
            return self._log(conn, ids, TAGS)

    # ----------------------------------------------------------------- triage bookkeeping (db.triage.progress)
    def add_check_sample(self, scope: str, population: Sequence[str], drawn: Sequence[str],
                         sample_id: int | None = None) -> Changes:
        """Record a random check of triage progress for `scope` (a query text): `population`, the papers of
        the view unseen when it was drawn, and `drawn` (a subset), the ones drawn for the user to rate. With
        `sample_id`, `drawn` papers of that check's population are drawn too (`population` is then ignored).
        Unknown ids are left out. Returns a `triage` change of the papers newly drawn."""
        with self.transaction() as conn:
            if sample_id is None:
                sample_id = conn.execute("INSERT INTO check_samples (scope, drawn_at, seq) VALUES (?, ?, ?)",
                                         (scope, now(), self.last_change())).lastrowid
                conn.executemany("INSERT OR IGNORE INTO check_papers (sample_id, paper_id)"
                                 " SELECT ?, id FROM papers WHERE id = ?",
                                 [(sample_id, paper_id) for paper_id in population])
            kept = [paper_id for paper_id in dict.fromkeys(drawn) if conn.execute(
                "UPDATE check_papers SET drawn = 1 WHERE sample_id = ? AND paper_id = ? AND drawn = 0",
                (sample_id, paper_id)).rowcount]
            return self._log(conn, kept, TRIAGE) if kept else NOTHING

    def set_interest(self, name: str, on: bool = True) -> Changes:
        """Make tag `name` one of the interests the triage queue serves (db.triage.interests), or not (`on` false);
        the tag is created when missing. Returns a `triage` change of the papers carrying it. Raises
        ValueError for an empty tag name."""
        name = clean_tag(name)
        with self.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO tags (name, key) VALUES (?, ?)", (name, tag_key(name)))
            tag_id = conn.execute("SELECT id FROM tags WHERE key = ?", (tag_key(name),)).fetchone()[0]
            changed = (conn.execute("INSERT OR IGNORE INTO interests VALUES (?)", (tag_id,)).rowcount if on
                       else conn.execute("DELETE FROM interests WHERE tag_id = ?", (tag_id,)).rowcount)
            carriers = [row[0] for row in conn.execute("SELECT paper_id FROM paper_tags WHERE tag_id = ?", (tag_id,))]
            return self._log(conn, carriers, TRIAGE) if changed and carriers else NOTHING

    def interests(self) -> list[str]:
        """The tags that are interests, by name (case-insensitive)."""
        return [row[0] for row in self.rows("SELECT t.name FROM interests i JOIN tags t ON t.id = i.tag_id"
                                            " ORDER BY t.name COLLATE NOCASE")]

    def set_dismissed(self, paper_id: str, name: str, dismissed: bool = True) -> Changes:
        """Dismiss a paper from the suggestions for tag `name` (kept; the tag's model learns it as a negative),
        or take the dismissal back. The tag is created when missing. Raises KeyError for an unknown paper."""
        name = clean_tag(name)
        with self.transaction() as conn:
            self._annotate(conn, paper_id)  # KeyError for an unknown paper
            conn.execute("INSERT OR IGNORE INTO tags (name, key) VALUES (?, ?)", (name, tag_key(name)))
            tag_id = conn.execute("SELECT id FROM tags WHERE key = ?", (tag_key(name),)).fetchone()[0]
            changed = (conn.execute("INSERT OR IGNORE INTO dismissals VALUES (?, ?, ?)", (paper_id, tag_id, now()))
                       if dismissed else conn.execute("DELETE FROM dismissals WHERE paper_id = ? AND tag_id = ?",
                                                      (paper_id, tag_id))).rowcount
            return self._log(conn, [paper_id], TRIAGE) if changed else NOTHING

    def dismissed(self, name: str) -> list[str]:
        """Ids of the papers dismissed from the suggestions for tag `name`, in the order dismissed."""
        return [row[0] for row in self.rows(
            "SELECT d.paper_id FROM dismissals d JOIN tags t ON t.id = d.tag_id WHERE t.key = ?"
            " ORDER BY d.dismissed_at, d.rowid", (tag_key(name),))]

    def set_liked_source(self, kind: str, value: str, liked: bool = True) -> Changes:
        """Mark a venue (`kind` "venue") or an imported file (`kind` "source", the file name as imported) as
        "papers I like": their papers count as liked (positives) for recommendations from the first screen on,
        and are never recommended themselves (db.recommend.recommender). `liked` false takes the mark back. Returns a
        `triage` change of those papers. Raises ValueError for another kind, KeyError when no paper has that
        venue or source."""
        if kind not in ("venue", "source"):
            raise ValueError(f"a liked source is a venue or a source file, not {kind!r}")
        with self.transaction() as conn:
            ids = [row[0] for row in conn.execute(f"SELECT id FROM papers WHERE {kind} = ?", (value,))]
            if not ids and liked:
                raise KeyError(value)
            changed = (conn.execute("INSERT OR IGNORE INTO liked_sources VALUES (?, ?)", (kind, value)) if liked else
                       conn.execute("DELETE FROM liked_sources WHERE kind = ? AND value = ?", (kind, value))).rowcount
            return self._log(conn, ids, TRIAGE) if changed and ids else NOTHING

    def liked_sources(self) -> list[tuple[str, str]]:
        """The venues and source files marked "papers I like", as (kind, value)."""
        return self.rows("SELECT kind, value FROM liked_sources ORDER BY kind, value")

    def highlight_lists(self):
        """The highlight word lists (db.text.highlight_words.HighlightLists), each in the order written."""
        from db.text.highlight_words import EXCLUDE, INCLUDE, HighlightLists

        rows = self.rows("SELECT kind, entry FROM highlight_words ORDER BY position")
        return HighlightLists([entry for kind, entry in rows if kind == INCLUDE],
                              [entry for kind, entry in rows if kind == EXCLUDE])

    def set_highlight_lists(self, include: Iterable[str], exclude: Iterable[str]) -> Changes:
        """Replace the highlight word lists (entries as db.text.highlight_words.clean_entry keeps them, repeats that
        differ in case only dropped). They belong to the library, not to a paper: the value returned is empty
        (no paper changed) and the window re-renders its reader itself. Raises ValueError, changing nothing,
        for an empty or over-long entry."""
        from db.text.highlight_words import EXCLUDE, INCLUDE, clean_entry

        rows, seen = [], set()
        for kind, entries in ((INCLUDE, include), (EXCLUDE, exclude)):
            for entry in entries:
                entry = clean_entry(entry)
                if (kind, entry.casefold()) not in seen:
                    seen.add((kind, entry.casefold()))
                    rows.append((kind, entry, len(rows)))
        with self.transaction() as conn:
            conn.execute("DELETE FROM highlight_words")
            conn.executemany("INSERT INTO highlight_words (kind, entry, position) VALUES (?, ?, ?)", rows)
        return NOTHING

    def rows(self, sql: str, params: Sequence = ()) -> list[tuple]:
        """Run a read-only SQL query on the library and return its rows (for db modules' own queries)."""
        with self._lock:
            return [tuple(row) for row in self._conn.execute(sql, params)]

    def put_salvaged_rows(self, rows: dict[str, list[tuple]]) -> Changes:
        """Fill a new, empty library with the rows read from a damaged one (db.library.integrity.rebuild): per table
        (papers, annotations, tags, paper_tags, note_history) tuples in db.library.integrity's column order. Rows that
        do not fit (a tag of a paper that could not be read) are left out. One transaction; logged as added."""
        from db.library.integrity import _TABLES
        from db.library.matching import store_match_keys

        with self.transaction() as conn:
            if conn.execute("SELECT 1 FROM papers LIMIT 1").fetchone():
                raise LibraryError(f"{self.folder / DB_NAME}: salvaged rows go into a new library only")
            for table, columns in _TABLES.items():
                values = ", ".join("?" if column != "extra" else "COALESCE(?, '{}')" for column in columns)
                conn.executemany(f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) SELECT {values}"
                                 + _SALVAGE_FITS.get(table, ""), rows.get(table, []))
            ids = [row[0] for row in conn.execute("SELECT id FROM papers ORDER BY position")]
            store_match_keys(conn)  # what re-import matching looks up (db.library.matching)
            return self._log(conn, ids, ADDED) if ids else NOTHING

    # ----------------------------------------------------------------- the change log
    def last_change(self) -> int:
        """The number of the newest change ever committed to the library (0 for none); it only grows."""
        with self._lock:
            row = self._conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'").fetchone()
            return row[0] if row else 0

    def changes_since(self, seq: int, others_only: bool = False) -> tuple[Changes, int] | None:
        """What changed after change number `seq`: (Changes, the newest change number read).

        With `others_only`, changes made through this Library object are left out (a window's own edits,
        which it has already shown). Returns None when the log no longer reaches back to `seq` (older changes
        were pruned; the caller must reload everything it derived)."""
        with self._lock:
            newest = self.last_change()
            if newest < seq:  # the index or window is ahead of this database: it was replaced
                return None
            if newest == seq:
                return NOTHING, newest
            oldest = self._conn.execute("SELECT MIN(seq) FROM change_log").fetchone()[0]
            if oldest is None or oldest > seq + 1:
                return None
            sql = "SELECT paper_id, kinds FROM change_log WHERE seq > ? AND seq <= ?"
            params: tuple = (seq, newest)
            if others_only:
                sql, params = sql + " AND writer != ?", (*params, self.writer)
            by_paper: dict[str, set[str]] = {}
            for paper_id, kinds in self._conn.execute(sql, params):
                by_paper.setdefault(paper_id, set()).update(kinds.split(","))
        return Changes.by_kinds(by_paper), newest


# a salvaged row is kept only where what it refers to was salvaged too (the ? are the row's values, in order)
_SALVAGE_FITS = {
    "annotations": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?1)",
    "paper_tags": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?1) AND EXISTS (SELECT 1 FROM tags WHERE id = ?2)",
    "note_history": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?2)",
    "interests": " WHERE EXISTS (SELECT 1 FROM tags WHERE id = ?1)",
    "dismissals": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?1) AND EXISTS (SELECT 1 FROM tags WHERE id = ?2)",
}

_PAPER_SELECT = (
    "SELECT p.id, p.label, p.title, p.abstract, p.authors, p.venue, p.year, p.url, p.doi, p.arxiv_id,"
    " p.openreview_id, p.keywords, a.rating, COALESCE(a.read, 0), COALESCE(a.note, ''), a.title, p.position,"
    " p.added_at, p.extra FROM papers p LEFT JOIN annotations a ON a.paper_id = p.id"
)


def _paper_from_row(row: tuple, tags: list[str]) -> Paper:
    (paper_id, label, title, abstract, authors, venue, year, url, doi, arxiv_id, openreview_id, keywords,
     rating, read, note, user_title, position, added_at, extra) = row
    return Paper(
        id=paper_id, label=user_title or label, title=user_title or title, abstract=abstract,
        authors=json.loads(authors), venue=venue, year=year, url=url, doi=doi, arxiv_id=arxiv_id,
        openreview_id=openreview_id, keywords=json.loads(keywords), rating=rating, tags=tags, read=bool(read),
        note=note, user_title=user_title, position=position, added_at=added_at, file_title=title,
        extra=json.loads(extra),
    )
