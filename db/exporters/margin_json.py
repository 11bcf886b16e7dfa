"""Margin JSON: every paper field and every annotation, for backups and scripts; `import` reads it back.

Shape (version 1; "format" comes first so a reader can recognize the file from its first bytes):

    {"format": "margin", "version": 1, "kind": "export" | "backup", "created": "2026-11-30T10:24:40+00:00",
     "papers": [{"id": str, "label": str, "title": str | null, "title_source": "file" | "user" | "derived",
                 "abstract": str, "authors": [str], "venue": str | null, "year": int | null, "url": str | null,
                 "doi": str | null, "arxiv_id": str | null, "openreview_id": str | null, "keywords": [str],
                 "added_at": str | null, "file_title": str | null (the file's title, also when the user set one),
                 "extra": {…} (db.paper.EXTRA_KEYS: entry type, pages, volume, decision, …),
                 "annotations": {"rating": int | null (1..5), "tags": [str], "read": bool, "note": str,
                                 "title": str | null (the user's title), "note_history":
                                 [{"saved_at": str, "note": str}] (oldest first),
                                 "decision": {"decision": "include" | "exclude" | "maybe", "reason": str | null,
                                              "decided_at": str} (the screening decision; left out when none)}}],
     "screening": {"criteria": str, "reasons": [str]} (backups only: the inclusion criteria and exclusion reasons)}
     "state": {…} (the library's user state, db.library.user_state: highlight lists, interests, dismissals,
               liked sources, saved searches, progress checks; restored by import)}

`title` is the title exports show (the user's, else the file's); `annotations.title` is the user's alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from db.errors import InputError
from db.exporters.common import title_source
from db.paper import SCREENING_DECISIONS, Paper

FORMAT_NAME = "margin"
VERSION = 1
History = Callable[[str], Sequence[tuple[str, str]]]


def paper_item(paper: Paper, history: History | None = None) -> dict:
    """The JSON object of one paper (see the module docstring); `history(id)` gives (saved_at, note) pairs."""
    item = {
        "id": paper.id, "label": paper.label, "title": paper.title, "title_source": title_source(paper),
        "abstract": paper.abstract, "authors": list(paper.authors), "venue": paper.venue, "year": paper.year,
        "url": paper.url, "doi": paper.doi, "arxiv_id": paper.arxiv_id, "openreview_id": paper.openreview_id,
        "keywords": list(paper.keywords), "added_at": paper.added_at, "file_title": paper.file_title,
        "extra": dict(paper.extra),
        "annotations": {
            "rating": paper.rating, "tags": list(paper.tags), "read": paper.read, "note": paper.note,
            "title": paper.user_title,
            "note_history": [{"saved_at": saved_at, "note": note}
                             for saved_at, note in (history(paper.id) if history else ())],
        },
    }
    if paper.decision:  # only on decided papers: an undecided paper's item is as before issue 29
        item["annotations"]["decision"] = {"decision": paper.decision, "reason": paper.reason,
                                           "decided_at": paper.decided_at}
    return item


def document(papers: Sequence[Paper], history: History | None = None, kind: str = "export",
             state: dict | None = None) -> dict:
    """The whole Margin JSON document for `papers` (in the order given), with the library's user `state`
    (db.library.user_state: highlight lists, interests, liked sources, saved searches, checks) when given."""
    data = {"format": FORMAT_NAME, "version": VERSION, "kind": kind,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "papers": [paper_item(paper, history) for paper in papers]}
    if state is not None:
        data["state"] = state
    return data


def export_json(papers: Sequence[Paper], history: History | None = None, kind: str = "export",
                state: dict | None = None) -> str:
    """The document as UTF-8-ready text: indented, non-ASCII kept as is, ending in a newline."""
    return json.dumps(document(papers, history, kind, state), ensure_ascii=False, indent=1) + "\n"


def looks_like_margin_json(head: bytes) -> bool:
    """True when the first bytes of a file look like a Margin JSON document (cheap; no full parse)."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    return text.startswith(b"{") and b'"format"' in text[:200] and b'"margin"' in text[:200]


def read_margin_json(path: Path | str) -> dict | None:
    """Read `path` when it is a Margin JSON export or backup: the validated document, else None.

    Only the first bytes decide whether it is one; a file that starts like one but is broken raises
    InputError(path, line) rather than falling through to the other readers. Raises InputError also for a
    document from a newer Margin (a higher "version").
    """
    path = Path(path)
    if not path.is_file():  # a device or a pipe (opening a FIFO blocks): the normal reader names the problem
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(512)
    except OSError:
        return None  # not ours to report: the normal reader names the problem
    if not looks_like_margin_json(head):
        return None
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InputError(path, "a Margin JSON file must be UTF-8") from None
    except json.JSONDecodeError as error:
        raise InputError(path, f"broken Margin JSON ({_where(error)})", line=error.lineno) from None
    except RecursionError:
        raise InputError(path, "broken Margin JSON (nested too deeply to read)", line=1) from None
    except OSError as error:
        raise InputError(path, f"cannot read the file ({error.strerror})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        return None
    validate(data, path)
    return data


def validate(data: dict, path: Path | str = "<data>") -> None:
    """Check the document's shape before anything is changed. Raises InputError(path) naming the paper."""
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise InputError(path, "Margin JSON without a valid \"version\"")
    if version > VERSION:
        raise InputError(path, f"written by a newer Margin (format version {version}; this Margin reads up to "
                               f"{VERSION}); update Margin to import it")
    papers = data.get("papers")
    if not isinstance(papers, list):
        raise InputError(path, "Margin JSON without a \"papers\" list")
    for number, item in enumerate(papers, start=1):
        problem = _item_problem(item)
        if problem:
            raise InputError(path, f"paper {number}: {problem}")


def _item_problem(item: object) -> str | None:
    if not isinstance(item, dict):
        return "not an object"
    if not isinstance(item.get("id"), str) or not item["id"]:
        return "no \"id\""
    for key in ("title", "abstract", "venue", "url", "doi", "arxiv_id", "openreview_id"):
        if item.get(key) is not None and not isinstance(item[key], str):
            return f"\"{key}\" is not text"
    if item.get("year") is not None and (not isinstance(item["year"], int) or isinstance(item["year"], bool)):
        return "\"year\" is not a whole number"
    for key in ("authors", "keywords"):
        if not _is_text_list(item.get(key, [])):
            return f"\"{key}\" is not a list of text"
    if not isinstance(item.get("extra", {}), dict):
        return "\"extra\" is not an object"
    if item.get("file_title") is not None and not isinstance(item["file_title"], str):
        return "\"file_title\" is not text"
    notes = item.get("annotations", {})
    if not isinstance(notes, dict):
        return "\"annotations\" is not an object"
    rating = notes.get("rating")
    if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 5):
        return "\"rating\" is not a whole number from 1 to 5"
    if not _is_text_list(notes.get("tags", [])):
        return "\"tags\" is not a list of text"
    if not isinstance(notes.get("read", False), bool):
        return "\"read\" is not true or false"
    if not isinstance(notes.get("note", ""), str) or not isinstance(notes.get("title") or "", str):
        return "\"note\" or \"title\" is not text"
    decision = notes.get("decision")
    if decision is not None and not (isinstance(decision, dict) and decision.get("decision") in SCREENING_DECISIONS
                                     and isinstance(decision.get("reason") or "", str)
                                     and isinstance(decision.get("decided_at") or "", str)):
        return "\"decision\" is not {decision: include, exclude or maybe, reason, decided_at}"
    history = notes.get("note_history", [])
    if not isinstance(history, list) or not all(
            isinstance(entry, dict) and isinstance(entry.get("note"), str) and isinstance(entry.get("saved_at"), str)
            for entry in history):
        return "\"note_history\" is not a list of {saved_at, note}"
    return None


def _is_text_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(entry, str) for entry in value)


def _where(error: json.JSONDecodeError) -> str:
    """Python's message with its position (its "…starting at" ends where the position goes)."""
    joint = " " if error.msg.endswith(" at") else " at "
    return f"{error.msg}{joint}line {error.lineno}, column {error.colno}"
