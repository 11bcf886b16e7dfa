"""`margin project notes NAME [--json]`: the tags and notes shared in a project that this member may read now, from
the server (issue 27): their own always; another member's tags (notes) only once the owner unblinded the project
and while it shares tags (notes) — the server's rule (db.sync.project_schema). Kept apart from `decisions --csv`,
whose rows are one decision each in fixed columns for agreement tools: notes are multi-line Markdown that exist
without a decision, and JSON keeps them exactly as written."""

from __future__ import annotations

import json

from db.cli.common import write_stdout
from db.text.cleaning import tags_text


def print_notes(projects, name: str, as_json: bool) -> int:
    """Print every shared tag list and note of project `name` this role may read: by paper, then reviewer; as a
    JSON array of {"paper", "title", "reviewer", "tags" [str] or null, "note" (Markdown source) or null,
    "tags_at", "note_at"} with `as_json`. Returns the exit status (0)."""
    from db.sync.project_annotations import shared

    info = projects.info(name)
    titles = {paper: title for paper, title, _record in projects.papers(name, records=False)}
    rows = shared(projects, name)
    if as_json:
        write_stdout(json.dumps([{"paper": a.paper, "title": titles.get(a.paper, ""), "reviewer": a.reviewer,
                                  "tags": None if a.tags is None else list(a.tags), "note": a.note,
                                  "tags_at": a.tags_at, "note_at": a.note_at} for a in rows],
                                ensure_ascii=False, indent=2) + "\n")
        return 0
    kinds = [kind for kind in ("tags", "notes") if info[f"share_{kind}"]]
    if not kinds:
        print(f"{name!r} shares no tags or notes (its owner turns that on: margin project set {name} --share-tags on"
              f" --share-notes on)")
    elif info["blind"]:
        print(f"{name!r} is blind: only your own shared {' and '.join(kinds)} are readable until the owner unblinds it")
    lines = []
    for a in rows:
        lines.append(f"{a.paper}  {titles.get(a.paper, '')}  —  {a.reviewer}")
        if a.tags:
            lines.append(f"  tags: {tags_text(a.tags)}")
        if (a.note or "").strip():
            lines += ["  note:", *("    " + line for line in a.note.splitlines())]
    write_stdout("\n".join(lines) + ("\n" if lines else ""))
    return 0
