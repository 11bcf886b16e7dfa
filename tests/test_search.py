import shutil

import pytest

from db.search_index import SearchIndex, ensure_index


@pytest.fixture
def index(library):
    return ensure_index(library)


def test_stemming_finds_reasoning_tokens(index, library):
    hits = index.search("reasoning")
    assert "9342e12f8e8d" in hits[:3]
    assert set(index.search("reason")) >= set(hits)


def test_phrase_matches_only_the_phrase(index, library):
    phrase = index.search('"graph reachability"')
    assert phrase == ["9342e12f8e8d"]
    assert len(index.search("graph reachability")) >= len(phrase)


def test_results_are_ranked_best_first(index, library):
    hits = index.search("recommendation")
    assert hits[0] in ("adb39bf28065", "3b32771a6bb5")


def test_note_and_tag_words_are_searchable_after_sync(index, library):
    pid = library.ids()[10]
    library.set_note(pid, "remember the zanzibar experiment")
    library.add_tags(pid, ["Must Read"])
    assert library.index_queue() == [pid]
    index.sync(library)
    assert index.search("zanzibar") == [pid]
    assert index.search("tag:\"must read\"") == [pid]
    assert pid in index.search("must")
    assert library.index_queue() == []


def test_index_is_rebuilt_when_deleted_or_corrupt(library):
    index = ensure_index(library)
    folder = index.folder
    shutil.rmtree(folder)
    assert SearchIndex.for_library(library).open(library) is True
    fresh = ensure_index(library)
    assert "9342e12f8e8d" in fresh.search("reasoning")
    for name in folder.iterdir():
        if name.suffix == ".seg" or name.name.startswith("_MAIN"):
            name.write_bytes(b"garbage")
    again = SearchIndex.for_library(library)
    assert again.open(library) is True
    assert "9342e12f8e8d" in again.search("reasoning")


def test_queued_changes_are_caught_up_on_open(library):
    ensure_index(library)
    pid = library.ids()[0]
    library.set_note(pid, "quokka")  # as if the app died before the index commit
    reopened = SearchIndex.for_library(library)
    assert reopened.open(library) is False
    assert reopened.search("quokka") == [pid]


@pytest.mark.parametrize("query", ["NOT OR x", '"unbalanced', "(((", ":", "*", "tag:", "a" * 1000, "🎉", "AND",
                                   "year:abc", "rating:>=x"])
def test_hostile_queries_never_raise(index, query):
    assert isinstance(index.search(query), list)
