"""The store is the library's only writer (issue 33): every Library mutation runs its SQL inside the store's
write transaction and logs what it changed in the change log, in that transaction."""

import re

import pytest

from db.changes import NOTHING
from db.library.library import Library
from db.paper import PaperRecord

_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b", re.IGNORECASE)


@pytest.fixture
def traced(library):
    """The library, and the write statements run on its connection, each with whether the store was inside
    its write transaction then."""
    writes: list[tuple[str, bool]] = []

    def trace(sql: str) -> None:
        if _WRITE.match(sql):
            writes.append((sql.split("(")[0][:60], library.store.writing))

    library.store.conn.set_trace_callback(trace)
    yield library, writes
    library.store.conn.set_trace_callback(None)


def _mutations(library: Library) -> list[tuple[str, tuple]]:
    first, second, third = library.ids()[:3]
    record = PaperRecord(title="A paper imported in the test", abstract="Nothing like the seeded ones at all.",
                         venue="Test 2026", source="test.bib")
    return [
        ("set_rating", (first, 4)), ("set_read", (first, True)), ("set_title", (first, "Mine")),
        ("set_note", (first, "a note")), ("set_note", (first, "a second note")),
        ("add_note_history", (second, [("2026-01-01T00:00:00+00:00", "old")])),
        ("add_tags", (first, ["alpha", "beta"])), ("remove_tags", (first, ["beta"])),
        ("set_tags", (second, ["alpha", "gamma"])), ("rename_tag", ("gamma", "delta")),
        ("rename_tag", ("delta", "alpha")), ("delete_tag", ("alpha",)),
        ("add_check_sample", ("scope", [first, second, third], [first])),
        ("add_tags", (third, ["interest"])), ("set_interest", ("interest",)),
        ("set_interest", ("interest", False)), ("set_dismissed", (second, "interest")),
        ("set_liked_source", ("venue", "ICML 2026")), ("set_liked_source", ("venue", "ICML 2026", False)),
        ("set_highlight_lists", (["word"], ["other"])), ("import_records", ([record],)),
        ("relabel", ()), ("delete_papers", ([third],)), ("undelete_papers", ([third],)),
    ]


def test_every_mutation_writes_inside_the_stores_transaction_and_logs_its_change(traced):
    library, writes = traced
    for name, args in _mutations(library):
        writes.clear()
        before = library.last_change()
        result = getattr(library, name)(*args)
        changes = result.changes if name == "import_records" else result
        outside = [sql for sql, inside in writes if not inside]
        assert not outside, f"{name} wrote outside the store's transaction: {outside}"
        assert writes or name == "relabel", f"{name} wrote nothing"
        logged = library.changes_since(before)[0]
        assert logged == changes, f"{name} returned {changes} but logged {logged}"
        if name != "set_highlight_lists" and name != "relabel":  # library-wide lists; labels already current
            assert changes != NOTHING, f"{name} changed nothing"


def test_salvaged_rows_are_written_inside_the_stores_transaction_and_logged(library_dir, library):
    rows = {"papers": library.rows("SELECT id, position, title, abstract, label, authors, venue, year, url, doi,"
                                   " arxiv_id, openreview_id, keywords, extra, source, added_at, updated_at"
                                   " FROM papers")}
    with Library.open(library_dir.parent / "new", seed=False) as new:
        writes: list[bool] = []
        new.store.conn.set_trace_callback(
            lambda sql: writes.append(new.store.writing) if _WRITE.match(sql) else None)
        changes = new.put_salvaged_rows(rows)
        assert writes and all(writes)
        assert new.changes_since(0)[0] == changes and len(changes.papers) == 38
