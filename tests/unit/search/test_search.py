"""The search index: stemming, phrases, ranking, fields, hostile queries, languages, hints, similar papers,
and an index that is missing, corrupt, old, out of step with SQLite or failing is rebuilt or reopened."""

import contextlib
import shutil

import pytest

from db.search.index import SearchIndex, ensure_index


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
    assert index.pending(library) == [pid]
    index.sync(library)
    assert index.search("zanzibar") == [pid]
    assert index.search("tag:\"must read\"") == [pid]
    assert pid in index.search("must")
    assert index.pending(library) == []


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


# ----------------------------------------------------------------------------- the query language, end to end
REASONING = "9342e12f8e8d"  # the chain-of-thought / graph reachability abstract


def test_quoted_phrase_with_stop_words(index):
    assert index.search('"chain of thought"') == [REASONING]
    assert index.search('"thought of chain"') == []


def test_title_is_weighted_above_the_abstract(index, library):
    a, b = library.ids()[20], library.ids()[21]
    library.set_title(a, "Wombat dynamics")
    library.set_note(b, "wombat")
    index.sync(library)
    assert index.search("wombat") == [a, b]
    assert index.search("title:wombat") == [a]
    assert index.search("note:wombat") == [b]
    assert index.search("abstract:wombat") == []


def test_a_very_long_note_stays_in_its_part(index, library):
    pid = library.ids()[9]
    library.set_note(pid, "okapi " + "filler " * 9000)
    library.add_tags(pid, ["zebra"])
    index.sync(library)
    assert index.search("okapi") == [pid]
    assert index.search("note:okapi") == [pid]
    assert index.search("zebra") == [pid]  # the tags part after it is intact
    assert index.search("note:zebra") == []


def test_numbers_read_state_and_boolean_operators(index, library):
    ids = library.ids()
    library.set_rating(ids[0], 5)
    library.set_rating(ids[1], 4)
    library.set_rating(ids[2], 2)
    library.set_read(ids[1], True)
    index.sync(library)
    assert set(index.search("rating:>=4")) == {ids[0], ids[1]}
    assert index.search("rating:<3") == [ids[2]]
    assert index.search("rating:2..4 read:yes") == [ids[1]]
    assert len(index.search("rating:none")) == 35
    assert len(index.search("read:no")) == 37
    assert len(index.search("year:2026")) == 38
    assert index.search("year:2017..2019") == []
    assert len(index.search("venue:icml year:>=2025")) == 38
    assert len(index.search('venue:"ICML 2026"')) == 38
    assert index.search('venue:"2026 icml"') == []
    assert set(index.search("rating:5 OR rating:2")) == {ids[0], ids[2]}
    assert set(index.search("rating:>=2 -rating:4")) == {ids[0], ids[2]}
    assert REASONING not in index.search("NOT reasoning")
    assert len(index.search("NOT reasoning")) + len(index.search("reasoning")) == 38


def test_wildcards(index):
    assert REASONING in index.search("reachab*")
    assert set(index.search("reason*")) >= set(index.search("reasoning"))
    assert index.search("gr?ph reachab*") == [REASONING]


def test_whole_tags_including_one_with_a_comma(index, library):
    a, b = library.ids()[3], library.ids()[4]
    library.add_tags(a, ["Graph Neural Nets", "theory, wombats"])
    library.add_tags(b, ["graph"])
    index.sync(library)
    assert index.search('tag:"graph neural nets"') == [a]
    assert index.search("tag:graph") == [b]
    assert index.search('tag:"graph neural"') == []
    assert index.search('tag:"Theory,  Wombats"') == [a]
    assert index.search("tag:theory") == []
    assert set(index.search("tag:graph*")) == {a, b}
    assert index.search("wombat") == [a]  # tag words are free text too


def test_a_tag_or_venue_holding_a_double_quote_is_found_by_its_quoted_value(index, library):
    """A quote inside a quoted value is written twice (db.query_kind.quoted): the sidebar's click on the tag
    `say "hi"` used to search `tag:"say  hi "` and find nothing."""
    from db.query_kind import quoted

    a, b = library.ids()[3], library.ids()[4]
    library.add_tags(a, ['say "hi"'])
    library.add_tags(b, ["say", "hi"])
    index.sync(library)
    assert quoted('say "hi"') == '"say ""hi"""'
    assert index.search("tag:" + quoted('say "hi"')) == [a]
    assert index.search('"say ""hi"""') == [a]  # a phrase: the quotes are not words
    assert index.search('tag:"say"') == [b]


def test_accents_case_and_unicode_form(index, library):
    a, b = library.ids()[5], library.ids()[6]
    library.set_note(a, "Ke\u0301pes lemma")  # NFD
    library.set_note(b, "STRASSE")
    index.sync(library)
    for text in ("Képes", "Ke\u0301pes", "kepes", "KEPES"):
        assert index.search(text) == [a], text
    assert index.search("straße") == [b]


def test_chinese_and_japanese_without_spaces(index, library):
    a, b = library.ids()[7], library.ids()[8]
    library.set_note(a, "这篇论文研究图神经网络的推理能力")
    library.add_tags(b, ["強化学習"])
    index.sync(library)
    assert index.search("神经网络") == [a]
    assert index.search("推理") == [a]
    assert index.search("网络推理") == []
    assert index.search("学習") == [b]
    assert index.search('tag:"強化学習"') == [b]


def test_find_reports_hints_and_terms(index):
    assert index.find("year:abc").hint.startswith("year: takes a number")
    result = index.find('"graph reachability" -noise')
    assert result.ids == [REASONING]
    assert result.terms == ["graph reachability"]  # a phrase is highlighted as a phrase
    assert result.hint == ""
    assert index.search("") == [] and index.find("   ").hint == ""


def test_dangling_operators_search_the_plain_words(index):
    assert index.search("NOT OR reachability") == [REASONING]
    assert index.search('"graph reachability') == [REASONING]
    assert index.search("(graph reachability") == [REASONING]


def test_highlight_terms_from_the_index_module():
    from db.search.index import highlight_terms

    assert highlight_terms('title:graph "chain of thought" -noise rating:>=4') == ["graph", "chain of thought"]


def test_similar_papers(index, library):
    similar = index.similar(REASONING, limit=5)
    assert 1 <= len(similar) <= 5
    assert REASONING not in similar
    assert set(similar) <= set(library.ids())
    assert "reason" in library.paper(similar[0]).abstract.lower()  # shares the key term
    assert index.similar("000000000000") == []


# ----------------------------------------------------------------------------- self-healing
def test_older_schema_is_rebuilt(library):
    index = ensure_index(library)
    (index.folder / "margin-index.json").write_text('{"schema": 1}')
    again = SearchIndex.for_library(library)
    assert again.needs_rebuild() is True
    assert again.open(library) is True
    assert again.search('"graph reachability"') == [REASONING]
    assert SearchIndex.for_library(library).open(library) is False


def test_index_out_of_step_with_sqlite_is_rebuilt(library):
    index = ensure_index(library)
    writer = index._index.writer()
    writer.delete_by_term("id", REASONING)  # as if SQLite's commit happened and the index's never did
    writer.commit()
    index.close()
    again = SearchIndex.for_library(library)
    assert again.open(library) is True
    assert again.search('"graph reachability"') == [REASONING]


def test_an_index_that_fails_while_searching_is_reopened_on_the_next_sync(index, library, monkeypatch):
    from db.search.ranking import Ranker

    def broken(self, parsed, limit):
        raise OSError("read error")

    with monkeypatch.context() as patch:
        patch.setattr(Ranker, "ranked", broken)
        result = index.find("reasoning")
        assert result.ids == []
        assert "being rebuilt" in result.hint
    assert index.find("reasoning").hint == "the search index is not ready yet"
    assert index.sync(library) == 0
    assert REASONING in index.search("reasoning")


def test_lock_never_released_leads_to_a_rebuild(library, monkeypatch):
    import db.search.index

    monkeypatch.setattr(db.search.index, "_WRITER_TIMEOUT", 0.2)
    index = ensure_index(library)
    stuck = index._index.writer()  # a writer that never commits nor cancels
    pid = library.ids()[2]
    library.set_note(pid, "capybara")
    assert index.sync(library) == 1
    assert index.search("capybara") == [pid]
    with contextlib.suppress(OSError):  # its folder was replaced by the rebuild
        stuck.cancel()


def test_keeping_the_index_current_never_writes_the_library(library, library_dir):
    """The index keeps its own bookkeeping: a window watching `data_version` sees only real changes."""
    import sqlite3

    index = ensure_index(library)
    watcher = sqlite3.connect(library_dir / "library.db")
    version = lambda: watcher.execute("PRAGMA data_version").fetchone()[0]  # noqa: E731
    pid = library.ids()[3]
    library.set_note(pid, "platypus")
    before = version()
    assert index.sync(library) == 1
    assert index.search("platypus") == [pid]
    index.rebuild(library)
    assert index.sync(library) == 0
    assert version() == before
    watcher.close()
