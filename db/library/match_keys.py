"""Match keys: what re-import matching (db.library.matching) looks up in the library instead of loading every
paper — per paper its identifiers and title key (`match_keys`), and the prefix keys of its abstract's word
3-shingles (`abstract_keys`, filled from match_keys by a trigger; the tables are in db.library.schema).

Near-duplicate lookup is exact and reads only what it needs (prefix filtering, Chaudhuri et al. 2006 /
Bayardo et al. 2007): the shingles of all abstracts are ordered by one fixed global order (`shingle_key`: a
stable hash, with shingles made of common words such as "in this paper" last, so that the first ones are
mostly rare); two sets with Jaccard ≥ t must share a shingle among the first |S| − ⌈t·|S|⌉ + 1 of each. Since
the order does not depend on the library, those few prefix keys are computed once per paper when its abstract
is written and kept in the library. The Library keeps these tables current on every write of a paper
(db.library.importing, db.library.deleting, salvage); deleting a paper deletes its keys (ON DELETE CASCADE and
a trigger). Every writing function here runs inside the caller's write transaction (db.library.store).
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import unicodedata
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, filterfalse, islice, repeat

import numpy as np

# the shingles were made here before they had a module of their own (db.library.shingles): imported from here too
from db.library.shingles import (  # noqa: F401
    MIN_WORDS,
    ascending,
    jaccard,
    shingle_array,
    shingle_key,
    shingles,
)

THRESHOLD = 0.9
_NON_WORD = re.compile(r"[\W_]+")
CHUNK = 500  # ids or keys per SQL statement (well under SQLite's 32,766 parameters)
FREQUENT = 64  # a key in more papers' prefixes than this goes to the back of the library's order


def title_key(title: str | None) -> str | None:
    """The title as compared: NFC, case-folded, every run of punctuation/space one space; None if empty."""
    if not title:
        return None
    key = _NON_WORD.sub(" ", unicodedata.normalize("NFC", title).casefold()).strip()
    return key or None


def prefix_length(size: int) -> int:
    """How many of the first shingles of a set of `size` two sets with Jaccard ≥ THRESHOLD must share one of."""
    return size - math.ceil(THRESHOLD * size - 1e-9) + 1  # (less a rounding error: 0.9 · 10 is 9.000000000000002)


def abstract_keys(abstract: str | None, frequent: frozenset[int] = frozenset()) -> tuple[int, list[int]]:
    """(number of shingles, prefix keys) of an abstract: its first |S| − ⌈t·|S|⌉ + 1 shingle keys in the global
    order (`shingle_key`, ascending). (0, []) for an abstract of fewer than MIN_WORDS words."""
    keys = shingles(abstract)
    if keys is None:
        return 0, []
    return len(keys), prefix(keys, frequent)


def prefix(keys: frozenset[int], frequent: frozenset[int] = frozenset()) -> list[int]:
    """The first `prefix_length` keys of a shingle set in the library's order: the keys in `frequent` (the
    library's frequent_keys) last, else ascending."""
    return ordered_prefix(keys, frequent)


def ordered_prefix(keys: frozenset[int], last: frozenset[int] | set[int]) -> list[int]:
    """The first `prefix_length` of `keys` in the order: those not in `last` ascending, then those in `last`
    ascending."""
    return sorted_prefix(ascending(keys), last)


def sorted_prefix(ordered: list[int], last: frozenset[int] | set[int]) -> list[int]:
    """`ordered_prefix` of a shingle set given as its keys ascending."""
    wanted = prefix_length(len(ordered))
    if not last:
        return ordered[:wanted]
    head = list(islice(filterfalse(last.__contains__, ordered), wanted))  # (stops at the prefix's end)
    if len(head) < wanted:
        head += islice(filter(last.__contains__, ordered), wanted - len(head))
    return head


def could_reach(wanted: frozenset[int], size: int, prefix: Sequence[int]) -> bool:
    """False when a set of `size` shingles whose prefix keys are `prefix` cannot have Jaccard ≥ THRESHOLD
    with `wanted`: overlap ≥ α = ⌈t/(1+t)·(|x|+|y|)⌉ leaves at most |y| − α of y's shingles outside x, and
    every prefix key not in `wanted` is one of those (exact: it never rejects a pair that reaches THRESHOLD)."""
    allowed = size - math.ceil(THRESHOLD / (1 + THRESHOLD) * (len(wanted) + size) - 1e-9)
    misses = 0
    for key in prefix:
        if key not in wanted:
            misses += 1
            if misses > allowed:
                return False
    return True


def identifiers(doi: str | None, arxiv_id: str | None, openreview_id: str | None) -> tuple:
    return (doi or "").lower() or None, (arxiv_id or "").lower() or None, openreview_id or None


def match_row(paper_id: str, title: str | None, year: int | None, abstract: str | None, doi: str | None,
              arxiv_id: str | None, openreview_id: str | None, frequent: frozenset[int] = frozenset()) -> tuple:
    """The `match_keys` row of a paper with these values (`frequent`: the library's frequent keys)."""
    size, keys = abstract_keys(abstract, frequent)
    return (paper_id, *identifiers(doi, arxiv_id, openreview_id), title_key(title), year, size,
            json.dumps(keys, separators=(",", ":")))


def frequent_keys(conn: sqlite3.Connection) -> frozenset[int]:
    """The library's frequent keys (its order puts them last)."""
    return frozenset(row[0] for row in conn.execute("SELECT key FROM frequent_keys"))


def write_match_rows(conn: sqlite3.Connection, rows: Sequence[tuple], settled: bool = False) -> None:
    """Replace the match keys of these papers (rows from `match_row` made with the library's frequent keys;
    inside the caller's transaction). A key now in more than FREQUENT papers' prefixes becomes frequent, and
    the prefixes holding it are made again in the new order (so the order never depends on what is stored
    beyond frequent_keys, which only grows: templated abstracts sharing most of their words never make every
    paper a candidate of every other). `settled`: the papers are new (no rows to replace) and the frequent keys
    were already settled for them (`settled_frequent`: a cold import)."""
    _replace_rows(conn, rows, new=settled)
    if settled:
        return
    frequent = frequent_keys(conn)  # (already last in every prefix: becoming hot again changes no prefix)
    keys = {key for row in rows for key in json.loads(row[7]) if key not in frequent}
    while keys:
        ordered = sorted(keys)
        hot: set[int] = set()
        for start in range(0, len(ordered), CHUNK):
            chunk = ordered[start : start + CHUNK]
            hot.update(row[0] for row in conn.execute(
                f"SELECT key FROM abstract_keys WHERE key IN ({','.join('?' * len(chunk))}) GROUP BY key"
                " HAVING count(*) > ?", (*chunk, FREQUENT)))
        if not hot:
            return
        conn.executemany("INSERT OR IGNORE INTO frequent_keys VALUES (?)", [(key,) for key in hot])
        frequent = frequent_keys(conn)
        hot_list = sorted(hot)
        affected: set[str] = set()
        for start in range(0, len(hot_list), CHUNK):
            chunk = hot_list[start : start + CHUNK]
            affected.update(row[0] for row in conn.execute(
                f"SELECT DISTINCT paper_id FROM abstract_keys WHERE key IN ({','.join('?' * len(chunk))})", chunk))
        keys = set()
        wanted = sorted(affected)
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start : start + CHUNK]
            redone = [match_row(*row[1:], frequent=frequent) for row in conn.execute(
                f"{PAPER_VALUES} WHERE id IN ({','.join('?' * len(chunk))})", chunk)]
            _replace_rows(conn, redone)
            keys.update(key for row in redone for key in json.loads(row[7]) if key not in frequent)


BULK_ROWS = 2000  # rows (a large import's write chunk) from which their abstract_keys are inserted sorted


def _replace_rows(conn: sqlite3.Connection, rows: Sequence[tuple], new: bool = False) -> None:
    """Replace the rows and their abstract_keys (by the insert trigger). From BULK_ROWS rows on: the rows
    inserted with no keys (so the trigger adds none), their keys set after, and the abstract_keys rows inserted
    in one statement in key order (the trigger's json_each, row by row in hash order, cost a cold import ~40%
    more; the sorted list, ~2.5 MB at 2,000 rows, is left out of a small import's memory)."""
    if not new:
        conn.executemany("DELETE FROM match_keys WHERE paper_id = ?", [(row[0],) for row in rows])
    if len(rows) < BULK_ROWS:
        conn.executemany("INSERT INTO match_keys (paper_id, doi, arxiv, openreview, title, year, size, keys)"
                         " VALUES (?,?,?,?,?,?,?,?)", rows)
        return
    conn.executemany("INSERT INTO match_keys (paper_id, doi, arxiv, openreview, title, year, size, keys)"
                     " VALUES (?,?,?,?,?,?,?,'[]')", [row[:7] for row in rows])
    conn.executemany("UPDATE match_keys SET keys = ? WHERE paper_id = ?", [(row[7], row[0]) for row in rows
                                                                          if row[7] != "[]"])
    conn.executemany("INSERT OR IGNORE INTO abstract_keys (key, size, paper_id) VALUES (?, ?, ?)",
                     sorted((key, row[6], row[0]) for row in rows for key in json.loads(row[7])))


PAPER_VALUES = "SELECT rowid, id, title, year, abstract, doi, arxiv_id, openreview_id FROM papers"


def store_match_keys(conn: sqlite3.Connection, ids: Iterable[str] | None = None, batch: int = CHUNK) -> int:
    """Compute and store the match keys of the papers `ids`, or (None) of every paper that has none, `batch`
    papers at a time (memory stays bounded at any library size). Inside the caller's write transaction.
    Returns the number of papers whose keys were written."""
    done = 0
    if ids is not None:
        wanted = list(dict.fromkeys(ids))
        for start in range(0, len(wanted), batch):
            chunk = wanted[start : start + batch]
            rows = conn.execute(f"{PAPER_VALUES} WHERE id IN ({','.join('?' * len(chunk))})", chunk).fetchall()
            frequent = frequent_keys(conn)
            write_match_rows(conn, [match_row(*row[1:], frequent=frequent) for row in rows])
            done += len(rows)
        return done
    last = -(1 << 63)
    while rows := conn.execute(f"{PAPER_VALUES} p WHERE rowid > ? AND NOT EXISTS (SELECT 1 FROM match_keys m"
                               " WHERE m.paper_id = p.id) ORDER BY rowid LIMIT ?", (last, batch)).fetchall():
        last = rows[-1][0]
        frequent = frequent_keys(conn)
        write_match_rows(conn, [match_row(*row[1:], frequent=frequent) for row in rows])
        done += len(rows)
    return done


def keys_missing(conn: sqlite3.Connection) -> bool:
    """True when a paper has no match keys (written by a path that does not keep them: heal before matching)."""
    return conn.execute("SELECT 1 FROM papers p WHERE NOT EXISTS (SELECT 1 FROM match_keys m"
                        " WHERE m.paper_id = p.id) LIMIT 1").fetchone() is not None


def settled_frequent(prefixes: dict[str, list[int]], keys_of) -> tuple[frozenset[int], dict[str, list[int]]]:
    """The frequent keys a library holding exactly these papers ends with, and the prefixes that change under
    them, computed in memory (a cold import: db.library.importing). `prefixes`: paper id → its prefix keys in
    the order of no frequent keys; `keys_of(paper id)`: its shingle keys ascending. A key in more than FREQUENT
    prefixes becomes frequent and the prefixes holding it are made again, until none is: the least such set,
    which is what `write_match_rows` reaches chunk by chunk in any order (a key's count only grows as papers
    are added and as other keys become frequent), so the rows are written once, in their final order."""
    counts = Counter(chain.from_iterable(prefixes.values()))
    frequent: set[int] = set()
    changed: dict[str, list[int]] = {}
    hot = {key for key, count in counts.items() if count > FREQUENT}
    while hot:
        frequent |= hot
        fixed = frozenset(frequent)
        touched: set[int] = set()
        for paper_id, keys in prefixes.items():
            if hot.isdisjoint(keys):
                continue
            again = sorted_prefix(keys_of(paper_id), fixed)
            counts.subtract(keys)
            counts.update(again)
            touched.update(again)
            prefixes[paper_id] = changed[paper_id] = again
        hot = {key for key in touched if key not in frequent and counts[key] > FREQUENT}
    return frozenset(frequent), changed


def settled_frequent_arrays(keys: np.ndarray, owners: np.ndarray, keys_of: Callable[[int], list[int]]
                            ) -> tuple[frozenset[int], Iterator[tuple[int, list[int]]]]:
    """`settled_frequent` for a list too long to hold its prefixes as Python lists and count them in a Counter
    (at 100,000 papers: ~200 MB): every paper's prefix keys (in the order of no frequent keys) flat, `keys`
    (int64) and `owners` (the paper's number of each), ~12 bytes a key. `keys_of(number)`: the paper's shingle
    keys ascending. The same rounds as `settled_frequent` (each: the keys now in more than FREQUENT prefixes
    become frequent, the prefixes holding one of them are made again), so the same result: the frequent keys,
    and (paper number, prefix) of each prefix that changes, in the papers' order, one at a time."""
    frequent: set[int] = set()
    changed = np.zeros(0, dtype=owners.dtype)
    papers = int(owners.max()) + 1 if len(owners) else 0
    while True:
        # the keys in more than FREQUENT prefixes: sorted, a key equal to the one FREQUENT places on (memory: one
        # sorted copy, not np.unique's counts and indexes)
        ordered = np.sort(keys)
        hot = [key for key in np.unique(ordered[FREQUENT:][ordered[FREQUENT:] == ordered[:-FREQUENT]]).tolist()
               if key not in frequent] if len(ordered) > FREQUENT else []
        del ordered
        if not hot:
            return frozenset(frequent), _prefixes(keys, owners, changed)
        frequent.update(hot)
        fixed = frozenset(frequent)
        hot_keys = np.array(sorted(hot), dtype=np.int64)
        places = hot_keys.searchsorted(keys).clip(max=len(hot_keys) - 1)
        touched = np.unique(owners[hot_keys[places] == keys])
        del places
        again_keys, again_owners = array("q"), array(owners.dtype.char)
        for number in touched.tolist():
            again = sorted_prefix(keys_of(number), fixed)
            again_keys.extend(again)
            again_owners.extend(repeat(number, len(again)))
        is_touched = np.zeros(papers, dtype=bool)
        is_touched[touched] = True
        kept = ~is_touched[owners]
        keys = np.concatenate((keys[kept], np.frombuffer(again_keys, dtype=np.int64)))
        owners = np.concatenate((owners[kept], np.frombuffer(again_owners, dtype=owners.dtype)))
        changed = np.union1d(changed, touched)


def _prefixes(keys: np.ndarray, owners: np.ndarray, numbers: np.ndarray) -> Iterator[tuple[int, list[int]]]:
    """(number, its keys in their order) for each of `numbers` (ascending), from flat arrays where each number's
    keys are side by side."""
    order = np.argsort(owners, kind="stable")
    grouped, by_owner = keys[order], owners[order]
    first, end = by_owner.searchsorted(numbers, "left"), by_owner.searchsorted(numbers, "right")
    for number, start, stop in zip(numbers.tolist(), first.tolist(), end.tolist(), strict=True):
        yield number, grouped[start:stop].tolist()
