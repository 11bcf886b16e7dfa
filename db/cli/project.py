"""`margin project`: shared screening projects on the sync server (issue 27), as the PostgreSQL role this
connection logs in as. `create/invite/remove/unblind` are the owner's; `join/leave` a member's; `agreement`
prints the agreement figures and conflicts over the decisions this member may read (everyone's once the owner
unblinded; only their own while blind), `prisma` the PRISMA counts per member and for the project after
resolution (db.triage.project_prisma; only one's own while blind). The server enforces who may do what
(db.sync.project_schema)."""

from __future__ import annotations

import argparse
import json
import sys

from db.cli.common import after_write, library_dir, told_when_waiting, write_stdout
from db.errors import MarginError
from db.text.counts import counted

ACTIONS = ("create", "add", "invite", "remove", "join", "leave", "unblind", "set", "resolve", "agreement",
           "decisions", "prisma", "notes")


def add_parser(commands, common: argparse.ArgumentParser) -> None:
    """The `project` command's grammar (called by db.cli.parser)."""
    p = commands.add_parser(
        "project", parents=[common], help="a screening project shared with a lab on the sync server",
        epilog="Each member connects as their own PostgreSQL role (made by the server's administrator); the server "
               "keeps a project blind (no member reads another's decisions) until its owner unblinds it. A library "
               "that created or joined a project syncs its decisions with `margin sync` and the window's sync.")
    p.add_argument("action", choices=ACTIONS, help="what to do")
    p.add_argument("name", metavar="PROJECT", help="the project's name")
    p.add_argument("member", nargs="*", metavar="ARG",
                   help="invite/remove: the member's PostgreSQL role; resolve: PAPER include|exclude|maybe")
    p.add_argument("--server", metavar="URL", help="the server (default: the library's project server when it has one,"
                                                   " else the one `margin sync` remembers)")
    p.add_argument("--criteria", help="create/set: the inclusion criteria text")
    p.add_argument("--reason", action="append", metavar="TEXT",
                   help="create/set: an exclusion reason offered to members (repeatable); resolve: the reason")
    p.add_argument("--query", metavar="QUERY", help="add: the papers of the library matching QUERY (default: all)")
    p.add_argument("--crowd", choices=("on", "off"),
                   help="set: let every member's recommendations learn from every member's decisions")
    p.add_argument("--share-tags", choices=("on", "off"), help="set: members' tags on its papers are shared")
    p.add_argument("--share-notes", choices=("on", "off"), help="set: members' notes on its papers are shared")
    p.add_argument("--resolver", action="store_true", help="invite: the member may resolve conflicts")
    p.add_argument("--json", action="store_true", help="agreement, prisma, notes: print as JSON")
    p.add_argument("--csv", metavar="FILE", help="decisions: write every decision you may read as CSV to FILE; "
                                                 "prisma: the counts as member,stage,reason,count rows")


def _server(args: argparse.Namespace) -> str:
    if args.server:
        return args.server
    from db.library.library import DB_NAME, Library
    from db.sync import configured_server

    folder = library_dir(args)
    server = None
    if (folder / DB_NAME).exists():
        with Library.open(folder, seed=False) as library:
            joined = library.project_book.project(args.name)
            servers = {item["server"] for item in library.project_book.projects()}
            server = (joined["server"] if joined else configured_server(library)
                      or (servers.pop() if len(servers) == 1 else None))
    if not server:
        raise MarginError("no sync server set: margin project … --server URL (or margin sync --server URL first)")
    return server


def _library(args: argparse.Namespace, make: bool = False):
    """The command line's library when there is one (None otherwise: project commands work without); with
    `make` (join), an empty unseeded library is made in a missing or empty folder (said on stdout)."""
    from db.library.library import DB_NAME
    from db.sync import open_for_sync

    folder = library_dir(args)
    if (folder / DB_NAME).exists():
        return told_when_waiting(open_for_sync(folder))
    if not make:
        return None
    library = told_when_waiting(open_for_sync(folder))
    print(f"made an empty library in {folder} for the project's papers")
    return library


def _check_folder(args: argparse.Namespace) -> None:
    """Refuse (before anything happens on the server) a join into a folder that holds other files but no library:
    a typo until shown otherwise; a missing or empty folder is fine (join makes the library)."""
    from db.library.library import DB_NAME

    folder = library_dir(args)
    if folder.exists() and not (folder / DB_NAME).exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise MarginError(f"{folder}: no Margin library here, and the folder holds other files: join from a library"
                          f" (--library FOLDER) or a new or empty folder")


def _check_reasons(args: argparse.Namespace) -> None:
    """A reason needs a word: refuse an empty, blank or digits-only --reason (create/set) in one line."""
    from db.library.decisions import clean_reason

    for reason in args.reason or ():
        try:
            cleaned = clean_reason(reason)
        except ValueError as error:
            raise MarginError(str(error)) from None
        if not cleaned or cleaned.isdigit():
            raise MarginError(f"a reason needs a word: {reason!r} (margin project {args.action} NAME --reason TEXT)")


def project_command(args: argparse.Namespace) -> int:
    from db.sync.project_sync import quiet_psycopg
    from db.sync.projects import Projects
    from db.sync.server import SyncUnreachable

    quiet_psycopg()

    needs = {"invite": 1, "remove": 1, "resolve": 2}
    if len(args.member) != needs.get(args.action, 0) or any(not " ".join(arg.split()) for arg in args.member):
        what = "the member's PostgreSQL role" if args.action != "resolve" else "PAPER and include|exclude|maybe"
        raise MarginError(f"margin project {args.action} needs {what}" if args.action in needs
                          else f"margin project {args.action} takes only the project's name")
    if not " ".join(args.name.split()):
        raise MarginError("a project needs a name: margin project create NAME")
    if args.action in ("create", "set"):
        _check_reasons(args)
    if args.action == "set" and args.criteria is None and args.reason is None and args.crowd is None \
            and args.share_tags is None and args.share_notes is None:
        raise MarginError("nothing to change: margin project set NAME --criteria TEXT / --reason TEXT… /"
                          " --crowd on|off / --share-tags on|off / --share-notes on|off")
    if args.action == "join":
        _check_folder(args)
    try:
        projects = Projects(_server(args))
    except SyncUnreachable as error:
        if args.action == "agreement":  # the library holds the last sync's copy, as the window shows it
            return _agreement_from_library(args, error)
        raise
    with projects:
        name = args.name
        if args.action == "create":
            projects.create(name, args.criteria or "", tuple(args.reason or ()))
            print(f"made project {name!r} (blind) owned by {projects.role}")
            _take_part(args, projects, name, "create")
        elif args.action == "add":
            return _add(args, projects, name)
        elif args.action == "invite":
            projects.invite(name, args.member[0], "resolver" if args.resolver else "reviewer")
            print(f"invited {args.member[0]} to {name!r}")
        elif args.action == "remove":
            projects.remove(name, args.member[0])
            print(f"removed {args.member[0]} from {name!r}; their decisions stay with the project")
        elif args.action == "join":
            projects.join(name)
            print(f"joined {name!r}")
            _take_part(args, projects, name, "join", make=True)
        elif args.action == "leave":
            return _leave(args, projects, name)
        elif args.action == "unblind":
            projects.unblind(name)
            print(f"{name!r} is unblinded: every member reads every member's decisions")
        elif args.action == "set":
            crowd, tags, notes = (None if value is None else value == "on"
                                  for value in (args.crowd, args.share_tags, args.share_notes))
            projects.edit(name, criteria=args.criteria, reasons=None if args.reason is None else tuple(args.reason),
                          crowd=crowd, share_tags=tags, share_notes=notes)
            print(f"changed {name!r}; members get it at their next sync")
        elif args.action == "resolve":
            paper, decision = _paper_of(projects, name, args.member[0]), args.member[1]
            projects.resolve(name, paper, decision.lower(), " ".join(args.reason or ()))
            print(f"resolved {paper} in {name!r} as {decision.lower()}; the reviewers' decisions stay")
        elif args.action == "decisions":
            return _decisions(projects, name, args.csv)
        elif args.action == "prisma":
            return _prisma(projects, name, args.json, args.csv)
        elif args.action == "notes":
            from db.cli.project_notes import print_notes

            return print_notes(projects, name, args.json)
        else:
            return _agreement(projects, name, args.json)
    return 0


def _leave(args: argparse.Namespace, projects, name: str) -> int:
    """Leave `name` on the server and forget it in the library; a member the owner removed already (the server
    shows them nothing of it) only forgets it here."""
    from db.sync.projects import ProjectError

    library = _library(args)
    try:
        projects.leave(name)
        said = f"left {name!r}; you can no longer read it (your decisions stay with the project)"
    except ProjectError as error:
        if "no project" not in str(error) or library is None or library.project_book.project(name) is None:
            if library is not None:
                library.close()
            raise
        said = f"you are no longer a member of {name!r} on the server; this library forgot it"
    if library is not None:
        with library:
            library.project_book.drop_project(name)
    print(said)
    return 0


def _take_part(args: argparse.Namespace, projects, name: str, how: str, make: bool = False) -> None:
    """Record in the command line's library (when there is one; made empty with `make`) that it takes part in
    `name`, and sync it once."""
    from db.sync.project_sync import sync_project, take_screening_setup
    from db.sync.stamping import clock_of

    library = _library(args, make)
    if library is None:
        return
    with library:
        library.project_book.put_project(name, projects.server.public)
        report = sync_project(library, projects, name, clock_of(library).device)
        for reason in take_screening_setup(library):
            print(f"margin: skipped the project's reason {reason!r}: a reason needs a word", file=sys.stderr)
        if report.changes:
            after_write(library)
    print(f"{library.folder} takes part in {name!r}: `margin sync` and the window's sync send your decisions on its"
          f" papers ({counted(report.papers, 'paper')} received now)")


def _paper_of(projects, name: str, given: str) -> str:
    """The id of the one paper of project `name` whose id is `given` or starts with it (as `margin decide` takes
    ids). Raises MarginError when no single paper of the project has it."""
    given = given.strip()
    ids = [paper for paper, _title, _record in projects.papers(name, records=False)]
    if given in ids:
        return given
    found = [paper for paper in ids if paper.startswith(given)] if given else []
    if len(found) != 1:
        raise MarginError(f"'{given}' is not one of the project's papers, nor the start of one id alone (margin "
                          f"project decisions {name} lists them)")
    return found[0]


def _add(args: argparse.Namespace, projects, name: str) -> int:
    from db.cli.common import open_library, search
    from db.sync.projects import ProjectError

    info = projects.info(name)
    if info["role"] != info["owner"]:  # asked first: a refused batch would leave psycopg's pipeline to complain
        raise ProjectError(f"only the owner of {name!r} adds papers (you are a member)")

    with open_library(args, seed=False) as library:
        ids = search(library, args.query) if args.query else library.ids()
        states = library.sync_book.paper_states(ids)
        papers = [(paper_id, states[paper_id]["paper"].get("title") or "", states[paper_id]["paper"])
                  for paper_id in ids if states[paper_id]["paper"] is not None]
        projects.add_papers(name, papers)
        if library.project_book.project(name) is None:
            library.project_book.put_project(name, projects.server.public)
    print(f"shared {counted(len(papers), 'paper')} with {name!r}; members receive them at their next sync")
    return 0


def _decisions(projects, name: str, path: str | None) -> int:
    """Every decision this member may read as CSV (paper id, title, reviewer, decision, reason, time): to
    `path`, or stdout."""
    import csv
    import io

    titles = {paper: title for paper, title, _record in projects.papers(name)}
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, dialect="excel", lineterminator="\r\n")
    writer.writerow(("paper_id", "title", "reviewer", "decision", "reason", "time", "kind"))
    rows = projects.decisions(name)
    writer.writerows((d.paper, titles.get(d.paper, ""), d.reviewer, d.decision, d.reason, d.decided_at, kind)
                     for kind, part in (("decision", rows), ("resolution", projects.resolution_rows(name)))
                     for d in part)
    if path:
        from pathlib import Path

        try:
            Path(path).write_text("\ufeff" + buffer.getvalue(), encoding="utf-8", newline="")
        except OSError as error:
            raise MarginError(f"{path}: cannot write the decisions ({error.strerror})") from None
        print(f"wrote {counted(len(rows), 'decision')} of {name!r} to {path}")
    else:
        write_stdout(buffer.getvalue())
    return 0


def _agreement(projects, name: str, as_json: bool) -> int:
    from db.triage.agreement import agreement_report

    by_paper: dict[str, dict[str, str]] = {}
    for decision in projects.decisions(name):
        by_paper.setdefault(decision.paper, {})[decision.reviewer] = decision.decision
    report = agreement_report(by_paper, [row[0] for row in projects.resolutions(name)])
    report["blind"] = projects.info(name)["blind"]
    return _print_agreement(name, report, as_json)


def _agreement_from_library(args: argparse.Namespace, error: MarginError) -> int:
    """`agreement` while the server is unreachable (`error`): the figures from the library's copy of the project,
    as the window shows them (the others' decisions and the resolutions as the last sync copied them, this
    member's own as the library holds them now), said on stderr to be as of the last sync; the JSON gains
    `as_of_last_sync` (ISO time). Raises `error` when the library has not joined the project."""
    from db.triage.agreement import agreement_report
    from db.triage.project_prisma import project_rows

    library = _library(args)
    if library is None:
        raise error
    with library:
        project = library.project_book.project(args.name)
        if project is None:
            raise error
        rows = project_rows(library, project)
    report = agreement_report(rows.by_paper(), list(rows.resolutions))
    report["blind"] = project["blind"]
    report["as_of_last_sync"] = project["synced_at"]
    print(f"margin: {error}; from this library's copy as of the last sync ({project['synced_at'] or 'never'};"
          f" your own decisions as they are now)", file=sys.stderr)
    return _print_agreement(args.name, report, as_json=args.json)


def _print_agreement(name: str, report: dict, as_json: bool) -> int:
    """Print an agreement report (db.triage.agreement.agreement_report, with `blind`) as text or JSON."""
    if as_json:
        write_stdout(json.dumps(report, indent=2) + "\n")
        return 0
    if report["blind"]:
        print(f"{name!r} is blind: only your own decisions are readable until the owner unblinds it")
    for pair in report["pairs"]:
        kappa = "undefined" if pair["cohen_kappa"] is None else f"{pair['cohen_kappa']:.3f}"
        print(f"{' & '.join(pair['reviewers'])}: {counted(pair['papers'], 'paper')}, "
              f"{pair['percent_agreement']:.1%} agree, Cohen's kappa {kappa}")
    if report["fleiss_kappa"] is not None:
        print(f"Fleiss' kappa over {counted(report['fleiss_papers'], 'paper')} all decided: "
              f"{report['fleiss_kappa']:.3f}")
    print(f"{counted(len(report['conflicts']), 'conflict')}, {len(report['maybe']):,} on the maybe list, "
          f"{report['agreed']:,} agreed, {report['awaiting']:,} awaiting a second decision")
    return 0


def _prisma(projects, name: str, as_json: bool, path: str | None) -> int:
    """The PRISMA counts per member and for the project (db.triage.project_prisma) over what this member may read:
    a table, JSON (`--json`) or CSV written to `path` (`--csv FILE`, as `margin progress --prisma-csv`)."""
    from db.cli.screening import write_prisma_csv
    from db.triage.project_prisma import project_prisma

    info = projects.info(name)
    papers = [paper for paper, _title, _record in projects.papers(name, records=False)]
    rows = [(d.paper, d.reviewer, d.decision, d.reason) for d in projects.decisions(name)]
    resolutions = {paper: (decision, reason) for paper, _who, decision, reason in projects.resolutions(name)}
    counts = project_prisma(papers, rows, resolutions, info["members"], info["role"], info["blind"])
    if path:
        write_prisma_csv(counts, path)
        print(f"wrote the PRISMA counts of {name!r} to {path}")
    if as_json:
        write_stdout(json.dumps(counts.to_json(), indent=2, ensure_ascii=False) + "\n")
        return 0
    if path:
        return 0
    if counts.blind:
        print(f"{name!r} is blind: only your own counts until the owner unblinds it")
    table = [("", "screened", "included", "excluded", "maybe", "awaiting")]
    named = [*counts.members.items()] + ([] if counts.project is None else [("(project)", counts.project)])
    for who, row in named:
        table.append((who, *(f"{n:,}" for n in (row.screened, row.included, row.excluded, row.maybe,
                                                 row.undecided))))
    widths = [max(len(line[i]) for line in table) for i in range(6)]
    for line in table:
        print("  ".join([line[0].ljust(widths[0]), *(v.rjust(w) for v, w in zip(line[1:], widths[1:], strict=True))]))
    for who, row in named:
        if row.excluded_by_reason:
            print(f"{who} excluded: " + ", ".join(f"{reason or 'no reason given'} {n:,}"
                                                   for reason, n in row.excluded_by_reason.items()))
    if counts.project is not None:
        print(f"of {counted(counts.project.records, 'paper')}: {counts.project.undecided:,} "
              f"{'awaits' if counts.project.undecided == 1 else 'await'} a second decision or a"
              f" resolution ({counted(counts.conflicts, 'unresolved conflict')})")
    return 0


COMMANDS = {"project": project_command}
