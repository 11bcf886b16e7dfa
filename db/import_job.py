"""The one import pipeline, for the command line and the window, and running it in a child process.

`import_paths(library, paths, progress)` does all of an import: reads the files (an unreadable one raises
InputError before anything changes), imports their records in one transaction, restores the annotations of the
Margin JSON exports and backups among them (db.library.backup.restore), brings the search index up to date, and returns
an `ImportResult`: the ImportReport of the whole import, whose `summary()` is the one line `margin import`
prints, plus the restore's report and the notes about the files (the encoding assumed). `read_inputs(paths)`
is its first step alone, for a caller that reads the files before it opens (or creates) the library.

For the window: `run_in_child(folder, paths, on_progress)` runs `import_paths` in a child process
(multiprocessing, spawn), so the import's memory (the records of the files, their planned rows) goes back to
the system when the child ends and its Python work never competes with the window's thread (the matching
itself holds only the import's own papers: it looks the library up through indexes, db.library.matching). It passes
progress back and returns `(ImportResult, notes)`, or raises MarginError with the child's one-line message.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from db.errors import MarginError
from db.formats.spool import RecordSpool
from db.library.backup import RestoreReport, check, paper_records, read_margin_json, restore
from db.library.library import ImportReport, Library
from db.paper import PaperRecord
from db.text.cleaning import fit_record

_POLL_SECONDS = 0.1
Progress = Callable[[int, int], None]


@dataclass
class ImportInputs:
    """What the files of one import hold, read before the library is touched: the records of the paper lists,
    the records they skipped as (line, "file: reason"), the Margin JSON documents as (path, data), and notes
    ("file: not UTF-8; read as cp1252")."""

    records: list[PaperRecord] = field(default_factory=list)
    skipped: list[tuple[int | None, str]] = field(default_factory=list)
    restores: list[tuple[Path, dict]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class ImportResult(ImportReport):
    """The report of a whole import: the papers new, updated and unchanged (those a restore added count as
    new), what was skipped, and `restored` (what restoring the Margin JSON files did; None when there were
    none). `notes` are the remarks about the files. `summary()` is the line `margin import` prints."""

    restored: RestoreReport | None = None
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """`12 new, 3 updated, 980 unchanged, 0 duplicates in the file, 1 skipped`, followed by
        `; annotations restored on 4 papers (0 already up to date)` when Margin JSON files were restored."""
        text = super().summary()
        return text + (f"; {self.restored.summary()}" if self.restored is not None else "")


def read_inputs(paths: Sequence[Path | str], annotations: bool = True) -> ImportInputs:
    """Read every file of an import. Margin JSON exports and backups are kept whole for restoring; the other
    files go to the readers (db.formats.importer). With `annotations` false, the tags, ratings, read marks and
    notes the files carry (PaperRecord.annotations) are left out (`margin import --no-annotations`), and a
    Margin JSON file gives only its papers (db.library.backup.paper_records), not restored. Raises
    InputError naming the file and line for the first file that
    cannot be read or a Margin JSON document restore would refuse (those are checked first); nothing has
    been changed then."""
    from db.formats.importer import read_file

    inputs, others = ImportInputs(), []
    for name in paths:
        data = read_margin_json(Path(name))
        if data is None:
            others.append(name)
        else:
            check(data, Path(name))  # every tag and title too, so a bad one stops the import before any change
            if annotations:
                inputs.restores.append((Path(name), data))
            else:  # its papers only, as from any other list (issue 30 trial)
                inputs.records += paper_records(data)
    spool = inputs.records = RecordSpool(inputs.records, fit_record)  # (on disk: db.formats.spool)
    for name in others:
        def prepare(record: PaperRecord, path: Path = Path(name)) -> None:
            if not annotations:
                record.annotations = None
            cut = (record.left_out if annotations else []) + fit_record(record)  # sizes, bidi: db.text.cleaning
            if cut:
                inputs.notes.append(f"{path}:{record.line or '?'}: {_named(record)}: {'; '.join(cut)}")

        spool.prepare = prepare
        result = read_file(Path(name), spool)  # (the records are appended to the spool as they are read)
        spool.prepare = None
        inputs.skipped += [(line, f"{result.path}: {reason}") for line, reason in result.skipped]
        if result.assumed_encoding:
            inputs.notes.append(f"{result.path}: not UTF-8; read as {result.assumed_encoding}")
    return inputs


def _named(record: PaperRecord) -> str:
    """A record's name in a message: its title (at most 60 characters, quoted), else "a record"."""
    title = " ".join((record.title or "").split())
    return f'"{title[:60]}…"' if len(title) > 60 else (f'"{title}"' if title else "a record")


def import_paths(library: Library, paths: Sequence[Path | str] | ImportInputs, progress: Progress | None = None,
                 index: Callable[[Library], object] | None = None) -> ImportResult:
    """Import `paths` (or what `read_inputs` read from them) into `library`: the records of all paper lists in
    one transaction (`progress(done, total)` as Library.import_records calls it), then each Margin JSON file
    restored (db.library.backup.restore: its missing papers added, its annotations put back without replacing newer
    ones), then the search index brought up to date with `index(library)` (default: opening the library's
    SearchIndex, which catches up). Returns the ImportResult.

    Raises InputError (naming file and line) before anything changes when a file cannot be read or a Margin
    JSON document is malformed. Used by `margin import` (db.cli.papers) and by the window (through run_in_child)."""
    inputs = paths if isinstance(paths, ImportInputs) else read_inputs(paths)
    result = ImportResult(notes=list(inputs.notes))
    # with restores, all of it is one transaction (saved whole or not at all); without, the records' import
    # holds the write lock only while it writes (Library.import_records)
    with library.transaction() if inputs.restores else contextlib.nullcontext():
        result.merge(library.import_records(inputs.records, progress=progress))
        result.skipped = inputs.skipped + result.skipped
        for path, data in inputs.restores:
            done = restore(library, data, path=path)
            result.merge(done.added)
            total = result.restored = result.restored or RestoreReport()
            total.changed += done.changed
            total.unchanged += done.unchanged
            total.kept += done.kept
            total.unmatched += done.unmatched
    if index is None:
        from db.search import SearchIndex

        SearchIndex.for_library(library).open(library)
    else:
        index(library)
    return result


def import_files(folder: Path, paths: list[Path], progress: Progress | None = None,
                 saved: Callable[[], None] | None = None, annotations: bool = True) -> tuple[ImportResult, list[str]]:
    """`import_paths` on the library in `folder` (which is not seeded). Returns the result and its notes.
    `saved()` is called once everything is in the library, before the search index catches up; `annotations`
    as for `read_inputs`."""
    inputs = read_inputs(paths, annotations)  # before the library is opened: a broken file changes nothing

    def index(library: Library) -> None:
        from db.search import SearchIndex

        if saved is not None:
            saved()
        SearchIndex.for_library(library).open(library)

    with Library.open(folder, seed=False) as library:
        result = import_paths(library, inputs, progress, index=index)  # indexed here, not in the window
    return result, result.notes


def _child(folder: str, paths: list[str], messages, annotations: bool = True) -> None:
    try:
        report, notes = import_files(Path(folder), [Path(p) for p in paths],
                                     lambda done, total: messages.put(("progress", done, total)),
                                     lambda: messages.put(("saved",)), annotations)
        messages.put(("done", report, notes))
    except MarginError as error:
        messages.put(("failed", str(error)))
    except Exception as error:  # noqa: BLE001 - the window shows it in one line; nothing was committed
        messages.put(("failed", f"{type(error).__name__}: {error}"))


class ImportCancelled(MarginError):
    """The import was cancelled before it had saved anything; the library is as it was."""


def run_in_child(folder: Path, paths: list[Path], on_progress: Progress | None = None,
                 cancel: threading.Event | None = None, annotations: bool = True) -> tuple[ImportResult, list[str]]:
    """Run `import_files` in a child process and wait for it (call this from a worker thread). `annotations`:
    as for `read_inputs`.

    When `cancel` is set before the import has saved its papers, the child is stopped (its transaction is
    rolled back with it) and ImportCancelled is raised; once they are saved, the import is let finish (the
    search index catching up) and returns as usual."""
    context = multiprocessing.get_context("spawn")
    messages = context.Queue()
    process = context.Process(target=_child, args=(str(folder), [str(p) for p in paths], messages, annotations),
                              name="margin-import", daemon=True)
    process.start()
    saved = False
    try:
        while True:
            if cancel is not None and cancel.is_set() and not saved:
                process.terminate()
                process.join(timeout=30)
                raise ImportCancelled("the import was cancelled; nothing was imported")
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
            elif message[0] == "saved":
                saved = True
            elif message[0] == "done":
                return message[1], message[2]
            else:
                raise MarginError(message[1])
    finally:
        process.join(timeout=30)
        messages.close()
