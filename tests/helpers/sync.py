"""Helpers for sync tests and the sync benchmark: random offline edits on a library (remembering every note text
typed), a field-by-field snapshot of a library to compare two of them, and a sync run in-process."""

from __future__ import annotations

import random
from pathlib import Path

from db.library import Library
from db.sync import open_for_sync, run_sync
from db.text.cleaning import tag_key

TAG_NAMES = ["theory", "to read", "graphs", "RL", "vision", "language", "robotics", "benchmarks"]


def random_edits(library: Library, count: int, seed: int, side: str, typed: set[tuple[str, str]],
                 deletes: bool = True) -> int:
    """Make `count` random edits (ratings, read, titles, notes, tags, tag renames and merges, interests,
    dismissals, highlight lists, deletes) through the Library; every (paper, note text) typed goes into
    `typed`. Returns the number of edits that changed something."""
    rng = random.Random(seed)
    changed = 0
    for number in range(count):
        ids = library.ids()
        paper_id = rng.choice(ids)
        roll = rng.random()
        if roll < 0.15:
            change = library.set_rating(paper_id, rng.randint(0, 5))
        elif roll < 0.25:
            change = library.set_read(paper_id, rng.random() < 0.6)
        elif roll < 0.33:
            change = library.set_title(paper_id, rng.choice([None, f"{side} title {number}"]))
        elif roll < 0.55:
            text = f"{side} note {number}: " + " ".join(rng.choice(["graph", "bound", "loss", "$x^2$"])
                                                       for _ in range(rng.randint(1, 6)))
            typed.add((paper_id, text))
            change = library.set_note(paper_id, text)
        elif roll < 0.72:
            change = library.add_tags(paper_id, [rng.choice(TAG_NAMES)])
        elif roll < 0.82:
            tags = library.paper(paper_id).tags
            change = library.remove_tags(paper_id, [rng.choice(tags)]) if tags else library.set_read(paper_id, True)
        elif roll < 0.86:
            tags = [name for name, _count in library.tags()]
            change = (library.rename_tag(rng.choice(tags), rng.choice(TAG_NAMES + [f"{side} tag {number}"]))
                      if tags else library.add_tags(paper_id, ["theory"]))
        elif roll < 0.89:
            change = library.set_interest(rng.choice(TAG_NAMES), rng.random() < 0.7)
        elif roll < 0.92:
            change = library.set_dismissed(paper_id, rng.choice(TAG_NAMES), rng.random() < 0.7)
        elif roll < 0.94:
            library.set_highlight_lists([rng.choice(["graph", "bound", "loss"])], [f"{side}{number}"])
            change = True
        elif deletes and roll < 0.96 and len(ids) > 10:
            change = library.delete_papers([paper_id])
        else:
            change = library.set_rating(paper_id, rng.randint(1, 5))
        changed += bool(change)
    return changed


def snapshot(library: Library) -> dict:
    """Everything a sync carries, field by field: per paper its bibliographic fields, rating, read, title,
    note, note history (as a set of texts) and tag keys; the interests, dismissals and highlight lists."""
    papers = {}
    for paper in library.papers():
        papers[paper.id] = {
            "fields": (paper.file_title, paper.label, paper.abstract, tuple(paper.authors), paper.venue, paper.year,
                       paper.url, paper.doi),
            "rating": paper.rating, "read": paper.read, "user_title": paper.user_title, "note": paper.note,
            "history": sorted({text for _at, text in library.note_history(paper.id)}),
            "tags": sorted(tag_key(name) for name in paper.tags),
        }
    lists = library.highlight_lists()
    return {"papers": papers, "interests": sorted(tag_key(name) for name in library.interests()),
            "highlights": (lists.include, lists.exclude),
            "dismissed": sorted((paper_id, key) for paper_id, key, _name in library.sync_book.dismissal_pairs()
                                if paper_id in papers)}


def history_duplicates(library: Library) -> list[tuple[str, str]]:
    """(paper, text) pairs that are in a paper's note history more than once."""
    seen, twice = set(), []
    for paper_id in library.ids():
        for _at, text in library.note_history(paper_id):
            if (paper_id, text) in seen:
                twice.append((paper_id, text))
            seen.add((paper_id, text))
    return twice


def lost_notes(library: Library, typed: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (paper, text) typed whose text is neither the paper's note nor in its history (papers deleted are
    left out)."""
    present = set(library.ids())
    lost = []
    for paper_id, text in sorted(typed):
        if paper_id in present:
            note = library.paper(paper_id).note
            if text != note and text not in {t for _at, t in library.note_history(paper_id)}:
                lost.append((paper_id, text))
    return lost


def sync_folder(folder: Path, server: str | None = None):
    """One sync of the library in `folder` (opened for the sync alone); returns the SyncReport."""
    library = open_for_sync(folder)
    try:
        return run_sync(library, server)
    finally:
        library.close()
