"""`margin project`: shared screening projects on the sync server (issue 27), as the PostgreSQL role this
connection logs in as. `create/invite/remove/unblind` are the owner's; `join/leave` a member's; `agreement`
prints the agreement figures and conflicts over the decisions this member may read (everyone's once the owner
unblinded; only their own while blind). The server enforces who may do what (db.sync.project_schema)."""

from __future__ import annotations

import argparse
import json

from db.cli.common import library_dir, write_stdout
from db.errors import MarginError


def add_parser(commands, common: argparse.ArgumentParser) -> None:
    """The `project` command's grammar (called by db.cli.parser)."""
    p = commands.add_parser(
        "project", parents=[common], help="a screening project shared with a lab on the sync server",
        epilog="Each member connects as their own PostgreSQL role (made by the server's administrator); the server "
               "keeps a project blind (no member reads another's decisions) until its owner unblinds it.")
    p.add_argument("action", choices=("create", "invite", "remove", "join", "leave", "unblind", "agreement"),
                   help="what to do")
    p.add_argument("name", metavar="PROJECT", help="the project's name")
    p.add_argument("member", nargs="?", metavar="ROLE", help="invite/remove: the member's PostgreSQL role")
    p.add_argument("--server", metavar="URL", help="the server (default: the one `margin sync` remembers)")
    p.add_argument("--criteria", default="", help="create: the inclusion criteria text")
    p.add_argument("--reason", action="append", default=[], metavar="TEXT",
                   help="create: an exclusion reason offered to members (repeatable)")
    p.add_argument("--resolver", action="store_true", help="invite: the member may resolve conflicts")
    p.add_argument("--json", action="store_true", help="agreement: print the figures as JSON")


def _server(args: argparse.Namespace) -> str:
    if args.server:
        return args.server
    from db.library.library import DB_NAME, Library
    from db.sync import configured_server

    folder = library_dir(args)
    server = None
    if (folder / DB_NAME).exists():
        with Library.open(folder, seed=False) as library:
            server = configured_server(library)
    if not server:
        raise MarginError("no sync server set: margin project … --server URL (or margin sync --server URL first)")
    return server


def project_command(args: argparse.Namespace) -> int:
    from db.sync.projects import Projects

    if args.action in ("invite", "remove") and not args.member:
        raise MarginError(f"margin project {args.action} needs the member's PostgreSQL role")
    with Projects(_server(args)) as projects:
        name = args.name
        if args.action == "create":
            projects.create(name, args.criteria, tuple(args.reason))
            print(f"made project {name!r} (blind) owned by {projects.role}")
        elif args.action == "invite":
            projects.invite(name, args.member, "resolver" if args.resolver else "reviewer")
            print(f"invited {args.member} to {name!r}")
        elif args.action == "remove":
            projects.remove(name, args.member)
            print(f"removed {args.member} from {name!r}; their decisions stay with the project")
        elif args.action == "join":
            projects.join(name)
            print(f"joined {name!r}")
        elif args.action == "leave":
            projects.leave(name)
            print(f"left {name!r}; you can no longer read it")
        elif args.action == "unblind":
            projects.unblind(name)
            print(f"{name!r} is unblinded: every member reads every member's decisions")
        else:
            return _agreement(projects, name, args.json)
    return 0


def _agreement(projects, name: str, as_json: bool) -> int:
    from db.triage.agreement import agreement_report

    by_paper: dict[str, dict[str, str]] = {}
    for decision in projects.decisions(name):
        by_paper.setdefault(decision.paper, {})[decision.reviewer] = decision.decision
    report = agreement_report(by_paper)
    report["blind"] = projects.info(name)["blind"]
    if as_json:
        write_stdout(json.dumps(report, indent=2) + "\n")
        return 0
    if report["blind"]:
        print(f"{name!r} is blind: only your own decisions are readable until the owner unblinds it")
    for pair in report["pairs"]:
        kappa = "undefined" if pair["cohen_kappa"] is None else f"{pair['cohen_kappa']:.3f}"
        print(f"{' & '.join(pair['reviewers'])}: {pair['papers']} papers, {pair['percent_agreement']:.1%} agree,"
              f" Cohen's kappa {kappa}")
    if report["fleiss_kappa"] is not None:
        print(f"Fleiss' kappa over {report['fleiss_papers']} papers all decided: {report['fleiss_kappa']:.3f}")
    print(f"{len(report['conflicts'])} conflicts, {len(report['maybe'])} on the maybe list, {report['agreed']} agreed,"
          f" {report['awaiting']} awaiting a second decision")
    return 0


COMMANDS = {"project": project_command}
