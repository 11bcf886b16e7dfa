"""`margin embed [--status] [--model PATH|none|default]`: the papers' semantic vectors (issue 32, db.embed)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from db.cli.common import library_dir, open_library
from db.embed import job
from db.embed.models import SETTING, ModelUnavailable, configured, foreground_threads, load_model
from db.embed.store import FOLDER
from db.text.counts import counted


def cmd_embed(args: argparse.Namespace) -> int:
    """Embed the papers that have no current vector (progress on stderr, one summary line on stdout); with
    --status only say how far the vectors are; --model sets the library's model first. Without a model: one
    line saying ranking uses tf-idf alone, exit 0. Embeds with every core (foreground_threads): the user is
    waiting, e.g. for 100,000 papers overnight; the window's job in the background keeps to one."""
    if args.model is not None:
        _set_model(library_dir(args), args.model)
    with open_library(args) as library:
        try:
            model = load_model(configured(library.folder), threads=None if args.status else foreground_threads())
        except ModelUnavailable as error:
            print(f"Semantic similarity is off: {error}; ranking uses tf-idf alone")
            return 0
        if args.status:
            print(job.status(library, model).line())
            return 0
        started = time.monotonic()
        last = [0.0]

        def progress(phase: str, done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] >= 1.0 or done == total:
                last[0] = now
                rate = done / max(now - started, 1e-9)
                print(f"\rembedding ({phase}): {done:,}/{counted(total, 'paper')}, {rate:.1f}/s", end="",
                      file=sys.stderr, flush=True)

        result = job.run(library, model, progress=progress, quick=not args.full_only)
        print(file=sys.stderr)
        print(f"{result.line()} ({time.monotonic() - started:.0f} s)")
    return 0


def _set_model(folder: Path, spec: str) -> None:
    """Keep the model spec in <library>/embed/model.txt ('default' removes it)."""
    path = folder / FOLDER / SETTING
    if spec == "default":
        path.unlink(missing_ok=True)
        return
    if spec != "none":
        load_model(str(Path(spec).expanduser().resolve()))  # ModelUnavailable (exit 1) before it is kept
        spec = str(Path(spec).expanduser().resolve())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(spec + "\n", encoding="utf-8")


COMMANDS = {"embed": cmd_embed}
