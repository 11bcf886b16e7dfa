"""Recognising a damaged library.db, and checking one.

SQLite reports damage as SQLITE_CORRUPT ("database disk image is malformed") or SQLITE_NOTADB ("file is not a
database"), at whichever read first touches a bad page. Opening a library (db.library.store) reads the schema
and counts the papers and annotations (a few milliseconds: it touches the schema and the small indexes), so
most damage is seen there; damage elsewhere surfaces at the first read of that page, and every caller that
shows errors turns it into the same one line with `damaged(folder, error)` (`LibraryDamaged`: the file,
SQLite's words, the newest backup and what to do). `check(folder)` runs SQLite's full `PRAGMA integrity_check`
on demand. Rebuilding a damaged library is db.library.integrity.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path

from db.errors import LibraryDamaged, LibraryError
from db.library.backup_files import restore_default
from db.library.schema import DB_NAME

_DAMAGE_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)
_DAMAGE_WORDS = ("malformed", "not a database", "corrupt")


def is_damage(error: BaseException) -> bool:
    """True when `error` is SQLite saying the database file is damaged (not busy, full or read-only)."""
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _DAMAGE_CODES
    return any(word in str(error) for word in _DAMAGE_WORDS)


def newest_backup(folder: Path) -> Path | None:
    """The backup a rebuild takes, and the damage message names: the newest full Margin JSON backup in
    `folder/backups/` — not one `margin delete` wrote, as `margin restore` on a sound library chooses
    (db.library.backup_files.restore_default) — or None."""
    return restore_default(Path(folder))[0]


def damaged(folder: Path, error: BaseException | str) -> LibraryDamaged:
    """The LibraryDamaged error to raise for the library in `folder`: one line naming library.db, SQLite's
    words, and the newest backup with the command that rebuilds the library from it."""
    path = Path(folder) / DB_NAME
    reason = str(error)
    backup = newest_backup(folder)
    if backup is not None:
        advice = (f"the newest full backup is {backup}; `margin restore` rebuilds the library from it and from what is "
                  f"still readable (the damaged file is kept)")
    else:
        advice = ("there is no backup; `margin restore` rebuilds the library from what is still readable (the "
                  "damaged file is kept)")
    return LibraryDamaged(f"{path}: the library database is damaged ({reason}); {advice}", path, reason, backup)


def check(folder: Path) -> list[str]:
    """SQLite's full integrity check of `folder/library.db` (every page; about a second per 100 MB).

    Returns the problems SQLite lists (at most 20 lines; SQLite's error alone when the file cannot be read as a
    database at all), [] when the database is sound. Raises LibraryError when there is no library.db, or it
    cannot be read for another reason (permissions)."""
    path = Path(folder) / DB_NAME
    if not path.is_file():
        raise LibraryError(f"{path}: there is no library here")
    try:
        with read_only(path) as connection:
            rows = [row[0] for row in connection.execute("PRAGMA integrity_check(20)")]
    except sqlite3.DatabaseError as error:
        if isinstance(error, sqlite3.OperationalError) and not is_damage(error):
            raise LibraryError(f"{path}: cannot read the library database ({error})") from None
        return [str(error)]
    return [] if rows == ["ok"] else rows


@contextmanager
def read_only(path: Path):
    """A read-only connection to the database file `path`, closed afterwards."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        yield connection
    finally:
        connection.close()
