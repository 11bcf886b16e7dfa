"""The index build that keeps words as arrays (db/search/batch.py, blocks.py; issue 28) ranks exactly as the index
whoosh's own writer builds from the same papers: a few hundred real papers (../shared/data, skipped without it)
with accented and CJK notes and tags, the same ranked docnums and the same scores for words, phrases (stop-word
phrases too), prefixes, field queries and CJK; and the words the build keeps are what the per-posting analysis
(term_positions, packing.pack) gives, posting by posting. Updates after the build find what a fresh build finds."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from whoosh import index as whoosh_index
from whoosh.writing import SegmentWriter

from db.library.library import Library
from db.paper import PaperRecord
from db.search import index as search_index
from db.search.analysis import term_positions
from db.search.batch import TextPostings
from db.search.documents import codec, document, make_schema
from db.search.language import parse_query_text
from db.search.packing import JUMP_SIZE, pack
from db.search.ranking import Ranker
from db.search.storage import open_index
from tests.helpers.imports import shared

QUERIES = [
    "learning", "network", "the", "bayesian", "neural network", "reinforcement learning",
    '"neural network"', '"state of the art"', '"on the other hand"', '"in this paper we"', '"of the"',
    "learn*", "conv*", "net?ork", "title:learning", "author:wang", "abstract:graph", 'title:"neural network"',
    'abstract:"state of the art"', "note:idea", "tag:graph", "tag:\"a, b\"", "year:2016 network",
    "venue:nips learning", "rating:>=3", "read:yes network", "deep OR bayesian", "adversarial -image",
    "中文", "文本分类", '"中文文本"', "café", "cafe", "über", "naïve bayes", "ωmega", "zürich",
]
NOTES = ["an idea on the state of the art of neural network learning", "中文文本分类的方法 with a note",
         "Café über Zürich — naïve Bayes, ωmega", "x " * 3000 + "the end of a long note"]
TAGS = [["graph", "a, b"], ["Über tag"], ["中文"]]


def _records(count: int = 300) -> list[PaperRecord]:
    records = []
    for name in ("nips2016.json", "iclr2018.json"):
        for item in json.loads(shared("real", name).read_text(encoding="utf-8")):
            if len(item.get("abstract") or "") >= 80:
                records.append(PaperRecord(
                    abstract=item["abstract"], title=item.get("title"),
                    authors=[a.strip() for a in (item.get("author") or "").split(";") if a.strip()],
                    venue="NIPS 2016" if name.startswith("nips") else "ICLR 2018",
                    year=2016 if name.startswith("nips") else 2018))
    random.Random(11).shuffle(records)
    return records[:count]


@pytest.fixture
def real_library(tmp_path):
    library = Library.open(tmp_path / "library", seed=False)
    library.import_records(_records())
    rng = random.Random(4)
    ids = library.ids()
    for number, paper_id in enumerate(rng.sample(ids, 40)):
        library.set_note(paper_id, NOTES[number % len(NOTES)])
        library.add_tags(paper_id, TAGS[number % len(TAGS)])
        library.set_rating(paper_id, number % 5 + 1)
        library.set_read(paper_id, number % 2 == 0)
    yield library
    library.close()


def _whoosh_build(folder, library) -> None:
    """The reference: whoosh's own writer (its posting pool) over the library's papers, in the rebuild's order."""
    folder.mkdir()
    index = whoosh_index.create_in(str(folder), make_schema())
    writer = SegmentWriter(index, codec=codec())
    ids = library.ids()
    for start in range(0, len(ids), 100):
        for paper in library.papers(ids[start : start + 100]):
            writer.add_document(**document(paper))
    writer.commit()


def _rankings(folder) -> dict[str, tuple]:
    """Per query: (ranked paper ids, {paper id: score}) from Margin's ranker over the index in `folder`."""
    searcher = open_index(folder).searcher()
    ranker = Ranker(searcher)
    ids = list(searcher.reader().column_reader("id"))
    out = {}
    for text in QUERIES:
        parsed = parse_query_text(text).query
        docs, scores = ranker.scored_matches(parsed)
        ranked = [ids[d] for d in ranker.ranked(parsed).docnums]
        out[text] = (ranked, dict(zip((ids[d] for d in docs.tolist()), scores.tolist(), strict=True)))
    searcher.close()
    return out


def test_the_array_build_ranks_as_whoosh_s_own_writer_ids_and_scores(real_library, tmp_path, monkeypatch):
    monkeypatch.setattr(search_index, "_HELPER_MIN", 10**9)  # this process builds it all (the helper: below)
    built = search_index.SearchIndex(tmp_path / "built")
    built.rebuild(real_library)
    built.close()
    _whoosh_build(tmp_path / "whoosh", real_library)
    mine, theirs = _rankings(tmp_path / "built"), _rankings(tmp_path / "whoosh")
    assert sum(bool(theirs[text][0]) for text in QUERIES) >= len(QUERIES) - 3  # the queries find things
    for text in QUERIES:
        assert mine[text][0] == theirs[text][0], text
        assert mine[text][1] == theirs[text][1], text  # exactly the same scores


@pytest.mark.slow
def test_updates_after_the_build_find_what_a_fresh_build_finds(real_library, tmp_path, monkeypatch):
    monkeypatch.setattr(search_index, "_HELPER_MIN", 10**9)
    index = search_index.SearchIndex(tmp_path / "built")
    index.rebuild(real_library)
    ids = real_library.ids()
    real_library.set_note(ids[0], "a freshly noted idea about 中文文本 and the state of the art")
    real_library.set_title(ids[1], "On the other hand: a new title about Zürich networks")
    real_library.add_tags(ids[2], ["graph"])
    real_library.delete_papers([ids[3], ids[4]])
    real_library.import_records(_records(420)[300:])  # 120 new papers: written as one new segment
    assert index.sync(real_library) > 100
    index.close()
    _whoosh_build(tmp_path / "whoosh", real_library)
    mine, theirs = _rankings(tmp_path / "built"), _rankings(tmp_path / "whoosh")
    for text in QUERIES:
        assert set(mine[text][1]) == set(theirs[text][1]), text
    assert ids[0] in mine["note:idea"][1] and ids[1] in mine['"on the other hand"'][1]
    assert ids[3] not in mine["the"][1]


def test_the_words_kept_as_arrays_are_the_per_posting_analysis(real_library):
    texts = [document(paper)["text"] for paper in real_library.papers()]
    texts += ["2.0\x1fHello 你好世界 Wörld\x1eAda Lovelace ; Bob\x1e" + "x " * 9000 + "\x1eCafé note\x1etag, comma",
              "1.5\x1fa a b\x1ea b a\x1e\x1e\x1e", "\x1e\x1e\x1e\x1e", "", "Ǆemal ǅ İstanbul ﬁne Straße K"]
    _same_as_per_posting(texts)


@pytest.mark.slow
def test_a_gap_beyond_one_code_point_is_packed_as_per_posting():
    _same_as_per_posting(["a\x1eb " + "x " * 9000 + "y " * (JUMP_SIZE + 10) + "x b\x1ez", "x y\x1e\x1ex"])


def _same_as_per_posting(texts: list[str]) -> None:
    for stemming in (True, False):
        words = TextPostings(stemming)
        expected: dict[str, list] = {}
        for docnum, text in enumerate(texts):
            assert words.add(docnum, text) == sum(len(found) for found, _w in term_positions(text, stemming).values())
            for term, (found, weight) in term_positions(text, stemming).items():
                expected.setdefault(term, []).append((docnum, float(np.float32(weight)), pack(found)))
        postings = words.postings()
        assert postings.terms == sorted(expected)
        for number, term in enumerate(postings.terms):
            first, end = postings.start[number], postings.start[number + 1]
            assert list(zip(postings.docs[first:end].tolist(), postings.weights[first:end].tolist(),
                            [postings.packed(k, k + 1) for k in range(first, end)], strict=True)) == expected[term]
            assert postings.packed(first, end) == "".join(packed for _d, _w, packed in expected[term])
