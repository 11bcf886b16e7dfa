"""`margin sync`: sync the library with a PostgreSQL server (db.sync), show the sync's status, list the conflicts
the clock decided. The server is remembered (without a password) by the first sync that names it."""

from __future__ import annotations

import argparse
import sys

from db.cli.common import after_write, library_dir, no_library_here, told_when_waiting
from db.errors import MarginError
from db.text.counts import counted

DEFAULT_INTERVAL_S = 60  # the window's automatic sync, when a server is set (desktop.window.sync)


def add_parser(commands, common: argparse.ArgumentParser) -> None:
    """The `sync` command's grammar (called by db.cli.parser)."""
    p = commands.add_parser(
        "sync", parents=[common], help="sync the library with a PostgreSQL server (another machine's Margin)",
        epilog="The server is a libpq URL (postgresql://user@host/db?sslmode=require), key=value string or "
               "service name; the password comes from ~/.pgpass or PGPASSWORD and is never stored or printed. "
               "Per field the later change wins (a hybrid logical clock); a note changed on both sides keeps "
               "the other text in its history. Counts are in changed fields: a paper's rating, read mark, title, note, "
               "one tag…, one of the library's own settings, a tag rename.")
    p.add_argument("--server", metavar="URL", help="the server (remembered for the next sync and the window)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--status", action="store_true",
                      help="say whether all is synced or how many changed fields wait, and send nothing")
    what.add_argument("--log", action="store_true",
                      help="list the conflicts the clock decided between a change made here and another machine's")
    p.add_argument("--every", type=int, metavar="SECONDS",
                   help=f"how often the open window syncs (default {DEFAULT_INTERVAL_S}; 0: only File → Sync now)")


def sync_command(args: argparse.Namespace) -> int:
    from db.sync import open_for_sync, sync_library, sync_status

    refusal = no_library_here(args)
    if refusal and (args.server is None or args.status or args.log):  # only a sync from a named server may
        raise MarginError(refusal)  # make a library (a new machine receiving its library), never a typo
    if refusal:  # a server that cannot be reached or refuses the login says so before a library is made
        from db.sync.server import Server

        with Server(args.server) as remote:
            remote.version()
    library = told_when_waiting(open_for_sync(library_dir(args)))
    try:
        if args.every is not None:
            library.sync_book.set_sync_state({"interval": max(0, args.every)})
        if args.log:
            return _print_log(library)
        if args.status:
            status = sync_status(library, args.server)
            joined = library.project_book.projects()
            if status.server is not None or not joined:
                print(status.line())
            refused = _projects_refusing(joined)
            for project in joined:
                error = f"{refused[project['name']]}; " if project["name"] in refused else ""
                print(f"project {project['name']!r} ({project['server']}): {error}last synced"
                      f" {project['synced_at'] or 'never'}")
            if joined:
                book = library.project_book
                held = sum(book.unsent(name) for name in refused)
                unsent = book.unsent() - held
                if unsent or not held:
                    print(f"{counted(unsent, 'screening decision')} waiting to be sent to the projects")
                if held:  # the server down, or the owner removed this member: the next sync cannot send them
                    print(f"{counted(held, 'screening decision')} made here since the last sync that"
                          f" {', '.join(repr(name) for name in refused)} will not take now (above)")
            return 0
        report = sync_library(library, args.server, _progress if sys.stderr.isatty() else None)
        if report.received or report.changes:
            after_write(library)
        print(report.summary())
        for project in report.projects:
            for reason in getattr(project, "skipped", ()):
                print(f"margin: skipped the project's reason {reason!r}: a reason needs a word (the project's owner"
                      f" renames it with margin project set {project.name} --reason …)", file=sys.stderr)
        return 0
    finally:
        library.close()


def _projects_refusing(joined: list[dict]) -> dict[str, str]:
    """Ask each joined project's server (one connection per server) whether it answers and still counts this
    member in the project: {project name: why not (one line, e.g. `server unreachable (…)`, or `no project 'x'
    that you are a member of…` after the owner removed them)} of those that do not."""
    from db.sync.projects import ProjectError, Projects
    from db.sync.server import SyncError

    refused = {}
    for server in dict.fromkeys(project["server"] for project in joined):
        names = [project["name"] for project in joined if project["server"] == server]
        try:
            with Projects(server) as projects:
                for name in names:
                    try:
                        projects.project_id(name)
                    except ProjectError as error:
                        refused[name] = f"{error} (margin project leave {name} forgets it here)"
        except SyncError as error:
            refused.update(dict.fromkeys(names, str(error)))
    return refused


def _progress(phase: str, done: int, total: int) -> None:
    verb = "sent" if phase == "send" else "received"
    print(f"\rmargin: {verb} {done:,} of {counted(total, 'changed field')}", end="" if done < total else "\n",
          file=sys.stderr, flush=True)


def _print_log(library) -> int:
    rows = library.sync_book.conflicts(100)
    if not rows:
        print("no conflicts: no field was changed on two devices before they synced")
    titles: dict[str, str] = {}
    for decided_at, entity, field, kept, kept_hlc, dropped, dropped_hlc in rows:
        if entity and entity not in titles:
            state = library.sync_book.paper_states([entity])[entity]["paper"]
            titles[entity] = f" ({state.get('title') or 'untitled'})" if state else " (no longer here)"
        where = f"paper {entity}{titles[entity]} {field}" if entity else field
        print(f"{decided_at}  {where}: kept {_value(field, kept)} ({_device(kept_hlc)}) over"
              f" {_value(field, dropped)} ({_device(dropped_hlc)})")
    return 0


def _value(field: str, text: str) -> str:
    """A logged value in words: `nothing` for none, a screening decision as `exclude (reason)`, text quoted."""
    import json

    if text in ("null", "", None):
        return "nothing"
    if field == "decision":
        try:
            decision, reason = json.loads(text)
        except (ValueError, TypeError):
            return repr(text)
        return f"{decision} ({reason})" if reason else str(decision)
    return repr(text)


def _device(stamp_text: str) -> str:
    """`device d3f1…, 2026-12-02 03:40:00 UTC`: who made a change and when (its clock's wall time)."""
    from datetime import UTC, datetime

    from db.sync.clock import Stamp

    stamp = Stamp.parse(stamp_text)
    when = datetime.fromtimestamp(stamp.wall / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"device {stamp.device}, {when}"


COMMANDS = {"sync": sync_command}
