"""Screening decisions (issue 29): include / exclude / maybe per paper, with an exclusion reason from the library's
editable list, the inclusion criteria text, and the PRISMA-style counts of what was screened.

A decision is stored in the `decisions` table (paper, decision, reason, decided_at ISO time); the reason is kept as
text, so renaming a reason in the list renames it on its papers and removing it from the list leaves the papers'
decisions as they were. The list (`exclusion_reasons`, in the user's order) and the criteria (`screening_settings`)
belong to the library for now; they are library tables so that a shared project can take them over.

Each mutation of a paper's decision is one write transaction of the store and returns a `decision` change
(db.changes.DECISION). The reason list and the criteria belong to no paper: their edits return NOTHING unless a
rename moved papers' reasons (the window updates its criteria panel itself, as for the highlight lists).
"""

from __future__ import annotations

import csv
import io
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from db.changes import DECISION, NOTHING, Changes
from db.library.annotations import annotate
from db.library.reading import CHUNK
from db.library.store import Store, now
from db.library.works import versions_in
from db.paper import SCREENING_DECISIONS, Paper

DECISIONS = SCREENING_DECISIONS
INCLUDE, EXCLUDE, MAYBE = DECISIONS
MAX_REASON = 200  # characters of an exclusion reason
MAX_CRITERIA = 20_000  # characters of the inclusion criteria text
NO_REASON = "(no reason given)"  # how the PRISMA JSON and CSV name the papers excluded without a reason
_CRITERIA = "criteria"


def clean_reason(reason: str | None) -> str | None:
    """An exclusion reason as stored: whitespace runs collapsed, ends stripped, control characters dropped; None
    for an empty one. Raises ValueError for one over MAX_REASON (200) characters."""
    if reason is None:
        return None
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in str(reason)).split())
    if len(text) > MAX_REASON:
        raise ValueError(f"an exclusion reason has at most {MAX_REASON} characters")
    return text or None


def check_decision(decision: str | None) -> str | None:
    """`decision` lower-cased when it is include, exclude or maybe; None for None, "" or "none" (no decision).
    Raises ValueError for anything else."""
    if decision is None or str(decision).strip().lower() in ("", "none"):
        return None
    value = str(decision).strip().lower()
    if value not in DECISIONS:
        raise ValueError(f"a decision is include, exclude or maybe (or none), not {decision!r}")
    return value


# ----------------------------------------------------------------- one paper's decision
def set_decision(store: Store, paper_id: str, decision: str | None, reason: str | None = None,
                 decided_at: str | None = None) -> Changes:
    """Set a paper's screening decision (include, exclude, maybe; None or "none" clears it) with an exclusion
    `reason` (kept only with exclude; any text, not only the list's). The decision is the work's: it is set on
    every version of the paper's work (db.library.works), as the rating and tags are. `decided_at` (ISO time) is
    for restores; default now. Returns a `decision` change of the versions whose decision changed, NOTHING when
    all had that decision and reason already. Raises ValueError for another decision or an over-long reason,
    KeyError for an unknown paper."""
    decision = check_decision(decision)
    reason = clean_reason(reason) if decision == EXCLUDE else None
    with store.transaction() as conn:
        annotate(store, conn, paper_id)  # KeyError for an unknown paper
        changed = [version for version in versions_in(conn, paper_id)
                   if _put_decision(conn, version, (decision, reason, decided_at or now()))]
        return store.log(conn, changed, DECISION) if changed else NOTHING


def _put_decision(conn: sqlite3.Connection, paper_id: str, value: tuple | None) -> bool:
    """Give one paper (decision, reason, decided_at), or no decision for None or a None decision; True when its
    decision or reason changed."""
    decision, reason, decided_at = value or (None, None, None)
    old = conn.execute("SELECT decision, reason FROM decisions WHERE paper_id = ?", (paper_id,)).fetchone()
    if (tuple(old) if old else (None, None)) == (decision, reason):
        return False
    conn.execute("INSERT OR IGNORE INTO annotations (paper_id, updated_at) VALUES (?, ?)", (paper_id, now()))
    if decision is None:
        conn.execute("DELETE FROM decisions WHERE paper_id = ?", (paper_id,))
    else:
        conn.execute("INSERT OR REPLACE INTO decisions (paper_id, decision, reason, decided_at)"
                     " VALUES (?, ?, ?, ?)", (paper_id, decision, reason, decided_at))
    return True


def restore_decisions(store: Store, before: dict[str, tuple[str, str | None, str] | None]) -> Changes:
    """Put back each paper's decision as `decisions` gave it ((decision, reason, decided_at), or None for none),
    paper by paper without spreading to other versions (the window's undo), in one transaction. Returns a
    `decision` change of the papers that changed; unknown papers are passed over."""
    with store.transaction() as conn:
        changed = [paper_id for paper_id, value in before.items()
                   if conn.execute("SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone()
                   and _put_decision(conn, paper_id, value)]
        return store.log(conn, changed, DECISION) if changed else NOTHING


def decision(store: Store, paper_id: str) -> tuple[str, str | None, str] | None:
    """A paper's decision as (decision, reason or None, decided_at ISO time); None when it has none."""
    rows = store.read("SELECT decision, reason, decided_at FROM decisions WHERE paper_id = ?", (paper_id,))
    return rows[0] if rows else None


def decisions(store: Store, ids: Iterable[str] | None = None) -> dict[str, tuple[str, str | None, str]]:
    """Decisions by paper id, each (decision, reason or None, decided_at), of papers `ids` (all when None)."""
    query = "SELECT paper_id, decision, reason, decided_at FROM decisions"
    if ids is None:
        return {row[0]: row[1:] for row in store.read(query)}
    wanted, found = list(ids), {}
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        found.update({row[0]: row[1:] for row in store.read(query + f" WHERE paper_id IN ({marks})", chunk)})
    return found


# ----------------------------------------------------------------- PRISMA counts
@dataclass
class Prisma:
    """PRISMA-style screening counts of a set of papers: `records` in the set, `screened` (those with a decision),
    `included`, `excluded`, `maybe`, and `excluded_by_reason` (reason → count, most first; "" for no reason)."""

    records: int = 0
    screened: int = 0
    included: int = 0
    excluded: int = 0
    maybe: int = 0
    excluded_by_reason: dict[str, int] = field(default_factory=dict)

    @property
    def undecided(self) -> int:
        """Records without a decision yet."""
        return self.records - self.screened

    def to_json(self) -> dict:
        """{"records", "screened", "included", "excluded", "maybe", "undecided", "excluded_by_reason":
        {reason: count} (NO_REASON, "(no reason given)", for excluded without a reason)}."""
        return {"records": self.records, "screened": self.screened, "included": self.included,
                "excluded": self.excluded, "maybe": self.maybe, "undecided": self.undecided,
                "excluded_by_reason": {reason or NO_REASON: n for reason, n in self.excluded_by_reason.items()}}

    def stages(self) -> list[tuple[str, str, int]]:
        """The counts as (stage, reason, count) rows, in PRISMA's order: records, screened, excluded, excluded
        per reason (NO_REASON for those excluded without one), maybe, included, undecided (the `--prisma-csv`
        file)."""
        rows = [("records identified", "", self.records), ("records screened", "", self.screened),
                ("records excluded", "", self.excluded)]
        rows += [("records excluded", reason or NO_REASON, count) for reason, count in self.excluded_by_reason.items()]
        return rows + [("maybe (awaiting a decision)", "", self.maybe), ("records included", "", self.included),
                       ("not screened yet", "", self.undecided)]

    def to_csv(self) -> str:
        """The counts as CSV (RFC 4180, CRLF, a UTF-8 byte-order mark as the CSV export writes): a header
        `stage,reason,count`, then `stages()`, one row each."""
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer, dialect="excel", lineterminator="\r\n")
        writer.writerow(("stage", "reason", "count"))
        writer.writerows(self.stages())
        return "\ufeff" + buffer.getvalue()


def prisma_counts(store: Store, ids: Sequence[str] | None = None) -> Prisma:
    """The PRISMA counts of papers `ids` (every paper of the library when None; unknown ids count as records
    only when in the library)."""
    if ids is None:
        records = store.read("SELECT COUNT(*) FROM papers")[0][0]
        rows = store.read("SELECT decision, COALESCE(reason, ''), COUNT(*) FROM decisions GROUP BY 1, 2")
    else:
        wanted = set(ids)
        records = len(wanted)
        rows_by: dict[tuple[str, str], int] = {}
        for paper_decision, reason, _at in decisions(store, wanted).values():
            key = (paper_decision, reason or "")
            rows_by[key] = rows_by.get(key, 0) + 1
        rows = [(d, r, n) for (d, r), n in rows_by.items()]
    counts = Prisma(records=records)
    by_reason: dict[str, int] = {}
    for paper_decision, reason, number in rows:
        counts.screened += number
        if paper_decision == INCLUDE:
            counts.included += number
        elif paper_decision == MAYBE:
            counts.maybe += number
        else:
            counts.excluded += number
            by_reason[reason] = by_reason.get(reason, 0) + number
    counts.excluded_by_reason = dict(sorted(by_reason.items(), key=lambda item: (-item[1], item[0] == "", item[0])))
    return counts


# ----------------------------------------------------------------- the reason list
def exclusion_reasons(store: Store) -> list[str]:
    """The exclusion reasons offered when excluding, in the user's order."""
    return store.column("SELECT reason FROM exclusion_reasons ORDER BY position, reason")


def set_exclusion_reasons(store: Store, reasons: Iterable[str]) -> Changes:
    """Replace the list of exclusion reasons (cleaned, repeats differing in case only dropped, empty ones left
    out). Papers keep the reasons they were excluded for. Returns NOTHING (no paper changed). Raises ValueError,
    changing nothing, for an over-long reason or one that is only a number (`decide --reason 3` means the
    third)."""
    kept: list[str] = []
    for reason in reasons:
        reason = clean_reason(reason)
        if reason and reason.isdigit():
            raise ValueError(f"an exclusion reason needs a word: '{reason}' would read as the list's number")
        if reason and reason.casefold() not in {r.casefold() for r in kept}:
            kept.append(reason)
    with store.transaction() as conn:
        conn.execute("DELETE FROM exclusion_reasons")
        conn.executemany("INSERT INTO exclusion_reasons (reason, position) VALUES (?, ?)",
                         [(reason, number) for number, reason in enumerate(kept)])
    return NOTHING


def add_exclusion_reason(store: Store, reason: str) -> Changes:
    """Add a reason at the end of the list (nothing when it is there already, in any case). Raises ValueError
    for an empty, over-long or only numeric reason."""
    if not clean_reason(reason):
        raise ValueError("an exclusion reason needs a word or two")
    return set_exclusion_reasons(store, [*exclusion_reasons(store), reason])


def remove_exclusion_reason(store: Store, reason: str) -> Changes:
    """Take a reason off the list (matched ignoring case); papers excluded for it keep it. Returns NOTHING."""
    wanted = (clean_reason(reason) or "").casefold()
    return set_exclusion_reasons(store, [r for r in exclusion_reasons(store) if r.casefold() != wanted])


def rename_exclusion_reason(store: Store, old: str, new: str, merge: bool = False) -> Changes:
    """Rename a reason in the list (in its place) and on every paper excluded for it, both matched ignoring case.
    When `new` is another reason of the list already, the two become one (with its spelling) only with
    `merge`. Returns a `decision` change of the papers whose reason changed. Raises ValueError for an empty,
    over-long or only numeric new name, or for a `new` already listed without `merge`."""
    new_text = clean_reason(new)
    if not new_text:
        raise ValueError("an exclusion reason needs a word or two")
    old_key = (clean_reason(old) or "").casefold()
    listed = exclusion_reasons(store)
    existing = next((r for r in listed if r.casefold() == new_text.casefold() != old_key), None)
    if existing and not merge:
        raise ValueError(f"'{existing}' is an exclusion reason already; merge the two to make them one")
    new_text = existing or new_text
    with store.transaction() as conn:
        set_exclusion_reasons(store, [new_text if r.casefold() == old_key else r for r in listed])
        ids = [paper_id for paper_id, reason in conn.execute("SELECT paper_id, reason FROM decisions"
                                                             " WHERE reason IS NOT NULL")
               if reason.casefold() == old_key and reason != new_text]
        conn.executemany("UPDATE decisions SET reason = ? WHERE paper_id = ?", [(new_text, i) for i in ids])
        return store.log(conn, ids, DECISION) if ids else NOTHING


# ----------------------------------------------------------------- the inclusion criteria
def criteria(store: Store) -> str:
    """The inclusion criteria text ("" when none was written)."""
    rows = store.column("SELECT value FROM screening_settings WHERE key = ?", (_CRITERIA,))
    return rows[0] if rows else ""


def set_criteria(store: Store, text: str) -> Changes:
    """Replace the inclusion criteria (plain text, kept as written but for control characters other than tab and
    line breaks). Returns NOTHING (no paper changed). Raises ValueError for over MAX_CRITERIA characters."""
    text = "".join(ch for ch in (text or "") if ch in "\t\n" or ch.isprintable()).replace("\r\n", "\n")
    if len(text) > MAX_CRITERIA:
        raise ValueError(f"the inclusion criteria have at most {MAX_CRITERIA:,} characters")
    with store.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO screening_settings (key, value) VALUES (?, ?)", (_CRITERIA, text))
    return NOTHING


# ----------------------------------------------------------------- backups
def screening_state(store: Store) -> dict:
    """What a backup keeps of the screening besides the papers' decisions: {"criteria": str, "reasons": [str]}."""
    return {"criteria": criteria(store), "reasons": exclusion_reasons(store)}


def restore_decision(store: Store, paper: Paper, decision: dict | None,
                     created: datetime | None) -> tuple[bool, bool]:
    """Put a backup item's screening decision (its annotations' "decision" object, db.exporters.margin_json) on
    `paper`, unless the library holds a different one decided at or after the document's `created` time (UTC;
    None: unknown, older than any decision). Returns (changed, a newer decision of the library's was kept)."""
    if not decision:
        return False, False
    reason = clean_reason(decision.get("reason")) if decision["decision"] == EXCLUDE else None
    if (paper.decision, paper.reason) == (decision["decision"], reason):
        return False, False
    try:
        decided = datetime.fromisoformat(paper.decided_at or "")
        decided = decided.replace(tzinfo=UTC) if decided.tzinfo is None else decided
    except ValueError:
        decided = None
    if paper.decision and (created is None or decided is None or decided >= created):
        return False, True
    return bool(set_decision(store, paper.id, decision["decision"], reason, decision.get("decided_at"))), False


def merge_screening_state(store: Store, state: object) -> bool:
    """Put a backup's screening state back: the criteria when the library has none, and the reasons it lacks
    (after its own). Anything not shaped as screening_state makes is passed over. True when anything changed."""
    if not isinstance(state, dict):
        return False
    changed = False
    text = state.get("criteria")
    if isinstance(text, str) and text.strip() and not criteria(store).strip():
        set_criteria(store, text)
        changed = True
    have = exclusion_reasons(store)
    known = {reason.casefold() for reason in have}
    new = [r for r in state.get("reasons") or [] if isinstance(r, str) and (clean_reason(r) or "").casefold()
           not in known and clean_reason(r)]
    if new:
        set_exclusion_reasons(store, have + new)
        changed = True
    return changed
