"""The `export` command: papers and notes in another format (db.exporters.registry), to a file, a folder or
standard output."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from db.cli.common import find_paper, open_library, search, write_stdout
from db.errors import MarginError
from db.exporters.registry import BINARY_FORMATS, FOLDER_FORMATS, export, write_export
from db.library.backup import annotated_export_ids


def cmd_export(args: argparse.Namespace) -> int:
    """Export the annotated papers (or `--all`, or those matching `--query`) in `--format` to `--output` or
    stdout; a folder or binary format needs `--output`. Exit 1 (one line) for a missing or unusable output."""
    if getattr(args, "keep_updated", None):
        return keep_updated(args)
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
            ids = annotated_export_ids(library, args.format)
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


POLL_SECONDS = 1.0  # how often --keep-updated looks at the library's change log


def keep_updated(args: argparse.Namespace, rounds: int | None = None) -> int:
    """`export --format markdown-folder --keep-updated DIR`: write the vault (db.vault), then rewrite the files of
    the papers each change touches (read from the library's change log, so edits in the window and in other
    commands count) until Ctrl+C, which ends it with exit code 0. `rounds` stops after that many looks (tests).
    Exit 1 (one line) for another format or a folder that cannot be written."""
    from db.vault import ALL, ANNOTATED, Vault

    if args.format != "markdown-folder":
        raise MarginError(f"--keep-updated keeps a markdown-folder up to date, not --format {args.format}")
    folder = Path(args.keep_updated)
    with open_library(args) as library:
        scope = ALL if args.all else ANNOTATED if args.query is None else search(library, args.query)
        vault = Vault(library, folder, scope, args.abstract)
        seq = library.last_change()
        count = vault.write_all()
        print(f"exported {count:,} {'paper' if count == 1 else 'papers'} to {folder}; keeping it up to date "
              "(Ctrl+C to stop)", file=sys.stderr, flush=True)
        done = 0
        stop = threading.Event()  # Ctrl+C (SIGINT) sets it — also when SIGINT came ignored from the parent (a `&`
        main = threading.current_thread() is threading.main_thread()  # job of a non-interactive shell), where
        # Python sets no KeyboardInterrupt handler and the loop never ended (seen in CI)
        previous = signal.signal(signal.SIGINT, lambda *_: stop.set()) if main else None
        try:
            while (rounds is None or done < rounds) and not stop.wait(POLL_SECONDS):
                done += 1
                found = library.changes_since(seq)
                if found is None:  # the log no longer reaches back (pruned, or the library was replaced)
                    seq = library.last_change()
                    vault.write_all()
                    continue
                changes, seq = found
                written, removed = vault.update(changes)
                if written or removed:
                    print(f"updated {len(written):,}, removed {len(removed):,} in {folder}", file=sys.stderr,
                          flush=True)
        except KeyboardInterrupt:  # before the handler was set, or from a caller's own handler
            stop.set()
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        if stop.is_set():
            print(f"stopped keeping {folder} up to date", file=sys.stderr)
    return 0


def cmd_cite(args: argparse.Namespace) -> int:
    """Print the papers `args.ids` as a bibliography in `--style` (db.exporters.citation), one entry a line.
    Exit 1 (one line) when an id names no single paper or citeproc-py is not installed."""
    from db.exporters.citation import cite

    with open_library(args) as library:
        ids = [find_paper(library, given) for given in args.ids]
        papers = library.papers(list(dict.fromkeys(ids)))
    write_stdout(cite(papers, args.style) + "\n")
    return 0


COMMANDS = {"export": cmd_export, "cite": cmd_cite}
