"""Rebuilding a damaged library from what is still readable of its library.db and a backup (recognising and
checking damage is db.library.damage; its names are re-exported here for the callers that import them from
this module).

`rebuild(folder, backup)` is what `margin restore` and the window's "Rebuild" do with a damaged library:

1. read every row of the library's tables that can still be read (table by table; where a table cannot be
   read whole, row by row by rowid, so the rows on an undamaged page survive a damaged one);
2. move the damaged database aside, to `backups/library-damaged-<UTC time>.db` (with its -wal file), never
   deleting it;
3. create a new library.db and put the rows read back, in one transaction;
4. restore the backup (a Margin JSON backup: db.library.backup.restore), which adds the annotated papers that could not
   be read and every annotation the salvaged rows lack (newer values of the salvaged rows win, as in every
   restore);
5. remove the search index (derived data; rebuilt on next use).

Papers that were in neither (unannotated papers on damaged pages) come back by importing their file again; the
report says how many rows could not be read.
"""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from db.errors import LibraryError
from db.library.backup import read_backup, restore
from db.library.damage import check, damaged, is_damage, newest_backup, read_only
from db.library.library import Library
from db.library.schema import DB_NAME, SALVAGE_COLUMNS
from db.text.counts import counted

__all__ = ["UNKNOWN", "RebuildReport", "check", "damaged", "is_damage", "newest_backup", "rebuild"]

UNKNOWN = -1  # RebuildReport.lost of a table of which nothing could be read
_MISSES_BEFORE_GIVING_UP = 20000  # rowids tried past the last one read, where a table's end cannot be read


@dataclass
class RebuildReport:
    """What `rebuild` did: `kept_as` is where the damaged database went; `rows` the rows read back per table,
    `lost` the rows (or, where a table's end was unreadable, at least the rows) that could not be read, UNKNOWN
    where nothing of a table could; `annotated` the papers read back with annotations;
    `restored` the backup's restore report (None without a backup), `backup` the file used."""

    kept_as: Path
    rows: dict[str, int] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)
    backup: Path | None = None
    restored: object | None = None  # db.library.backup.RestoreReport
    annotated: int = 0  # papers read back with a rating, tag, note or title
    lost_annotations: list[str] = field(default_factory=list)  # papers whose annotation row could not be read

    def summary(self) -> str:
        """`library rebuilt: 36 papers read back (2 unreadable), 5 annotations; backup …: annotations restored
        on 4 papers (…); the damaged file is kept as …`."""
        papers, lost = self.rows.get("papers", 0), self.lost.get("papers", 0)
        if lost == UNKNOWN:
            text = "library rebuilt: no paper could be read back (import the paper lists again to get them back)"
        else:
            text = f"library rebuilt: {counted(papers, 'paper')} read back"
            if lost:
                text += f" ({lost:,} unreadable: import their files again to get them back)"
            text += f", {self.annotated:,} of them annotated"
        if self.lost_annotations:
            back = set(self.restored.changed) | set(self.restored.unchanged) if self.restored is not None else set()
            gone = [paper_id for paper_id in self.lost_annotations if paper_id not in back]
            text += (f"; the ratings, notes and read marks of {counted(len(self.lost_annotations), 'paper')} could not"
                     f" be read" + (f" and no backup has them: {', '.join(gone[:5])}{' …' if len(gone) > 5 else ''}"
                                if gone else ", the backup had them all"))
        if self.backup is not None and self.restored is not None:
            text += f"; from {self.backup.name}: {self.restored.summary()}"
        elif self.backup is None:
            text += "; no backup to restore from"
        return text + f"; the damaged file is kept as {self.kept_as}"


def rebuild(folder: Path, backup: Path | None = None, use_newest: bool = True) -> RebuildReport:
    """Rebuild the library in `folder` from the readable rows of its library.db and `backup` (the newest
    backup when None and `use_newest`, restored without the papers deleted in or after it). See the module
    docstring for the steps. Nothing must have the library open in this process (other processes' writes would
    go to the damaged file being moved; `margin restore` refuses while a window has it open).

    Raises InputError (naming the file) for a backup that is not a Margin JSON backup, before anything is
    changed; LibraryError when the folder cannot be written (the damaged file is then where it was)."""
    folder = Path(folder)
    path = folder / DB_NAME
    newest = backup is None and use_newest  # restored without the papers deleted in or after it
    if newest:
        backup = newest_backup(folder)
    data = read_backup(backup) if backup is not None else None  # a bad backup stops here, nothing moved
    rows, lost, lost_annotations = _salvage(path) if path.exists() else ({}, {}, [])
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    kept_as = folder / "backups" / f"library-damaged-{stamp}.db"
    try:
        kept_as.parent.mkdir(parents=True, exist_ok=True)
        for suffix in ("", "-wal", "-shm"):
            source = folder / f"{DB_NAME}{suffix}"
            if source.exists():
                source.replace(kept_as.with_name(kept_as.name + suffix))
    except OSError as error:
        raise LibraryError(f"{path}: cannot move the damaged database aside ({error.strerror})") from None
    shutil.rmtree(folder / "index", ignore_errors=True)  # derived data: rebuilt from the new library
    report = RebuildReport(kept_as=kept_as, rows={table: len(found) for table, found in rows.items()},
                           lost=lost, backup=backup, lost_annotations=lost_annotations)
    with Library.open(folder, seed=False) as library:
        library.put_salvaged_rows(rows)
        report.rows["papers"] = library.count()
        report.annotated = len(library.annotated_ids())
        if data is not None:
            report.restored = restore(library, data, path=backup, without_deleted=newest)
    return report


def _salvage(path: Path) -> tuple[dict[str, list[tuple]], dict[str, int], list[str]]:
    """The rows of every table that can be read, per table how many rows (at least) could not, and the papers
    whose annotation row could not be read (their ids from the annotations' primary-key index when it is
    sound, else [])."""
    rows: dict[str, list[tuple]] = {}
    lost: dict[str, int] = {}
    unread: list[str] = []
    try:
        with read_only(path) as connection:
            for table, columns in SALVAGE_COLUMNS.items():
                rows[table], lost[table] = _read_table(connection, table, columns)
            if lost.get("annotations"):
                read = {row[0] for row in rows["annotations"]}
                try:
                    unread = [row[0] for row in connection.execute(
                        "SELECT paper_id FROM annotations ORDER BY paper_id") if row[0] not in read]
                except sqlite3.DatabaseError:
                    unread = []
    except sqlite3.Error:
        pass
    return rows, lost, unread


def _read_table(connection: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> tuple[list[tuple], int]:
    """(rows, lost) of one table, each row with `columns` in order (None for a column that an older schema
    lacks)."""
    try:
        present = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
    except sqlite3.DatabaseError:
        present = set(columns)
    if not present:
        return [], 0  # a table this library's schema did not have
    select = "SELECT " + ", ".join(column if column in present else "NULL" for column in columns) + f" FROM {table}"
    try:
        return connection.execute(select).fetchall(), 0
    except sqlite3.DatabaseError:
        pass
    try:  # the end of the table, when that page can be read
        highest = connection.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0] or 0
    except sqlite3.DatabaseError:
        highest = None
    found: list[tuple] = []
    failed: list[int] = []
    rowid, last_found = 0, 0
    while True:
        rowid += 1
        if highest is not None and rowid > highest:
            break
        if highest is None and rowid - last_found > _MISSES_BEFORE_GIVING_UP:
            break
        try:
            row = connection.execute(select + " WHERE rowid = ?", (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            failed.append(rowid)
            continue
        if row is not None:
            found.append(row)
            last_found = rowid
    try:  # how many rows there were, from an index when one is sound
        total = connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        return found, max(total - len(found), 0)
    except sqlite3.DatabaseError:
        pass
    if not found and failed:
        return found, UNKNOWN  # nothing of the table could be read, not even how long it was
    return found, sum(1 for number in failed if highest is not None or number < last_found)
