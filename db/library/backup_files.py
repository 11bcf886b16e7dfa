"""Which files of a library folder are automatic backups (`backups/margin-backup-YYYYMMDD-HHMMSSZ[-N].json`),
oldest first, and which of them is the one to restore by default (the newest). Kept apart from writing and
restoring them (db.library.backup) because recognising a damaged library (db.library.damage) names the newest backup
without opening the library."""

from __future__ import annotations

import re
from pathlib import Path

BACKUP_FOLDER = "backups"
BACKUP_NAME = re.compile(r"^margin-backup-(\d{8}-\d{6})Z(?:-(\d+))?\.json$")
WRITTEN_FOR = "written_for"  # a backup's key, among its first ones: "delete" for the one `margin delete` writes
DELETED = "deleted"  # a backup's key: the ids of the papers in it that were deleted (db.library.backup.write_backup)
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


def restore_default(library_folder: Path) -> Path | None:
    """The backup `margin restore` (and a rebuild) takes when none is named: the newest one, whoever wrote it
    (the window, `margin backup`, or `margin delete`: each holds every annotated paper of the library when it was
    written), or None. Restoring it leaves out the papers deleted in it or after it (db.library.backup.restore,
    `without_deleted`), so it brings back the latest annotations and no paper the user deleted."""
    found = backups_in(library_folder)
    return found[-1] if found else None
