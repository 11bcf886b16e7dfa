"""Schema migrations of library.db: versioned by `PRAGMA user_version`, each step in one transaction,
after a copy of the database was saved to `backups/` (SQLite's online backup API). The steps themselves are
schema text: db.library.schema.MIGRATIONS."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from db.errors import LibraryError
from db.library.schema import MIGRATIONS

__all__ = ["MIGRATIONS", "backup_copy", "migrate"]


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
