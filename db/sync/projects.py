"""Shared screening projects on the sync server (issue 27): create, invite, join, leave, remove, unblind, add
papers, decide, resolve, and read what the server lets this member read.

Every call runs as the connecting PostgreSQL role; the server's row-level security (db.sync.project_schema)
decides what that role may read and write, so a refusal here is the server's, reported as ProjectError with
PostgreSQL's own reason. Margin adds no access checks of its own on top.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from db.sync.project_schema import DECISIONS, PRIVILEGED_REFUSAL, SETUP_REFUSAL
from db.sync.server import Server, SyncError

# every project transaction waits for its commit to be on disk, whatever the server's default: a decision the
# member's Margin was told is kept survives a server crash (the sync's batches do the same: db.sync.server.push)
_DURABLE = "SET LOCAL synchronous_commit TO on"


class ProjectError(SyncError):
    """A project operation the server refused or that names no project this member can see (one line)."""


def _words(error: SyncError, refused: str) -> str:
    """A server refusal in one line a person reads: `refused` for a privilege or row-security refusal (SQLSTATE
    42501), else PostgreSQL's first line without the sync's wording."""
    if error.sqlstate == "42501" and refused:
        return f"the server refused: {refused}"
    text = str(error).replace("the server refused the sync (", "the server refused (")
    if error.sqlstate == "23505":
        return "the server refused: it has that already"
    if error.sqlstate == "23503":
        return "the server refused: that paper is not one of the project's"
    return text


@dataclass(frozen=True)
class Decision:
    """One reviewer's decision on one paper of a project, as the server returned it."""

    paper: str
    reviewer: str
    decision: str  # include | exclude | maybe
    reason: str
    hlc: str = ""  # the db.sync.clock stamp it was made with ("" when sent without)
    decided_at: str = ""  # ISO time it was made (its stamp's wall time; when it reached the server if unstamped)


class Projects:
    """The projects on one server, seen as the connecting role. Open with `Projects(server)` (a libpq string or
    service name, as for `margin sync`); prepares the server's schema; close with `close()` or `with`. Raises
    SyncUnreachable / SyncSchemaError like db.sync.server.Server, ProjectError for a refusal."""

    def __init__(self, server: str):
        self.server = Server(server)
        try:
            self.server.prepare()
        except SyncError as error:
            self.server.close()
            if error.sqlstate == "42501" and SETUP_REFUSAL in str(error):  # tables a member would own
                raise ProjectError(SETUP_REFUSAL) from None
            if error.sqlstate == "42501":  # a member's role may not migrate the server's schema
                raise ProjectError("the server's Margin schema is older than this Margin's and only its "
                                   "administrator can upgrade it (any margin project command run as the "
                                   "database's owner does)") from None
            raise
        except BaseException:
            self.server.close()
            raise

    def __enter__(self) -> Projects:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.server.close()

    @property
    def role(self) -> str:
        """The PostgreSQL role this connection acts as (the member's reviewer id)."""
        return self._one("SELECT current_user")[0]

    def _run(self, statement: str, params=(), many: bool = False, refused: str = "") -> list[tuple]:
        def work():
            with self.server.conn.transaction(), self.server.conn.cursor() as cursor:
                cursor.execute(_DURABLE)
                if many:
                    cursor.executemany(statement, params)
                    return []
                cursor.execute(statement, params)
                return cursor.fetchall() if cursor.description else []
        return self._server_run(work, refused)

    def _server_run(self, work, refused: str = ""):
        """Run `work` on the server; a refusal becomes a ProjectError in one line: `refused` when the server's
        row-level security or privileges said no (SQLSTATE 42501), else what PostgreSQL said, shortened."""
        try:
            return self.server._run(work)
        except SyncError as error:
            if type(error) is not SyncError:
                raise
            raise ProjectError(_words(error, refused)) from None

    def _one(self, statement: str, params=(), refused: str = "") -> tuple:
        rows = self._run(statement, params, refused=refused)
        return rows[0] if rows else ()

    def project_id(self, name: str) -> int:
        """The id of the project `name` this role can see. Raises ProjectError when there is none (never made,
        or this role is not, or no longer, a member)."""
        row = self._one("SELECT id FROM margin_projects WHERE name = %s", (name,))
        if not row:
            raise ProjectError(f"no project {name!r} that you are a member of on this server")
        return row[0]

    def _refuse_privileged(self) -> None:
        """Raise ProjectError when this role could read every blind decision (the server refuses it too)."""
        if self._one("SELECT margin_project_privileged()")[0]:
            raise ProjectError(PRIVILEGED_REFUSAL)

    # ----------------------------------------------------------------- membership (owner)
    def create(self, name: str, criteria: str = "", reasons: tuple[str, ...] = ()) -> int:
        """Make a blind project owned by this role, which becomes its first member; returns its id. Raises
        ProjectError for an empty name or one the server has already (names are the server's, not per owner)."""
        name = " ".join(name.split())
        if not name:
            raise ProjectError("a project needs a name")
        self._refuse_privileged()

        def work():
            with self.server.conn.transaction(), self.server.conn.cursor() as cursor:
                cursor.execute(_DURABLE)
                cursor.execute("INSERT INTO margin_projects (name, criteria, reasons) VALUES (%s, %s, %s) RETURNING id",
                               (name, criteria, json.dumps(list(reasons))))
                project = cursor.fetchone()[0]
                cursor.execute("INSERT INTO margin_project_members (project, member, role, joined_at)"
                               " VALUES (%s, current_user, 'owner', now())", (project,))
                return project
        try:
            return self._server_run(work, "this role may not make projects on this server")
        except ProjectError as error:
            if "already" in str(error):
                raise ProjectError(f"there is a project named {name!r} on this server already (names are the "
                                   f"server's: choose another)") from None
            raise

    def invite(self, name: str, member: str, role: str = "reviewer") -> None:
        """Add PostgreSQL role `member` (made by the server's administrator) as 'reviewer' or 'resolver'; a member
        removed earlier is taken back. Only the owner may (the server refuses others)."""
        if not self._one("SELECT 1 FROM pg_roles WHERE rolname = %s", (member,)):
            raise ProjectError(f"there is no PostgreSQL role {member!r} on this server: the administrator makes one "
                               f"per member (CREATE ROLE {member} LOGIN)")
        project = self.project_id(name)
        rows = self._run("INSERT INTO margin_project_members (project, member, role) VALUES (%s, %s, %s)"
                         " ON CONFLICT (project, member) DO UPDATE SET role = excluded.role, removed_at = NULL,"
                         " invited_at = now() RETURNING 1", (project, member, role),
                         refused=f"only the owner of {name!r} can invite members")
        if not rows:
            raise ProjectError(f"only the owner of {name!r} can invite members")

    def remove(self, name: str, member: str) -> None:
        """Take `member` out of the project at once (the owner only); their decisions stay with the project."""
        project = self.project_id(name)
        if not self._run("UPDATE margin_project_members SET removed_at = now() WHERE project = %s AND member = %s"
                         " AND removed_at IS NULL AND role <> 'owner' RETURNING 1", (project, member)):
            raise ProjectError(f"{member!r} is not a member of {name!r} that you (the owner) can remove")

    def unblind(self, name: str) -> None:
        """Let every member read every member's decisions (the owner only; raises ProjectError for others)."""
        project = self.project_id(name)
        if not self._run("UPDATE margin_projects SET blind = false WHERE id = %s RETURNING 1", (project,)):
            raise ProjectError(f"only the owner of {name!r} can unblind it")

    def edit(self, name: str, criteria: str | None = None, reasons: tuple[str, ...] | None = None,
             share_tags: bool | None = None, share_notes: bool | None = None, crowd: bool | None = None) -> None:
        """Change the project's criteria text, reason list, sharing flags or crowd model (None: leave as is); the
        owner only (raises ProjectError for others)."""
        project = self.project_id(name)
        if not self._run("UPDATE margin_projects SET criteria = COALESCE(%s, criteria),"
                         " reasons = COALESCE(%s::jsonb, reasons), share_tags = COALESCE(%s, share_tags),"
                         " share_notes = COALESCE(%s, share_notes), crowd = COALESCE(%s, crowd) WHERE id = %s"
                         " RETURNING 1",
                         (criteria, None if reasons is None else json.dumps(list(reasons)), share_tags, share_notes,
                          crowd, project)):
            raise ProjectError(f"only the owner of {name!r} can change it")

    def add_papers(self, name: str, papers: list[tuple]) -> None:
        """Share papers with the project (the owner only): (Margin paper id, title[, record]) each, the record a
        dict of the paper's bibliographic fields (db.library.syncing.paper_states' "paper") that members'
        libraries receive. A paper already there keeps its row but gains a record it lacked."""
        project = self.project_id(name)
        self._run("INSERT INTO margin_project_papers (project, paper, title, record) VALUES (%s, %s, %s, %s)"
                  " ON CONFLICT (project, paper) DO UPDATE SET record = excluded.record"
                  " WHERE margin_project_papers.record = ''",
                  [(project, paper, title, json.dumps(rest[0], ensure_ascii=False) if rest and rest[0] else "")
                   for paper, title, *rest in papers], many=True,
                  refused=f"only the owner of {name!r} adds papers")

    def papers(self, name: str, records: bool = True) -> list[tuple[str, str, dict | None]]:
        """The project's papers as (paper id, title, record dict or None when the owner shared none, or when
        `records` is false)."""
        project = self.project_id(name)
        column = "record" if records else "''"
        return [(paper, title, json.loads(record) if record else None) for paper, title, record in self._run(
            f"SELECT paper, title, {column} FROM margin_project_papers WHERE project = %s ORDER BY paper",
            (project,))]

    def records(self, name: str, papers: list[str]) -> dict[str, dict]:
        """{paper id: record dict} of the project's `papers` that have a record."""
        project = self.project_id(name)
        return {paper: json.loads(record) for paper, record in self._run(
            "SELECT paper, record FROM margin_project_papers WHERE project = %s AND paper = ANY(%s) AND record <> ''",
            (project, list(papers)))}

    # ----------------------------------------------------------------- membership (member)
    def join(self, name: str) -> None:
        """Accept an invitation (records when). Raises ProjectError when not invited or removed, or for a role
        that administers the project tables."""
        self._refuse_privileged()
        if not self._one("SELECT margin_project_join(%s)", (self.project_id(name),))[0]:
            raise ProjectError(f"you are not invited to {name!r}")

    def leave(self, name: str) -> None:
        """Leave the project: from now on this role reads nothing of it; its decisions stay with the project.
        Raises ProjectError for the owner (who cannot leave) and for a role that is no member."""
        project = self.project_id(name)
        if self._one("SELECT owner FROM margin_projects WHERE id = %s", (project,))[0] == self.role:
            raise ProjectError(f"you own {name!r}: an owner cannot leave a project (its members would be left "
                               f"without one)")
        if not self._one("SELECT margin_project_leave(%s)", (project,))[0]:
            raise ProjectError(f"you are not a member of {name!r}")

    # ----------------------------------------------------------------- screening
    def decide(self, name: str, decisions: list[tuple], hlc: str = "") -> int:
        """Record this role's decisions: (paper id, include|exclude|maybe, reason[, stamp]) each, the stamp a
        db.sync.clock Stamp text (default `hlc`). Per paper the later stamp wins: a decision arriving late (made
        offline) replaces this role's earlier one only when its stamp is later; an unstamped one always replaces.
        Returns how many rows were written. Raises ProjectError for an unknown decision or a refusal."""
        rows = [(paper, decision, reason, rest[0] if rest else hlc) for paper, decision, reason, *rest in decisions]
        bad = sorted({decision for _paper, decision, _reason, _hlc in rows} - set(DECISIONS))
        if bad:
            raise ProjectError(f"not a decision: {', '.join(bad)} (include, exclude or maybe)")
        project = self.project_id(name)
        written = 0
        for start in range(0, len(rows), 500):
            written += self._one(
                "SELECT margin_project_decide(%s, current_user::text, %s, %s, %s, %s)",
                (project, *map(list, zip(*rows[start:start + 500], strict=True))),
                refused=f"you are not a member of {name!r} (any more), so your decisions are not taken")[0]
        return written

    def decisions(self, name: str) -> list[Decision]:
        """Every decision this role may read (its own; everyone's once unblinded), by paper then reviewer."""
        project = self.project_id(name)
        return [Decision(*row) for row in self._run(
            "SELECT paper, reviewer, decision, reason, hlc, to_char(decided_at AT TIME ZONE 'UTC',"
            " 'YYYY-MM-DD\"T\"HH24:MI:SS\"+00:00\"') FROM margin_project_decisions_visible WHERE project = %s"
            " ORDER BY paper, reviewer", (project,))]

    def withdraw(self, name: str, papers: list[str]) -> int:
        """Take back this role's decisions on `papers` (a decision cleared); returns how many were there."""
        project = self.project_id(name)
        return self._one("SELECT margin_project_withdraw(%s, current_user::text, %s)", (project, list(papers)),
                         refused=f"you are not a member of {name!r} (any more)")[0]

    def resolutions(self, name: str) -> list[tuple[str, str, str, str]]:
        """The resolutions this role may read (every member's once unblinded; none while blind): (paper, resolver,
        decision, reason) each, by paper."""
        project = self.project_id(name)
        return self._run("SELECT paper, resolver, decision, reason FROM margin_project_resolutions"
                         " WHERE project = %s ORDER BY paper", (project,))

    def resolution_rows(self, name: str) -> list[Decision]:
        """The resolutions this role may read as Decision rows (reviewer: the resolver; decided_at: when the
        server kept it, which is when it was made: resolving is done on the server), by paper."""
        project = self.project_id(name)
        return [Decision(*row) for row in self._run(
            "SELECT paper, resolver, decision, reason, '', to_char(resolved_at AT TIME ZONE 'UTC',"
            " 'YYYY-MM-DD\"T\"HH24:MI:SS\"+00:00\"') FROM margin_project_resolutions WHERE project = %s"
            " ORDER BY paper", (project,))]

    def resolve(self, name: str, paper: str, decision: str, reason: str = "") -> None:
        """The owner's or a resolver's final decision on a paper, once unblinded; reviewers' decisions stay.
        Raises ProjectError for another decision than include, exclude or maybe, a paper not in the project, or
        a refusal."""
        if decision not in DECISIONS:
            raise ProjectError(f"not a decision: {decision} (include, exclude or maybe)")
        project = self.project_id(name)
        if not self._run("INSERT INTO margin_project_resolutions (project, paper, decision, reason)"
                         " VALUES (%s, %s, %s, %s) ON CONFLICT (project, paper) DO UPDATE SET"
                         " decision = excluded.decision, reason = excluded.reason, resolver = current_user,"
                         " resolved_at = now() RETURNING 1", (project, paper, decision, reason),
                         refused=f"only the owner of {name!r} or a resolver resolves, once the owner unblinded it"):
            raise ProjectError(f"the server did not keep the resolution of {paper} in {name!r}")

    def info(self, name: str) -> dict:
        """The project as this role sees it: name, owner, blind, crowd, share_tags, share_notes, criteria, reasons,
        members (active ones), role (this connection's), resolvers (the active members invited with --resolver; the
        owner resolves too)."""
        project = self.project_id(name)
        owner, blind, crowd, criteria, reasons, role, share_tags, share_notes = self._one(
            "SELECT owner, blind, crowd, criteria, reasons, current_user, share_tags, share_notes FROM margin_projects"
            " WHERE id = %s", (project,))
        rows = self._run("SELECT member, role FROM margin_project_members WHERE project = %s"
                         " AND removed_at IS NULL ORDER BY member", (project,))
        return {"name": name, "owner": owner, "blind": blind, "crowd": crowd, "criteria": criteria,
                "reasons": reasons, "members": [member for member, _kind in rows], "role": role,
                "resolvers": [member for member, kind in rows if kind == "resolver"], "share_tags": share_tags,
                "share_notes": share_notes}
