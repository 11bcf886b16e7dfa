"""The library's copy of the shared screening projects it has joined (issue 27): what the last project sync
(db.sync.project_sync) received from the server, for queries (`is:conflict`), the window's agreement figures, the
decisions CSV and the crowd model, all readable offline.

Tables (schema 14): `projects` (name, server without password, this member's role, owner, blind, crowd, criteria,
reasons and members as JSON, synced_at; schema 15: resolvers as JSON), `project_papers` (project, paper id),
`project_decisions` (project, paper, reviewer, decision, reason, hlc, decided_at: every decision the server let this
member read at the last sync — their own always, others' once unblinded) and `project_resolutions` (project,
paper, resolver, decision, reason).
The member's own decisions are the library's `decisions` table (db.library.decisions); the copy of their own
rows here is what the server held at the last sync, the base a sync compares both sides with.

Writes go through the store's transactions; the copy's changes return `decision` Changes of the papers whose
decisions by others (or resolution) changed, so views showing conflicts update.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from db.changes import DECISION, NOTHING, Changes
from db.library.shared_annotations import annotations, set_annotations, shared_on
from db.library.store import Store, now

INCLUDE, EXCLUDE = "include", "exclude"
_PROJECT_COLUMNS = ("name", "server", "role", "owner", "blind", "crowd", "criteria", "reasons", "members",
                    "synced_at", "resolvers")


def projects(store: Store) -> list[dict]:
    """The projects joined here, by name: {"name", "server", "role", "owner", "blind" (bool), "crowd" (bool),
    "criteria", "reasons" [str], "members" [str], "synced_at" (ISO time or None), "resolvers" [str]: the members
    who may resolve besides the owner (schema 15; [] until a sync brought them)}."""
    rows = store.read(f"SELECT {', '.join(_PROJECT_COLUMNS)} FROM projects ORDER BY name")
    found = []
    for row in rows:
        item = dict(zip(_PROJECT_COLUMNS, row, strict=True))
        item.update(blind=bool(item["blind"]), crowd=bool(item["crowd"]), reasons=json.loads(item["reasons"]),
                    members=json.loads(item["members"]), resolvers=json.loads(item["resolvers"] or "[]"))
        found.append(item)
    return found


def project(store: Store, name: str) -> dict | None:
    """One joined project as `projects` gives it; None when this library has not joined `name`."""
    return next((item for item in projects(store) if item["name"] == name), None)


def screening_owner(store: Store) -> dict | None:
    """The joined project (as `projects` gives it) whose owner edits this library's criteria and exclusion reasons
    instead of it: None when the library may edit them (it joined no project, or one only, as its owner — the
    next project sync sends those edits); else the first project it joined as a member (or the first of several)."""
    return owning_project(projects(store))


def owning_project(joined: list[dict]) -> dict | None:
    """`screening_owner` of the joined projects `joined` (as `projects` gives them), for a caller that has them."""
    if not joined or len(joined) == 1 and joined[0]["role"] == joined[0]["owner"]:
        return None
    return next((item for item in joined if item["role"] != item["owner"]), joined[0])


def put_project(store: Store, name: str, server: str, info: dict | None = None) -> None:
    """Record that this library takes part in project `name` on `server` (a libpq string without password), with
    what the server said of it (`info`: db.sync.projects.Projects.info's keys; None keeps what is known)."""
    info = info or {}
    with store.transaction() as conn:
        conn.execute("INSERT OR IGNORE INTO projects (name, server) VALUES (?, ?)", (name, server))
        conn.execute("UPDATE projects SET server = ? WHERE name = ?", (server, name))
        if info:
            conn.execute("UPDATE projects SET role = ?, owner = ?, blind = ?, crowd = ?, criteria = ?, reasons = ?,"
                         " members = ?, synced_at = ?, resolvers = ? WHERE name = ?",
                         (info["role"], info["owner"], int(info["blind"]), int(info.get("crowd", False)),
                          info["criteria"], json.dumps(info["reasons"], ensure_ascii=False),
                          json.dumps(info["members"], ensure_ascii=False), now(),
                          json.dumps(info.get("resolvers", []), ensure_ascii=False), name))


def may_resolve(store: Store, name: str) -> bool:
    """Whether this member may resolve project `name`'s conflicts now, as the last sync left it: the project is
    unblinded and they are its owner or one of its resolvers (the server decides when they try: this only says
    whether the window offers it)."""
    item = project(store, name)
    return bool(item and not item["blind"] and item["role"] and (item["role"] == item["owner"]
                                                                 or item["role"] in item["resolvers"]))


def drop_project(store: Store, name: str) -> Changes:
    """Forget project `name` here (after leaving it): its row, papers list, decision and shared-note copies; the
    papers and the member's own decisions, tags and notes stay in the library. Returns a `decision` change of the
    papers it covered."""
    with store.transaction() as conn:
        ids = [row[0] for row in conn.execute("SELECT paper_id FROM project_papers WHERE project = ?", (name,))]
        for table in ("project_papers", "project_decisions", "project_resolutions", "project_annotations"):
            conn.execute(f"DELETE FROM {table} WHERE project = ?", (name,))
        conn.execute("DELETE FROM projects WHERE name = ?", (name,))
        present = [i for i in ids if conn.execute("SELECT 1 FROM papers WHERE id = ?", (i,)).fetchone()]
        return store.log(conn, present, DECISION) if present else NOTHING


def set_papers(store: Store, name: str, ids: Iterable[str]) -> None:
    """The project's paper ids, as the server listed them."""
    with store.transaction() as conn:
        conn.execute("DELETE FROM project_papers WHERE project = ?", (name,))
        conn.executemany("INSERT OR IGNORE INTO project_papers (project, paper_id) VALUES (?, ?)",
                         [(name, paper_id) for paper_id in ids])


def papers(store: Store, name: str) -> list[str]:
    """The project's paper ids (as of the last sync), in library order; ids not in the library come last."""
    return store.column("SELECT x.paper_id FROM project_papers x LEFT JOIN papers p ON p.id = x.paper_id"
                        " WHERE x.project = ? ORDER BY p.position IS NULL, p.position, x.paper_id", (name,))


def set_decisions(store: Store, name: str, rows: Iterable[tuple], resolutions: Iterable[tuple]) -> Changes:
    """Replace the copy of project `name`'s decisions with the server's: `rows` (paper, reviewer, decision, reason,
    hlc, decided_at), `resolutions` (paper, resolver, decision, reason). Returns a `decision` change of the
    library's papers whose copied decisions or resolution changed (NOTHING when none did)."""
    rows, resolutions = list(rows), list(resolutions)
    with store.transaction() as conn:
        before = {tuple(r) for r in conn.execute("SELECT paper_id, reviewer, decision, reason FROM project_decisions"
                                                 " WHERE project = ?", (name,))}
        before |= {("=", *r) for r in conn.execute("SELECT paper_id, resolver, decision, reason FROM"
                                                   " project_resolutions WHERE project = ?", (name,))}
        after = {tuple(r[:4]) for r in rows} | {("=", *r) for r in resolutions}
        conn.execute("DELETE FROM project_decisions WHERE project = ?", (name,))
        conn.executemany("INSERT INTO project_decisions (project, paper_id, reviewer, decision, reason, hlc,"
                         " decided_at) VALUES (?, ?, ?, ?, ?, ?, ?)", [(name, *row) for row in rows])
        conn.execute("DELETE FROM project_resolutions WHERE project = ?", (name,))
        conn.executemany("INSERT INTO project_resolutions (project, paper_id, resolver, decision, reason)"
                         " VALUES (?, ?, ?, ?, ?)", [(name, *row) for row in resolutions])
        touched = {r[1] if r[0] == "=" else r[0] for r in before ^ after}
        present = sorted(i for i in touched if conn.execute("SELECT 1 FROM papers WHERE id = ?", (i,)).fetchone())
        return store.log(conn, present, DECISION) if present else NOTHING


def decisions(store: Store, name: str) -> list[tuple[str, str, str, str, str, str]]:
    """The copied decisions of project `name`: (paper, reviewer, decision, reason, hlc, decided_at), by paper
    then reviewer."""
    return store.read("SELECT paper_id, reviewer, decision, reason, hlc, decided_at FROM project_decisions"
                      " WHERE project = ? ORDER BY paper_id, reviewer", (name,))


def paper_decisions(store: Store, name: str, paper_id: str) -> list[tuple[str, str, str]]:
    """The copied decisions of project `name` on one paper: (reviewer, decision, reason), by reviewer (one lookup
    by the table's key, whatever the project's size)."""
    return [tuple(row) for row in store.read("SELECT reviewer, decision, reason FROM project_decisions"
                                             " WHERE project = ? AND paper_id = ? ORDER BY reviewer",
                                             (name, paper_id))]


def resolution(store: Store, name: str, paper_id: str) -> tuple[str, str, str] | None:
    """(resolver, decision, reason) of project `name`'s resolution of one paper, or None."""
    rows = store.read("SELECT resolver, decision, reason FROM project_resolutions WHERE project = ? AND paper_id = ?",
                      (name, paper_id))
    return tuple(rows[0]) if rows else None


def in_project(store: Store, name: str, paper_id: str) -> bool:
    """Whether one paper is among project `name`'s papers."""
    return bool(store.read("SELECT 1 FROM project_papers WHERE project = ? AND paper_id = ?", (name, paper_id)))


def by_paper(store: Store, name: str) -> dict[str, dict[str, str]]:
    """{paper: {reviewer: decision}} of project `name` (db.triage.agreement.agreement_report's input)."""
    found: dict[str, dict[str, str]] = {}
    for paper_id, reviewer, decision, *_rest in decisions(store, name):
        found.setdefault(paper_id, {})[reviewer] = decision
    return found


def resolutions(store: Store, name: str) -> dict[str, tuple[str, str, str]]:
    """{paper: (resolver, decision, reason)} of project `name`."""
    return {row[0]: row[1:] for row in store.read("SELECT paper_id, resolver, decision, reason FROM"
                                                  " project_resolutions WHERE project = ?", (name,))}


def conflict_ids(store: Store) -> list[str]:
    """The papers of any joined project whose decisions conflict under Rayyan's rule (an include and an exclude)
    and that no resolution settled yet, in library order: the other members' decisions as the last sync copied
    them, this member's as the library holds them now. Empty while blind (no one else's decisions are readable
    then)."""
    return store.column(
        "WITH given (project, paper_id, decision) AS ("
        " SELECT d.project, d.paper_id, d.decision FROM project_decisions d JOIN projects x ON x.name = d.project"
        " WHERE d.reviewer <> x.role UNION ALL"
        " SELECT x.project, x.paper_id, c.decision FROM project_papers x JOIN decisions c ON c.paper_id = x.paper_id)"
        " SELECT p.id FROM papers p WHERE p.id IN (SELECT g.paper_id FROM given g"
        " WHERE NOT EXISTS (SELECT 1 FROM project_resolutions r WHERE r.project = g.project"
        " AND r.paper_id = g.paper_id) GROUP BY g.project, g.paper_id"
        " HAVING SUM(g.decision = 'include') > 0 AND SUM(g.decision = 'exclude') > 0) ORDER BY p.position")


def unsent(store: Store, name: str | None = None) -> int:
    """How many of this member's decisions on the joined projects' papers (project `name`'s only, when given)
    differ from what the server held at the last sync (made, changed or cleared here since): what the next sync
    sends, if the server takes them."""
    return store.read(
        "SELECT COUNT(*) FROM project_papers x JOIN projects p ON p.name = x.project"
        " LEFT JOIN decisions c ON c.paper_id = x.paper_id"
        " LEFT JOIN project_decisions d ON d.project = x.project AND d.paper_id = x.paper_id AND d.reviewer = p.role"
        " WHERE (? IS NULL OR x.project = ?) AND (COALESCE(c.decision, '') <> COALESCE(d.decision, '')"
        " OR (c.decision = 'exclude' AND COALESCE(c.reason, '') <> d.reason))", (name, name))[0][0]


def crowd_decisions(store: Store) -> dict[str, list[str]]:
    """{paper: [include/exclude of every other member]} over the joined projects whose owner turned the crowd
    model on (other members' rows are there only once the project is unblinded: the server's rule)."""
    found: dict[str, list[str]] = {}
    for paper_id, decision in store.read(
            "SELECT d.paper_id, d.decision FROM project_decisions d JOIN projects x ON x.name = d.project"
            " WHERE x.crowd = 1 AND d.reviewer <> x.role AND d.decision IN ('include', 'exclude')"):
        found.setdefault(paper_id, []).append(decision)
    return found


class ProjectBook:
    """The library's copy of its shared projects, as `Library.project_book`: each method is the module function
    of the same name with the store bound (projects, project, screening_owner, put_project, may_resolve, drop_project,
    set_papers, papers, in_project, set_decisions, decisions, paper_decisions, by_paper, resolutions, resolution,
    conflict_ids, unsent, crowd_decisions;
    and db.library.shared_annotations' set_annotations, annotations, shared_on: the tags and notes shared)."""

    def __init__(self, store: Store):
        self._store = store


def _bound(function: Callable) -> Callable:
    def method(self: ProjectBook, *args, **kwargs):
        return function(self._store, *args, **kwargs)
    method.__name__, method.__doc__ = function.__name__, function.__doc__
    return method


for _function in (projects, project, screening_owner, put_project, may_resolve, drop_project, set_papers, papers,
                  in_project, set_decisions, decisions, paper_decisions, by_paper, resolutions, resolution,
                  conflict_ids, unsent, crowd_decisions,
                  set_annotations, annotations, shared_on):
    setattr(ProjectBook, _function.__name__, _bound(_function))
