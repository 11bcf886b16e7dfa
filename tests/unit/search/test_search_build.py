"""The fast index build (db/search/writer.py, the pre-analysed text of db/search/ranking.py) writes what whoosh's own
writer writes, and big index queues are caught up without losing a change."""

from __future__ import annotations

from whoosh import index as whoosh_index
from whoosh.formats import Frequency, Positions

from db.paper import Paper
from db.search.documents import codec, document, make_schema
from db.search.writer import SegmentBuilder

ODD_TEXTS = [
    "2.0\x1fHello 你好世界 Wörld\x1eAda Lovelace ; Bob\x1e" + "x " * 9000 + "\x1eCafé note\x1etag, with comma",
    "1.5\x1fa a b\x1ea b a\x1e\x1e\x1e",
    "\x1e\x1e\x1e\x1e",
    "2.0\x1fΩ(n) bounds\x1e\x1e$\\mathcal{M}$ -- ``quoted'' **GLEAN** https://x.org/a?b=1\x1e\x1e",
]


def _papers(library) -> list[Paper]:
    papers = library.papers()
    papers[0].tags[:] = ["a, b", "Graph Nets"]
    papers[1].note = "Café 你好 note with reasoning"
    papers[2].rating = 4
    papers[3].read = True
    return papers


def test_pre_analysed_text_equals_the_token_stream(library):
    schema = make_schema()
    for name, whoosh_format in (("text", Frequency), ("textpos", Positions), ("venue", Positions)):
        field = schema[name]
        for value in [document(p)[name] for p in _papers(library)] + ODD_TEXTS:
            fast = sorted(field.format.word_values(value, field.analyzer, mode="index"))
            slow = sorted(whoosh_format.word_values(field.format, value, field.analyzer, mode="index"))
            if whoosh_format is Frequency:  # the weights field keeps no value per posting
                slow = [(term, freq, weight, b"") for term, freq, weight, _value in slow]
            assert fast == slow


def _dump(folder) -> dict:
    reader = whoosh_index.open_dir(str(folder)).reader()
    postings = []
    for name, text in reader.all_terms():
        info = reader.term_info(name, text)
        matcher = reader.postings(name, text)
        items = []
        while matcher.is_active():
            items.append((matcher.id(), matcher.weight(), matcher.value(), matcher.block_min_length(),
                          matcher.block_max_length(), matcher.block_max_weight()))
            matcher.next()
        postings.append((name, text, info.weight(), info.doc_frequency(), info.min_length(), info.max_length(),
                         info.max_weight(), items))
    lengths = {name: [reader.doc_field_length(d, name) for d in range(reader.doc_count_all())]
               + [reader.field_length(name)] for name in reader.schema.names()}
    return {"postings": postings, "stored": list(reader.all_stored_fields()), "lengths": lengths,
            "ids": list(reader.column_reader("id")), "count": reader.doc_count_all()}


def test_segment_builder_writes_what_whoosh_writes(library, tmp_path):
    papers = _papers(library) * 3
    small_blocks = codec()
    small_blocks._blocklimit = 16  # common words span several posting blocks
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = whoosh_index.create_in(str(tmp_path / "a"), make_schema())
    writer = plain.writer(codec=small_blocks)
    for paper in papers:
        writer.add_document(**document(paper))
    writer.commit()
    fast = whoosh_index.create_in(str(tmp_path / "b"), make_schema())
    builder = SegmentBuilder(fast.writer(codec=small_blocks))
    for paper in papers:
        builder.add(document(paper))
    builder.commit()
    assert _dump(tmp_path / "a") == _dump(tmp_path / "b")


def test_a_long_queue_is_written_as_one_new_segment_and_loses_no_change(library, monkeypatch):
    import db.search.index as search_index
    from db.search.index import ensure_index

    monkeypatch.setattr(search_index, "_BULK_SYNC", 5)
    index = ensure_index(library)
    ids = library.ids()
    for number, pid in enumerate(ids[:12]):
        library.set_note(pid, f"bulkword{number} shared quokka")
    late = ids[3]
    papers = library.papers

    def papers_then_change(wanted=None):  # a change arriving while the index is being written
        found = papers(wanted)
        if wanted is not None:
            library.set_note(late, "changed meanwhile wombat")
        return found

    monkeypatch.setattr(library, "papers", papers_then_change)
    assert index.sync(library) == 12
    monkeypatch.setattr(library, "papers", papers)
    assert sorted(index.search("quokka")) == sorted(ids[:12])
    assert index.search("bulkword7") == [ids[7]]
    assert index._current_searcher().doc_count() == library.count()
    assert index.pending(library) == [late]  # changed after the index read the log: still to apply
    assert index.sync(library) == 1
    assert index.search("wombat") == [late]
    assert index.search("bulkword3") == []
    assert index.pending(library) == []
    assert len(index.search("learning")) == len(set(index.search("learning")))


def test_a_queue_of_most_of_the_library_rebuilds(library, monkeypatch):
    import db.search.index as search_index
    from db.library.store import log_change
    from db.search.index import ensure_index

    monkeypatch.setattr(search_index, "_REBUILD_MIN", 5)
    index = ensure_index(library)
    with library.transaction() as conn:  # every paper changed (as after a big import)
        log_change(conn, library.writer, ["bibliographic"], select="SELECT id FROM papers")
    rebuilt = []
    monkeypatch.setattr(index, "rebuild", lambda lib, progress=None: rebuilt.append(
        search_index.SearchIndex.rebuild(index, lib, progress)))
    pid = library.ids()[5]
    library.set_note(pid, "numbat")
    assert index.sync(library) == library.count()
    assert rebuilt and index.pending(library) == []
    assert index.search("numbat") == [pid]


QUERIES = ["reasoning", '"graph reachability"', "title:agent", "learning OR graph", "recommendation", "rating:none"]


def _answers(index) -> list[list[str]]:
    return [index.search(text) for text in QUERIES]


def test_a_rebuild_shared_with_a_helper_process_answers_the_same(library, monkeypatch):
    import db.search.index as search_index
    from db.search.index import SearchIndex

    alone = SearchIndex(library.folder / "alone")
    alone.rebuild(library)
    monkeypatch.setattr(search_index, "_HELPER_MIN", 10)
    shared = SearchIndex.for_library(library)
    shared.rebuild(library)
    assert len(shared._current_searcher().leaf_searchers()) == 2  # the helper's half is its own segment
    assert _answers(shared) == _answers(alone)
    assert shared._ids == alone._ids  # library order kept across the two segments

    class Broken(search_index.Helper):
        def finish(self):
            raise RuntimeError("helper died")

    monkeypatch.setattr(search_index, "Helper", Broken)
    fallback = SearchIndex.for_library(library)
    fallback.rebuild(library)
    assert _answers(fallback) == _answers(alone)
    assert fallback._current_searcher().doc_count() == library.count()


def test_mapped_storage_reads_without_copying_the_postings(library, tmp_path):
    from whoosh.filedb.filestore import FileStorage

    from db.search.index import ensure_index
    from db.search.postings import MappedStorage, _MappedFile

    items = [("a", 1.5, b"x" * 5000, tuple(range(3000))), {"k": "v"}, "é\n" * 3]
    out = FileStorage(str(tmp_path)).create_file("f")
    for item in items:
        out.write_pickle(item)
    out.write(b"line one\nline two\n")
    out.close()
    mapped = MappedStorage(str(tmp_path)).open_file("f")
    assert [mapped.read_pickle() for _ in items] == items
    assert mapped.file.readline() == b"line one\n"
    sub = mapped.subset(mapped.tell(), 9)
    assert sub.read() == b"line two\n" and sub.read() == b""
    sub.seek(5)
    assert sub.read(100) == b"two\n"

    index = ensure_index(library)
    reader = index._current_searcher().reader()
    leaf = reader.leaf_readers()[0][0] if hasattr(reader, "leaf_readers") else reader
    assert isinstance(leaf._terms._postfile, _MappedFile)  # whoosh's own path copies it into a BytesIO
    assert "9342e12f8e8d" in index.search('"graph reachability"')


def test_segment_caches_survive_a_small_write(library):
    from db.search.index import ensure_index

    index = ensure_index(library)
    index.search("learning")
    before = {key: entry["id"] for key, entry in index._segments._segments.items()}
    pid = library.ids()[7]
    library.set_note(pid, "capybara")
    index.sync(library)
    assert index.search("capybara") == [pid]
    after = index._segments._segments
    assert all(after[key]["id"] is ids for key, ids in before.items() if key in after)  # not read again
    assert len(after) > len([key for key in before if key in after])  # the new segment was added
    assert sorted(index.search("graph OR learning OR capybara")) == sorted(set(index.search(
        "graph OR learning OR capybara")))
    assert index._current_searcher().doc_count() == library.count() == len(set(index._ids))
