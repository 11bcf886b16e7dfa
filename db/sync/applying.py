"""Applying changes received from the server to the library, through the Library API.

Per field the later stamp wins (db.sync.clock): a received value whose stamp is later than the one kept for that
field is applied and kept; an earlier one is dropped (a note goes into the note history instead), and the
conflict is noted (`margin sync --log`) when one of its two values was made here: two other machines' values
meeting here is their conflict, logged on each of them. The note history merges by union. A tag rename
replays as an operation: every paper carrying the old tag whose tag was set before the rename follows it, here
and on changes that arrive later (a tag set before a rename that arrives after it is renamed too). Changes of a
paper that is not here (deleted) are dropped, all but the paper itself.
"""

from __future__ import annotations

import json

from db.changes import NOTHING, Changes
from db.sync.clock import Stamp
from db.sync.kinds import UNION, digest, kind_of
from db.sync.stamping import clock_of, save_clock, stamp
from db.text.cleaning import tag_key

_SHORT = 80  # characters of a value kept in the conflict log


def apply_batch(library, rows: list[tuple]) -> Changes:
    """Apply received rows (server id, device, entity, field, stamp text, value as JSON, the stamp of the value
    it replaced on its device) in one write transaction of the library, together with the cursor (`pulled`,
    the last server id) and the count of changes received (`received`): a batch is applied whole or not at all,
    and rows at or before the cursor (applied meanwhile by another sync of this library) are not applied
    again. Changes made here since the last stamp are stamped first (in the same transaction), so a local
    edit is weighed against what arrives. Returns what changed."""
    changes = NOTHING
    with library.transaction():
        pulled = int(library.sync_book.sync_state().get("pulled", "0"))
        rows = [row for row in rows if row[0] > pulled]  # another sync of this library (the window's) took them
        if not rows:
            return NOTHING
        stamp(library)
        clock = clock_of(library)
        applier = _Applier(library, clock.device)
        for row in rows:
            clock.receive(Stamp.parse(row[4]))
        # the papers themselves first, all together (their match keys are computed in one go), then the rest in order
        changes |= applier.apply_papers([row for row in rows if row[3] == "paper"])
        for _server_id, _device, entity, field, text, value, parent in rows:
            if field != "paper":
                changes |= applier.apply(entity, field, text, json.loads(value), parent)
        save_clock(library, clock)
        state = library.sync_book.sync_state()
        received = int(state.get("received", "0")) + len(rows)
        library.sync_book.set_sync_state({"pulled": rows[-1][0], "received": received})
    return changes


class _Applier:
    def __init__(self, library, device: str):
        self.library = library
        self.device = device  # this library's: only a conflict with a value made here is this library's
        self.since = library.sync_book.sync_state().get("receiving_since")  # this sync's (db.sync.engine)
        self.present: dict[str, bool] = {}

    def apply(self, entity: str, field: str, text: str, value, parent: str = "") -> Changes:
        if field.startswith("rename:"):
            return self.rename(field[len("rename:"):], value["to"], text)
        kind = kind_of(field)
        if kind is None:
            return NOTHING
        if entity and field != "paper" and not self.is_here(entity):
            return NOTHING
        if field.startswith("tag:") and value is not None:
            for new_name, rename_text in self.library.sync_book.renames_of(field[4:]):
                if rename_text > text:  # set before a rename that is known here: the rename applies to it
                    return (self.set_field(entity, field, None, rename_text)
                            | self.apply(entity, f"tag:{tag_key(new_name)}", rename_text, new_name))
        if kind.merge == UNION:
            changes = kind.apply(self.library, entity, field, value)
            now = kind.read(self.library.sync_book.paper_states([entity])[entity])[field]
            latest = max(text, self._kept(entity, field)[1])
            self.library.sync_book.set_field_clocks([(entity, field, kind.digest(now), latest)])
            return changes
        return self.set_field(entity, field, value, text, parent)

    def apply_papers(self, rows: list[tuple]) -> Changes:
        """The received papers (added, changed, deleted) whose stamps win, put in one call."""
        kept = self.library.sync_book.field_clocks([row[2] for row in rows])
        winners: dict[str, tuple] = {}
        for _server_id, _device, entity, _field, text, value, parent in rows:
            value = json.loads(value)
            kept_digest, kept_text = kept.get((entity, "paper"), (None, ""))
            incoming = digest(value)
            if kept_text >= text:
                if kept_digest != incoming:
                    self.conflict(entity, "paper", kept_text, value, text, incoming_wins=False)
                continue
            if kept_digest is not None and kept_digest != incoming and parent != kept_text:
                self.conflict(entity, "paper", kept_text, value, text, incoming_wins=True)
            winners[entity] = (value, incoming, text)
            kept[entity, "paper"] = (incoming, text)
        if not winners:
            return NOTHING
        changes = self.library.sync_book.put_papers([(entity, value) for entity, (value, _d, _t) in winners.items()])
        self.library.sync_book.set_field_clocks([(entity, "paper", incoming, text)
                                            for entity, (_value, incoming, text) in winners.items()])
        self.present.update({entity: value is not None for entity, (value, _d, _t) in winners.items()})
        return changes

    def _kept(self, entity: str, field: str) -> tuple[str | None, str]:
        return self.library.sync_book.field_clocks([entity]).get((entity, field), (None, ""))

    def set_field(self, entity: str, field: str, value, text: str, parent: str | None = None) -> Changes:
        """The later stamp wins: apply `value` when `text` is later than the field's kept stamp. A conflict is
        a value that replaced (on its device, `parent`) another value than the one here, or lost."""
        kind = kind_of(field)
        kept_digest, kept_text = self._kept(entity, field)
        incoming = kind.digest(value)
        if kept_text >= text:
            changes = NOTHING
            if kept_digest != incoming:
                self.conflict(entity, field, kept_text, value, text, incoming_wins=False)
                if kind.lost is not None:
                    changes = kind.lost(self.library, entity, field, value)
            return changes
        if kept_digest is not None and kept_digest != incoming and parent is not None and parent != kept_text:
            self.conflict(entity, field, kept_text, value, text, incoming_wins=True)
        try:
            changes = kind.apply(self.library, entity, field, value)
        except (KeyError, ValueError):  # a value this library cannot take (a paper gone meanwhile): left alone,
            return NOTHING  # so one odd change never stops every later sync
        self.library.sync_book.set_field_clocks([(entity, field, incoming, text)])
        return changes

    def rename(self, old_key: str, new_name: str, text: str) -> Changes:
        """Replay a tag rename (or merge): papers carrying the old tag from before it carry the new one."""
        if not self.library.sync_book.add_rename(old_key, new_name, text):
            return NOTHING
        changes = NOTHING
        for paper_id in self.library.sync_book.tag_carriers(old_key):
            if self._kept(paper_id, f"tag:{old_key}")[1] < text:
                changes |= (self.set_field(paper_id, f"tag:{old_key}", None, text)
                            | self.set_field(paper_id, f"tag:{tag_key(new_name)}", new_name, text))
        return changes

    def is_here(self, paper_id: str) -> bool:
        if paper_id not in self.present:
            self.present[paper_id] = self.library.sync_book.paper_states([paper_id])[paper_id]["paper"] is not None
        return self.present[paper_id]

    def conflict(self, entity: str, field: str, kept_text: str, value, text: str, incoming_wins: bool) -> None:
        if not kept_text or Stamp.parse(kept_text).device != self.device:
            return  # the value kept here came from another machine: their conflict, not this library's
        local = _short(self._local_value(entity, field))
        received = _short(value)
        kept, dropped = (received, local) if incoming_wins else (local, received)
        kept_hlc, dropped_hlc = (text, kept_text) if incoming_wins else (kept_text, text)
        self.library.sync_book.add_conflict(entity, field, kept, kept_hlc, dropped, dropped_hlc, self.since)

    def _local_value(self, entity: str, field: str):
        kind = kind_of(field)
        if not entity:
            return kind.read(self.library).get(field, kind.default)
        state = self.library.sync_book.paper_states([entity])[entity]
        return kind.read(state).get(field, kind.default) if state["paper"] is not None else None


def _short(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _SHORT else text[: _SHORT - 1] + "…"


__all__ = ["apply_batch", "digest"]
