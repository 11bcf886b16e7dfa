"""The headless commands of `main.py` (ARCHITECTURE.md, "Command line"): the dispatcher.

The command line's grammar is db.cli.parser; the commands live by group (db.cli.papers, db.cli.export,
db.cli.triage, db.cli.library_commands) over what they share (db.cli.common). `main.py` imports `build_parser`,
`library_dir` and `run_command` from here.

Exit codes: 0 ok; 1 bad input or data (one line on stderr, naming the file and line where there is one;
nothing changed); 2 usage (argparse).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys

from db.cli import embed, export, fetch, library_commands, papers, project, screening, sync, triage, versions
from db.cli.common import library_dir
from db.cli.parser import build_parser
from db.errors import MarginError
from db.library.damage import damaged, is_damage

__all__ = ["build_parser", "library_dir", "run_command"]

_COMMANDS = {**embed.COMMANDS, **papers.COMMANDS, **export.COMMANDS, **triage.COMMANDS, **library_commands.COMMANDS,
             **fetch.COMMANDS, **screening.COMMANDS, **versions.COMMANDS, **sync.COMMANDS, **project.COMMANDS}


def run_command(args: argparse.Namespace) -> int:
    """Run a parsed headless command. Returns the exit code; prints errors as one line on stderr."""
    for stream in (sys.stdout, sys.stderr):  # a console that cannot show a title's characters (LANG=C)
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return _COMMANDS[args.command](args)
    except MarginError as error:
        print(f"margin: {error}", file=sys.stderr)
        return 1
    except sqlite3.DatabaseError as error:  # damage found past the checks on opening (a page read later)
        if not is_damage(error):
            raise
        print(f"margin: {damaged(library_dir(args), error)}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `margin list | head`: the reader went away; not an error
        sys.stdout = open(os.devnull, "w")
        return 0
    except KeyboardInterrupt:
        print("margin: interrupted; nothing was changed by the unfinished step", file=sys.stderr)
        return 1
