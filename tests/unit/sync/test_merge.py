"""The merge rules of a sync (db.sync.stamping, db.sync.applying) on real libraries, without a server: the later
stamp wins per field; a note that loses goes into the history, one that wins puts the old one there; a batch
applied twice changes nothing; a tag rename replays on tags set before it, also when they arrive after it;
what a sync applied is not sent back; a kind added to the registry travels."""

from __future__ import annotations

import json

import pytest

from db.changes import NOTHING
from db.library import Library
from db.library.syncing import SYNC_WRITER
from db.sync import kinds
from db.sync.applying import apply_batch
from db.sync.clock import Stamp
from db.sync.stamping import stamp
from tests.helpers.records import papers


@pytest.fixture
def library(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as opened:
        opened.import_records(papers(3))
        opened.write_as(SYNC_WRITER)
        yield opened


_ids = iter(range(1, 10_000))


def row(entity, field, value, wall, device="other", parent=""):
    """One change as the server hands it out."""
    return (next(_ids), device, entity, field, Stamp(wall, 0, device).text, json.dumps(value), parent)


def test_the_later_stamp_wins_and_the_earlier_is_dropped_and_logged(library):
    paper_id = library.ids()[0]
    library.set_rating(paper_id, 2)
    stamp(library)
    local = library.sync_book.field_clocks([paper_id])[paper_id, "rating"][1]
    wall = Stamp.parse(local).wall
    apply_batch(library, [row(paper_id, "rating", 5, wall - 1000)])
    assert library.paper(paper_id).rating == 2
    assert library.sync_book.conflicts()[0][1:4] == (paper_id, "rating", "2")
    apply_batch(library, [row(paper_id, "rating", 4, wall + 1000)])
    assert library.paper(paper_id).rating == 4


def test_a_note_that_loses_goes_into_the_history_and_one_that_wins_keeps_the_old_there(library):
    paper_id = library.ids()[0]
    library.set_note(paper_id, "mine")
    stamp(library)
    wall = Stamp.parse(library.sync_book.field_clocks([paper_id])[paper_id, "note"][1]).wall
    apply_batch(library, [row(paper_id, "note", "theirs, older", wall - 1)])
    assert library.paper(paper_id).note == "mine"
    apply_batch(library, [row(paper_id, "note", "theirs, newer", wall + 1)])
    assert library.paper(paper_id).note == "theirs, newer"
    assert sorted(text for _at, text in library.note_history(paper_id)) == ["mine", "theirs, older"]


def test_a_batch_applied_twice_changes_nothing_the_second_time(library):
    paper_id = library.ids()[1]
    batch = [row(paper_id, "note", "hello", 10_000), row(paper_id, "tag:graphs", "Graphs", 10_000),
             row(paper_id, "read", True, 10_000), row(paper_id, "history", ["older"], 10_000)]
    apply_batch(library, batch)
    before = library.last_change(), library.note_history(paper_id)
    apply_batch(library, batch)
    assert (library.last_change(), library.note_history(paper_id)) == before
    assert library.paper(paper_id).tags == ["Graphs"]


def test_a_rename_replays_on_tags_set_before_it_even_when_they_arrive_after_it(library):
    first, second, third = library.ids()
    apply_batch(library, [row(first, "tag:ml", "ML", 1000)])
    apply_batch(library, [row("", "rename:ml", {"to": "Machine learning"}, 2000)])
    assert library.paper(first).tags == ["Machine learning"]
    apply_batch(library, [row(second, "tag:ml", "ML", 1500)])  # set before the rename, arrives after it
    apply_batch(library, [row(third, "tag:ml", "ML", 2500)])  # set after the rename: stays
    assert library.paper(second).tags == ["Machine learning"]
    assert library.paper(third).tags == ["ML"]


def test_a_rename_made_here_travels_as_an_operation(library):
    paper_id = library.ids()[0]
    library.add_tags(paper_id, ["ml"])
    stamp(library)
    library.rename_tag("ml", "Machine learning")
    stamp(library)
    fields = [field for _seq, _entity, field, _hlc, _value, _parent in library.sync_book.outbox(100)]
    assert "rename:ml" in fields


def test_what_a_sync_applied_is_not_sent_back(library):
    paper_id = library.ids()[2]
    stamp(library)
    queued = library.sync_book.outbox_size()
    apply_batch(library, [row(paper_id, "rating", 3, 10_000), row(paper_id, "note", "n", 10_000)])
    stamp(library)
    assert library.sync_book.outbox_size() == queued


@pytest.fixture
def registry():
    """The registry as it is, back after the test."""
    original = list(kinds.REGISTRY)
    yield kinds.REGISTRY
    kinds.REGISTRY[:] = original


def test_a_kind_added_to_the_registry_travels(library, registry):
    saved: dict[str, str] = {}  # a saved-search table as issue 31 adds: {name: query}

    def put(lib, entity, field, value):
        saved[field[len("saved:"):]] = value
        return NOTHING

    kinds.register(kinds.Kind("saved:", kinds.LIBRARY, lambda lib: {f"saved:{k}": v for k, v in saved.items()}, put))
    saved["ICLR"] = 'venue:"ICLR 2018"'
    stamp(library)
    sent = {field: json.loads(value) for _seq, _e, field, _h, value, _p in library.sync_book.outbox(1000)}
    assert sent["saved:ICLR"] == 'venue:"ICLR 2018"'
    apply_batch(library, [row("", "saved:theory", "tag:theory", 10**13)])
    assert saved["theory"] == "tag:theory"


def test_an_empty_library_is_compared_whole_once_not_at_every_batch(tmp_path):
    with Library.open(tmp_path / "new", seed=False) as empty:
        empty.write_as(SYNC_WRITER)
        stamp(empty)
        assert empty.sync_book.sync_state()["stamped"] == "0"  # stamped, at change 0: later stamps read the log only
        paper = {"title": "T", "abstract": "A", "authors": [], "venue": None, "year": None, "url": None,
                 "doi": None, "arxiv_id": None, "openreview_id": None, "keywords": [], "extra": {}, "source": None}
        apply_batch(empty, [row("abcdef123456", "paper", paper, 10_000)])
        compared = []
        read = empty.sync_book.paper_states
        empty.sync_book.paper_states = lambda ids: compared.extend(ids) or read(ids)
        stamp(empty)
        assert empty.ids() == ["abcdef123456"] and compared == []


def test_rows_another_sync_of_this_library_applied_meanwhile_are_not_applied_again(library):
    paper_id = library.ids()[0]
    batch = [row(paper_id, "note", "from elsewhere", 10_000), row(paper_id, "rating", 4, 10_000)]
    apply_batch(library, batch)
    received, last = library.sync_book.sync_state()["received"], library.last_change()
    apply_batch(library, batch)  # the window's sync and the command line's pulled the same rows
    assert (library.sync_book.sync_state()["received"], library.last_change()) == (received, last)


def test_only_conflicts_with_a_change_made_here_are_logged_here(library):
    """Two other machines changed a field before they synced: their conflict is theirs (each logs it when it
    receives the other's value), not this library's, which only received both — a new library's `sync --log`
    listed all of them. A change made here that meets another machine's is logged, whichever wins."""
    first, second = library.ids()[:2]
    apply_batch(library, [row(first, "rating", 3, 5_000, device="laptop"),
                          row(first, "rating", 5, 6_000, device="desktop"),
                          row(second, "note", "newer", 9_000, device="laptop"),
                          row(second, "note", "older", 8_000, device="desktop")])
    assert library.paper(first).rating == 5 and library.paper(second).note == "newer"
    assert library.sync_book.conflicts() == []
    library.write_as("the user")
    library.set_rating(first, 2)
    apply_batch(library, [row(first, "rating", 4, 7_000, device="tablet",
                              parent=Stamp(6_000, 0, "desktop").text)])
    assert library.paper(first).rating == 2
    assert [conflict[1:4] for conflict in library.sync_book.conflicts()] == [(first, "rating", "2")]


def test_a_rename_taken_back_before_it_was_stamped_is_never_sent_and_after_it_is_reversed(library):
    paper_id = library.ids()[0]
    library.add_tags(paper_id, ["ml"])
    stamp(library)
    state = library.tag_state(["ml", "Machine learning"])
    library.rename_tag("ml", "Machine learning")
    library.restore_tags(state)  # Ctrl+Z before the sync stamped it
    stamp(library)
    assert not [field for *_seq, field, _hlc, _value, _parent in library.sync_book.outbox(100)
                if field.startswith("rename:")]

    library.rename_tag("ml", "Machine learning")
    stamp(library)
    library.restore_tags(state)  # Ctrl+Z once it was stamped: the reverse travels too
    stamp(library)
    renames = [(field, json.loads(value)) for _seq, _entity, field, _hlc, value, _parent
               in library.sync_book.outbox(100) if field.startswith("rename:")]
    assert renames == [("rename:ml", {"to": "Machine learning"}), ("rename:machine learning", {"to": "ml"})]
    assert library.paper(paper_id).tags == ["ml"]
