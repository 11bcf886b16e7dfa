"""A member's library and the shared projects it joined (issue 27): on `margin sync` and the window's automatic
sync, for each project the library took part in (`margin project join … --library`, db.library.shared_projects):

1. the project's papers the library lacks arrive (the owner's records; same ids, as ids hash the abstract);
2. this member's decisions (include / exclude / maybe + reason, db.library.decisions) on the project's papers go to
   the server — a three-way comparison with what the server held of them at the last sync (the base, kept in the
   library's copy): a decision changed here is sent, stamped with when it was made (db.sync.clock), so the
   server keeps per paper the later of two devices' decisions; one cleared here is withdrawn; one changed only on
   the server (the member's other machine) comes here;
3. everything the server lets this member read comes back into the library's copy: their own decisions, the
   others' once the owner unblinded, the resolutions; and the project's criteria and reason list become the
   library's (shown in the criteria panel). The owner's edits of the criteria and reasons here go to the server;
4. where the owner shares tags or notes, this member's changed since the last sync go to the server, and the
   others' the server lets this member read come into the library's copy (db.sync.project_annotations).

A member offline for any number of decisions syncs them later with nothing lost: nothing is queued, the
comparison finds them. The server decides who may read and write what (db.sync.project_schema); a refusal is a
ProjectError in one line.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime

from db.changes import NOTHING, Changes
from db.library import Library
from db.sync.clock import Stamp
from db.sync.project_annotations import sync_annotations
from db.sync.projects import Projects


def quiet_psycopg() -> None:
    """Keep psycopg's own warnings (`error ignored terminating <psycopg.Pipeline …>: pipeline aborted`, logged
    when a refused batch unwinds) off stderr: the refusal itself is raised as one line (ProjectError)."""
    logger = logging.getLogger("psycopg")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
    logger.propagate = False


quiet_psycopg()  # the window's and `margin sync`'s project syncs too


@dataclass
class ProjectReport:
    """What one project sync did: decisions `sent`, `withdrawn`, `received` (this member's, from another machine,
    applied here), `others` (the other members' decisions new or changed in the copy), `resolutions` (new or
    changed in the copy), `papers` added here, `readable` decisions in the copy afterwards, and the library's
    `changes`."""

    name: str
    sent: int = 0
    withdrawn: int = 0
    received: int = 0
    others: int = 0
    resolutions: int = 0
    papers: int = 0
    readable: int = 0
    notes_sent: int = 0  # papers whose shared tags or note were sent
    notes_readable: int = 0  # the other members' shared tags and notes in the copy afterwards
    changes: Changes = NOTHING
    skipped: list = field(default_factory=list)  # the projects' reasons the library could not hold

    def summary(self) -> str:
        parts = [part for number, part in (
            (self.received, f"{self.received:,} of yours from another machine"),
            (self.others, f"{self.others:,} by other members"),
            (self.resolutions, _count(self.resolutions, "resolution"))) if number]
        received = self.received + self.others + self.resolutions
        return (f"project {self.name!r}: {_count(self.sent, 'decision')} sent, {self.withdrawn:,} withdrawn,"
                f" {received:,} received" + (f" ({', '.join(parts)})" if self.others or self.resolutions else "")
                + f", {_count(self.papers, 'paper')} added"
                + (f", shared tags and notes: {self.notes_sent:,} sent, {self.notes_readable:,} from others"
                   if self.notes_sent or self.notes_readable else ""))


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _wall_ms(iso: str | None) -> int:
    try:
        moment = datetime.fromisoformat(iso or "")
    except ValueError:
        return 0
    return int((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp() * 1000)


def _iso(stamp_text: str, fallback: str) -> str:
    try:
        wall = Stamp.parse(stamp_text).wall
    except ValueError:
        return fallback
    return datetime.fromtimestamp(wall / 1000, UTC).isoformat(timespec="seconds")


def _plain(decision: str | None, reason: str | None) -> tuple[str, str] | None:
    """A decision as compared across sides: (decision, reason; "" unless excluded) or None for none."""
    if not decision:
        return None
    return decision, (reason or "") if decision == "exclude" else ""


def sync_project(library: Library, projects: Projects, name: str, device: str) -> ProjectReport:
    """Sync `library` with project `name` through the open `projects` connection (steps in the module
    docstring); `device` breaks ties between decisions made in the same second. Raises ProjectError (one line)
    for a refusal, e.g. a member removed meanwhile."""
    report = ProjectReport(name)
    info = projects.info(name)
    role, book = info["role"], library.project_book
    known = book.project(name) or {}
    if role == info["owner"] and len(book.projects()) == 1 and known.get("synced_at"):
        criteria, reasons = library.criteria(), library.exclusion_reasons()
        edits = {"criteria": criteria if criteria != known["criteria"] else None,
                 "reasons": tuple(reasons) if reasons != known["reasons"] else None}
        if any(value is not None for value in edits.values()):
            projects.edit(name, **edits)
            info = projects.info(name)
    ids = [paper for paper, _title, _record in projects.papers(name, records=False)]
    present = set(library.ids())
    records = projects.records(name, [paper for paper in ids if paper not in present])
    if records:
        report.changes |= library.sync_book.put_papers(list(records.items()))
        report.papers = len(records)
        present |= set(records)
    book.set_papers(name, ids)
    here = [paper for paper in ids if paper in present]

    local = library.decisions(here)
    copied = book.decisions(name)  # the copy as the last sync left it
    base = {paper: _plain(decision, reason) for paper, reviewer, decision, reason, *_ in copied if reviewer == role}
    send, withdraw = [], []
    for paper in here:
        mine = _plain(*local[paper][:2]) if paper in local else None
        if mine != base.get(paper):
            if mine is None:
                withdraw.append(paper)
            else:
                stamp = Stamp(_wall_ms(local[paper][2]), 0, device).text
                send.append((paper, mine[0], mine[1], stamp))
    if send:
        projects.decide(name, send)
        report.sent = len(send)
    if withdraw:
        report.withdrawn = projects.withdraw(name, withdraw)
    rows = projects.decisions(name)
    server_mine = {d.paper: d for d in rows if d.reviewer == role}
    withdrawn = set(withdraw)
    for paper in here:  # the server's copy of this member's decision wins where it is later (another machine)
        theirs = server_mine.get(paper)
        wanted = _plain(theirs.decision, theirs.reason) if theirs else None
        mine = _plain(*local[paper][:2]) if paper in local else None
        if wanted != mine and paper not in withdrawn:
            at = _iso(theirs.hlc, theirs.decided_at) if theirs else None
            report.changes |= library.set_decision(paper, wanted and wanted[0], wanted and wanted[1], at)
            report.received += 1
    resolutions = projects.resolutions(name) if not info["blind"] else []
    report.others = len({(d.paper, d.reviewer, d.decision, d.reason) for d in rows if d.reviewer != role}
                        - {tuple(row[:4]) for row in copied if row[1] != role})
    resolved = book.resolutions(name)
    report.resolutions = sum(1 for paper, *resolution in resolutions if resolved.get(paper) != tuple(resolution))
    report.changes |= book.set_decisions(name, [(d.paper, d.reviewer, d.decision, d.reason, d.hlc, d.decided_at)
                                                for d in rows], resolutions)
    report.readable = len(rows)
    report.notes_sent, report.notes_readable, changes = sync_annotations(library, projects, name, info, here)
    report.changes |= changes
    book.put_project(name, known.get("server") or projects.server.public, info)
    return report


def take_screening_setup(library: Library) -> list[str]:
    """Make the joined projects' criteria and reason list the library's (what the criteria panel shows and the
    exclude key offers): one project's as they are; several projects' criteria one after another under their
    names, and their reasons in order without repeats. A reason the library cannot hold (blank, only digits, over
    200 characters) is skipped, the others kept; returns the skipped ones (for the caller to say)."""
    from db.library.decisions import clean_reason

    joined = library.project_book.projects()
    if not joined:
        return []
    if len(joined) == 1:
        criteria = joined[0]["criteria"]
    else:
        criteria = "\n\n".join(f"{item['name']}:\n{item['criteria']}" for item in joined if item["criteria"])
    reasons, skipped = [], []
    for reason in (reason for item in joined for reason in item["reasons"]):
        try:
            cleaned = clean_reason(reason)
        except ValueError:
            cleaned = None
        if cleaned and not cleaned.isdigit():
            reasons.append(cleaned)
        else:
            skipped.append(reason)
    if criteria.strip() and criteria != library.criteria():  # a project without criteria blanks nothing
        library.set_criteria(criteria)
    seen: set[str] = set()
    unique = [r for r in reasons if not (r.casefold() in seen or seen.add(r.casefold()))]
    if reasons and [r.casefold() for r in unique] != [r.casefold() for r in library.exclusion_reasons()]:
        library.set_exclusion_reasons(unique)
    return skipped


def sync_projects(library: Library, device: str) -> list[ProjectReport]:
    """Sync every project the library joined, each on its own server connection; a project whose server is
    unreachable or refuses raises (SyncError / ProjectError, one line naming the project)."""
    from db.sync.server import SyncError

    reports = []
    for item in library.project_book.projects():
        try:
            with Projects(item["server"]) as projects:
                reports.append(sync_project(library, projects, item["name"], device))
        except SyncError as error:
            hint = (f" (margin project leave {item['name']} forgets it here)" if "no project" in str(error) else "")
            raise type(error)(f"project {item['name']!r}: {error}{hint}") from None
    skipped = take_screening_setup(library)
    if reports and skipped:
        reports[-1].skipped = skipped
    return reports


def resolve_paper(projects: Projects, name: str, paper: str, decision: str, reason: str = "") -> list[tuple]:
    """Resolve `paper` of project `name` on the server (db.sync.projects.Projects.resolve: the owner or a resolver,
    once unblinded; one transaction, so a refusal or a lost connection keeps nothing) and return the resolutions
    this member may read now — (paper, resolver, decision, reason) each, for `take_resolutions`. Raises
    ProjectError for a refusal, SyncUnreachable when the server cannot be reached."""
    projects.resolve(name, paper, decision, reason if decision == "exclude" else "")
    return projects.resolutions(name)


def take_resolutions(library: Library, name: str, resolutions: list[tuple]) -> Changes:
    """Put the server's `resolutions` of project `name` (resolve_paper's) into the library's copy, as a sync does
    (ProjectBook.set_decisions), the copied decisions kept as the last sync left them: the reviewers' decisions
    stay; a `decision` change of the papers whose resolution changed (they leave is:conflict)."""
    book = library.project_book
    return book.set_decisions(name, [tuple(row) for row in book.decisions(name)], [tuple(r) for r in resolutions])
