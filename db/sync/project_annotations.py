"""The tags and notes members share with a project on the sync server (issue 27), where its owner turned sharing
on (`margin project set NAME --share-tags on --share-notes on`; db.sync.projects.Projects.edit).

Every call runs as the connecting PostgreSQL role through the server's functions (db.sync.project_schema, 4 → 5):
`share` writes only this role's own rows (margin_project_annotate takes current_user, and the server refuses tags
while the project does not share tags, notes while it does not share notes); `shared` reads what the server lets
this role read — its own rows whole, another member's tags or note only while the project is unblinded and that
kind is shared. A refusal is a ProjectError in one line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from db.changes import Changes
from db.sync.projects import Projects

_BATCH = 500
_TIME = "to_char({} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"+00:00\"')"


@dataclass(frozen=True)
class SharedAnnotation:
    """One member's shared tags and note on one paper of a project, as the server returned them to this role.
    `tags`/`note` are None where this role may not read that part (or it was never sent); `tags_at`/`note_at`:
    ISO time (UTC) the server received them, "" with them."""

    paper: str
    reviewer: str
    tags: tuple[str, ...] | None
    note: str | None
    tags_at: str = ""
    note_at: str = ""


def share(projects: Projects, name: str, rows: list[tuple[str, list[str] | None, str | None]]) -> int:
    """Send this role's own tags and notes on project `name`'s papers: (paper id, tag names or None, note's
    Markdown source or None) each; None leaves that part as the server holds it (send it only while the project
    shares that kind). Returns how many rows the server wrote. Raises ProjectError when the server refuses: tags
    while the project does not share tags, notes likewise, a paper not in the project, a role no longer a member."""
    if not rows:
        return 0
    project = projects.project_id(name)
    written = 0
    for start in range(0, len(rows), _BATCH):
        part = rows[start:start + _BATCH]
        written += projects._one(
            "SELECT margin_project_annotate(%s, current_user::text, %s, %s, %s)",
            (project, [paper for paper, _tags, _note in part],
             [None if tags is None else json.dumps(list(tags), ensure_ascii=False) for _paper, tags, _note in part],
             [note for _paper, _tags, note in part]))[0]
    return written


def shared(projects: Projects, name: str) -> list[SharedAnnotation]:
    """Every shared tag list and note of project `name` this role may read, by paper then reviewer."""
    project = projects.project_id(name)
    return [SharedAnnotation(paper, reviewer, None if tags is None else tuple(tags), note, tags_at or "",
                             note_at or "")
            for paper, reviewer, tags, note, tags_at, note_at in projects._run(
                "SELECT paper, reviewer, tags, note, " + _TIME.format("tags_at") + ", " + _TIME.format("note_at")
                + " FROM margin_project_annotations_visible WHERE project = %s ORDER BY paper, reviewer",
                (project,))]



def _note(text: str | None) -> str:
    return text if (text or "").strip() else ""


def sync_annotations(library, projects: Projects, name: str, info: dict, here: list[str]) -> tuple[int, int, Changes]:
    """One project sync's tags and notes step (db.sync.project_sync): while the project shares tags (notes), this
    member's tags (notes) on the project's papers `here` (in the library) that changed since the last sync — a
    comparison with what the server held of them then, the copy's own rows — go to the server; then everything
    the server lets this member read replaces the library's copy (Library.project_book.set_annotations). The
    member's own tags and notes in the library are only read. `info`: Projects.info. Returns (rows sent, other
    members' rows readable, the library's Changes)."""
    role, book = info["role"], library.project_book
    send = []
    if info["share_tags"] or info["share_notes"]:
        base = {paper: (tags or [], _note(note)) for paper, reviewer, tags, note, *_ in book.annotations(name)
                if reviewer == role}
        wanted = set(here)
        candidates = [paper for paper in library.annotated_ids() if paper in wanted]
        annotated = set(candidates)  # and those annotated at the last sync: cleared since?
        candidates += [paper for paper in base if paper in wanted and paper not in annotated]
        for paper in library.papers(candidates):
            tags, note = sorted(paper.tags, key=str.casefold), _note(paper.note)
            was_tags, was_note = base.get(paper.id, ([], ""))
            send_tags = tags if info["share_tags"] and tags != sorted(was_tags, key=str.casefold) else None
            send_note = note if info["share_notes"] and note != was_note else None
            if send_tags is not None or send_note is not None:
                send.append((paper.id, send_tags, send_note))
        share(projects, name, send)
    rows = shared(projects, name)
    changes = book.set_annotations(name, [(a.paper, a.reviewer, a.tags, a.note, a.tags_at, a.note_at)
                                          for a in rows])
    return len(send), sum(1 for a in rows if a.reviewer != role), changes
