"""Triage bookkeeping in the library: the random checks of triage progress (db.triage.progress), the tags that
are interests and the papers dismissed from their suggestions (db.triage.interests), the venues and files
marked "papers I like" (db.recommend.recommender), the highlight word lists (db.text.highlight_words); and the
reads of ratings and read state those modules screen and learn from. Each mutation is one write transaction of
the store and returns its Changes (kind `triage`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from db.changes import NOTHING, TRIAGE, Changes
from db.library.annotations import annotate
from db.library.store import Store, now
from db.text.cleaning import clean_tag, tag_key


# ----------------------------------------------------------------- progress checks
def add_check_sample(store: Store, scope: str, population: Sequence[str], drawn: Sequence[str],
                     sample_id: int | None = None, design: str = "random",
                     strata: Sequence[int] | None = None) -> Changes:
    """Record a check of triage progress for `scope` (a query text): `population`, the papers of the view
    unseen when it was drawn, each with its stratum (`strata`, parallel to `population`; all 0 when None), the
    `design` ("random": one simple random sample; "ranked": stratified by rank, db.triage.check), and `drawn`
    (a subset), the ones drawn for the user to rate. With `sample_id`, `drawn` papers of that check's
    population are drawn too (`population`, `design` and `strata` are then ignored). Unknown ids are left out.
    Returns a `triage` change of the papers newly drawn. Raises ValueError for another design or strata of
    another length than the population."""
    if design not in ("random", "ranked"):
        raise ValueError(f"a check is random or ranked, not {design!r}")
    strata = list(strata) if strata is not None else [0] * len(population)
    if len(strata) != len(population):
        raise ValueError(f"{len(strata)} strata for {len(population)} papers")
    with store.transaction() as conn:
        if sample_id is None:
            sample_id = conn.execute("INSERT INTO check_samples (scope, drawn_at, seq, design) VALUES (?, ?, ?, ?)",
                                     (scope, now(), store.last_change(), design)).lastrowid
            conn.executemany("INSERT OR IGNORE INTO check_papers (sample_id, paper_id, stratum)"
                             " SELECT ?, id, ? FROM papers WHERE id = ?",
                             [(sample_id, stratum, paper_id)
                              for paper_id, stratum in zip(population, strata, strict=True)])
        kept = [paper_id for paper_id in dict.fromkeys(drawn) if conn.execute(
            "UPDATE check_papers SET drawn = 1 WHERE sample_id = ? AND paper_id = ? AND drawn = 0",
            (sample_id, paper_id)).rowcount]
        return store.log(conn, kept, TRIAGE) if kept else NOTHING


def latest_check(store: Store, scope: str | None) -> int | None:
    """The id of the latest check drawn for `scope` (a query text; None: for any scope), None when there is
    none."""
    if scope is None:
        return store.read("SELECT MAX(id) FROM check_samples")[0][0]
    return store.read("SELECT MAX(id) FROM check_samples WHERE scope = ?", (scope,))[0][0]


def check_design(store: Store, sample_id: int) -> str:
    """The design of check `sample_id`: "random" or "ranked". Raises KeyError for an unknown check."""
    rows = store.read("SELECT design FROM check_samples WHERE id = ?", (sample_id,))
    if not rows:
        raise KeyError(sample_id)
    return rows[0][0]


def check_papers(store: Store, sample_id: int) -> list[tuple[str, bool]]:
    """The population of check `sample_id` in the order stored, each paper as (id, drawn for the user to rate)."""
    return [(paper_id, bool(drawn)) for paper_id, drawn in store.read(
        "SELECT paper_id, drawn FROM check_papers WHERE sample_id = ? ORDER BY rowid", (sample_id,))]


def check_strata(store: Store, sample_id: int) -> list[tuple[str, int, bool]]:
    """The population of check `sample_id` in the order stored, each paper as (id, stratum, drawn)."""
    return [(paper_id, stratum, bool(drawn)) for paper_id, stratum, drawn in store.read(
        "SELECT paper_id, stratum, drawn FROM check_papers WHERE sample_id = ? ORDER BY rowid", (sample_id,))]


# ----------------------------------------------------------------- what was screened and rated
def screened(store: Store) -> list[tuple[str, int | None, bool, str]]:
    """The papers read or rated, as (id, rating or None, read, annotation updated_at ISO time)."""
    return [(paper_id, rating, bool(read), updated_at) for paper_id, rating, read, updated_at in store.read(
        "SELECT paper_id, rating, read, updated_at FROM annotations WHERE read = 1 OR rating IS NOT NULL")]


def first_screened(store: Store) -> dict[str, int]:
    """Per paper ever read or rated: the number of the first change (db.library.store's change log) that read
    or rated it, as far as the log reaches back."""
    return dict(store.read(
        "SELECT paper_id, MIN(seq) FROM change_log WHERE (',' || kinds || ',') LIKE '%,read,%'"
        " OR (',' || kinds || ',') LIKE '%,rating,%' GROUP BY paper_id"))


def ratings(store: Store) -> dict[str, int]:
    """The rating (1..5) of every rated paper, by id."""
    return dict(store.read("SELECT paper_id, rating FROM annotations WHERE rating IS NOT NULL"))


def read_ids(store: Store) -> set[str]:
    """Ids of the papers marked read."""
    return set(store.column("SELECT paper_id FROM annotations WHERE read = 1"))


# ----------------------------------------------------------------- interests and dismissals
def _tag_id(conn, name: str) -> int:
    """The id of tag `name` (already cleaned), created when missing (inside `conn`'s transaction)."""
    conn.execute("INSERT OR IGNORE INTO tags (name, key) VALUES (?, ?)", (name, tag_key(name)))
    return conn.execute("SELECT id FROM tags WHERE key = ?", (tag_key(name),)).fetchone()[0]


def set_interest(store: Store, name: str, on: bool = True) -> Changes:
    """Make tag `name` one of the interests the triage queue serves (db.triage.interests), or not (`on` false);
    the tag is created when missing. Returns a `triage` change of the papers carrying it. Raises
    ValueError for an empty tag name."""
    name = clean_tag(name)
    with store.transaction() as conn:
        tag_id = _tag_id(conn, name)
        changed = (conn.execute("INSERT OR IGNORE INTO interests VALUES (?)", (tag_id,)).rowcount if on
                   else conn.execute("DELETE FROM interests WHERE tag_id = ?", (tag_id,)).rowcount)
        carriers = [row[0] for row in conn.execute("SELECT paper_id FROM paper_tags WHERE tag_id = ?", (tag_id,))]
        return store.log(conn, carriers, TRIAGE) if changed and carriers else NOTHING


def interests(store: Store) -> list[str]:
    """The tags that are interests, by name (case-insensitive)."""
    return store.column("SELECT t.name FROM interests i JOIN tags t ON t.id = i.tag_id ORDER BY t.name COLLATE NOCASE")


def set_dismissed(store: Store, paper_id: str, name: str, dismissed: bool = True) -> Changes:
    """Dismiss a paper from the suggestions for tag `name` (kept; the tag's model learns it as a negative),
    or take the dismissal back. The tag is created when missing. Raises KeyError for an unknown paper."""
    name = clean_tag(name)
    with store.transaction() as conn:
        annotate(store, conn, paper_id)  # KeyError for an unknown paper
        tag_id = _tag_id(conn, name)
        changed = (conn.execute("INSERT OR IGNORE INTO dismissals VALUES (?, ?, ?)", (paper_id, tag_id, now()))
                   if dismissed else conn.execute("DELETE FROM dismissals WHERE paper_id = ? AND tag_id = ?",
                                                  (paper_id, tag_id))).rowcount
        return store.log(conn, [paper_id], TRIAGE) if changed else NOTHING


def dismissed(store: Store, name: str) -> list[str]:
    """Ids of the papers dismissed from the suggestions for tag `name`, in the order dismissed."""
    return store.column("SELECT d.paper_id FROM dismissals d JOIN tags t ON t.id = d.tag_id WHERE t.key = ?"
                        " ORDER BY d.dismissed_at, d.rowid", (tag_key(name),))


# ----------------------------------------------------------------- papers I like
def set_liked_source(store: Store, kind: str, value: str, liked: bool = True) -> Changes:
    """Mark a venue (`kind` "venue") or an imported file (`kind` "source", the file name as imported) as
    "papers I like": their papers count as liked (positives) for recommendations from the first screen on,
    and are never recommended themselves (db.recommend.recommender). `liked` false takes the mark back. Returns a
    `triage` change of those papers. Raises ValueError for another kind, KeyError when no paper has that
    venue or source."""
    if kind not in ("venue", "source"):
        raise ValueError(f"a liked source is a venue or a source file, not {kind!r}")
    with store.transaction() as conn:
        ids = [row[0] for row in conn.execute(f"SELECT id FROM papers WHERE {kind} = ?", (value,))]
        if not ids and liked:
            raise KeyError(value)
        changed = (conn.execute("INSERT OR IGNORE INTO liked_sources VALUES (?, ?)", (kind, value)) if liked else
                   conn.execute("DELETE FROM liked_sources WHERE kind = ? AND value = ?", (kind, value))).rowcount
        return store.log(conn, ids, TRIAGE) if changed and ids else NOTHING


def liked_sources(store: Store) -> list[tuple[str, str]]:
    """The venues and source files marked "papers I like", as (kind, value)."""
    return store.read("SELECT kind, value FROM liked_sources ORDER BY kind, value")


def liked_source_ids(store: Store) -> set[str]:
    """Ids of the papers of the venues and files marked "papers I like"."""
    return set(store.column("SELECT p.id FROM papers p JOIN liked_sources s ON (s.kind = 'venue' AND p.venue = s.value)"
                            " OR (s.kind = 'source' AND p.source = s.value)"))


# ----------------------------------------------------------------- highlight word lists
def highlight_lists(store: Store):
    """The highlight word lists (db.text.highlight_words.HighlightLists), each in the order written."""
    from db.text.highlight_words import EXCLUDE, INCLUDE, HighlightLists

    rows = store.read("SELECT kind, entry FROM highlight_words ORDER BY position")
    return HighlightLists([entry for kind, entry in rows if kind == INCLUDE],
                          [entry for kind, entry in rows if kind == EXCLUDE])


def set_highlight_lists(store: Store, include: Iterable[str], exclude: Iterable[str]) -> Changes:
    """Replace the highlight word lists (entries as db.text.highlight_words.clean_entry keeps them, repeats that
    differ in case only dropped). They belong to the library, not to a paper: the value returned is empty
    (no paper changed) and the window re-renders its reader itself. Raises ValueError, changing nothing,
    for an empty or over-long entry."""
    from db.text.highlight_words import EXCLUDE, INCLUDE, clean_entry

    rows, seen = [], set()
    for kind, entries in ((INCLUDE, include), (EXCLUDE, exclude)):
        for entry in entries:
            entry = clean_entry(entry)
            if (kind, entry.casefold()) not in seen:
                seen.add((kind, entry.casefold()))
                rows.append((kind, entry, len(rows)))
    with store.transaction() as conn:
        conn.execute("DELETE FROM highlight_words")
        conn.executemany("INSERT INTO highlight_words (kind, entry, position) VALUES (?, ?, ?)", rows)
    return NOTHING
