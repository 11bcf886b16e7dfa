"""PRISMA counts of a shared screening project (issue 27): per member, and for the project after resolution. No
database, no Qt: the callers hand in what the member may read (the CLI: the server's rows; the window: the
library's copy of them, with this member's own decisions as they are now).

Per member: of the project's papers, how many that member screened (decided at all), included, excluded — by
reason ("" for none: NO_REASON, "(no reason given)", in JSON and CSV, as the library's own counts) — put on the
maybe list, and how many await their decision. A resolution is not a reviewer's decision: it counts for the
project only.

For the project, one decision per paper after resolution: the owner's or a resolver's resolution where there is
one; otherwise the reviewers' decisions under Rayyan's rules (db.triage.agreement.classify): all alike → that
decision (an exclusion's reason: the one reason the excluding reviewers gave, "" when none gave one,
REASONS_DIFFER when they gave different ones); any maybe (and no include-against-exclude) → maybe; an include
against an exclude unresolved → awaiting (counted in `conflicts` too); fewer than two decisions → awaiting.

Blind comes first: while a project is blind a member reads only their own decisions (the server's rule), so only
their own counts are made — any other reviewer's row handed in is ignored, not counted — and the project's
counts are None (they would tell how the others decided).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from db.library.decisions import EXCLUDE, INCLUDE, MAYBE, NO_REASON, Prisma
from db.triage.agreement import agreement_report

REASONS_DIFFER = "(reasons differ)"  # an exclusion all reviewers agreed on, for different reasons
PROJECT = "(project)"  # the CSV's member column for the project's own counts
AWAITING_MEMBER = "awaiting this member's decision"
AWAITING_PROJECT = "awaiting a second decision or a resolution"


def _counts(records: int, decided: Iterable[tuple[str, str]]) -> Prisma:
    """A Prisma of `records` papers from their (decision, reason) pairs, reasons ordered as the library's."""
    counts = Prisma(records=records)
    by_reason: dict[str, int] = {}
    for decision, reason in decided:
        counts.screened += 1
        if decision == INCLUDE:
            counts.included += 1
        elif decision == MAYBE:
            counts.maybe += 1
        elif decision == EXCLUDE:
            counts.excluded += 1
            by_reason[reason or ""] = by_reason.get(reason or "", 0) + 1
        else:
            raise ValueError(f"not a decision: {decision!r} (include, exclude or maybe)")
    counts.excluded_by_reason = dict(sorted(by_reason.items(), key=lambda item: (-item[1], item[0] == "", item[0])))
    return counts


def _stages(counts: Prisma, awaiting: str) -> list[tuple[str, str, int]]:
    """Prisma.stages with its last row (records without a decision) named `awaiting`."""
    rows = counts.stages()
    return [*rows[:-1], (awaiting, "", rows[-1][2])]


@dataclass(frozen=True)
class ProjectPrisma:
    """A project's PRISMA counts as one member may read them: `members` {reviewer: Prisma} (only this member's
    own while blind), `project` (a Prisma of the decisions after resolution; None while blind), `conflicts`
    (unresolved include-against-exclude papers, counted among the project's awaiting; 0 while blind), `blind`."""

    members: dict[str, Prisma]
    project: Prisma | None
    conflicts: int
    blind: bool

    def to_json(self) -> dict:
        """{"blind", "members": {reviewer: Prisma.to_json()}, "project": Prisma.to_json() + "conflicts" | None}
        ("undecided": awaiting; "excluded_by_reason" names no reason "(no reason given)")."""
        project = None if self.project is None else {**self.project.to_json(), "conflicts": self.conflicts}
        return {"blind": self.blind, "members": {who: counts.to_json() for who, counts in self.members.items()},
                "project": project}

    def stages(self) -> list[tuple[str, str, str, int]]:
        """(member, stage, reason, count) rows: each member's Prisma.stages (the last, records without their
        decision, named AWAITING_MEMBER), then the project's (member PROJECT, "(project)"; the last named
        AWAITING_PROJECT) when not blind."""
        rows = [(who, *row) for who, counts in self.members.items() for row in _stages(counts, AWAITING_MEMBER)]
        if self.project is not None:
            rows += [(PROJECT, *row) for row in _stages(self.project, AWAITING_PROJECT)]
        return rows

    def to_csv(self) -> str:
        """The counts as CSV as the library's PRISMA CSV (RFC 4180, CRLF, a UTF-8 byte-order mark) with a first
        column: `member,stage,reason,count`, then `stages()`."""
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer, dialect="excel", lineterminator="\r\n")
        writer.writerow(("member", "stage", "reason", "count"))
        writer.writerows(self.stages())
        return "\ufeff" + buffer.getvalue()


def project_decision(by: Mapping[str, tuple[str, str]], resolution: tuple[str, str] | None) -> tuple[str, str] | None:
    """One paper's decision for the project: (decision, reason) or None while it awaits one, from its reviewers'
    {reviewer: (decision, reason)} and its `resolution` (decision, reason) or None (rules in the module
    docstring: db.triage.agreement.classify's, written out here as it runs once per paper per refresh)."""
    if resolution is not None:
        decision, reason = resolution
        return decision, reason if decision == EXCLUDE else ""
    if len(by) < 2:
        return None
    kinds = {decision for decision, _reason in by.values()}
    if INCLUDE in kinds and EXCLUDE in kinds:
        return None
    if MAYBE in kinds:
        return MAYBE, ""
    decision = kinds.pop()
    if decision != EXCLUDE:
        return decision, ""
    reasons = {reason for _decision, reason in by.values() if reason}
    return EXCLUDE, (reasons.pop() if len(reasons) == 1 else REASONS_DIFFER if reasons else "")


def project_prisma(papers: Sequence[str], decisions: Iterable[tuple[str, str, str, str]],
                   resolutions: Mapping[str, tuple[str, str]], members: Iterable[str], me: str,
                   blind: bool) -> ProjectPrisma:
    """The PRISMA counts of a project's `papers` (ids; their number is every count's `records`) from the
    `decisions` this member may read — (paper, reviewer, decision, reason) each; on other papers ignored — the
    `resolutions` {paper: (decision, reason)}, the project's active `members` (listed with zero counts when they
    decided nothing yet; a past member with decisions is listed too), `me` (this member's reviewer id) and
    whether the project is `blind` (then only `me`'s rows count and there are no project counts). Raises
    ValueError for a decision other than include, exclude or maybe."""
    wanted = set(papers)
    by_paper: dict[str, dict[str, tuple[str, str]]] = {}
    for paper, reviewer, decision, reason in decisions:
        if paper in wanted and (not blind or reviewer == me):
            by_paper.setdefault(paper, {})[reviewer] = (decision, reason or "")
    reviewers = {reviewer for by in by_paper.values() for reviewer in by}
    names = sorted({me} if blind else set(members) | reviewers | {me})
    records = len(wanted)
    decided: dict[str, list[tuple[str, str]]] = {who: [] for who in names}
    for by in by_paper.values():
        for who, pair in by.items():
            if who in decided:
                decided[who].append(pair)
    per_member = {who: _counts(records, pairs) for who, pairs in decided.items()}
    if blind:
        return ProjectPrisma(per_member, None, 0, True)
    final, conflicts = [], 0
    for paper, by in by_paper.items():  # a paper nobody decided awaits, unless resolved (below)
        resolution = resolutions.get(paper)
        decided = project_decision(by, tuple(resolution) if resolution is not None else None)
        if decided is not None:
            final.append(decided)
        elif resolution is None and len(by) > 1 and {d for d, _r in by.values()} >= {INCLUDE, EXCLUDE}:
            conflicts += 1
    final += [project_decision({}, tuple(resolutions[paper])) for paper in wanted.intersection(resolutions)
              if paper not in by_paper]
    return ProjectPrisma(per_member, _counts(records, final), conflicts, False)


@dataclass(frozen=True)
class ProjectRows:
    """What a member's library holds of one joined project, read once for both the agreement figures and the
    counts: `papers` (ids), `rows` (paper, reviewer, decision, reason: the others' as the last sync copied them,
    this member's own as the library holds them now), `resolutions` {paper: (resolver, decision, reason)}."""

    papers: list[str]
    rows: list[tuple[str, str, str, str]]
    resolutions: dict[str, tuple[str, str, str]]

    def by_paper(self) -> dict[str, dict[str, str]]:
        """{paper: {reviewer: decision}} of the papers with a decision (db.triage.agreement.agreement_report's
        input)."""
        found: dict[str, dict[str, str]] = {}
        for paper, reviewer, decision, _reason in self.rows:
            found.setdefault(paper, {})[reviewer] = decision
        return found


def project_rows(library, project: dict) -> ProjectRows:
    """The ProjectRows of a joined `project` (a ProjectBook.projects() dict) in `library` (a db.library.Library):
    three reads (the project's papers, the copied decisions, this member's decisions) and the resolutions."""
    book, name, me = library.project_book, project["name"], project["role"]
    papers = book.papers(name)
    rows = [(paper, who, decision, reason) for paper, who, decision, reason, *_rest in book.decisions(name)
            if who != me]
    mine = library.decisions(papers)
    rows += [(paper, me, decision, reason or "") for paper, (decision, reason, _at) in mine.items()]
    return ProjectRows(papers, rows, book.resolutions(name))


def library_prisma(library, project: dict, rows: ProjectRows | None = None) -> ProjectPrisma:
    """project_prisma of a joined `project` (a ProjectBook.projects() dict) from `library` (a db.library.Library):
    the others' decisions and the resolutions as the last sync copied them, this member's own decisions as the
    library holds them now (a decision just made counts at once). `rows`: project_rows already read."""
    rows = rows or project_rows(library, project)
    resolutions = {paper: (decision, reason) for paper, (_who, decision, reason) in rows.resolutions.items()}
    return project_prisma(rows.papers, rows.rows, resolutions, project["members"], project["role"], project["blind"])


__all__ = ["NO_REASON", "PROJECT", "REASONS_DIFFER", "ProjectPrisma", "ProjectRows", "library_prisma",
           "project_decision", "project_prisma", "project_rows"]


@dataclass(frozen=True)
class ProjectFigures:
    """What the window's project panel shows of one joined project: the project (a ProjectBook.projects() dict),
    its agreement report (db.triage.agreement.agreement_report) and its PRISMA counts."""

    project: dict
    report: dict
    counts: ProjectPrisma


def project_figures(library) -> tuple[list[ProjectFigures], list[str]]:
    """The figures of every project the library has joined, and the ids of the papers in conflict (is:conflict),
    read in one go — on a worker thread with its own Library in the window: at 20,000 project papers this reads
    every decision (about 0.5 s)."""
    figures = []
    for project in library.project_book.projects():
        rows = project_rows(library, project)
        figures.append(ProjectFigures(project, agreement_report(rows.by_paper(), rows.resolutions),
                                      library_prisma(library, project, rows)))
    return figures, library.project_book.conflict_ids()
