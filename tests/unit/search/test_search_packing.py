"""Packed posting blocks (db/search/packing.py, issue 28): positions, ids and weights read back exactly, by
Margin's ranker and by whoosh's own readers (a merge, a phrase whoosh runs itself)."""

from __future__ import annotations

import pickle

import numpy as np
from whoosh import index as whoosh_index
from whoosh import query, scoring

from db.search.analysis import PART_SPAN
from db.search.documents import codec, document, make_schema
from db.search.language import parse_query_text
from db.search.packing import JUMP_SIZE, Codes, PackedNumbers, PackedValues, encode_positions, pack, unpack
from db.search.ranking import Ranker
from db.search.writer import SegmentBuilder

POSTINGS = [
    [0],
    [3, 4, 90],
    [2 * PART_SPAN + 7],
    [5, PART_SPAN + 1, PART_SPAN + 2, 4 * PART_SPAN],
    [0xD800, 0xD801, 0xDFFF + 40],  # distances in the UTF-16 surrogate range
    [7, 7 + JUMP_SIZE * 3 + 12, PART_SPAN - 1],  # gaps beyond one code point
    [15 * PART_SPAN + 1],
]


def test_positions_read_back_exactly_alone_and_in_blocks():
    docs = np.arange(10, 10 + len(POSTINGS), dtype=np.int64)
    text = pickle.loads(pickle.dumps(PackedValues("".join(map(pack, POSTINGS))), 2)).text
    owner, positions = unpack(text, docs)
    assert owner.tolist() == [d for d, found in zip(docs.tolist(), POSTINGS, strict=True) for _ in found]
    assert positions.tolist() == [p for found in POSTINGS for p in found]
    values = PackedValues(text)
    assert len(values) == len(POSTINGS)
    assert list(values) == [encode_positions(found) for found in POSTINGS]  # what whoosh's readers see
    assert values[3] == encode_positions(POSTINGS[3])
    codes = Codes(text, docs)
    wanted = np.array([9, 11, 14, 16, 99], dtype=np.int64)
    owner, positions = codes.select(wanted)
    assert owner.tolist() == [11] * 3 + [14] * 3 + [16]
    assert positions.tolist() == POSTINGS[1] + POSTINGS[4] + POSTINGS[6]


def test_packed_numbers_are_the_tuple_whoosh_would_read():
    numbers = [0, 1, 127, 128, 0xD800, 0xDFFF, 70000, 1] * 3
    packed = pickle.loads(pickle.dumps(PackedNumbers.of(numbers), 2))
    assert list(packed) == numbers and packed[4] == 0xD800 and len(packed) == len(numbers)
    assert packed.array().tolist() == numbers
    assert PackedNumbers.of([1, 2]) is None  # too few to be worth it
    assert PackedNumbers.of([1] * 20 + [-1]) is None


def _phrase_hits(folder, words) -> list:
    with whoosh_index.open_dir(str(folder)).searcher() as searcher:  # whoosh's own phrase matcher
        return sorted(hit["id"] for hit in searcher.search(query.Phrase("textpos", words), limit=None))


def test_whoosh_merges_and_searches_a_packed_segment(library, tmp_path):
    papers = library.papers()
    index = whoosh_index.create_in(str(tmp_path), make_schema())
    builder = SegmentBuilder(index.writer(codec=codec()))
    for paper in papers:
        builder.add(document(paper))
    builder.commit()
    before = _phrase_hits(tmp_path, ["graph", "reachabl"])
    assert before  # the fixture library has the phrase
    writer = index.writer(codec=codec())
    writer.add_document(**document(papers[0]))
    writer.commit(optimize=True)  # whoosh reads the packed blocks and writes its own
    again = [papers[0].id] if papers[0].id in before else []  # the same paper a second time
    assert _phrase_hits(tmp_path, ["graph", "reachabl"]) == sorted(before + again)
    assert len(whoosh_index.open_dir(str(tmp_path)).reader().leaf_readers()) == 1  # merged
    with whoosh_index.open_dir(str(tmp_path)).searcher(weighting=scoring.BM25F()) as searcher:
        docnums = Ranker(searcher).ranked(parse_query_text('"graph reachability"').query).docnums
        assert sorted(searcher.stored_fields(d)["id"] for d in docnums) == sorted(before + again)


def test_text_fields_that_differ_stop_sharing_their_postings(library, tmp_path):
    papers = library.papers()[:6]
    index = whoosh_index.create_in(str(tmp_path), make_schema())
    builder = SegmentBuilder(index.writer(codec=codec()))
    for number, paper in enumerate(papers):
        fields = document(paper)
        if number == 3:
            fields["textpos"] = "\x1e\x1e zzquokka \x1e\x1e"
        builder.add(fields)
    builder.commit()
    with index.searcher() as searcher:
        reader = searcher.reader()
        assert [searcher.stored_fields(d)["id"] for d in reader.postings("textpos", "zzquokka").all_ids()] \
            == [papers[3].id]
        assert ("text", b"zzquokka") not in set(reader.all_terms())
        assert reader.doc_frequency("text", "graph") == sum("graph" in document(p)["text"].lower()
                                                            for p in papers)
