"""The library's reads of papers: counts, ids in library order, whole papers (db.paper.Paper) with their
annotations and tags, per-venue read counts, and the texts the recommender's tf-idf model reads. Each function
takes the store (db.library.store.Store) and reads under its lock; the Library hands them out by name."""

from __future__ import annotations

import json
from collections.abc import Iterable

from db.library.store import Store
from db.paper import Paper

CHUNK = 500  # ids per SQL statement (well under SQLite's 32,766 parameters)

PAPER_SELECT = (
    "SELECT p.id, p.label, p.title, p.abstract, p.authors, p.venue, p.year, p.url, p.doi, p.arxiv_id,"
    " p.openreview_id, p.keywords, a.rating, COALESCE(a.read, 0), COALESCE(a.note, ''), a.title, p.position,"
    " p.added_at, p.extra, d.decision, d.reason, d.decided_at FROM papers p"
    " LEFT JOIN annotations a ON a.paper_id = p.id LEFT JOIN decisions d ON d.paper_id = p.id"
)
_TEXTS = ("SELECT p.id, COALESCE(a.title, p.label), p.abstract, COALESCE(a.note, '') FROM papers p"
          " LEFT JOIN annotations a ON a.paper_id = p.id")


def count(store: Store) -> int:
    """The number of papers in the library."""
    return store.read("SELECT COUNT(*) FROM papers")[0][0]


def ids(store: Store) -> list[str]:
    """Every paper id in library order (the order papers were first imported)."""
    return store.column("SELECT id FROM papers ORDER BY position")


def paper(store: Store, paper_id: str) -> Paper:
    """The paper with this id. Raises KeyError when there is none."""
    found = papers(store, [paper_id])
    if not found:
        raise KeyError(paper_id)
    return found[0]


def find_id(store: Store, prefix: str) -> str:
    """The full id of the one paper whose id starts with `prefix` (at least 4 hex digits).

    Raises KeyError when none or several match."""
    prefix = prefix.strip().lower()
    rows = store.column("SELECT id FROM papers WHERE id >= ? AND id < ? LIMIT 2",
                        (prefix, prefix + "g")) if len(prefix) >= 4 else []
    if len(rows) != 1:
        raise KeyError(prefix)
    return rows[0]


def papers(store: Store, ids: Iterable[str] | None = None) -> list[Paper]:
    """Papers with these ids in the order given (unknown ids are left out); all in library order if None."""
    with store.lock:
        if ids is None:
            rows = store.read(PAPER_SELECT + " ORDER BY p.position")
        else:
            wanted = list(ids)
            rows = []
            for start in range(0, len(wanted), CHUNK):
                chunk = wanted[start : start + CHUNK]
                rows += store.read(PAPER_SELECT + f" WHERE p.id IN ({','.join('?' * len(chunk))})", chunk)
            order = {paper_id: i for i, paper_id in enumerate(wanted)}
            rows.sort(key=lambda row: order[row[0]])
        tags = tags_by_paper(store, [row[0] for row in rows] if ids is not None else None)
    return [_paper_from_row(row, tags.get(row[0], [])) for row in rows]


def tags_by_paper(store: Store, ids: list[str] | None) -> dict[str, list[str]]:
    """The tag names of papers `ids` (all papers when None), each paper's sorted by name (case-insensitive);
    papers without tags are left out."""
    query = "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id"
    result: dict[str, list[str]] = {}
    if ids is None:
        rows = store.read(query + " ORDER BY t.name COLLATE NOCASE")
    else:
        rows = []
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            rows += store.read(query + f" WHERE pt.paper_id IN ({','.join('?' * len(chunk))})"
                               " ORDER BY t.name COLLATE NOCASE", chunk)
    for paper_id, name in rows:
        result.setdefault(paper_id, []).append(name)
    return result


def annotated_ids(store: Store) -> list[str]:
    """Ids of papers with a rating, a tag, a note, a user title or a screening decision, in library order."""
    return store.column(
        "SELECT p.id FROM papers p LEFT JOIN annotations a ON a.paper_id = p.id"
        " WHERE a.rating IS NOT NULL OR trim(COALESCE(a.note, '')) != '' OR a.title IS NOT NULL"
        " OR EXISTS (SELECT 1 FROM paper_tags pt WHERE pt.paper_id = p.id)"
        " OR EXISTS (SELECT 1 FROM decisions d WHERE d.paper_id = p.id) ORDER BY p.position")


def read_counts(store: Store) -> dict[str | None, tuple[int, int]]:
    """Per venue (None for papers without one): (papers read, papers in all), by venue."""
    with store.lock:
        # two indexed counts instead of a join over every paper: annotations are few, papers many. CROSS
        # JOIN keeps that order (SQLite's planner chose to walk every paper: 17 ms at 20k, now 0.2 ms)
        read = dict(store.read("SELECT p.venue, COUNT(*) FROM annotations a CROSS JOIN papers p"
                               " ON p.id = a.paper_id WHERE a.read = 1 GROUP BY p.venue"))
        return {venue: (read.get(venue, 0), total) for venue, total in store.read(
            "SELECT venue, COUNT(*) FROM papers GROUP BY venue ORDER BY venue")}


def read_total(store: Store) -> int:
    """The number of papers marked read: one count over the annotations (few beside the papers), without the
    per-venue GROUP BY of every paper that read_counts needs."""
    return store.read("SELECT COUNT(*) FROM annotations WHERE read = 1")[0][0]


def count_by(store: Store, kind: str, value: str) -> int:
    """The number of papers whose `kind` ("venue", or "source": the file name as imported) is `value`.
    Raises ValueError for another kind."""
    if kind not in ("venue", "source"):
        raise ValueError(f"papers are counted by venue or source file, not {kind!r}")
    return store.read(f"SELECT COUNT(*) FROM papers WHERE {kind} = ?", (value,))[0][0]


def paper_texts(store: Store, ids: Iterable[str] | None = None) -> list[tuple[str, str, str, str]]:
    """(id, label, abstract, note) of papers `ids` (in no particular order; unknown ids left out), or of every
    paper in library order when None: the label is the user's title when set, the note '' when none."""
    if ids is None:
        return store.read(_TEXTS + " ORDER BY p.position")
    wanted = list(ids)
    rows: list[tuple] = []
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        rows += store.read(_TEXTS + f" WHERE p.id IN ({','.join('?' * len(chunk))})", chunk)
    return rows


def _paper_from_row(row: tuple, tags: list[str]) -> Paper:
    (paper_id, label, title, abstract, authors, venue, year, url, doi, arxiv_id, openreview_id, keywords,
     rating, read, note, user_title, position, added_at, extra, decision, reason, decided_at) = row
    return Paper(
        id=paper_id, label=user_title or label, title=user_title or title, abstract=abstract,
        authors=json.loads(authors), venue=venue, year=year, url=url, doi=doi, arxiv_id=arxiv_id,
        openreview_id=openreview_id, keywords=json.loads(keywords), rating=rating, tags=tags, read=bool(read),
        note=note, user_title=user_title, position=position, added_at=added_at, file_title=title,
        extra=json.loads(extra), decision=decision, reason=reason, decided_at=decided_at,
    )
