"""Headless commands about the library itself and the installation: `delete ID... --yes` and
`install-desktop` (registered by db.cli.commands.build_parser; same conventions: `--library`, exit codes 0/1/2)."""

from __future__ import annotations

import argparse
import sys

from db.errors import MarginError

CONFIRM_EXIT = 2  # a delete without --yes: a usage error (the command is not complete), nothing changed


def add_parsers(commands, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser("delete", parents=[common], help="delete papers (their annotations go to a backup)",
                            epilog="Without --yes nothing is deleted: one line says what would be. The papers' "
                                   "annotations are written to a backup first; `margin restore` with that "
                                   "backup brings them back.")
    p.add_argument("ids", nargs="+", metavar="ID", help="a paper id (or a unique prefix of at least 4 digits)")
    p.add_argument("--yes", action="store_true", help="delete them (without it: say what would be deleted)")

    p = commands.add_parser("install-desktop", parents=[common],
                            help="add Margin to the desktop's application menu (Linux: a desktop entry and icon)")
    p.add_argument("--remove", action="store_true", help="take the desktop entry and icon away again")


def cmd_delete(args: argparse.Namespace) -> int:
    from db.cli.commands import _after_write, _open
    from db.library.backup import write_backup

    with _open(args) as library:
        ids = []
        for given in args.ids:
            try:
                ids.append(library.find_id(given))
            except KeyError:
                raise MarginError(f"no single paper has the id '{given}' (see: margin list); nothing was "
                                  f"deleted") from None
        ids = list(dict.fromkeys(ids))
        papers = library.papers(ids)
        listing = "; ".join(f"{paper.id} {paper.label[:60]}" for paper in papers)
        if not args.yes:
            print(f"margin: would delete {len(papers)} paper(s): {listing}; add --yes to delete them",
                  file=sys.stderr)
            return CONFIRM_EXIT
        library.delete_papers(ids)
        try:
            backup = write_backup(library)
            kept = f"; their annotations are in {backup}"
        except MarginError as error:
            kept = f"; no backup could be written ({error})"
        _after_write(library)
    print(f"deleted {len(papers)} paper(s): {listing}{kept}")
    return 0


def cmd_install_desktop(args: argparse.Namespace) -> int:
    from db.cli import desktop_entry

    if args.remove:
        removed = desktop_entry.remove()
        print(f"removed {len(removed)} file(s)" + "".join(f"\n  {path}" for path in removed))
        return 0
    written = desktop_entry.install()
    print(f"Margin is in the application menu: {written[0]} (icon: {written[1].parent.parent.parent})")
    return 0


COMMANDS = {"delete": cmd_delete, "install-desktop": cmd_install_desktop}
