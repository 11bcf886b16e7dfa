"""Schema migrations of library.db: versioned by `PRAGMA user_version`, each step in one transaction,
after a copy of the database was saved to `backups/` (SQLite's online backup API)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from db.errors import LibraryError
from db.library.deleting import SCHEMA_7  # noqa: F401 - MIGRATIONS[6]; db.library.library reads it from here
from db.library.matching import MATCH_SCHEMA as SCHEMA_8
from db.library.matching import store_match_keys

SCHEMA_6 = [
    "CREATE TABLE IF NOT EXISTS check_samples (id INTEGER PRIMARY KEY, scope TEXT NOT NULL,"
    " drawn_at TEXT NOT NULL, seq INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS check_samples_scope ON check_samples(scope, id)",
    "CREATE TABLE IF NOT EXISTS check_papers (sample_id INTEGER NOT NULL REFERENCES check_samples(id)"
    " ON DELETE CASCADE, paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,"
    " drawn INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (sample_id, paper_id))",
    "CREATE TABLE IF NOT EXISTS interests (tag_id INTEGER PRIMARY KEY REFERENCES tags(id) ON DELETE CASCADE)",
    "CREATE TABLE IF NOT EXISTS dismissals (paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,"
    " tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE, dismissed_at TEXT NOT NULL,"
    " PRIMARY KEY (tag_id, paper_id))",
    "CREATE TABLE IF NOT EXISTS highlight_words (kind TEXT NOT NULL CHECK (kind IN ('include', 'exclude')),"
    " entry TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (kind, entry))",
    "CREATE TABLE IF NOT EXISTS liked_sources (kind TEXT NOT NULL CHECK (kind IN ('venue', 'source')),"
    " value TEXT NOT NULL, PRIMARY KEY (kind, value))",
]

# MIGRATIONS[v] turns a version-v library into version v + 1: SQL statements, or a function called with the
# connection (inside the migration's transaction)
MIGRATIONS: dict[int, list[str | Callable[[sqlite3.Connection], object]]] = {
    # 1 → 2: index_queue rows carry a sequence number, so the index never forgets a change made while it was
    # indexing an earlier one (the queue row is only cleared when its number is the one that was indexed).
    1: ["ALTER TABLE index_queue ADD COLUMN seq INTEGER NOT NULL DEFAULT 0"],
    # 2 → 3: covering index for library order, index on venue (sidebar counts stay fast at 50k papers)
    2: ["DROP INDEX IF EXISTS papers_position", "CREATE INDEX papers_position ON papers(position, id)",
        "CREATE INDEX IF NOT EXISTS papers_venue ON papers(venue)"],
    # 3 → 4: the index queue (which the search side cleared, so that every index update was a write to the
    # library) becomes a change log that only the library writes: what changed, in which kinds, by whom.
    # The search index keeps the number of the last change it applied in its own folder.
    3: ["CREATE TABLE change_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, paper_id TEXT NOT NULL,"
        " kinds TEXT NOT NULL, writer TEXT NOT NULL DEFAULT '')",
        "INSERT INTO change_log (paper_id, kinds, writer) SELECT paper_id, 'bibliographic', 'migration'"
        " FROM index_queue ORDER BY seq",
        "DROP TABLE index_queue"],
    # 4 → 5: bibliographic fields beyond the columns (entry type, pages, volume, issue, publisher, month,
    # ISBN/ISSN, editors, language, OpenReview decision…) as one JSON object (db.paper.EXTRA_KEYS)
    4: ["ALTER TABLE papers ADD COLUMN extra TEXT NOT NULL DEFAULT '{}'"],
    # 5 → 6: random check samples of triage progress (db.triage.progress): which papers were unseen in a view when the
    # check was drawn (its population) and which of them were drawn for the user to rate; the tags that are
    # interests, and the papers dismissed from an interest's suggestions (db.triage.interests); the highlight word
    # lists (db.text.highlight_words); the venues and imported files marked "papers I like" (db.recommend.recommender).
    5: [*SCHEMA_6],
    # 6 → 7: deleted papers kept (db.library.deleting): their rows, for undo, and their annotations as a Margin
    # JSON item, for the next backup
    6: [*SCHEMA_7],
    # 7 → 8: what re-import matching looks up instead of loading every paper (db.library.matching): per paper its
    # identifiers and title key, and the prefix keys of its abstract's shingles; computed here for the papers
    # already stored, 500 at a time
    7: [*SCHEMA_8, store_match_keys],
}


def backup_copy(connection: sqlite3.Connection, folder: Path, version: int) -> Path:
    """Copy the open database to `folder/backups/library-v{version}-{UTC time}.db`. Returns the copy's path."""
    backups = folder / "backups"
    backups.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    target = backups / f"library-v{version}-{stamp}.db"
    copy = sqlite3.connect(target)
    try:
        connection.backup(copy)
    finally:
        copy.close()
    return target


def migrate(connection: sqlite3.Connection, folder: Path, version: int, target: int) -> Path | None:
    """Migrate an open library from `version` to `target`. Returns the backup copy made first (None when
    nothing had to change). Raises LibraryError naming the database when a step fails; the library is then
    left at its old version, unchanged."""
    if version >= target:
        return None
    try:
        copy = backup_copy(connection, folder, version)
    except (sqlite3.Error, OSError) as error:
        raise LibraryError(f"{folder / 'library.db'}: cannot save a copy before upgrading ({error})") from None
    try:
        connection.execute("BEGIN IMMEDIATE")
        for step in range(version, target):
            for statement in MIGRATIONS[step]:
                if callable(statement):
                    statement(connection)
                else:
                    connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {target}")
        connection.commit()
    except sqlite3.Error as error:
        connection.rollback()
        raise LibraryError(f"{folder / 'library.db'}: upgrading from schema {version} failed ({error}); "
                           f"the library is unchanged") from None
    return copy
