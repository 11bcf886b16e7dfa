"""The annotations an imported file carries (db.paper.Annotations: tags, rating, read mark, note, the user's
title, screening decision), put on the papers the import matched or added (issue 30).

The rule is "fill what is empty, never overwrite": a rating, a note, a user's title, a screening decision or tags
go onto a paper only when it has none; a read mark only turns an unread paper read. Where the paper already has a
value that differs from the file's, the library's value is kept and the paper is counted in `kept`. So importing
Margin's own export into the library it came from changes nothing, and into an empty library restores every
annotation.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field

from db.changes import DECISION, NOTE, NOTHING, RATING, READ, TAGS, TITLE, Changes
from db.library.annotations import annotate
from db.library.decisions import EXCLUDE, clean_reason
from db.library.store import Store, now
from db.paper import Annotations
from db.text.cleaning import clean_note, clean_tag, clean_title, tag_key


@dataclass
class AnnotationCounts:
    """Ids of the papers whose rating, read mark, note or tags an import set from its files, and of the papers
    that kept a value of their own that differed from the file's (`kept`)."""

    rating: list[str] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    note: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    title: list[str] = field(default_factory=list)
    decision: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.rating or self.read or self.note or self.tags or self.kept or self.title or self.decision)

    def summary(self) -> str:
        """`annotations from the files: 28 ratings, 10 read marks, 4 notes, tags on 31 papers, 2 papers kept
        their own` (only the parts that are not 0); "" when the files carried none that applied."""
        if not self:
            return ""
        parts = [f"{len(ids):,} {name if len(ids) == 1 else plural}" for ids, name, plural in (
            (self.rating, "rating", "ratings"), (self.read, "read mark", "read marks"), (self.note, "note", "notes"),
            (self.title, "title", "titles"), (self.decision, "screening decision", "screening decisions"))
            if ids]
        if self.tags:
            parts.append(f"tags on {len(self.tags):,} {'paper' if len(self.tags) == 1 else 'papers'}")
        kept = len(set(self.kept))
        if kept:
            parts.append(f"{kept:,} {'paper' if kept == 1 else 'papers'} kept {'its' if kept == 1 else 'their'} own")
        return "annotations from the files: " + ", ".join(parts)

    @property
    def changes(self) -> Changes:
        """What setting them changed (kinds rating, read, note, tags, title, decision)."""
        changes = NOTHING
        for ids, kind in ((self.rating, RATING), (self.read, READ), (self.note, NOTE), (self.tags, TAGS),
                          (self.title, TITLE), (self.decision, DECISION)):
            if ids:
                changes = changes | Changes.of(ids, kind)
        return changes

    def merge(self, other: AnnotationCounts) -> None:
        self.rating += other.rating
        self.read += other.read
        self.note += other.note
        self.tags += other.tags
        self.kept += other.kept
        self.title += other.title
        self.decision += other.decision


def _tags(names: Sequence[str]) -> dict[str, str]:
    """{tag key: tag as stored} of the file's tags; empty or overlong ones (which no paper can carry) are left out."""
    tags: dict[str, str] = {}
    for name in names:
        try:
            cleaned = clean_tag(name)
        except ValueError:
            continue
        tags.setdefault(tag_key(cleaned), cleaned)
    return tags


def apply_annotations(store: Store, conn: sqlite3.Connection,
                      items: Sequence[tuple[str, Annotations]]) -> AnnotationCounts:
    """Put each (paper id, Annotations) onto its paper inside the caller's write transaction, filling only what
    the paper lacks (module docstring); a paper named twice takes the second record's values for what the first
    left empty, and the tags of both (a paper twice in the files is not the user's own doing). Logs every change
    in the change log. Returns the counts."""
    counts = AnnotationCounts()
    ours: set[tuple[str, str]] = set()  # (paper id, what) this import set: not the user's, so never "kept"
    for paper_id, marks in items:
        annotate(store, conn, paper_id)
        rating, read, note, title = conn.execute(
            "SELECT rating, read, note, title FROM annotations WHERE paper_id = ?", (paper_id,)).fetchone()
        kept = False
        if marks.rating and 1 <= marks.rating <= 5:
            if rating is None:
                annotate(store, conn, paper_id, rating=marks.rating)
                counts.rating.append(paper_id)
                ours.add((paper_id, RATING))
            kept |= rating is not None and rating != marks.rating and (paper_id, RATING) not in ours
        if marks.read and not read:
            annotate(store, conn, paper_id, read=1)
            counts.read.append(paper_id)
        kept |= marks.read is False and bool(read)
        text = clean_note(marks.note or "")
        if text.strip():
            if not note:
                annotate(store, conn, paper_id, note=text)
                counts.note.append(paper_id)
                ours.add((paper_id, NOTE))
            kept |= bool(note) and note != text and (paper_id, NOTE) not in ours
        try:
            wanted_title = clean_title(marks.title)
        except ValueError:  # longer than a title may be: left out, as an overlong tag is
            wanted_title = None
        if wanted_title:
            if not title:
                annotate(store, conn, paper_id, title=wanted_title)
                counts.title.append(paper_id)
                ours.add((paper_id, TITLE))
            kept |= bool(title) and title != wanted_title and (paper_id, TITLE) not in ours
        kept |= _decide(store, conn, paper_id, marks.decision, counts, ours)
        wanted = _tags(marks.tags)
        if wanted:
            have = {row[0] for row in conn.execute("SELECT t.key FROM tags t JOIN paper_tags pt ON pt.tag_id = t.id"
                                                    " WHERE pt.paper_id = ?", (paper_id,))}
            if not have or ((paper_id, TAGS) in ours and set(wanted) - have):
                for key, name in wanted.items():
                    conn.execute("INSERT OR IGNORE INTO tags (name, key) VALUES (?, ?)", (name, key))
                    conn.execute("INSERT OR IGNORE INTO paper_tags SELECT ?, id FROM tags WHERE key = ?",
                                 (paper_id, key))
                store.log(conn, [paper_id], TAGS)
                if (paper_id, TAGS) not in ours:
                    counts.tags.append(paper_id)
                ours.add((paper_id, TAGS))
            kept |= bool(have) and have != set(wanted) and (paper_id, TAGS) not in ours
        if kept:
            counts.kept.append(paper_id)
    return counts


def _decide(store: Store, conn: sqlite3.Connection, paper_id: str, decision: dict | None, counts: AnnotationCounts,
            ours: set[tuple[str, str]]) -> bool:
    """Put the file's screening decision on a paper that has none (an over-long reason: the decision without it).
    Returns True when the paper kept a different decision of its own."""
    if not decision:
        return False
    try:
        reason = clean_reason(decision.get("reason")) if decision["decision"] == EXCLUDE else None
    except ValueError:
        reason = None
    old = conn.execute("SELECT decision, reason FROM decisions WHERE paper_id = ?", (paper_id,)).fetchone()
    if old is None:
        conn.execute("INSERT INTO decisions (paper_id, decision, reason, decided_at) VALUES (?, ?, ?, ?)",
                     (paper_id, decision["decision"], reason, decision.get("decided_at") or now()))
        store.log(conn, [paper_id], DECISION)
        counts.decision.append(paper_id)
        ours.add((paper_id, DECISION))
        return False
    return tuple(old) != (decision["decision"], reason) and (paper_id, DECISION) not in ours
