"""Sync of one library across machines through a PostgreSQL server (issue 26): offline first, nothing lost.

The local library stays the working copy; a sync stamps what changed here with a hybrid logical clock
(db.sync.clock), sends it in batches (db.sync.server), and applies what other devices sent through the Library
API (db.sync.applying), the later stamp winning per field. What travels is a small registry (db.sync.kinds).
No Qt here: the window runs `run_sync` on a worker thread (desktop.window.sync).
"""

from db.sync.engine import (
    SyncReport,
    SyncStatus,
    configured_server,
    open_for_sync,
    run_sync,
    sync_library,
    sync_status,
)
from db.sync.server import SERVER_SCHEMA_VERSION, SyncError, SyncSchemaError, SyncUnreachable

__all__ = ["SERVER_SCHEMA_VERSION", "SyncError", "SyncReport", "SyncSchemaError", "SyncStatus", "SyncUnreachable",
           "configured_server", "open_for_sync", "run_sync", "sync_library", "sync_status"]
