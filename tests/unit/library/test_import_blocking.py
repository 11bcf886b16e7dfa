"""Issue 28: duplicate detection stays near-linear on templated lists and exact, and a streamed import writes what
one whole plan wrote.

The near-duplicate search compares a record's abstract only with the papers of its block: those sharing one of
its prefix keys (db.library.match_keys: the rarest shingles first, the keys frequent in the import last), of a
size that could reach the threshold, whose prefix could (`could_reach`). A templated list — 600 abstracts that
share most of their words — puts every paper in every block when the frequent keys are not put last; two
orders mixed (the import's prefix looked up among the library's keys) miss near-duplicates that are there.
"""

from __future__ import annotations

import json
import random

import pytest

from db.formats.spool import RecordSpool
from db.library import import_plan, match_keys
from db.library.library import Library
from db.library.matching import THRESHOLD, Matcher, jaccard, prefix, shingles
from db.paper import PaperRecord

TEMPLATE = ("we evaluate the proposed estimator on the benchmark suite collected from hospital records and report"
            " calibration accuracy and coverage across every cohort of the registry following the protocol of the"
            " consortium with bootstrap intervals computed over held out folds for each site").split()


def templated(count: int, seed: int = 28) -> list[str]:
    """`count` abstracts sharing the template's 44 words, each with 14 words of its own spread through it."""
    rng = random.Random(seed)
    texts = []
    for n in range(count):
        words = list(TEMPLATE)
        for slot in range(14):
            words.insert(3 * slot + rng.randrange(3), f"u{n}x{slot}{rng.randrange(10**6)}")
        texts.append(" ".join(words))
    return texts


def near(text: str, seed: int) -> str:
    """The text with its last word changed (Jaccard 55/57 ≈ 0.96 for 58 words)."""
    words = text.split()
    words[-1] = f"changed{seed}"
    return " ".join(words)


def _matched(records: list[PaperRecord], library: Library) -> tuple[Matcher, list[str | None]]:
    """Match each record in turn against the library and the records before it, as an import does."""
    matcher = Matcher(library._conn, records)
    found = []
    for number, record in enumerate(records):
        existing = matcher.match(record)
        found.append(existing)
        if existing is None:
            matcher.add(f"p{number:05d}", record.title, record.year, record.abstract, record.doi, record.arxiv_id,
                        record.openreview_id)
    return matcher, found


def test_a_templated_list_is_compared_within_blocks_not_with_every_paper(tmp_path):
    records = [PaperRecord(title=f"Study {n}", abstract=text) for n, text in enumerate(templated(600))]
    with Library.open(tmp_path / "lib", seed=False) as library:
        matcher, found = _matched(records, library)
        matcher.close()
    assert found == [None] * 600  # (no two share more than the template: Jaccard < 0.5)
    # every earlier paper a candidate of each (the bug) would be 600 · 599 / 2 ≈ 180,000
    assert matcher.candidates <= 3 * len(records), matcher.candidates
    assert matcher.compared <= len(records), matcher.compared


@pytest.mark.parametrize("in_memory", [5000, 50])
def test_near_duplicates_in_a_templated_list_are_all_found_and_only_they(tmp_path, monkeypatch, in_memory):
    """40 papers twice — once with a word more (one size block up), either first — and 20 with one word changed
    in the middle (Jaccard 53/59 < THRESHOLD: other papers); the import merges exactly the 40 pairs (with the
    plan in memory, and with all but the first 50 planned papers on disk)."""
    monkeypatch.setattr(import_plan, "IN_MEMORY", in_memory)
    texts = templated(300, seed=5)
    rng = random.Random(9)
    chosen = rng.sample(range(300), 60)
    copies = {n: texts[n] + f" appended{n}" for n in chosen[:40]}
    others = {n: " ".join(texts[n].split()[:20] + [f"middle{n}"] + texts[n].split()[21:]) for n in chosen[40:]}
    pairs = [(texts[n], copies[n]) if rng.random() < 0.5 else (copies[n], texts[n]) for n in copies]
    order = [[text] for n, text in enumerate(texts) if n not in copies] + [[other] for other in others.values()]
    order += [[first] for first, _ in pairs] + [[second] for _, second in pairs]
    head, tail = order[: len(order) - 40], order[len(order) - 40:]
    rng.shuffle(head)
    rng.shuffle(tail)  # every pair's second text after its first
    records = [PaperRecord(title=f"Title {n}", abstract=text) for n, (text,) in enumerate(head + tail)]
    reference = sum(jaccard(shingles(a), shingles(b)) >= THRESHOLD for a, b in pairs)
    assert reference == 40
    assert all(jaccard(shingles(texts[n]), shingles(other)) < THRESHOLD for n, other in others.items())
    with Library.open(tmp_path / "lib", seed=False) as library:
        report = library.import_records(records)
        assert report.duplicates == 40 and len(report.new) == 300 + 20
        # and a second import finds every paper among the stored ones, by its abstract alone, a word more
        again = library.import_records([PaperRecord(title=f"Other {n}", abstract=text + " again")
                                        for n, text in enumerate(texts)])
        assert len(again.new) == 0 and len(again.updated) == 300


def test_a_streamed_import_keeps_every_match_key_in_the_librarys_order(tmp_path, monkeypatch):
    """Written in chunks of 7 with keys frequent after 5 prefixes: a row planned before an earlier chunk made
    one of its keys frequent is made again in the new order (db.library.importing._plan_rows)."""
    monkeypatch.setattr(match_keys, "FREQUENT", 5)
    monkeypatch.setattr(import_plan, "CHUNK", 7)
    monkeypatch.setattr(import_plan, "IN_MEMORY", 30)
    texts = templated(120, seed=3)
    with Library.open(tmp_path / "lib", seed=False) as library:
        ids = library.import_records([PaperRecord(abstract=text, doi=f"10.3/{n}") for n, text in enumerate(texts)]).new
        frequent = frozenset(row[0] for row in library.rows("SELECT key FROM frequent_keys"))
        assert len(ids) == 120 and frequent
        for paper_id, text in zip(ids, texts, strict=True):
            stored = library.rows("SELECT keys FROM match_keys WHERE paper_id = ?", (paper_id,))[0][0]
            assert json.loads(stored) == prefix(shingles(text), frequent)


@pytest.mark.parametrize("count", [3, 2500])
def test_the_record_spool_gives_back_what_it_took_in_order(count):
    records = [PaperRecord(title=f"T{n}", abstract=f"A {n}", line=n) for n in range(count)]
    spool = RecordSpool(records[:10])
    spool += records[10:]
    assert len(spool) == count
    assert [record.line for record in spool] == list(range(count))
    assert spool[count - 1] == records[-1] and spool[0] == records[0] and spool[-1] == records[-1]
    with pytest.raises(IndexError):
        spool[count]
    spool.close()
