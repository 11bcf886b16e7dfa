"""Recognising a damaged library.db, and checking one.

SQLite reports damage as SQLITE_CORRUPT ("database disk image is malformed") or SQLITE_NOTADB ("file is not a
database"), at whichever read first touches a bad page. Opening a library (db.library.store) reads the schema,
counts the papers and annotations and reads both ends of each table (`read_ends`: the small indexes, the root and
the first and last leaf pages, under a millisecond), then every leaf page of the two tables (`read_pages`: a
full scan, 60-240 ms at 100k papers), so most damage is seen there. The window opens with the ends alone and
reads the pages on a worker thread just after its list is first painted (`scan`), offering the same rebuild when
it finds damage. Damage elsewhere surfaces at the first read of that page, and every caller that shows errors
turns it into the same one line with `damaged(folder, error)` (`LibraryDamaged`: the file, SQLite's words, the
newest backup and what to do). `check(folder)` runs SQLite's full `PRAGMA integrity_check` on demand.
Rebuilding a damaged library is db.library.integrity.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path

from db.errors import LibraryDamaged, LibraryError
from db.library.backup_files import restore_default
from db.library.schema import DB_NAME

TABLES = ("papers", "annotations")  # the tables whose pages are read when a library is opened
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
    """The backup a rebuild takes, and the damage message names: the newest Margin JSON backup in
    `folder/backups/`, as `margin restore` on a sound library chooses (db.library.backup_files.restore_default),
    or None."""
    return restore_default(Path(folder))


def damaged(folder: Path, error: BaseException | str) -> LibraryDamaged:
    """The LibraryDamaged error to raise for the library in `folder`: one line naming library.db, SQLite's
    words, and the newest backup with the command that rebuilds the library from it."""
    path = Path(folder) / DB_NAME
    reason = str(error)
    backup = newest_backup(folder)
    if backup is not None:
        advice = (f"the newest backup is {backup}; `margin restore` rebuilds the library from it and from what is "
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


def read_ends(connection: sqlite3.Connection) -> None:
    """Read the cheap part of the papers and annotations tables: their row counts (the smallest index) and
    their first and last rows (a seek each: the root, the interior pages on the way, the first and last leaf).
    Raises sqlite3.DatabaseError when one of those pages is damaged."""
    for table in TABLES:
        connection.execute(f"SELECT count(*) FROM {table}").fetchone()
        connection.execute(f"SELECT min(rowid) FROM {table}").fetchone()
        connection.execute(f"SELECT max(rowid) FROM {table}").fetchone()


def read_pages(connection: sqlite3.Connection) -> None:
    """Read every leaf page of the papers and annotations tables (a full scan without an index: 60-240 ms at
    100k papers, the interpreter lock released meanwhile). Raises sqlite3.DatabaseError on a damaged page."""
    for table in TABLES:
        connection.execute(f"SELECT min(rowid), max(rowid) FROM {table} NOT INDEXED").fetchone()


def scan(folder: Path) -> str | None:
    """`read_pages` of `folder/library.db` on a read-only connection of its own (for a worker thread, after the
    window opened the library with `read_ends` alone). Returns SQLite's words when a page is damaged (for
    `damaged(folder, words)`), None when every page reads; another error (the file gone, not readable) is no
    damage: None too, left to the reads that meet it."""
    try:
        with read_only(Path(folder) / DB_NAME) as connection:
            read_pages(connection)
    except sqlite3.DatabaseError as error:
        return str(error) if is_damage(error) else None
    return None


@contextmanager
def read_only(path: Path):
    """A read-only connection to the database file `path`, closed afterwards."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        yield connection
    finally:
        connection.close()
