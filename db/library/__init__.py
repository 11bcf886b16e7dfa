"""The library: one folder holding `library.db` (SQLite, the source of truth), `index/` and `backups/`.

`from db.library import Library` is the API the window and the command line use (ARCHITECTURE.md)."""

from db.library.library import BUSY_TIMEOUT_MS, DB_NAME, SCHEMA_VERSION, ImportReport, Library

__all__ = ["BUSY_TIMEOUT_MS", "DB_NAME", "SCHEMA_VERSION", "ImportReport", "Library"]
