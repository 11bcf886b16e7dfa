"""Versions of one work: the arXiv preprint, the OpenReview submission and the proceedings paper of one piece of
research, each a paper of its own (its id, venue, link and abstract kept), grouped so that the list shows the
work once and a rating, tag, read mark or note given to one version is the work's (db.library.annotations and
db.library.tags write it to every version).

A paper in a group has a row in `works` naming the work (the id of one of its papers, which stays the work's name
even if that paper is deleted); a paper without a row is a work of its own. Import groups papers
(`group_new_versions`) when
- their titles are the same (db.library.match_keys.title_key), their author lists share a family name, and
  their venues or years differ, or
- one's DOI is arXiv's DOI of the other's arXiv id (`10.48550/arXiv.1502.01852` ↔ `1502.01852`), or
- an arXiv preprint's journal-ref (`Phys. Rev. B 71, 184511 (2005)`, kept as its venue) names the volume and
  first page of an article with a shared author (and the article's year, when the journal-ref has one);
never two papers the user split (`work_splits`, both directions), so a re-import does not undo a split. Papers
that the matcher took for the same paper (same DOI, same title and venue, …) are one paper, not versions.
Grouping unifies the annotations (the first rated version's rating, read if any is read, the tags of all, the
different notes one after the other); splitting keeps them on each version. Every mutation returns Changes of
kind `versions` (plus the annotation kinds grouping changed) for every paper whose group changed.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Sequence

from db.changes import DECISION, NOTE, NOTHING, RATING, READ, TAGS, VERSIONS, Changes
from db.library.match_keys import title_key
from db.library.merging import family_names, venue_name, version_venue
from db.library.store import Store, now

BY_HAND = "by hand"
SAME_TITLE = "same title and authors"
ARXIV_DOI = "arXiv DOI"
JOURNAL_REF = "arXiv journal-ref"
_NUMBER = re.compile(r"\d+")
_REF_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
_ARXIV_DOI = "10.48550/arxiv."


def versions_in(conn: sqlite3.Connection, paper_id: str) -> list[str]:
    """The ids of the versions of the paper's work (the paper itself included), in library order."""
    row = conn.execute("SELECT work_id FROM works WHERE paper_id = ?", (paper_id,)).fetchone()
    if row is None:
        return [paper_id]
    return [found[0] for found in conn.execute(
        "SELECT w.paper_id FROM works w JOIN papers p ON p.id = w.paper_id WHERE w.work_id = ? ORDER BY p.position",
        row)]


def versions(store: Store, paper_id: str) -> list[str]:
    """The ids of the versions of the paper's work, itself included, in library order. Raises KeyError for an
    unknown paper."""
    with store.lock:
        if not store.conn.execute("SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone():
            raise KeyError(paper_id)
        return versions_in(store.conn, paper_id)


def works_of(store: Store) -> dict[str, str]:
    """{paper id: work id} of every paper that is in a group of versions (one indexed read; papers without an
    entry are works of their own)."""
    return dict(store.read("SELECT paper_id, work_id FROM works"))


def work_reasons(store: Store, paper_id: str) -> str | None:
    """Why the paper is in its group (SAME_TITLE, ARXIV_DOI or BY_HAND), or None when it is a work of its own."""
    row = store.read("SELECT reason FROM works WHERE paper_id = ?", (paper_id,))
    return row[0][0] if row else None


def group(store: Store, ids: Sequence[str], reason: str = BY_HAND) -> Changes:
    """Make these papers (at least two) versions of one work, with the works they are in; splits between them are
    forgotten. Raises KeyError for an unknown paper, ValueError for fewer than two papers."""
    if len(set(ids)) < 2:
        raise ValueError("grouping needs two papers or more")
    with store.transaction() as conn:
        for paper_id in ids:
            if not conn.execute("SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone():
                raise KeyError(paper_id)
        return join(store, conn, ids, reason)


def split(store: Store, paper_id: str) -> Changes:
    """Take the paper out of its work: it becomes a work of its own (its annotations as they are), and it is
    never grouped with those versions again by an import (`group` undoes that). Returns NOTHING when the paper
    is a work of its own. Raises KeyError for an unknown paper."""
    with store.transaction() as conn:
        if not conn.execute("SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone():
            raise KeyError(paper_id)
        members = versions_in(conn, paper_id)
        if len(members) < 2:
            return NOTHING
        others = [other for other in members if other != paper_id]
        conn.execute("DELETE FROM works WHERE paper_id = ?", (paper_id,))
        if len(others) == 1:
            conn.execute("DELETE FROM works WHERE paper_id = ?", (others[0],))
        conn.executemany("INSERT OR IGNORE INTO work_splits VALUES (?, ?)",
                         [pair for other in others for pair in ((paper_id, other), (other, paper_id))])
        return store.log(conn, members, VERSIONS)


def join(store: Store, conn: sqlite3.Connection, ids: Iterable[str], reason: str) -> Changes:
    """Group the papers `ids` with the works they are in (inside the caller's transaction) and unify their
    annotations; returns what changed."""
    members: list[str] = []
    for paper_id in ids:
        members += [found for found in versions_in(conn, paper_id) if found not in members]
    if len(members) < 2:
        return NOTHING
    rows = conn.execute(f"SELECT p.id, p.position, w.work_id FROM papers p LEFT JOIN works w ON w.paper_id = p.id"
                        f" WHERE p.id IN ({','.join('?' * len(members))}) ORDER BY p.position", members).fetchall()
    members = [row[0] for row in rows]
    work_id = next((row[2] for row in rows if row[2]), rows[0][0])
    before = {row[0]: row[2] for row in rows}
    conn.executemany("INSERT INTO works (paper_id, work_id, reason) VALUES (?, ?, ?) ON CONFLICT(paper_id)"
                     " DO UPDATE SET work_id = excluded.work_id", [(paper_id, work_id, reason) for paper_id in members])
    conn.executemany("DELETE FROM work_splits WHERE paper_id = ? AND other_id = ?",
                     [(a, b) for a in members for b in members if a != b])
    changed = [paper_id for paper_id in members if before[paper_id] != work_id]
    changes = store.log(conn, changed, VERSIONS) if changed else NOTHING
    return changes | _unify(store, conn, members)


def _unify(store: Store, conn: sqlite3.Connection, members: list[str]) -> Changes:
    """Give every version the work's annotations: the first rated version's rating, read if any is, every
    version's tags, their different notes one after the other (a replaced note goes to its history), and the
    first decided version's screening decision."""
    marks = ",".join("?" * len(members))
    stamp = now()
    conn.executemany("INSERT OR IGNORE INTO annotations (paper_id, updated_at) VALUES (?, ?)",
                     [(paper_id, stamp) for paper_id in members])
    found = {row[0]: row[1:] for row in conn.execute(
        f"SELECT paper_id, rating, read, note FROM annotations WHERE paper_id IN ({marks})", members)}
    rating = next((found[p][0] for p in members if found[p][0] is not None), None)
    read = int(any(found[p][1] for p in members))
    notes = list(dict.fromkeys(found[p][2].strip() for p in members if found[p][2].strip()))
    note = "\n\n".join(notes)
    changes = NOTHING
    for paper_id in members:
        old_rating, old_read, old_note = found[paper_id]
        kinds = [kind for kind, same in ((RATING, old_rating == rating), (READ, old_read == read),
                                         (NOTE, old_note == note or old_note.strip() == note)) if not same]
        if not kinds:
            continue
        if NOTE in kinds and old_note.strip():
            conn.execute("INSERT INTO note_history (paper_id, note, saved_at) VALUES (?, ?, ?)",
                         (paper_id, old_note, stamp))
        conn.execute("UPDATE annotations SET rating = ?, read = ?, note = ?, updated_at = ? WHERE paper_id = ?",
                     (rating, read, note if NOTE in kinds else old_note, stamp, paper_id))
        changes |= store.log(conn, [paper_id], *kinds)
    tags = [row[0] for row in conn.execute(
        f"SELECT DISTINCT tag_id FROM paper_tags WHERE paper_id IN ({marks})", members)]
    tagged = []
    for paper_id in members:
        added = sum(conn.execute("INSERT OR IGNORE INTO paper_tags VALUES (?, ?)", (paper_id, tag)).rowcount
                    for tag in tags)
        if added:
            tagged.append(paper_id)
    return changes | (store.log(conn, tagged, TAGS) if tagged else NOTHING) | _unify_decisions(store, conn, members)


def _unify_decisions(store: Store, conn: sqlite3.Connection, members: list[str]) -> Changes:
    """Give every version the first decided version's screening decision (decision, reason, decided_at)."""
    found = {row[0]: tuple(row[1:]) for row in conn.execute(
        f"SELECT paper_id, decision, reason, decided_at FROM decisions WHERE paper_id IN"
        f" ({','.join('?' * len(members))})", members)}
    first = next((found[p] for p in members if p in found), None)
    changed = [p for p in members if first and found.get(p, (None, None))[:2] != first[:2]]
    conn.executemany("INSERT OR REPLACE INTO decisions (paper_id, decision, reason, decided_at) VALUES (?, ?, ?, ?)",
                     [(p, *first) for p in changed])
    return store.log(conn, changed, DECISION) if changed else NOTHING


def group_new_versions(store: Store, conn: sqlite3.Connection, ids: Sequence[str]) -> tuple[Changes, list[str]]:
    """Group the papers `ids` (just imported or updated) with the other versions of their work found in the
    library (module docstring), inside the caller's transaction. Returns the changes and one line per group
    formed or grown: '"Title" with 1 other version (same title and authors)'."""
    changes, said = NOTHING, []
    for paper_id in _with_candidates(conn, ids):
        row = conn.execute("SELECT title, authors, doi, arxiv_id FROM papers WHERE id = ?", (paper_id,)).fetchone()
        if row is None:
            continue
        title, authors, doi, arxiv_id = row
        found = _same_title(conn, paper_id, title, json.loads(authors))
        reason = SAME_TITLE
        if not found:
            found, reason = _arxiv_doi(conn, paper_id, doi, arxiv_id), ARXIV_DOI
        mine = set(versions_in(conn, paper_id))
        found = [other for other in found if other not in mine and not _split_apart(conn, paper_id, other)]
        if found:
            changes |= join(store, conn, [paper_id, *found], reason)
            said.append(_said(conn, paper_id, title, reason))
    for paper_id, other in _journal_ref_pairs(conn, ids):
        if other not in versions_in(conn, paper_id) and not _split_apart(conn, paper_id, other):
            changes |= join(store, conn, [paper_id, other], JOURNAL_REF)
            said.append(_said(conn, paper_id, None, JOURNAL_REF))
    return changes, said


def _said(conn: sqlite3.Connection, paper_id: str, title: str | None, reason: str) -> str:
    if title is None:
        title = conn.execute("SELECT label FROM papers WHERE id = ?", (paper_id,)).fetchone()[0]
    others = len(versions_in(conn, paper_id)) - 1
    return f'"{title or paper_id}" with {others} other version{"s" if others > 1 else ""} ({reason})'


def _reference_keys(venue: str | None) -> set[tuple[str, str]]:
    """(volume, page) candidates of an arXiv journal-ref ("Phys. Rev. B 71, 184511 (2005)": (71, 184511), …)."""
    numbers = _NUMBER.findall(venue or "")
    return set(zip(numbers, numbers[1:], strict=False))


def _journal_ref_pairs(conn: sqlite3.Connection, ids: Sequence[str]) -> list[tuple[str, str]]:
    """(preprint, article) pairs where an arXiv preprint's journal-ref (its venue, as the arXiv Atom reader keeps
    it) names the volume and first page of an article with a shared author (and the article's year, when the
    journal-ref has one), one of the two among `ids`. Reads every paper with a volume and pages only when
    `ids` hold a preprint with a journal-ref or such an article."""
    wanted = set(ids)
    marks = ",".join("?" * len(wanted))
    if not wanted or not conn.execute(
            f"SELECT 1 FROM papers WHERE id IN ({marks}) AND ((arxiv_id IS NOT NULL AND venue GLOB '*[0-9]*[0-9]*')"
            " OR (json_extract(extra, '$.volume') IS NOT NULL AND json_extract(extra, '$.pages') IS NOT NULL))"
            " LIMIT 1", list(wanted)).fetchone():
        return []
    articles: dict[tuple[str, str], list[tuple[str, int | None, frozenset[str]]]] = {}
    for paper_id, volume, pages, year, authors in conn.execute(
            "SELECT id, json_extract(extra, '$.volume'), json_extract(extra, '$.pages'), year, authors FROM papers"
            " WHERE json_extract(extra, '$.volume') IS NOT NULL AND json_extract(extra, '$.pages') IS NOT NULL"):
        page = _NUMBER.search(str(pages))
        if page:
            articles.setdefault((str(volume).strip(), page.group(0)), []).append(
                (paper_id, year, family_names(json.loads(authors))))
    pairs = []
    for paper_id, venue, authors in conn.execute(
            "SELECT id, venue, authors FROM papers WHERE arxiv_id IS NOT NULL AND venue GLOB '*[0-9]*[0-9]*'"):
        names, years = family_names(json.loads(authors)), {int(y) for y in _REF_YEAR.findall(venue)}
        for key in _reference_keys(venue):
            for other, year, other_names in articles.get(key, ()):
                if other != paper_id and (paper_id in wanted or other in wanted) and names & other_names and (
                        not years or year is None or year in years):
                    pairs.append((paper_id, other))
    return pairs


def _with_candidates(conn: sqlite3.Connection, ids: Sequence[str]) -> list[str]:
    """Those of `ids` that another paper shares a title with or that carry an arXiv DOI or id (indexed reads,
    500 ids at a time: an import of thousands of papers that have no other versions costs a few queries)."""
    found: list[str] = []
    wanted = list(dict.fromkeys(ids))
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        hits = {row[0] for row in conn.execute(
            f"SELECT m.paper_id FROM match_keys m WHERE m.paper_id IN ({marks}) AND (m.doi LIKE '{_ARXIV_DOI}%'"
            f" OR EXISTS (SELECT 1 FROM match_keys o WHERE o.title = m.title AND o.paper_id != m.paper_id)"
            f" OR (m.arxiv IS NOT NULL AND EXISTS (SELECT 1 FROM match_keys o"
            f" WHERE o.doi = '{_ARXIV_DOI}' || m.arxiv)))",
            chunk)}
        found += [paper_id for paper_id in chunk if paper_id in hits]
    return found


def _same_title(conn: sqlite3.Connection, paper_id: str, title: str | None, authors: list[str]) -> list[str]:
    """Papers with the same title sharing an author's family name, from another venue or year (two papers of
    one title, venue and year are two submissions the matcher kept apart, such as ICLR's "withdrawn" rows)."""
    key, names = title_key(title), family_names(authors)
    if not key or not names:
        return []
    venue, year, arxiv_id = conn.execute("SELECT venue, year, arxiv_id FROM papers WHERE id = ?",
                                         (paper_id,)).fetchone()
    mine = venue_name(version_venue(venue, arxiv_id))
    return [other for other, other_authors, other_venue, other_year, other_arxiv in conn.execute(
        "SELECT m.paper_id, p.authors, p.venue, p.year, p.arxiv_id FROM match_keys m JOIN papers p ON p.id = m.paper_id"
        " WHERE m.title = ? AND m.paper_id != ? ORDER BY p.position", (key, paper_id))
        if names & family_names(json.loads(other_authors))
        and (other_year != year or venue_name(version_venue(other_venue, other_arxiv)) != mine)]


def _arxiv_doi(conn: sqlite3.Connection, paper_id: str, doi: str | None, arxiv_id: str | None) -> list[str]:
    found = []
    if doi and doi.lower().startswith(_ARXIV_DOI):
        found += [row[0] for row in conn.execute("SELECT paper_id FROM match_keys WHERE arxiv = ? AND paper_id != ?",
                                                 (re.sub(r"v\d+$", "", doi.lower()[len(_ARXIV_DOI):]), paper_id))]
    if arxiv_id:
        found += [row[0] for row in conn.execute("SELECT paper_id FROM match_keys WHERE doi = ? AND paper_id != ?",
                                                 (_ARXIV_DOI + arxiv_id.lower(), paper_id))]
    return found


def _split_apart(conn: sqlite3.Connection, paper_id: str, other: str) -> bool:
    """True when the user split these two papers (or the works they are in) apart."""
    mine, theirs = versions_in(conn, paper_id), versions_in(conn, other)
    marks_a, marks_b = ",".join("?" * len(mine)), ",".join("?" * len(theirs))
    return conn.execute(f"SELECT 1 FROM work_splits WHERE paper_id IN ({marks_a}) AND other_id IN ({marks_b})"
                        " LIMIT 1", (*mine, *theirs)).fetchone() is not None
