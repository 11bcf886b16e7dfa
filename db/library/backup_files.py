"""Which files of a library folder are automatic backups (`backups/margin-backup-YYYYMMDD-HHMMSSZ[-N].json`),
oldest first. Kept apart from writing and restoring them (db.library.backup) because recognising a damaged
library (db.library.damage) names the newest backup without opening the library."""

from __future__ import annotations

import re
from pathlib import Path

BACKUP_FOLDER = "backups"
BACKUP_NAME = re.compile(r"^margin-backup-(\d{8}-\d{6})Z(?:-(\d+))?\.json$")


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
