"""One sync of a library with a server: check the server's schema, stamp what changed here, send the outbox in
batches, receive the other devices' changes in batches, and what the status line says.

A sync is cut off safely at any point: every batch sent is one server transaction, kept once per (device,
number), and dropped from the outbox only after the server committed it; every batch received is applied in one
library transaction together with the cursor. A sync that died is finished by the next: what the server did
not commit is sent again, what it did is not kept twice, what the library did not commit is received again.

Run it on a library opened for the sync alone, writing as db.library.syncing.SYNC_WRITER (`open_for_sync`).
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from db.changes import NOTHING, Changes
from db.library import Library
from db.library.syncing import SYNC_WRITER
from db.sync.applying import apply_batch
from db.sync.server import DeviceCopied, Server, public_conninfo
from db.sync.stamping import clock_of, pending, stamp

APPLY_MS = 20  # about how long one library transaction applying received changes takes
BATCH = int(os.environ.get("MARGIN_SYNC_BATCH", "500") or 500)  # changes per server transaction


@dataclass
class SyncReport:
    """What one sync did: changed fields `sent` and `received` (the unit of every sync count: a paper's rating,
    read mark, title, note, one tag…, one of the library's own settings, a tag rename), `conflicts` decided by
    the clock, `changes` applied to the library (db.changes.Changes, initiator "sync")."""

    server: str
    sent: int = 0
    received: int = 0
    conflicts: int = 0
    changes: Changes = NOTHING
    projects: list = field(default_factory=list)  # db.sync.project_sync.ProjectReport of each joined project
    copied_from: str | None = None  # the device id this library shared with a copy of its folder, now its own

    def summary(self) -> str:
        conflicts = (f", {self.conflicts:,} conflict{'' if self.conflicts == 1 else 's'} decided by the clock"
                     " (margin sync --log)" if self.conflicts else "")
        lines = [f"synced with {self.server}: {_fields(self.sent)} sent, {self.received:,} received{conflicts}"]
        if self.copied_from:
            lines.append(f"this library's folder is a copy of another library that syncs with this server (device "
                         f"{self.copied_from}): it now syncs as a device of its own, and each receives the other's "
                         "changes")
        return "\n".join(lines[: len(lines) if self.server else 0] + [project.summary() for project in self.projects])


@dataclass
class SyncStatus:
    """What the status line says: the server (no password), `waiting` changed fields made here not yet on the
    server (SyncReport's unit), `incoming` ones on the server not yet here (None when the server was not asked),
    `error` (one line) when it could not be reached, `last_sync` (ISO time) of the last complete sync."""

    server: str | None
    waiting: int
    incoming: int | None = None
    error: str | None = None
    last_sync: str | None = None
    copied: bool = False  # the server holds changes under this device id that this library never made

    def line(self) -> str:
        if self.server is None:
            return "no sync server set: margin sync --server URL"
        if self.error:
            return f"{self.error}; {_fields(self.waiting)} waiting to be sent"
        copied = ("; this folder is a copy of another library that syncs here: the next sync makes it a device of"
                  " its own" if self.copied else "")
        if self.waiting or self.incoming or self.copied:
            return (f"{_fields(self.waiting)} waiting to be sent, {self.incoming or 0:,} to be received"
                    f" ({self.server}){copied}")
        return f"synced with {self.server}" + (f" at {self.last_sync}" if self.last_sync else "")


def open_for_sync(folder: Path | str) -> Library:
    """The library in `folder` opened for a sync: its changes are logged as the sync's (never sent back)."""
    library = Library.open(folder, seed=False)
    library.write_as(SYNC_WRITER)
    return library


def configured_server(library: Library) -> str | None:
    """The server this library syncs with (no password), None when none was set."""
    return library.sync_book.sync_state().get("server")


def run_sync(library: Library, server: str | None = None,
             progress: Callable[[str, int, int], None] | None = None, batch: int = BATCH,
             pause_ms: int = 0) -> SyncReport:
    """Sync `library` with `server` (a libpq URL, key=value string or service name; the one stored by the last
    sync when None), and remember the server (without password). `progress(phase, done, total)` is called
    after each batch ("send" or "receive"). Received changes are applied one library transaction per batch;
    with `pause_ms` (the window's sync), in transactions of about APPLY_MS each, with the library left alone
    that long between them: the window's own edits then never wait long for the write lock.

    Raises SyncError (one line): no server given and none stored; SyncUnreachable when the server cannot be
    reached or goes away (what was done so far is kept and the next sync goes on from there); SyncSchemaError
    when the server's schema is newer than this Margin's — then nothing was written on either side."""
    from db.sync.server import SyncError

    server = server or configured_server(library)
    if not server:
        raise SyncError("no sync server set: margin sync --server URL (a libpq URL or service name)")
    with Server(server) as remote:
        remote.prepare()  # before anything is written: a server too new stops the sync here
        report = SyncReport(remote.public)
        library.sync_book.set_sync_state({"server": remote.public})
        stamp(library)
        clock = clock_of(library)
        if remote.last_number(clock.device) > library.sync_book.last_number():  # numbers this library never gave
            clock = _own_device(library, clock, report)
        remote.register(clock.device)
        total = library.sync_book.outbox_size()
        while rows := library.sync_book.outbox(batch):
            try:
                remote.push(clock.device, rows)
            except DeviceCopied:  # the copy sent first under the same numbers: nothing of this batch was kept
                clock = _own_device(library, clock, report)
                remote.register(clock.device)
                continue
            library.sync_book.drop_from_outbox(rows[-1][0])
            report.sent += len(rows)
            if progress:
                progress("send", report.sent, total)
        pulled = int(library.sync_book.sync_state().get("pulled", "0"))
        library.sync_book.set_sync_state({"receiving_since": _now()})  # one conflict line per field from here on
        total = remote.waiting(clock.device, pulled)
        before = len(library.sync_book.conflicts(1_000_000))
        size = 64 if pause_ms else batch  # rows per library transaction: in the window, adapted to take APPLY_MS
        while rows := remote.pull(clock.device, pulled, batch):
            done = 0
            while done < len(rows):
                started = time.perf_counter()
                report.changes |= apply_batch(library, rows[done: done + size])
                done += size
                if pause_ms:
                    took = (time.perf_counter() - started) * 1000
                    size = (max(4, size // 2) if took > APPLY_MS else min(batch, size * 2) if took < APPLY_MS / 3
                            else size)
                    time.sleep(pause_ms / 1000)
            pulled = rows[-1][0]
            report.received += len(rows)
            if progress:
                progress("receive", report.received, total)
        stamp(library)  # what a received change made here (a note pushed into the history) goes next time
        report.conflicts = len(library.sync_book.conflicts(1_000_000)) - before
        library.sync_book.set_sync_state({"last_sync": _now()})
    report.changes = report.changes.by("sync")
    return report


def _own_device(library: Library, clock, report: SyncReport):
    """Make `library` a device of its own: another library syncs under its device id (its folder was copied, so
    the server would keep only one of the two's changes and neither would receive the other's). The changes
    not sent yet go under the new id; the other's under the old id are received from here on."""
    new = uuid.uuid4().hex[:12]
    library.sync_book.take_device(clock.device, new)
    report.copied_from = clock.device
    return clock_of(library)


def sync_library(library: Library, server: str | None = None,
                 progress: Callable[[str, int, int], None] | None = None, pause_ms: int = 0) -> SyncReport:
    """`run_sync` with the personal server (given, or the stored one; skipped when there is none), then every
    shared project the library joined (db.sync.project_sync). Raises SyncError as run_sync does, also when there
    is neither a server nor a project, and ProjectError (one line, naming the project) for a project's refusal."""
    from db.sync.project_sync import sync_projects
    from db.sync.server import SyncError

    joined = library.project_book.projects()
    if not (server or configured_server(library)) and not joined:
        raise SyncError("no sync server set: margin sync --server URL (a libpq URL or service name)")
    report = run_sync(library, server, progress, pause_ms=pause_ms) if server or configured_server(library) \
        else SyncReport("")
    if joined:
        report.projects = sync_projects(library, clock_of(library).device)
        for project in report.projects:
            report.changes |= project.changes.by("sync")
    return report


def waiting_here(library: Library) -> int:
    """Changed fields made here not yet on the server: those the next sync sends (db.sync.stamping.pending)."""
    return pending(library)


def sync_status(library: Library, server: str | None = None, ask: bool = True) -> SyncStatus:
    """The status of `library`'s sync with `server` (the stored one when None); asks the server how much waits
    there unless `ask` is false. Writes nothing."""
    from db.sync.server import SyncError

    state = library.sync_book.sync_state()
    if server is None and state.get("server") is None:
        return SyncStatus(None, waiting_here(library))
    shown = public_conninfo(server) if server else state["server"]
    status = SyncStatus(shown, waiting_here(library), last_sync=state.get("last_sync"))
    if not ask:
        return status
    try:
        with Server(server or state["server"]) as remote:
            device = state.get("device")
            status.incoming = (remote.waiting(device, int(state.get("pulled", "0"))) if device
                               and remote.version() else None)
            status.copied = status.incoming is not None and \
                remote.last_number(device) > library.sync_book.last_number()
    except SyncError as error:
        status.error = str(error)
    return status


def _fields(count: int) -> str:
    return f"{count:,} changed field" + ("" if count == 1 else "s")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
