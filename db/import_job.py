"""An import run in a child process, for the window: the matching's memory (hundreds of MB at 20k papers)
goes back to the system when the child ends, and its Python work never competes with the window's thread.

`run_in_child(folder, paths, on_progress)` starts the child (multiprocessing, spawn), passes progress back,
and returns `(ImportReport, notes)` or raises MarginError with the child's one-line message.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable
from pathlib import Path

from db.errors import MarginError
from db.library import ImportReport, Library

_POLL_SECONDS = 0.1


def import_files(folder: Path, paths: list[Path],
                 progress: Callable[[int, int], None] | None = None) -> tuple[ImportReport, list[str]]:
    """Read `paths` and import them into the library in `folder` in one transaction, then bring its search
    index up to date. Returns the report and notes (e.g. the encoding assumed for a file).
    Raises MarginError (InputError naming file and line) when a file cannot be read; nothing is changed."""
    from db.importer import read_file
    from db.search_index import SearchIndex

    records, skipped, notes = [], [], []
    for path in paths:
        result = read_file(path)
        records += result.records
        skipped += [(line, f"{Path(path).name}: {reason}") for line, reason in result.skipped]
        if result.assumed_encoding:
            notes.append(f"{Path(path).name}: read as {result.assumed_encoding}")
    with Library.open(folder, seed=False) as library:
        report = library.import_records(records, progress=progress)
        SearchIndex.for_library(library).open(library)  # index the new papers here, not in the window
    report.skipped = skipped + report.skipped
    return report, notes


def _child(folder: str, paths: list[str], messages) -> None:
    try:
        report, notes = import_files(Path(folder), [Path(p) for p in paths],
                                     lambda done, total: messages.put(("progress", done, total)))
        messages.put(("done", report, notes))
    except MarginError as error:
        messages.put(("failed", str(error)))
    except Exception as error:  # noqa: BLE001 - the window shows it in one line; nothing was committed
        messages.put(("failed", f"{type(error).__name__}: {error}"))


def run_in_child(folder: Path, paths: list[Path],
                 on_progress: Callable[[int, int], None] | None = None) -> tuple[ImportReport, list[str]]:
    """Run `import_files` in a child process and wait for it (call this from a worker thread)."""
    context = multiprocessing.get_context("spawn")
    messages = context.Queue()
    process = context.Process(target=_child, args=(str(folder), [str(p) for p in paths], messages),
                              name="margin-import", daemon=True)
    process.start()
    try:
        while True:
            try:
                message = messages.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                if not process.is_alive():
                    raise MarginError(f"the import stopped unexpectedly (exit code {process.exitcode}); "
                                      "nothing was imported") from None
                continue
            if message[0] == "progress":
                if on_progress:
                    on_progress(message[1], message[2])
            elif message[0] == "done":
                return message[1], message[2]
            else:
                raise MarginError(message[1])
    finally:
        process.join(timeout=30)
        messages.close()
