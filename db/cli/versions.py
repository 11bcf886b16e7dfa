"""The commands about versions of one work (db.library.works): `versions ID`, `group ID ID…`, `split ID`."""

from __future__ import annotations

import argparse

from db.cli.common import after_write, find_paper, open_library
from db.errors import MarginError
from db.text.counts import counted


def _find(library, given: str) -> str:
    return find_paper(library, given, "; nothing was changed")


def cmd_versions(args: argparse.Namespace) -> int:
    """Print the versions of the paper's work, one line each: `id  venue  label`, in library order."""
    with open_library(args) as library:
        ids = library.versions(_find(library, args.id))
        for paper in library.papers(ids):
            print(f"{paper.id}  {paper.venue or '-'}  {paper.label}")
    return 0


def cmd_group(args: argparse.Namespace) -> int:
    """Make the papers versions of one work (undoes a split). Exit 1 for an unknown id, nothing changed."""
    with open_library(args) as library:
        ids = list(dict.fromkeys(_find(library, given) for given in args.ids))
        if len(ids) < 2:
            raise MarginError("grouping needs two different papers; nothing was changed")
        library.group_versions(ids)
        after_write(library)
        print(f"{counted(len(library.versions(ids[0])), 'version')} of one work: {', '.join(library.versions(ids[0]))}")
    return 0


def cmd_split(args: argparse.Namespace) -> int:
    """Take the paper out of its work (a re-import does not group them again; `group` does)."""
    with open_library(args) as library:
        paper_id = _find(library, args.id)
        others = [other for other in library.versions(paper_id) if other != paper_id]
        if not others:
            print(f"{paper_id} is a work of its own; nothing to split")
            return 0
        library.split_version(paper_id)
        after_write(library)
        print(f"{paper_id} split from {', '.join(others)}")
    return 0


COMMANDS = {"versions": cmd_versions, "group": cmd_group, "split": cmd_split}
