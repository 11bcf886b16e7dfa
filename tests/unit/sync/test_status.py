"""What the sync's status counts (db.sync.engine): the changes waiting here are counted in the unit a sync sends
— one changed field each (a paper's rating, note, read mark, one tag…; one of the library's own settings; a tag
rename) — so "N waiting" is followed by "N sent", whatever was edited, before the first sync and after it."""

from __future__ import annotations

from db.library import Library
from db.sync.engine import SyncReport, SyncStatus, waiting_here
from db.sync.stamping import stamp
from tests.helpers.records import papers


def test_the_changes_waiting_are_the_fields_the_next_sync_sends(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records(papers(3))
        first, second = library.ids()[:2]
        library.set_rating(first, 4)
        library.add_tags(first, ["graphs", "theory"])
        waiting = waiting_here(library)
        assert waiting == stamp(library) == library.sync_book.outbox_size()  # before the first sync: everything
        library.set_note(first, "a note")
        library.set_read(first, True)
        library.add_tags(first, ["vision"])
        library.set_rating(second, 2)
        library.set_rating(second, None)  # back as it was: nothing to send for it
        library.set_interest("graphs", True)
        library.rename_tag("theory", "Theory of learning")
        queued = library.sync_book.outbox_size()
        waiting = waiting_here(library)
        assert waiting == queued + stamp(library) == library.sync_book.outbox_size()
        assert waiting - queued == 7  # note, read, tag vision, the interest; the rename, its old and new tag
        assert waiting_here(library) == library.sync_book.outbox_size()  # nothing more once stamped


def test_the_status_and_the_summary_name_the_unit():
    assert SyncStatus("server", 1, 4).line() == "1 changed field waiting to be sent, 4 to be received (server)"
    assert SyncStatus("server", 3, error="server unreachable (no route)").line() == \
        "server unreachable (no route); 3 changed fields waiting to be sent"
    assert SyncReport("server", sent=1, received=2).summary() == \
        "synced with server: 1 changed field sent, 2 received"


def test_a_first_sync_that_cannot_reach_its_server_makes_no_library(tmp_path):
    """A new user's trial: `sync --server` into a new folder with an unknown role or a wrong password said so,
    and left an empty library there."""
    from tests.helpers.runner import margin

    folder = tmp_path / "new machine"
    result = margin("sync", "--server", "postgresql://nobody@127.0.0.1:1/margin?connect_timeout=2",
                    "--library", str(folder))
    assert result.returncode == 1 and "server unreachable" in result.stderr
    assert not (folder / "library.db").exists()
