"""Margin's entry point: no command opens the window; a command runs headless (see `--help`)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    try:
        from db.cli.commands import build_parser, library_dir, run_command
    except ModuleNotFoundError as error:  # a Python without Margin's dependencies (the system's, not .venv's)
        if (error.name or "").split(".")[0] in ("db", "desktop"):
            raise  # Margin's own module: a bug, not a setup problem
        if (error.name or "").split(".")[0] == "whoosh":  # e.g. whoosh-reloaded 2.7.4, which is `whoosh_reloaded`
            print("margin: Margin's search needs whoosh-reloaded 2.7.5 exactly, and this Python has no module "
                  f"'whoosh': run `{sys.executable} -m pip install whoosh-reloaded==2.7.5`", file=sys.stderr)
            return 1
        print(f"margin: this Python ({sys.executable}) lacks Margin's dependencies (no module '{error.name}'): "
              "run scripts/run.sh, or .venv/bin/python main.py (scripts/setup.sh makes .venv)", file=sys.stderr)
        return 1

    args = build_parser().parse_args(argv)
    if args.command is None:
        from db.cli.common import no_library_here

        refusal = no_library_here(args)  # a mistyped --library opens no window on a new library
        if refusal:
            print(f"margin: {refusal}", file=sys.stderr)
            return 1
        from desktop.app import run

        return run(library_dir(args))
    return run_command(args)


if __name__ == "__main__":
    sys.exit(main())
