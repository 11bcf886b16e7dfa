"""Margin's entry point: no command opens the window; a command runs headless (see `--help`)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from db.cli import build_parser, library_dir, run_command

    args = build_parser().parse_args(argv)
    if args.command is None:
        from desktop.app import run

        return run(library_dir(args))
    return run_command(args)


if __name__ == "__main__":
    sys.exit(main())
