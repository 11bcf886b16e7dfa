"""The schema of library.db, in one place: every table (a new library's, `create_script`), every migration from
an older version (`MIGRATIONS`, run by db.library.migrations), and the columns a rebuild of a damaged library
salvages per table (`SALVAGE_COLUMNS`, read by db.library.integrity and written back by db.library.importing).

The version is `PRAGMA user_version`; a library newer than SCHEMA_VERSION is refused (db.library.store).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from db.library.match_keys import store_match_keys

SCHEMA_VERSION = 16
DB_NAME = "library.db"

# the tables of schema 5 (each later version's statements follow, and a new library runs them all)
TABLES = """
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
    writer TEXT NOT NULL DEFAULT '',
    at INTEGER NOT NULL DEFAULT 0
);
"""

# 5 → 6: triage bookkeeping (db.library.triage)
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

# 6 → 7: deleted papers kept for undo and the next backup (db.library.deleting)
SCHEMA_7 = [
    "CREATE TABLE IF NOT EXISTS deleted_papers (paper_id TEXT NOT NULL, deleted_at TEXT NOT NULL,"
    " rows TEXT NOT NULL, item TEXT)",
    "CREATE INDEX IF NOT EXISTS deleted_papers_paper ON deleted_papers(paper_id, deleted_at)",
]

# 7 → 8: what re-import matching reads (db.library.match_keys)
SCHEMA_8 = [
    "CREATE TABLE IF NOT EXISTS match_keys (paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,"
    " doi TEXT, arxiv TEXT, openreview TEXT, title TEXT, year INTEGER, size INTEGER NOT NULL DEFAULT 0,"
    " keys TEXT NOT NULL DEFAULT '[]')",
    "CREATE INDEX IF NOT EXISTS match_keys_doi ON match_keys(doi) WHERE doi IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS match_keys_arxiv ON match_keys(arxiv) WHERE arxiv IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS match_keys_openreview ON match_keys(openreview) WHERE openreview IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS match_keys_title ON match_keys(title, year) WHERE title IS NOT NULL",
    "CREATE TABLE IF NOT EXISTS abstract_keys (key INTEGER NOT NULL, size INTEGER NOT NULL, paper_id TEXT NOT NULL,"
    " PRIMARY KEY (key, size, paper_id)) WITHOUT ROWID",
    "CREATE TRIGGER IF NOT EXISTS match_keys_added AFTER INSERT ON match_keys BEGIN"
    " INSERT OR IGNORE INTO abstract_keys (key, size, paper_id) SELECT value, new.size, new.paper_id"
    " FROM json_each(new.keys); END",
    "CREATE TRIGGER IF NOT EXISTS match_keys_removed AFTER DELETE ON match_keys BEGIN"
    " DELETE FROM abstract_keys WHERE key IN (SELECT value FROM json_each(old.keys)) AND size = old.size"
    " AND paper_id = old.paper_id; END",
    "CREATE TABLE IF NOT EXISTS frequent_keys (key INTEGER PRIMARY KEY)",
]

# 8 → 9: screening decisions (db.library.decisions): include / exclude / maybe per paper with an exclusion reason,
# the editable list of exclusion reasons (seeded with a few common ones) and the library's settings for screening
# (the inclusion criteria text). Library tables, so that a shared project can take them over later.
DEFAULT_REASONS = ("wrong population", "wrong topic", "wrong study design", "wrong publication type", "duplicate")
SCHEMA_9 = [
    "CREATE TABLE IF NOT EXISTS decisions (paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,"
    " decision TEXT NOT NULL CHECK (decision IN ('include', 'exclude', 'maybe')), reason TEXT,"
    " decided_at TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS decisions_decision ON decisions(decision, reason)",
    "CREATE TABLE IF NOT EXISTS exclusion_reasons (reason TEXT PRIMARY KEY, position INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS screening_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "INSERT OR IGNORE INTO exclusion_reasons (reason, position) VALUES "
    + ", ".join(f"('{reason}', {number})" for number, reason in enumerate(DEFAULT_REASONS)),
]
# 9 → 10: versions of one work (db.library.works): a paper in a group of versions has a row naming its work (the
# id of one of its papers; a paper without a row is a work of its own); pairs the user split are kept apart
SCHEMA_10 = [
    "CREATE TABLE IF NOT EXISTS works (paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,"
    " work_id TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '')",
    "CREATE INDEX IF NOT EXISTS works_work ON works(work_id)",
    "CREATE TABLE IF NOT EXISTS work_splits (paper_id TEXT NOT NULL, other_id TEXT NOT NULL,"
    " PRIMARY KEY (paper_id, other_id))",
]
# 10 → 11: saved searches in the library, so backups and JSON exports carry them (db.library.user_state; the window
# kept them in QSettings before, and moves them here once)
SCHEMA_11 = [
    "CREATE TABLE IF NOT EXISTS saved_searches (name TEXT PRIMARY KEY, query TEXT NOT NULL,"
    " position INTEGER NOT NULL DEFAULT 0)",
]
# 11 → 12: sync through a PostgreSQL server (db.sync, db.library.syncing): when each change was made (ms since the
# epoch, the wall time a hybrid logical clock starts from), this device's sync bookkeeping (device id, clock,
# cursors), the last value digest and clock of every synced field, the changes stamped and not yet acknowledged
# by the server, the conflicts the clock decided, and the tag renames that replay as operations
SCHEMA_12 = [
    "CREATE TABLE IF NOT EXISTS sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS sync_fields (entity TEXT NOT NULL, field TEXT NOT NULL, digest TEXT NOT NULL,"
    " hlc TEXT NOT NULL, PRIMARY KEY (entity, field)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS sync_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, entity TEXT NOT NULL,"
    " field TEXT NOT NULL, hlc TEXT NOT NULL, value TEXT NOT NULL, parent TEXT NOT NULL DEFAULT '')",
    "CREATE TABLE IF NOT EXISTS sync_conflicts (id INTEGER PRIMARY KEY, decided_at TEXT NOT NULL,"
    " entity TEXT NOT NULL, field TEXT NOT NULL, kept TEXT NOT NULL, kept_hlc TEXT NOT NULL,"
    " dropped TEXT NOT NULL, dropped_hlc TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tag_renames (id INTEGER PRIMARY KEY, old_key TEXT NOT NULL, new_name TEXT NOT NULL,"
    " at INTEGER NOT NULL, hlc TEXT)",
    "CREATE INDEX IF NOT EXISTS tag_renames_old ON tag_renames(old_key, hlc)",
]
# 12 → 13: a progress check drawn by rank (db.triage.check): its design, and each population paper's stratum
SCHEMA_13 = [
    "ALTER TABLE check_samples ADD COLUMN design TEXT NOT NULL DEFAULT 'random'",
    "ALTER TABLE check_papers ADD COLUMN stratum INTEGER NOT NULL DEFAULT 0",
]

# 13 → 14: the shared screening projects this library joined (db.library.shared_projects): the project, its papers,
# every decision the server let this member read at the last sync, and the resolutions
SCHEMA_14 = [
    "CREATE TABLE IF NOT EXISTS projects (name TEXT PRIMARY KEY, server TEXT NOT NULL, role TEXT NOT NULL DEFAULT '',"
    " owner TEXT NOT NULL DEFAULT '', blind INTEGER NOT NULL DEFAULT 1, crowd INTEGER NOT NULL DEFAULT 0,"
    " criteria TEXT NOT NULL DEFAULT '', reasons TEXT NOT NULL DEFAULT '[]', members TEXT NOT NULL DEFAULT '[]',"
    " synced_at TEXT)",
    "CREATE TABLE IF NOT EXISTS project_papers (project TEXT NOT NULL, paper_id TEXT NOT NULL,"
    " PRIMARY KEY (project, paper_id)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS project_decisions (project TEXT NOT NULL, paper_id TEXT NOT NULL,"
    " reviewer TEXT NOT NULL, decision TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', hlc TEXT NOT NULL DEFAULT '',"
    " decided_at TEXT NOT NULL DEFAULT '', PRIMARY KEY (project, paper_id, reviewer)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS project_resolutions (project TEXT NOT NULL, paper_id TEXT NOT NULL,"
    " resolver TEXT NOT NULL, decision TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '',"
    " PRIMARY KEY (project, paper_id)) WITHOUT ROWID",
]


# 14 → 15: who of a shared project's members may resolve its conflicts (the owner and the resolvers, as the server
# said at the last sync), so the window offers Resolve… only to them (db.library.shared_projects)
SCHEMA_15 = ["ALTER TABLE projects ADD COLUMN resolvers TEXT NOT NULL DEFAULT '[]'"]


# 15 → 16: the tags and notes shared in a joined project (db.library.shared_annotations): every member's the server
# let this member read at the last sync (this member's own: what the server held of them, the next sync's base)
SCHEMA_16 = [
    "CREATE TABLE IF NOT EXISTS project_annotations (project TEXT NOT NULL, paper_id TEXT NOT NULL,"
    " reviewer TEXT NOT NULL, tags TEXT, note TEXT, tags_at TEXT NOT NULL DEFAULT '', note_at TEXT NOT NULL"
    " DEFAULT '', PRIMARY KEY (project, paper_id, reviewer)) WITHOUT ROWID",
]


def add_check_design(conn: sqlite3.Connection) -> None:
    """12 → 13: the columns of SCHEMA_13, each added only where it is missing (a library whose check tables were
    made at a later version and then given an older version number already has them)."""
    for statement in SCHEMA_13:
        table, column = statement.split()[2], statement.split()[5]
        if column not in {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}:
            conn.execute(statement)


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
    # 8 → 9: screening decisions, exclusion reasons, inclusion criteria (db.library.decisions)
    8: [*SCHEMA_9],
    # 9 → 10: versions of one work (db.library.works); a library's papers start as works of their own
    9: [*SCHEMA_10],
    # 10 → 11: saved searches (db.library.user_state)
    10: [*SCHEMA_11],
    # 11 → 12: sync bookkeeping (SCHEMA_12); changes logged before it have no time (0: stamped when first synced)
    11: [lambda conn: _add_column(conn, "change_log", "at INTEGER NOT NULL DEFAULT 0"), *SCHEMA_12],
    # 12 → 13: checks drawn by rank (db.triage.check): 'random' (one simple random sample, as before) or 'ranked'
    # (stratified by the ranking's order: each stratum a simple random sample of its papers); earlier checks
    # are random ones, all of stratum 0
    12: [add_check_design],
    # 13 → 14: shared screening projects joined (db.library.shared_projects)
    13: [*SCHEMA_14],
    # 14 → 15: a shared project's resolvers (db.library.shared_projects); known from the next project sync
    14: [lambda conn: _add_column(conn, "projects", "resolvers TEXT NOT NULL DEFAULT '[]'")],
    # 15 → 16: shared projects' tags and notes (db.library.shared_annotations)
    15: [*SCHEMA_16],
}


def _add_column(conn: sqlite3.Connection, table: str, definition: str) -> None:
    """Add a column unless the table has it (a library made new and set back to an older version in tests)."""
    if definition.split()[0] not in {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {definition}")


def create_script() -> str:
    """The SQL script that creates a new library at SCHEMA_VERSION (tables, indexes, triggers; no transaction:
    the store runs it inside one, so a crash leaves an empty file, never half a schema)."""
    return TABLES + "".join(f"{statement};\n" for statement in SCHEMA_6 + SCHEMA_7 + SCHEMA_8 + SCHEMA_9 + SCHEMA_10
                                                        + SCHEMA_11 + SCHEMA_12 + SCHEMA_13 + SCHEMA_14
                                                        + SCHEMA_15 + SCHEMA_16)


# the tables a rebuild copies from a damaged library, with their columns (in this order: the tuples of
# db.library.integrity's salvaged rows)
SALVAGE_COLUMNS: dict[str, tuple[str, ...]] = {
    "papers": ("id", "position", "title", "abstract", "label", "authors", "venue", "year", "url", "doi",
               "arxiv_id", "openreview_id", "keywords", "extra", "source", "added_at", "updated_at"),
    "annotations": ("paper_id", "rating", "read", "note", "title", "updated_at"),
    "tags": ("id", "name", "key"),
    "paper_tags": ("paper_id", "tag_id"),
    "note_history": ("id", "paper_id", "note", "saved_at"),
    "interests": ("tag_id",),
    "dismissals": ("paper_id", "tag_id", "dismissed_at"),
    "highlight_words": ("kind", "entry", "position"),
    "liked_sources": ("kind", "value"),
    "deleted_papers": ("paper_id", "deleted_at", "rows", "item"),  # deletions stay undoable after a rebuild
    "decisions": ("paper_id", "decision", "reason", "decided_at"),
    "exclusion_reasons": ("reason", "position"),
    "screening_settings": ("key", "value"),
    "works": ("paper_id", "work_id", "reason"),
    "work_splits": ("paper_id", "other_id"),
    "saved_searches": ("name", "query", "position"),
    "projects": ("name", "server", "role", "owner", "blind", "crowd", "criteria", "reasons", "members", "synced_at",
                 "resolvers"),
}
# the tables a rebuild does not copy, and why (every table of a library is in one of the two)
NOT_SALVAGED = {
    "change_log": "bookkeeping: starts afresh (the search index is rebuilt)",
    "sqlite_sequence": "SQLite's own",
    "match_keys": "derived: computed again from the papers",
    "abstract_keys": "derived: filled from match_keys",
    "frequent_keys": "derived: grows again with the match keys",
    "check_samples": "a progress check: drawn again in a minute",
    "check_papers": "a progress check: drawn again in a minute",
    "sync_state": "sync bookkeeping: a rebuilt library is a new device and syncs afresh (db.sync)",
    "sync_fields": "sync bookkeeping: a rebuilt library is a new device and syncs afresh (db.sync)",
    "sync_outbox": "sync bookkeeping: a rebuilt library is a new device and syncs afresh (db.sync)",
    "sync_conflicts": "sync bookkeeping: the conflicts a sync decided, for `margin sync --log`",
    "tag_renames": "sync bookkeeping: a rebuilt library is a new device and syncs afresh (db.sync)",
    "project_papers": "a shared project's copy: received again from the server at the next sync",
    "project_decisions": "a shared project's copy: received again from the server at the next sync",
    "project_resolutions": "a shared project's copy: received again from the server at the next sync",
    "project_annotations": "a shared project's copy: received again from the server at the next sync",
}
# a salvaged row is kept only where what it refers to was salvaged too (the ? are the row's values, in order)
SALVAGE_FITS = {
    "annotations": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?1)",
    "paper_tags": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?1) AND EXISTS (SELECT 1 FROM tags WHERE id = ?2)",
    "note_history": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?2)",
    "interests": " WHERE EXISTS (SELECT 1 FROM tags WHERE id = ?1)",
    "dismissals": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?1) AND EXISTS (SELECT 1 FROM tags WHERE id = ?2)",
    "decisions": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?1)",
    "works": " WHERE EXISTS (SELECT 1 FROM papers WHERE id = ?1)",
}
