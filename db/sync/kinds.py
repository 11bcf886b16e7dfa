"""What travels in a sync: a small registry of kinds of synced field (REGISTRY; add a kind with `register`).

Every synced value is a field of an entity: a paper's fields have the paper's id as entity, the library's own
(interests, liked sources, highlight lists, …) the entity "". A kind names one field (`rating`) or a family of
fields by prefix (`tag:` + tag key). It says how to read the current values (from a paper's state,
db.library.syncing.paper_states, or from the library), how to apply a value received through the Library API,
the value of a field that has no entry (`default`), and how two values merge: `last` (the later clock wins)
or `union` (lists of texts are united: the note history, which only grows).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from db.changes import NOTHING, Changes
from db.text.cleaning import tag_key

LAST, UNION = "last", "union"
PAPER, LIBRARY = "paper", "library"


def digest(value: Any) -> str:
    """A short digest of a JSON value (what the library keeps of the last value sent or applied)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


@dataclass(frozen=True)
class Kind:
    """One kind of synced field. `name`: the field, or a prefix ending in ":" for a family of fields; `scope`:
    PAPER (read from a paper's state) or LIBRARY (read from the library, entity ""); `read(state or library)`
    -> {field: value}; `apply(library, entity, field, value)` -> Changes, called when a received value wins;
    `lost(library, entity, field, value)`, when it loses (a note goes into the history); `compare(value)` the
    part of a value that counts as a change (a tag's name does not, only whether it is on)."""

    name: str
    scope: str
    read: Callable[[Any], dict[str, Any]]
    apply: Callable[..., Changes]
    default: Any = None
    merge: str = LAST
    lost: Callable[..., Changes] | None = None
    compare: Callable[[Any], Any] = lambda value: value
    logged: tuple[str, ...] = ()  # the kinds of change (db.changes) in the change log whose time is this field's

    def digest(self, value: Any) -> str:
        return digest(self.compare(value))


REGISTRY: list[Kind] = []


def register(kind: Kind) -> Kind:
    """Add a kind to what travels (a later kind with the same name replaces the earlier one)."""
    REGISTRY[:] = [known for known in REGISTRY if known.name != kind.name] + [kind]
    return kind


def kind_of(field: str) -> Kind | None:
    """The kind of a field (None for a field of a kind this Margin does not know: it is left alone)."""
    for kind in REGISTRY:
        if field == kind.name or (kind.name.endswith(":") and field.startswith(kind.name)):
            return kind
    return None


def _on_off(value: Any) -> bool:
    return value is not None


# ----------------------------------------------------------------- a paper's fields
register(Kind("paper", PAPER, lambda state: {"paper": state["paper"]},
              lambda library, entity, field, value: library.sync_book.put_papers([(entity, value)]),
              logged=("bibliographic", "added", "removed")))
register(Kind("rating", PAPER, lambda state: {"rating": state["rating"]},
              lambda library, entity, field, value: library.set_rating(entity, value), logged=("rating",)))
register(Kind("read", PAPER, lambda state: {"read": state["read"]},
              lambda library, entity, field, value: library.set_read(entity, bool(value)), default=False,
              logged=("read",)))
register(Kind("title", PAPER, lambda state: {"title": state["title"]},
              lambda library, entity, field, value: library.set_title(entity, value), logged=("title",)))
register(Kind("note", PAPER, lambda state: {"note": state["note"]},
              lambda library, entity, field, value: library.sync_book.merge_note(entity, value or "", True), default="",
              lost=lambda library, entity, field, value: library.sync_book.merge_note(entity, value or "", False),
              logged=("note",)))
register(Kind("history", PAPER, lambda state: {"history": state["history"]},
              lambda library, entity, field, value: library.sync_book.add_history(entity, value or []), default=[],
              merge=UNION, logged=("note",)))
register(Kind("tag:", PAPER, lambda state: {f"tag:{key}": name for key, name in state["tags"].items()},
              lambda library, entity, field, value: (library.add_tags(entity, [value]) if value is not None
                                                     else library.remove_tags(entity, [field[4:]])),
              compare=_on_off, logged=("tags",)))
register(Kind("dismissed:", PAPER, lambda state: {f"dismissed:{key}": name for key, name in state["dismissed"].items()},
              lambda library, entity, field, value: library.set_dismissed(
                  entity, value if value is not None else field[len("dismissed:"):], value is not None),
              compare=_on_off, logged=("triage",)))

register(Kind("decision", PAPER, lambda state: {"decision": state["decision"]},
              lambda library, entity, field, value: library.set_decision(
                  entity, value[0] if value else None, value[1] if value else None),
              logged=("decision",)))  # the screening decision and its exclusion reason (db.library.decisions)


# ----------------------------------------------------------------- the library's own
def _liked(library, entity, field, value) -> Changes:
    _, kind, source = field.split(":", 2)
    try:
        return library.set_liked_source(kind, source, bool(value))
    except (KeyError, ValueError):  # no paper of that venue or file here (yet): nothing to mark
        return NOTHING


register(Kind("interest:", LIBRARY, lambda library: {f"interest:{tag_key(name)}": name for name in library.interests()},
              lambda library, entity, field, value: library.set_interest(
                  value if value is not None else field[len("interest:"):], value is not None),
              compare=_on_off))
register(Kind("liked:", LIBRARY, lambda library: {f"liked:{kind}:{value}": True
                                                  for kind, value in library.liked_sources()}, _liked))
register(Kind("highlights", LIBRARY, lambda library: {"highlights": {
    "include": library.highlight_lists().include, "exclude": library.highlight_lists().exclude}},
    lambda library, entity, field, value: library.set_highlight_lists(value["include"], value["exclude"]),
    default={"include": [], "exclude": []}))

register(Kind("saved:", LIBRARY, lambda library: {f"saved:{name}": query for name, query in library.saved_searches()},
              lambda library, entity, field, value: (library.save_search(field[len("saved:"):], value)
                                                     if value is not None
                                                     else library.remove_saved_search(field[len("saved:"):]))))
