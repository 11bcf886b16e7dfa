"""Stamping: turning what changed in the library since the last stamp into changes queued for the server.

The library's change log says which papers changed and when; the values themselves are read now and
compared with the digest kept of each field's last value sent or applied (db.library.syncing): a field whose
value differs gets a stamp of the hybrid logical clock (db.sync.clock) from the time of the paper's latest
change, and goes into the outbox with its value. The library's own fields (interests, liked sources,
highlight lists) are compared every time; they are few. Tag renames made here are stamped as operations.
Changes a sync applied are logged by db.library.syncing.SYNC_WRITER and never stamped again.
"""

from __future__ import annotations

import json
import uuid

from db.sync.clock import Clock
from db.sync.kinds import LIBRARY, PAPER, REGISTRY, kind_of

CHUNK = 500  # papers compared per library transaction (bounds its memory and how long it holds the write lock)


def clock_of(library) -> Clock:
    """The library's hybrid logical clock (its device id is made on first use)."""
    state = library.sync_book.sync_state()
    device = state.get("device")
    if device is None:
        device = uuid.uuid4().hex[:12]
        library.sync_book.set_sync_state({"device": device})
    wall, counter = (int(part) for part in state.get("clock", "0.0").split("."))
    return Clock(device, (wall, counter))


def save_clock(library, clock: Clock) -> None:
    library.sync_book.set_sync_state({"clock": f"{clock.wall}.{clock.counter}"})


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def stamp(library) -> int:
    """Queue every change made here since the last stamp. Returns how many fields were queued.

    Papers are compared CHUNK at a time, each chunk one write transaction of the library (with the clock's
    state): a stamp cut off is finished by the next one, which compares those papers again and finds the ones
    done unchanged."""
    with library.transaction():
        candidates, newest = _candidates(library)
        clock = clock_of(library)
        renames, records = [], []
        for rename_id, old_key, new_name, at in library.sync_book.unstamped_renames():
            mark = clock.tick(at or None)
            renames.append((rename_id, mark.text))
            records.append(("", f"rename:{old_key}", mark.text, dumps({"to": new_name}), ""))
        library.sync_book.add_to_outbox(records, renames)
        save_clock(library, clock)
    queued = len(records)
    order = sorted(candidates, key=lambda paper_id: max(candidates[paper_id].values(), default=0))
    for start in range(0, len(order), CHUNK):
        chunk = order[start: start + CHUNK]
        with library.transaction():
            clock = clock_of(library)
            queued += _stamp_fields(library, clock, _paper_chunk(library, chunk), candidates)
            save_clock(library, clock)
    with library.transaction():
        clock = clock_of(library)
        queued += _stamp_fields(library, clock, {"": _library_fields(library)}, {}, library_scope=True)
        save_clock(library, clock)
        library.sync_book.set_sync_state({"stamped": newest})
    return queued


def pending(library) -> int:
    """How many changed fields the next sync sends (the unit of its counts: a paper's rating, read mark, title,
    note, one tag…, one of the library's own settings, a tag rename): those queued, and those a stamp now would
    queue. Reads only; reads the papers changed since the last stamp (every paper before the first)."""
    candidates, _newest = _candidates(library)
    count = library.sync_book.outbox_size() + len(library.sync_book.unstamped_renames())
    order = list(candidates)
    for start in range(0, len(order), CHUNK):
        count += len(_differing(library, _paper_chunk(library, order[start: start + CHUNK])))
    return count + len(_differing(library, {"": _library_fields(library)}, library_scope=True))


def _candidates(library) -> tuple[dict[str, dict[str, int]], int]:
    """The papers to compare ({id: {kind of change: ms}}: changed since the last stamp, or every paper, and every
    one with a synced field, when never stamped or the log was pruned) and the newest change number."""
    stamped = library.sync_book.sync_state().get("stamped")  # None: never stamped (an empty library's is 0)
    found = library.sync_book.changed_papers(int(stamped or 0))
    if found is not None and stamped is not None:
        return found
    times = found[0] if found else {}
    candidates = {paper_id: times.get(paper_id, {}) for paper_id in library.ids()}
    candidates.update({entity: times.get(entity, {}) for entity in library.sync_book.field_entities()
                       if entity and entity not in candidates})
    return candidates, library.last_change()


def _paper_chunk(library, ids: list[str]) -> dict[str, dict]:
    states = library.sync_book.paper_states(ids)
    return {paper_id: _paper_fields(states[paper_id]) for paper_id in ids}


def _library_fields(library) -> dict:
    fields = {}
    for kind in REGISTRY:
        if kind.scope == LIBRARY:
            fields.update(kind.read(library))
    return fields


def _paper_fields(state: dict) -> dict:
    if state["paper"] is None:  # deleted (or never here): only the tombstone travels
        return {"paper": None}
    fields = {}
    for kind in REGISTRY:
        if kind.scope == PAPER:
            fields.update(kind.read(state))
    return fields


def _stamp_fields(library, clock: Clock, current: dict[str, dict], times: dict[str, dict[str, int]],
                  library_scope: bool = False) -> int:
    """Queue the fields of `current` ({entity: {field: value}}) whose value differs from the last one kept."""
    records, clocks = [], []
    for entity, field, kind, value, digest, parent in _differing(library, current, library_scope):
        mark = clock.tick(_time(times.get(entity, {}), kind.logged))
        records.append((entity, field, mark.text, dumps(value), parent))
        clocks.append((entity, field, digest, mark.text))
    library.sync_book.add_to_outbox(records)
    library.sync_book.set_field_clocks(clocks)
    return len(records)


def _differing(library, current: dict[str, dict], library_scope: bool = False) -> list[tuple]:
    """(entity, field, kind, value, digest, clock it replaces or "") of each field of `current` whose value
    differs from the last one sent or applied (a field no longer there: its kind's default)."""
    known: dict[str, dict[str, str]] = {}
    parents: dict[tuple[str, str], str] = {}
    for (entity, field), (digest, hlc) in library.sync_book.field_clocks(current).items():
        known.setdefault(entity, {})[field] = digest
        parents[entity, field] = hlc
    found = []
    for entity, fields in current.items():
        kept = known.get(entity, {})
        deleted = not library_scope and fields.get("paper", ...) is None
        names = list(fields) + [field for field in kept if field not in fields and not deleted]
        for field in names:
            kind = kind_of(field)
            if kind is None:
                continue
            value = fields.get(field, kind.default)
            digest = kind.digest(value)
            if digest != kept.get(field, kind.digest(kind.default)):
                found.append((entity, field, kind, value, digest, parents.get((entity, field), "")))
    return found


def _time(times: dict[str, int], logged: tuple[str, ...]) -> int | None:
    """When a field changed (ms): its kind's latest logged change, else the paper's; 1 (the dawn of time: any
    stamped change wins over it) when the log does not say; None (now) for the library's own fields."""
    if not times and not logged:
        return None
    return max((times.get(kind, 0) for kind in logged), default=0) or max(times.values(), default=0) or 1
