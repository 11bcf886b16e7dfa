"""Which files of a library folder are automatic backups (`backups/margin-backup-YYYYMMDD-HHMMSSZ[-N].json`),
oldest first, and which of them is the one to restore by default. Kept apart from writing and restoring them
(db.library.backup) because recognising a damaged library (db.library.damage) names the newest backup without
opening the library."""

from __future__ import annotations

import re
from pathlib import Path

BACKUP_FOLDER = "backups"
BACKUP_NAME = re.compile(r"^margin-backup-(\d{8}-\d{6})Z(?:-(\d+))?\.json$")
WRITTEN_FOR = "written_for"  # a backup's key, among its first ones: "delete" for the one `margin delete` writes
_HEAD_BYTES = 400


def backups_in(library_folder: Path) -> list[Path]:
    """The backup files in `library_folder/backups/`, oldest first (by the UTC time in their names, then the
    clash number); [] when there are none. For a library that cannot be opened too."""
    folder = Path(library_folder) / BACKUP_FOLDER
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        match = BACKUP_NAME.match(path.name)
        if match and path.is_file():
            found.append(((match.group(1), int(match.group(2) or 0)), path))
    return [path for _, path in sorted(found)]


def written_for(path: Path) -> str | None:
    """What a backup was written for ("delete": by `margin delete`, for the papers it deleted), None for the
    automatic and requested ones (and any file that cannot be read). Reads the first bytes only."""
    try:
        with open(path, "rb") as file:
            head = file.read(_HEAD_BYTES)
    except OSError:
        return None
    match = re.search(rb'"' + WRITTEN_FOR.encode() + rb'":\s*"([a-z]+)"', head)
    return match.group(1).decode() if match else None


def restore_default(library_folder: Path) -> tuple[Path | None, list[Path]]:
    """The backup `margin restore` takes when none is named: the newest full one — not one `margin delete` wrote
    (when the library's other annotations were lost before the delete, that one holds the deleted papers alone);
    the newest backup when every one is a delete's. Returns (that backup or None, the newer delete backups passed
    over, oldest first)."""
    found = backups_in(library_folder)
    for at in range(len(found) - 1, -1, -1):
        if written_for(found[at]) != "delete":
            return found[at], found[at + 1:]
    return (found[-1], []) if found else (None, [])
