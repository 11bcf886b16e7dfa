"""Re-import identity: which paper in the library (or earlier in the same file) a record is.

A record is the same paper as an existing one when (in this order)
1. its DOI (case-insensitive), arXiv id (without version) or OpenReview id equals the paper's;
2. else its normalized title (NFC, case-folded, punctuation dropped) and year equal the paper's; when neither
   has a year, the same title alone is not enough: their abstracts must also agree (identical or near-identical
   as in 3, or one of them missing), since two papers sharing a title is common enough;
3. else its abstract is identical or near-identical: Jaccard similarity of word 3-shingle sets ≥ 0.9
   (only for abstracts of at least `MIN_WORDS` words, so "Part of" or "withdrawn" never match).
A candidate is never taken when both carry a DOI, arXiv id or OpenReview id and these differ, so papers that
only share a title stay separate.

Near-duplicate lookup is exact and reads only what it needs (prefix filtering, Chaudhuri et al. 2006 /
Bayardo et al. 2007): the shingles of all abstracts are ordered by one fixed global order (`shingle_key`: a
stable hash, with shingles made of common words such as "in this paper" last, so that the first ones are
mostly rare); two sets with Jaccard ≥ t must share a shingle among the first |S| − ⌈t·|S|⌉ + 1 of each. Since
the order does not depend on the library, those few prefix keys are computed once per paper when its abstract
is written and kept in the library (`match_keys`, one row per paper with its identifiers and title key, and
`abstract_keys`, (prefix key, shingle count, paper), filled from it by a trigger); `Matcher` asks SQLite for
the papers sharing a prefix key of the incoming abstract with a shingle count in the range Jaccard allows,
and for identifiers and titles through indexes, so an import holds in memory only its own records, never
the library. The Library keeps these tables current on every write of a paper (db.library.importing,
db.library.deleting, salvage); deleting a paper deletes its keys (ON DELETE CASCADE and a trigger).
Among candidates equally similar, the one with the smallest id is taken (the old in-memory index took
whichever it met last in an unordered set).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import sqlite3
import unicodedata
from collections.abc import Callable, Iterable, Sequence

from db.paper import PaperRecord, normalize_text

THRESHOLD = 0.9
MIN_WORDS = 12
_WORD = re.compile(r"\w+")
_NON_WORD = re.compile(r"[\W_]+")
_CHUNK = 500  # ids or keys per SQL statement (well under SQLite's 32,766 parameters)
_CACHED_SETS = 4096  # shingle sets of stored papers kept while an import runs (candidates met again)

# schema 8 (db.library.migrations): what matching reads from the library instead of holding every paper in memory
MATCH_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS match_keys (paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,"
    " doi TEXT, arxiv TEXT, openreview TEXT, title TEXT, year INTEGER, size INTEGER NOT NULL DEFAULT 0,"
    " keys TEXT NOT NULL DEFAULT '[]')",
    "CREATE INDEX IF NOT EXISTS match_keys_doi ON match_keys(doi) WHERE doi IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS match_keys_arxiv ON match_keys(arxiv) WHERE arxiv IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS match_keys_openreview ON match_keys(openreview) WHERE openreview IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS match_keys_title ON match_keys(title, year) WHERE title IS NOT NULL",
    "CREATE TABLE IF NOT EXISTS abstract_keys (key INTEGER NOT NULL, size INTEGER NOT NULL, paper_id TEXT NOT NULL,"
    " PRIMARY KEY (key, size, paper_id)) WITHOUT ROWID",
    "CREATE TRIGGER IF NOT EXISTS match_keys_added AFTER INSERT ON match_keys BEGIN"
    " INSERT OR IGNORE INTO abstract_keys (key, size, paper_id) SELECT value, new.size, new.paper_id"
    " FROM json_each(new.keys); END",
    "CREATE TRIGGER IF NOT EXISTS match_keys_removed AFTER DELETE ON match_keys BEGIN"
    " DELETE FROM abstract_keys WHERE key IN (SELECT value FROM json_each(old.keys)) AND size = old.size"
    " AND paper_id = old.paper_id; END",
    "CREATE TABLE IF NOT EXISTS frequent_keys (key INTEGER PRIMARY KEY)",
]
FREQUENT = 64  # a key in more papers' prefixes than this goes to the back of the library's order

# words so common in abstracts that a shingle made of them is a poor candidate key: such shingles come last
# in the global order (the order is fixed here, not taken from the library, so that keys are stored once)
_COMMON = frozenset("""
a an the of in on at to for from by with without and or but not no nor as is are was were be been being this
that these those it its we our us they their them which who whom whose what when where how than then there here
such can could may might will would should do does did has have had into onto over under between among through
during within via per also both each either more most less very so thus however while whereas if whether only
other another same all any some many much few one two new based using use used show shows shown paper propose
proposed present approach method methods results result problem problems model models learning data task tasks
performance work well state art
""".split())
_MASK = (1 << 61) - 1
_words: dict[str, tuple[int, int, int, int]] = {}


def title_key(title: str | None) -> str | None:
    """The title as compared: NFC, case-folded, every run of punctuation/space one space; None if empty."""
    if not title:
        return None
    key = _NON_WORD.sub(" ", unicodedata.normalize("NFC", title).casefold()).strip()
    return key or None


_recent: dict[str, frozenset[int] | None] = {}  # the last few abstracts' (an import asks for one record's twice)


def shingles(abstract: str | None) -> frozenset[int] | None:
    """The word 3-shingles of the abstract as their keys (`shingle_key`), or None when it has fewer than
    MIN_WORDS words."""
    text = abstract or ""
    if text in _recent:
        return _recent[text]
    if len(_recent) >= 4:
        _recent.clear()
    words = _WORD.findall(text.casefold())
    if len(words) < MIN_WORDS:
        _recent[text] = None
        return None
    entries = [_words.get(word) or _word_entry(word) for word in words]
    common, first, second, third = zip(*entries, strict=True)
    keys = frozenset(a + b + c + (x ^ y ^ z) for a, b, c, x, y, z in zip(
        common, common[1:], common[2:], first, second[1:], third[2:], strict=False))  # each one's shingle_key
    _recent[text] = keys
    return keys


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    common = len(a & b)
    return common / (len(a) + len(b) - common)


def _word_entry(word: str) -> tuple[int, int, int, int]:
    """(common << 61, and three 61-bit hashes: as 1st, 2nd and 3rd word of a shingle) of a word; cached."""
    if len(_words) >= 1 << 18:  # a bounded cache (the vocabulary of a big import is larger)
        _words.clear()
    digest = hashlib.blake2b(word.encode(), digest_size=24).digest()
    entry = _words[word] = ((word in _COMMON) << 61, *(int.from_bytes(digest[i : i + 8], "big") & _MASK
                                                       for i in (0, 8, 16)))
    return entry


def shingle_key(a: str, b: str, c: str) -> int:
    """The place of the shingle (a, b, c) in the global order, as a 63-bit integer: how many of its words are
    common (2 bits: shingles of rarer words first), then a hash that is the same in every process and on every
    machine (61 bits: the words' blake2b hashes for their place, xor-ed). Two different shingles may share a
    key: that only adds a candidate to compare."""
    (common_a, hash_a, _, _), (common_b, _, hash_b, _), (common_c, _, _, hash_c) = map(_word_entry, (a, b, c))
    return common_a + common_b + common_c + (hash_a ^ hash_b ^ hash_c)


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
    if frequent.isdisjoint(keys):
        return sorted(keys)[: prefix_length(len(keys))]
    return sorted(keys, key=lambda key: (key in frequent, key))[: prefix_length(len(keys))]


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


def _ident(doi: str | None, arxiv_id: str | None, openreview_id: str | None) -> tuple:
    return (doi or "").lower() or None, (arxiv_id or "").lower() or None, openreview_id or None


def match_row(paper_id: str, title: str | None, year: int | None, abstract: str | None, doi: str | None,
              arxiv_id: str | None, openreview_id: str | None, frequent: frozenset[int] = frozenset()) -> tuple:
    """The `match_keys` row of a paper with these values (`frequent`: the library's frequent keys)."""
    size, keys = abstract_keys(abstract, frequent)
    return (paper_id, *_ident(doi, arxiv_id, openreview_id), title_key(title), year, size,
            json.dumps(keys, separators=(",", ":")))


def frequent_keys(conn: sqlite3.Connection) -> frozenset[int]:
    """The library's frequent keys (its order puts them last)."""
    return frozenset(row[0] for row in conn.execute("SELECT key FROM frequent_keys"))


def write_match_rows(conn: sqlite3.Connection, rows: Sequence[tuple]) -> None:
    """Replace the match keys of these papers (rows from `match_row` made with the library's frequent keys;
    inside the caller's transaction). A key now in more than FREQUENT papers' prefixes becomes frequent, and
    the prefixes holding it are made again in the new order (so the order never depends on what is stored
    beyond frequent_keys, which only grows: templated abstracts sharing most of their words never make every
    paper a candidate of every other)."""
    _replace_rows(conn, rows)
    keys = {key for row in rows for key in json.loads(row[7])}
    while keys:
        ordered = sorted(keys)
        hot: set[int] = set()
        for start in range(0, len(ordered), _CHUNK):
            chunk = ordered[start : start + _CHUNK]
            hot.update(row[0] for row in conn.execute(
                f"SELECT key FROM abstract_keys WHERE key IN ({','.join('?' * len(chunk))}) GROUP BY key"
                " HAVING count(*) > ?", (*chunk, FREQUENT)))
        if not hot:
            return
        conn.executemany("INSERT OR IGNORE INTO frequent_keys VALUES (?)", [(key,) for key in hot])
        frequent = frequent_keys(conn)
        hot_list = sorted(hot)
        affected: set[str] = set()
        for start in range(0, len(hot_list), _CHUNK):
            chunk = hot_list[start : start + _CHUNK]
            affected.update(row[0] for row in conn.execute(
                f"SELECT DISTINCT paper_id FROM abstract_keys WHERE key IN ({','.join('?' * len(chunk))})", chunk))
        keys = set()
        wanted = sorted(affected)
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            redone = [match_row(*row[1:], frequent=frequent) for row in conn.execute(
                f"{_PAPER_VALUES} WHERE id IN ({','.join('?' * len(chunk))})", chunk)]
            _replace_rows(conn, redone)
            keys.update(key for row in redone for key in json.loads(row[7]) if key not in frequent)


def _replace_rows(conn: sqlite3.Connection, rows: Sequence[tuple]) -> None:
    conn.executemany("DELETE FROM match_keys WHERE paper_id = ?", [(row[0],) for row in rows])
    conn.executemany("INSERT INTO match_keys (paper_id, doi, arxiv, openreview, title, year, size, keys)"
                     " VALUES (?,?,?,?,?,?,?,?)", rows)


_PAPER_VALUES = "SELECT rowid, id, title, year, abstract, doi, arxiv_id, openreview_id FROM papers"


def store_match_keys(conn: sqlite3.Connection, ids: Iterable[str] | None = None, batch: int = _CHUNK) -> int:
    """Compute and store the match keys of the papers `ids`, or (None) of every paper that has none, `batch`
    papers at a time (memory stays bounded at any library size). Inside the caller's write transaction.
    Returns the number of papers whose keys were written."""
    done = 0
    if ids is not None:
        wanted = list(dict.fromkeys(ids))
        for start in range(0, len(wanted), batch):
            chunk = wanted[start : start + batch]
            rows = conn.execute(f"{_PAPER_VALUES} WHERE id IN ({','.join('?' * len(chunk))})", chunk).fetchall()
            frequent = frequent_keys(conn)
            write_match_rows(conn, [match_row(*row[1:], frequent=frequent) for row in rows])
            done += len(rows)
        return done
    last = -(1 << 63)
    while rows := conn.execute(f"{_PAPER_VALUES} p WHERE rowid > ? AND NOT EXISTS (SELECT 1 FROM match_keys m"
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


def _frequent_keys(records: Sequence[PaperRecord], sample: int = 300) -> frozenset[int]:
    """Shingle keys found in at least 3 of (a spread sample of up to `sample` of) these records' abstracts
    (the sample bounds the count: 300 abstracts are ~60,000 keys, ~7 MB while counted)."""
    chosen = sorted(random.Random(len(records)).sample(range(len(records)), min(sample, len(records))))
    counts: dict[int, int] = {}  # (drawn at random, not every n-th: a list's pattern can repeat with any stride)
    for record in (records[index] for index in chosen):
        for key in shingles(record.abstract) or ():
            counts[key] = counts.get(key, 0) + 1
    return frozenset(key for key, count in counts.items() if count >= 3)


class Matcher:
    """Lookup of the library's papers by identifiers, title+year and abstract, for one import.

    The stored papers are read from `conn` as needed (match_keys, abstract_keys, papers; by index); only the
    papers this import adds or updates (`add`) are held in memory, since they are written after the matching.
    """

    def __init__(self, conn: sqlite3.Connection, incoming: Sequence[PaperRecord] = ()):
        self._conn = conn
        self._frequent = _frequent_keys(incoming)  # this import's order (its scratch index)
        self._stored_frequent = frequent_keys(conn)  # the library's order (abstract_keys)
        # this import's own papers, under their new values (the stored ones stay findable under their old)
        self._ids: dict[str, tuple] = {}
        self._by_ident: tuple[dict[str, str], ...] = ({}, {}, {})
        self._by_title: dict[tuple[str, int | None], list[str]] = {}
        self._abstracts: dict[str, str] = {}
        self._titles: dict[str, str | None] = {}
        self._stored_sets: dict[str, frozenset[int] | None] = {}
        # their prefix keys, in a private temporary database (on disk when large: a cold import of 100k
        # papers would hold 1.7 million keys), as abstract_keys holds the stored papers'; in this import's own
        # order: the keys frequent among its records last (a generated list of 6,000 abstracts sharing most of
        # their words would otherwise make every earlier record a candidate of each)
        self._scratch = sqlite3.connect("")
        self._scratch.execute("PRAGMA cache_size = -65536")  # up to 64 MB before it spills to its file
        self._scratch.execute("CREATE TABLE keys (key INTEGER NOT NULL, size INTEGER NOT NULL, paper_id TEXT NOT NULL,"
                              " PRIMARY KEY (key, size, paper_id)) WITHOUT ROWID")
        self._scratch.execute("CREATE TABLE papers (paper_id TEXT PRIMARY KEY, size INTEGER, keys TEXT)")

    def close(self) -> None:
        """Drop the temporary database (also when the matcher is collected)."""
        self._scratch.close()

    # ------------------------------------------------------------------ adding
    def add(self, paper_id: str, title: str | None, year: int | None, abstract: str | None, doi: str | None,
            arxiv_id: str | None, openreview_id: str | None) -> tuple:
        """Make a just inserted/updated paper findable under its new values; returns its `match_row`."""
        row = match_row(paper_id, title, year, abstract, doi, arxiv_id, openreview_id, self._stored_frequent)
        if paper_id in self._ids:
            self._scratch.execute("DELETE FROM keys WHERE paper_id = ?", (paper_id,))
        ident = row[1:4]
        self._ids[paper_id] = ident
        for table, value in zip(self._by_ident, ident, strict=True):
            if value:
                table.setdefault(value, paper_id)
        key = row[4]
        if key:
            bucket = self._by_title.setdefault((key, year), [])
            if paper_id not in bucket:
                bucket.append(paper_id)
        self._abstracts[paper_id] = abstract or ""
        self._titles[paper_id] = key
        self._stored_sets.pop(paper_id, None)
        keys = self._import_prefix(shingles(abstract))
        self._scratch.execute("INSERT OR REPLACE INTO papers VALUES (?, ?, ?)", (paper_id, row[6], json.dumps(keys)))
        self._scratch.executemany("INSERT OR IGNORE INTO keys VALUES (?, ?, ?)",
                                  [(key, row[6], paper_id) for key in keys])
        return row

    def _import_prefix(self, keys: frozenset[int] | None) -> list[int]:
        """The prefix of a shingle set in this import's order (frequent keys last, then by value)."""
        if not keys:
            return []
        return sorted(keys, key=lambda key: (key in self._frequent, key))[: prefix_length(len(keys))]

    def __contains__(self, paper_id: str) -> bool:
        return paper_id in self._ids or self._conn.execute(
            "SELECT 1 FROM papers WHERE id = ?", (paper_id,)).fetchone() is not None

    # ------------------------------------------------------------------ the stored papers
    def _current(self, paper_id: str) -> tuple[tuple, str | None, str]:
        """(identifiers, title key, abstract) of a paper as the import sees it now."""
        if paper_id in self._ids:
            return self._ids[paper_id], self._titles[paper_id], self._abstracts[paper_id]
        title, abstract, doi, arxiv_id, openreview_id = self._conn.execute(
            "SELECT title, abstract, doi, arxiv_id, openreview_id FROM papers WHERE id = ?", (paper_id,)).fetchone()
        return _ident(doi, arxiv_id, openreview_id), title_key(title), abstract or ""

    def _stored(self, sql: str, params: Sequence) -> list[str]:
        return [row[0] for row in self._conn.execute(sql, params)]

    # ------------------------------------------------------------------ matching
    def match(self, record: PaperRecord, record_id: str | None = None) -> str | None:
        """The id of the paper this record is, or None for a new paper. `record_id` is `record.id` if known."""
        ident = _ident(record.doi, record.arxiv_id, record.openreview_id)
        for column, table, value in zip(("doi", "arxiv", "openreview"), self._by_ident, ident, strict=True):
            if value:
                found = self._stored(f"SELECT m.paper_id FROM match_keys m JOIN papers p ON p.id = m.paper_id"
                                     f" WHERE m.{column} = ? ORDER BY p.rowid LIMIT 1", (value,))
                if found or value in table:
                    return found[0] if found else table[value]
        key = title_key(record.title)
        if key:
            bucket = self._stored("SELECT m.paper_id FROM match_keys m JOIN papers p ON p.id = m.paper_id"
                                  " WHERE m.title = ? AND m.year IS ? ORDER BY p.rowid", (key, record.year))
            bucket += [paper_id for paper_id in self._by_title.get((key, record.year), ()) if paper_id not in bucket]
            for paper_id in bucket:
                if not self._conflict(ident, paper_id) and (
                        record.year is not None or self._abstracts_agree(record.abstract, paper_id)):
                    return paper_id
        return self._match_abstract(record, ident, record_id)

    def _abstracts_agree(self, abstract: str | None, paper_id: str) -> bool:
        """True when the abstracts do not tell two papers apart: one is missing, they are the same text
        (whitespace and case aside), or near-identical (Jaccard of 3-shingles ≥ THRESHOLD)."""
        stored = self._current(paper_id)[2]
        mine, theirs = (" ".join(text.casefold().split()) for text in (abstract or "", stored))
        if not mine or not theirs or mine == theirs:
            return True
        a, b = shingles(abstract), shingles(stored)
        return a is not None and b is not None and jaccard(a, b) >= THRESHOLD

    def _conflict(self, ident: tuple, paper_id: str) -> bool:
        return any(a and b and a != b for a, b in zip(ident, self._current(paper_id)[0], strict=True))

    def _match_abstract(self, record: PaperRecord, ident: tuple, same: str | None) -> str | None:
        wanted = shingles(record.abstract)
        try:
            same = same or record.id
        except ValueError:
            return None
        if same in self and not self._conflict(ident, same) and (
                wanted is not None or self._current(same)[1] == title_key(record.title)):
            return same
        if wanted is None:
            return None
        low, high = THRESHOLD * len(wanted), len(wanted) / THRESHOLD
        candidates: dict[str, tuple[int, str]] = {}
        # this import's papers (under their new abstracts; its order), then the stored ones (as before this
        # import; the library's order)
        for database, keys_table, papers_table, keys in (
                (self._scratch, "keys", "papers", self._import_prefix(wanted)),
                (self._conn, "abstract_keys", "match_keys", prefix(wanted, self._stored_frequent))):
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                sql = (f"SELECT paper_id, size, keys FROM {papers_table} WHERE paper_id IN (SELECT paper_id"
                       f" FROM {keys_table} WHERE key IN ({','.join('?' * len(chunk))}) AND size BETWEEN ? AND ?)")
                for paper_id, size, keys_of in database.execute(sql, (*chunk, math.floor(low), math.ceil(high))):
                    candidates.setdefault(paper_id, (size, keys_of))
        best, best_score = None, THRESHOLD
        for paper_id in sorted(candidates):
            size, keys_of = candidates[paper_id]
            if not could_reach(wanted, size, json.loads(keys_of)):
                continue
            other = self._set_of(paper_id)
            if other is None or not (low <= len(other) <= high):
                continue
            score = jaccard(wanted, other)
            if score >= best_score and (best is None or score > best_score) and not self._conflict(ident, paper_id):
                best, best_score = paper_id, score
        return best

    def _set_of(self, paper_id: str) -> frozenset[int] | None:
        """The shingles of a paper's current abstract (kept for the stored papers met, up to _CACHED_SETS)."""
        if paper_id in self._abstracts:
            return shingles(self._abstracts[paper_id])
        if paper_id not in self._stored_sets:
            if len(self._stored_sets) >= _CACHED_SETS:
                self._stored_sets.clear()
            row = self._conn.execute("SELECT abstract FROM papers WHERE id = ?", (paper_id,)).fetchone()
            self._stored_sets[paper_id] = shingles(row[0]) if row else None
        return self._stored_sets[paper_id]


def fresh_id(record: PaperRecord, taken: Callable[[str], bool], paper_id: str | None = None) -> str:
    """The record's id (ARCHITECTURE.md), or, when another paper already holds it (two different papers with
    one abstract, such as a placeholder text), a deterministic variant hashed with the title and DOI."""
    paper_id = paper_id or record.id
    if not taken(paper_id):
        return paper_id
    basis = normalize_text(record.abstract or "") or normalize_text(record.title or "")
    extra = f"{normalize_text(record.title or '')}\x1f{record.doi or ''}\x1f{record.arxiv_id or ''}"
    number = 0
    while taken(paper_id):
        number += 1
        paper_id = hashlib.sha256(f"{basis}\x1f{extra}\x1f{number}".encode()).hexdigest()[:12]
    return paper_id
