"""Issue 15: the near-duplicate candidates come from match keys kept in the library (db.library.matching), not from an
in-memory index of every stored abstract; the tables follow every write, deletion and migration."""

from __future__ import annotations

import json
import random
import sqlite3

from db.library.library import SCHEMA_VERSION, Library
from db.library.matching import (
    THRESHOLD,
    Matcher,
    abstract_keys,
    could_reach,
    jaccard,
    match_row,
    prefix,
    shingles,
    store_match_keys,
)
from db.paper import PaperRecord

WORDS = ("graph neural network attention kernel sparse bayesian policy reward agent gradient descent convex "
         "tensor manifold spectral diffusion causal robust federated privacy contrastive token vision speech "
         "protein molecule retrieval ranking bandit regret sampler posterior latent flow energy").split()


def _abstract(rng: random.Random, n: int = 80) -> str:
    return " ".join(rng.choice(WORDS) + str(rng.randrange(40)) for _ in range(n))


OLD = _abstract(random.Random(1))


NEW = _abstract(random.Random(2))


def _near(text: str, changes: int = 1) -> str:
    words = text.split()
    for i in range(changes):
        words[(7 + 13 * i) % len(words)] = f"edited{i}"
    return " ".join(words)


def _keys(library: Library, paper_id: str) -> tuple[list[tuple], list[int]]:
    rows = library.rows("SELECT paper_id, doi, arxiv, openreview, title, year, size, keys FROM match_keys"
                        " WHERE paper_id = ?", (paper_id,))
    stored = [row[0] for row in library.rows("SELECT key FROM abstract_keys WHERE paper_id = ? ORDER BY key",
                                             (paper_id,))]
    return rows, stored


def test_a_changed_abstract_is_found_by_its_new_text_not_its_old(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=OLD, doi="10.1/X")]).new
        assert _keys(library, paper_id)[1] == abstract_keys(OLD)[1]
        report = library.import_records([PaperRecord(abstract=NEW, doi="10.1/x")])  # same DOI: an update
        assert report.updated == [paper_id]
        rows, stored = _keys(library, paper_id)
        assert stored == abstract_keys(NEW)[1] and rows == [match_row(paper_id, None, None, NEW, "10.1/X", None, None)]
        assert library.import_records([PaperRecord(abstract=_near(NEW))]).updated == [paper_id]
        assert len(library.import_records([PaperRecord(abstract=_near(OLD))]).new) == 1  # the old text: no match


def test_a_deleted_paper_is_gone_from_the_keys_and_back_on_undo(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=OLD, title="A Title", year=2020)]).new
        before = _keys(library, paper_id)
        library.delete_papers([paper_id])
        assert _keys(library, paper_id) == ([], [])
        assert library.rows("SELECT count(*) FROM abstract_keys") == [(0,)]
        library.undelete_papers([paper_id])
        assert _keys(library, paper_id) == before
        library.delete_papers([paper_id])
        (other,) = library.import_records([PaperRecord(abstract=_near(OLD))]).new
        assert other != paper_id


def test_a_library_of_schema_7_gets_its_keys_when_opened(tmp_path):
    folder = tmp_path / "lib"
    Library.open(folder).close()  # the bundled corpus
    conn = sqlite3.connect(folder / "library.db")
    expected = {row[0]: match_row(*row) for row in conn.execute(
        "SELECT id, title, year, abstract, doi, arxiv_id, openreview_id FROM papers")}
    conn.executescript("DROP TRIGGER match_keys_added; DROP TRIGGER match_keys_removed; DROP TABLE abstract_keys;"
                       " DROP TABLE match_keys; PRAGMA user_version = 7;")
    conn.close()
    with Library.open(folder) as library:
        assert library.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)]
        rows = library.rows("SELECT paper_id, doi, arxiv, openreview, title, year, size, keys FROM match_keys")
        assert {row[0]: row for row in rows} == expected and len(expected) == 38
        stored = library.rows("SELECT count(*) FROM abstract_keys")[0][0]
        assert stored == sum(len(json.loads(row[7])) for row in rows)


def test_keys_are_written_in_batches_and_missing_ones_filled_in(tmp_path):
    with Library.open(tmp_path / "lib") as library:
        complete = library.rows("SELECT * FROM match_keys ORDER BY paper_id")
        with library.transaction() as conn:
            conn.execute("DELETE FROM match_keys WHERE rowid % 3 = 0")
            missing = 38 - conn.execute("SELECT count(*) FROM match_keys").fetchone()[0]
            assert store_match_keys(conn, batch=5) == missing > 5
        assert library.rows("SELECT * FROM match_keys ORDER BY paper_id") == complete
        with library.transaction() as conn:
            conn.execute("DELETE FROM match_keys")
        library.import_records([])  # an import fills in the keys a paper lacks before it matches
        assert library.rows("SELECT * FROM match_keys ORDER BY paper_id") == complete


def test_stored_candidates_give_the_exhaustive_best_match(tmp_path):
    """The prefix filter and the miss bound drop no pair: for records edited a little or a lot, the match is
    the stored paper of highest Jaccard ≥ THRESHOLD found by comparing with every paper."""
    rng = random.Random(15)
    base = [_abstract(rng, rng.randint(14, 120)) for _ in range(60)]
    stored = base + [_near(text, rng.randint(1, 12)) for text in base[:30]]  # near-copies of each other
    with Library.open(tmp_path / "lib", seed=False) as library:
        ids = library.import_records([PaperRecord(abstract=text, doi=f"10.1/{n}")  # kept apart by their DOIs
                                      for n, text in enumerate(stored)]).new
        by_id = dict(zip(ids, stored, strict=True))
        assert len(ids) == len(stored)
        stored_keys = {pid: shingles(other) for pid, other in by_id.items()}  # the reference's, worked out once
        matcher = Matcher(library._conn)
        checked = found = close = 0
        for text in base + stored:
            n = len(text.split())
            edge = max(1, round(n / 57))  # about this many edits leave Jaccard near THRESHOLD
            for changes in {1, edge - 1, edge, edge + 1, edge + 2, rng.randint(1, n // 8 + 1)} - {0}:
                query = _near(text, changes)
                wanted = shingles(query)
                scores = {pid: jaccard(wanted, keys) for pid, keys in stored_keys.items()}
                best = max((score, [-ord(c) for c in pid], pid) for pid, score in scores.items())
                expected = best[2] if best[0] >= THRESHOLD else None
                got = matcher.match(PaperRecord(abstract=query, title=f"Other {checked}"))
                assert got == expected, (changes, best[0])
                checked += 1
                found += got is not None
                close += THRESHOLD <= best[0] < THRESHOLD + 0.02
        matcher.close()
        assert checked > 500 and 150 < found < checked - 150 and close > 5  # both outcomes, some at the edge


def test_the_filters_keep_every_pair_at_the_threshold():
    """Prefix filtering and the miss bound (db.library.matching) on sets of keys exactly at and just above THRESHOLD:
    every such pair shares a prefix key and passes the bound; pairs well below it are mostly dropped."""
    rng = random.Random(8)
    kept = dropped = 0
    for _ in range(3000):
        x = frozenset(rng.sample(range(1 << 20), rng.randint(10, 300)))
        removed = rng.randint(0, len(x) // 9)
        added = rng.randint(0, max(0, int((len(x) - removed) / THRESHOLD) - len(x)))  # J stays ≥ THRESHOLD
        if rng.random() < 0.3:  # and some far below it
            removed, added = len(x) // 3, len(x) // 4
        new = [key for key in rng.sample(range(1 << 20), 2 * added + 20) if key not in x][:added]  # interleaved
        y = (x - set(rng.sample(sorted(x), removed))) | set(new)
        passes = bool(set(prefix(x)) & set(prefix(y))) and could_reach(x, len(y), prefix(y))
        if jaccard(x, y) >= THRESHOLD:
            assert passes, (len(x), removed, added, jaccard(x, y))
            kept += 1
        else:
            dropped += not passes
    assert kept > 1500 and dropped > 500


def test_frequent_keys_go_last_and_every_stored_prefix_follows_them(tmp_path, monkeypatch):
    """Templated abstracts (most words shared): keys in more than FREQUENT prefixes become frequent, every
    stored prefix is the one of the library's order, and matching still equals the exhaustive best match."""
    import db.library.match_keys

    monkeypatch.setattr(db.library.match_keys, "FREQUENT", 5)
    body = " ".join(("graph", "kernel", "policy", "gradient", "tensor", "sparse", "manifold")[k % 7] for k in range(30))
    rng = random.Random(3)
    texts = [f"We study case {n} of templated behaviour: {body} and {_abstract(rng, 60)}." for n in range(120)]
    with Library.open(tmp_path / "lib", seed=False) as library:
        ids = library.import_records([PaperRecord(abstract=text, doi=f"10.2/{n}") for n, text in enumerate(texts)]).new
        frequent = frozenset(row[0] for row in library.rows("SELECT key FROM frequent_keys"))
        assert len(ids) == 120 and frequent
        for paper_id, text in zip(ids, texts, strict=True):
            stored = library.rows("SELECT keys FROM match_keys WHERE paper_id = ?", (paper_id,))[0][0]
            assert json.loads(stored) == prefix(shingles(text), frequent)
        most = library.rows("SELECT count(*) FROM abstract_keys GROUP BY key ORDER BY count(*) DESC LIMIT 1")
        assert most[0][0] <= 5 + 1  # no key left in many prefixes (one import's papers may cross it together)
        matcher = Matcher(library._conn)
        found = 0
        for text in texts[::4]:
            query = _near(text, 1)
            wanted = shingles(query)
            scores = {pid: jaccard(wanted, shingles(other)) for pid, other in zip(ids, texts, strict=True)}
            best = max(scores, key=lambda pid: (scores[pid], [-ord(c) for c in pid]))
            assert matcher.match(PaperRecord(abstract=query)) == (best if scores[best] >= THRESHOLD else None)
            found += scores[best] >= THRESHOLD
        matcher.close()
        assert found == 30
