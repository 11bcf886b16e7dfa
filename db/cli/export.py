"""The `export` command: papers and notes in another format (db.exporters.registry), to a file, a folder or
standard output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from db.cli.common import open_library, search, write_stdout
from db.errors import MarginError
from db.exporters.registry import BINARY_FORMATS, FOLDER_FORMATS, export, write_export
from db.library.backup import backup_papers


def cmd_export(args: argparse.Namespace) -> int:
    """Export the annotated papers (or `--all`, or those matching `--query`) in `--format` to `--output` or
    stdout; a folder or binary format needs `--output`. Exit 1 (one line) for a missing or unusable output."""
    folder_format = args.format in FOLDER_FORMATS
    if folder_format and not args.output:
        raise MarginError(f"export --format {args.format} writes one file per paper: give the folder with --output DIR")
    if args.format in BINARY_FORMATS and not args.output:
        raise MarginError(f"export --format {args.format} writes a binary file: give it with --output FILE")
    if not folder_format and args.output and Path(args.output).is_dir():
        raise MarginError(f"{args.output}: is a folder; give a file name (or use --format markdown-folder)")
    with open_library(args) as library:
        if args.all:
            ids = library.ids()
        elif args.query is None:  # JSON, the format that restores, also keeps the papers that are only read
            ids = library.annotated_ids() if args.format != "json" else [
                paper.id for paper in backup_papers(library)]
        else:
            ids = search(library, args.query)
        papers = library.papers(ids)
        text = None
        if not folder_format and args.format not in BINARY_FORMATS:
            state = library.user_state() if args.format == "json" else None
            text = export(papers, args.format, history=library.note_history, include_abstract=args.abstract,
                          state=state)
    if not args.output:
        write_stdout(text)
        return 0
    count = write_export(papers, args.format, Path(args.output), history=library.note_history,
                         include_abstract=args.abstract, text=text)
    print(f"exported {count:,} {'paper' if count == 1 else 'papers'} to {args.output}", file=sys.stderr)
    return 0


COMMANDS = {"export": cmd_export}
