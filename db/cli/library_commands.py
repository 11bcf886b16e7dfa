"""The commands about the library itself and the installation: `check`, `restore`, `tags` and
`install-desktop` (same conventions as every command: `--library`, exit codes 0/1/2)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from db.cli.common import after_write, library_dir, no_library_here, open_library, write_stdout
from db.errors import MarginError
from db.library.damage import damaged
from db.library.library import DB_NAME
from db.system.open_window import window_open
from db.text.counts import counted


def cmd_check(args: argparse.Namespace) -> int:
    """Check library.db page by page: `…: ok` (exit 0), or SQLite's findings and one error line (exit 1)."""
    from db.library.integrity import check

    folder = library_dir(args)
    refusal = no_library_here(args)
    if refusal:
        raise MarginError(refusal)
    problems = check(folder)
    if not problems:
        print(f"{folder / DB_NAME}: ok (every page checked)")
        return 0
    for problem in problems[1:10]:  # SQLite's further findings, as data; the one-line error is the first
        print(problem)
    print(f"margin: {damaged(folder, problems[0])}", file=sys.stderr)
    return 1


def cmd_restore(args: argparse.Namespace) -> int:
    """Rebuild a damaged library from what is readable plus `args.backup`, or on a sound one restore the
    backup's annotations (default: the newest backup, db.library.backup_files.restore_default, named on
    stderr, without the papers deleted in or after it); print one summary line. Exit 1 when there is nothing
    to restore, the backup is not a Margin JSON document, or a window has the damaged library open
    (db.system.open_window: rebuilding would move library.db away under it)."""
    from db.library.backup import read_backup, restore
    from db.library.backup_files import restore_default
    from db.library.integrity import check, rebuild

    folder = library_dir(args)
    backup = Path(args.backup) if args.backup else None
    if backup is not None:
        read_backup(backup)  # a file that is not a Margin JSON document stops here, nothing changed
    if (folder / DB_NAME).exists() and check(folder):
        if window_open(folder):  # it would go on with the damaged file moved away under it
            raise MarginError(f"{folder}: a Margin window has this library open; close it (or use its Rebuild the "
                              f"library) before `margin restore` replaces library.db; nothing was changed")
        report = rebuild(folder, backup)
        print(report.summary())
        with open_library(args, seed=False) as library:
            after_write(library)
        return 0
    with open_library(args) as library:
        named = backup is not None
        if not named:
            backup = restore_default(folder)
            if backup is not None:
                print(f"margin: restoring {backup.name}, the newest backup, without the papers deleted since"
                      f" (name a backup to restore all of it)", file=sys.stderr)
        if backup is None:
            raise MarginError(f"{folder}: the library is sound and has no backup to restore; name a backup or "
                              f"a Margin JSON export")
        report = restore(library, read_backup(backup), path=backup, without_deleted=not named)
        print(f"{backup.name}: {report.summary()}")
        after_write(library)
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """Write a backup now (db.library.backup.write_backup) and print its path; exit 1 (one line) when it cannot
    be written (a read-only or full disk)."""
    from db.library.backup import write_backup

    with open_library(args) as library:
        if library.unwritable:
            raise MarginError(library.refusal)
        print(write_backup(library))
    return 0


def cmd_tags(args: argparse.Namespace) -> int:
    """Print every tag with its number of papers, by name (`library.tags()` order)."""
    with open_library(args) as library:
        tags = library.tags()
        if args.json:
            write_stdout(json.dumps([{"tag": name, "papers": count} for name, count in tags], ensure_ascii=False)
                         + "\n")
        else:
            write_stdout("".join(f"{count:>7,}  {name}\n" for name, count in tags))
    return 0


def cmd_install_desktop(args: argparse.Namespace) -> int:
    """Install (or with `--remove` take away) the desktop entry and icon (db.cli.desktop_entry);
    print what was written or removed."""
    from db.cli import desktop_entry

    if args.remove:
        removed = desktop_entry.remove()
        print(f"removed {counted(len(removed), 'file')}" + "".join(f"\n  {path}" for path in removed))
        return 0
    written = desktop_entry.install()
    print(f"Margin is in the application menu: {written[0]} (icon: {written[1].parent.parent.parent})")
    return 0


COMMANDS = {"check": cmd_check, "restore": cmd_restore, "tags": cmd_tags, "install-desktop": cmd_install_desktop,
            "backup": cmd_backup}
