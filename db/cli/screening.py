"""The screening commands (issue 29): `decide` (include / exclude / maybe a paper, with an exclusion reason),
`reasons` (the list of exclusion reasons), `criteria` (the inclusion criteria text), and the PRISMA counts that
`progress` adds to its JSON and writes as CSV (`--prisma-csv FILE`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from db.cli.common import after_write, find_paper, open_library, read_text_file
from db.errors import MarginError
from db.library.decisions import EXCLUDE, Prisma, check_decision, clean_reason
from db.library.library import Library
from db.system.fileio import write_atomically


def pick_reason(library: Library, given: str) -> str | None:
    """The list's spelling of exclusion reason `given` (matched ignoring case), or the list's N-th reason for a
    number N (1-based, as the window's number keys pick; 0 is no reason, as the window's 0 key). Raises
    MarginError when the list has no such reason (its hint: add it; in a project member's library, where only the
    owner adds reasons, pick one of the list or ask the owner) or `given` is empty."""
    reasons = library.exclusion_reasons()
    if given.strip() == "0":
        return None
    if given.strip().isdigit() and 1 <= int(given) <= len(reasons):
        return reasons[int(given) - 1]
    wanted = (clean_reason(given) or "").casefold()
    for reason in reasons:
        if reason.casefold() == wanted:
            return reason
    if not wanted:
        raise MarginError("an exclusion reason needs a word or two (margin reasons lists them; leave out --reason "
                          "to exclude without one)")
    joined = library.project_book.screening_owner()
    if joined is not None:
        listed = "; ".join(f"{number}. {reason}" for number, reason in enumerate(reasons, 1)) or "none yet"
        raise MarginError(f"'{given}' is not an exclusion reason of project {joined['name']!r}: choose one of "
                          f"{listed}, or ask its owner ({joined['owner']}) to add it")
    raise MarginError(f"'{given}' is not an exclusion reason of this library (margin reasons lists them; "
                      f"margin reasons --add '{given}' adds it)")


def _owners_only(library: Library) -> None:
    """Refuse (one line) an edit of the criteria or reasons of a library whose project's owner edits them (the
    next sync would put them back: db.library.shared_projects.screening_owner)."""
    joined = library.project_book.screening_owner()
    if joined is not None:
        raise MarginError(f"this library takes part in project {joined['name']!r}: the project's owner edits its "
                          f"reasons and criteria ({joined['owner']}, with margin project set)")


def _project_reason(library: Library, paper_id: str, reason: str | None) -> None:
    """Refuse an exclusion reason that a joined project of `paper_id` does not list (its members see only those)."""
    if reason is None:
        return
    for item in library.project_book.projects():
        if item["reasons"] and paper_id in library.project_book.papers(item["name"]) and \
                reason.casefold() not in {r.casefold() for r in item["reasons"]}:
            raise MarginError(f"'{reason}' is not a reason of project {item['name']!r}: "
                              f"{', '.join(item['reasons'])}")


def cmd_decide(args: argparse.Namespace) -> int:
    """Set the screening decision of paper `args.id` (include, exclude, maybe; none clears it), with `--reason`
    for an exclusion. Prints `ID  decision (reason)  label`. Exit 1 for an unknown paper or reason, or a reason
    given with another decision than exclude."""
    try:
        decision = check_decision(args.decision)
    except ValueError as error:
        raise MarginError(str(error)) from None
    if args.reason is not None and decision != EXCLUDE:
        raise MarginError("--reason goes with exclude only")
    with open_library(args) as library:
        paper_id = find_paper(library, args.id)
        reason = pick_reason(library, args.reason) if args.reason is not None else None
        _project_reason(library, paper_id, reason)
        with library.transaction():
            library.set_decision(paper_id, decision, reason)
            library.set_read(paper_id, True)  # deciding on a paper counts as reading it, as in the window
        after_write(library)
        paper = library.paper(paper_id)
    print(f"{paper.id}  {decision_text(paper.decision, paper.reason)}  {paper.label}")
    return 0


def decision_text(decision: str | None, reason: str | None) -> str:
    """`exclude (wrong population)`, `include`, or `undecided`."""
    if not decision:
        return "undecided"
    return f"{decision} ({reason})" if reason else decision


def _listed(library: Library, reason: str) -> str | None:
    """The list's spelling of `reason` (matched ignoring case), None when the list lacks it."""
    wanted = (clean_reason(reason) or "").casefold()
    return next((r for r in library.exclusion_reasons() if r.casefold() == wanted), None)


def cmd_reasons(args: argparse.Namespace) -> int:
    """Change the list of exclusion reasons as the options say (add, remove, rename; a rename onto a listed reason
    only with --merge), then print it numbered, with how many papers were excluded for each. Exit 1, changing
    nothing, for an empty, over-long or only numeric reason, adding one that is listed, removing one that is not,
    or renaming onto a listed one without --merge."""
    try:
        for reason in args.add + [new for _old, new in args.rename or []]:
            if not clean_reason(reason):
                raise ValueError("an exclusion reason needs a word or two")
    except ValueError as error:
        raise MarginError(str(error)) from None
    with open_library(args) as library:
        if args.add or args.remove or args.rename:
            _owners_only(library)
        try:
            with library.transaction():
                for reason in args.add:
                    if _listed(library, reason):
                        raise ValueError(f"'{_listed(library, reason)}' is an exclusion reason already")
                    library.add_exclusion_reason(reason)
                for reason in args.remove:
                    if not _listed(library, reason):
                        raise ValueError(f"'{reason}' is not an exclusion reason of this library (margin reasons "
                                         f"lists them)")
                    library.remove_exclusion_reason(reason)
                for old, new in args.rename or []:
                    onto = _listed(library, new)
                    if onto and onto.casefold() != (clean_reason(old) or "").casefold() and not args.merge:
                        raise ValueError(f"'{onto}' is an exclusion reason already (--merge makes the two one)")
                    library.rename_exclusion_reason(old, new, merge=args.merge)
        except ValueError as error:
            raise MarginError(str(error)) from None
        if args.rename:
            after_write(library)
        reasons = library.exclusion_reasons()
        counts = library.prisma_counts().excluded_by_reason
    for number, reason in enumerate(reasons, start=1):
        print(f"{number}. {reason}  ({counts.get(reason, 0)} excluded)")
    return 0


def cmd_criteria(args: argparse.Namespace) -> int:
    """Set the inclusion criteria (`--set TEXT` or `--set-file F`), then print them. Exit 1 for a file that cannot
    be read or text over the limit."""
    text = args.set
    if args.set_file is not None:
        text = read_text_file(args.set_file, "criteria")
    with open_library(args) as library:
        if text is not None:
            _owners_only(library)
            try:
                library.set_criteria(text)
            except ValueError as error:
                raise MarginError(str(error)) from None
        criteria = library.criteria()
    if not criteria.strip():
        print("no inclusion criteria yet: margin criteria --set TEXT (or --set-file F) sets them", file=sys.stderr)
    sys.stdout.write(criteria + ("\n" if criteria and not criteria.endswith("\n") else ""))
    return 0


def prisma_line(counts: Prisma) -> str:
    """`screening: 12 of 400 decided: 3 included, 8 excluded (wrong population 5, duplicate 3), 1 maybe`."""
    reasons = ", ".join(f"{reason or 'no reason'} {count}" for reason, count in counts.excluded_by_reason.items())
    return (f"screening: {counts.screened:,} of {counts.records:,} decided: {counts.included:,} included, "
            f"{counts.excluded:,} excluded" + (f" ({reasons})" if reasons else "") + f", {counts.maybe:,} maybe")


def write_prisma_csv(counts: Prisma, path: str) -> None:
    """Write the counts as CSV (Prisma.to_csv, or a shared project's ProjectPrisma.to_csv) to `path`. Raises
    MarginError naming the file when it cannot be written."""
    target = Path(path)
    if target.is_dir():
        raise MarginError(f"{target}: is a folder; give the CSV file to write")
    try:
        write_atomically(target, counts.to_csv())
    except OSError as error:
        raise MarginError(f"{target}: cannot write the PRISMA counts ({error.strerror or error})") from None


COMMANDS = {"decide": cmd_decide, "reasons": cmd_reasons, "criteria": cmd_criteria}
