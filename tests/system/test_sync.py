"""Sync through a real PostgreSQL server (issue 26): two libraries on one machine stand in for two computers.

Offline edits on both sides, then sync both ways twice: equal field by field, every note text typed kept,
nothing twice; the same with the server killed mid-batch and a client killed mid-sync; a clock an hour behind;
a client older than the server's schema."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from db.library import Library
from db.sync import SERVER_SCHEMA_VERSION, sync_status
from tests.helpers.corpus import ROOT
from tests.helpers.runner import margin, margin_env
from tests.helpers.sync import history_duplicates, lost_notes, random_edits, snapshot, sync_folder


def _two_libraries(tmp_path, postgres, edits: int, typed: set):
    """The laptop's library (the bundled papers), copied to a new desktop library by a first sync each; then
    `edits` random edits on each side, made offline."""
    folders = tmp_path / "laptop", tmp_path / "desktop"
    Library.open(folders[0]).close()
    for folder in folders:
        sync_folder(folder, postgres.conninfo)
    for seed, folder in enumerate(folders):
        with Library.open(folder) as library:
            assert library.count() == 38
            random_edits(library, edits, seed=seed, side=folder.name, typed=typed)
    return folders


def _assert_converged(folders, typed):
    with Library.open(folders[0]) as first, Library.open(folders[1]) as second:
        one, two = snapshot(first), snapshot(second)
        differing = [paper_id for paper_id in set(one["papers"]) | set(two["papers"])
                     if one["papers"].get(paper_id) != two["papers"].get(paper_id)]
        assert differing == [], (differing[:3], [(one["papers"].get(p), two["papers"].get(p)) for p in differing[:2]])
        assert one == two
        for library in (first, second):
            assert lost_notes(library, typed) == []
            assert history_duplicates(library) == []


def _server_counts(postgres):
    """Per device: (rows, distinct numbers, highest number) on the server."""
    return {device: (rows, distinct, highest) for device, rows, distinct, highest in postgres.sql(
        "SELECT device, COUNT(*), COUNT(DISTINCT seq), MAX(seq) FROM margin_changes GROUP BY device")}


def _received(folder) -> int:
    with Library.open(folder) as library:
        state = library.sync_book.sync_state()
        return int(state.get("received", "0"))


def _assert_counted(postgres, folders):
    """No change lost or kept twice on the server (numbers 1..N each once per device), and each library received
    exactly the other's changes."""
    counts = _server_counts(postgres)
    assert len(counts) == 2
    for rows, distinct, highest in counts.values():
        assert rows == distinct == highest
    assert sorted(_received(folder) for folder in folders) == sorted(rows for rows, _d, _h in counts.values())


@pytest.mark.slow
def test_500_offline_edits_each_side_sync_both_ways_twice_to_equal_libraries(tmp_path, postgres):
    typed: set = set()
    folders = _two_libraries(tmp_path, postgres, 500, typed)
    for _round in range(2):
        for folder in folders:
            sync_folder(folder, postgres.conninfo)
    _assert_converged(folders, typed)
    _assert_counted(postgres, folders)
    with Library.open(folders[0]) as library:
        assert library.sync_book.conflicts(), "both sides edited the same 38 papers: the clock decided some"


def _margin_sync(folder, conninfo, **env) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(ROOT / "main.py"), "sync", "--server", conninfo, "--library",
                             str(folder)], env=margin_env({"MARGIN_SYNC_BATCH": "20", **env}),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)


def _wait_for_rows(postgres, at_least: int, process, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if postgres.sql("SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'margin-sync'"
                            " AND state = 'idle in transaction'")[0][0] and (
                    postgres.sql("SELECT to_regclass('margin_changes') IS NOT NULL")[0][0]
                    and postgres.sql("SELECT COUNT(*) FROM margin_changes")[0][0] >= at_least):
                return
        except Exception:  # the schema is being made
            pass
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    raise AssertionError("the sync never got that far")


@pytest.mark.slow
def test_server_killed_mid_batch_and_client_killed_mid_sync_lose_nothing_and_keep_nothing_twice(tmp_path,
                                                                                                postgres):
    typed: set = set()
    folders = _two_libraries(tmp_path, postgres, 500, typed)
    # the server dies (kill -9) while a batch of the laptop's is open in a transaction
    process = _margin_sync(folders[0], postgres.conninfo, MARGIN_SYNC_TEST_PAUSE="0.2")
    _wait_for_rows(postgres, 40, process)
    postgres.kill9()
    assert process.wait(timeout=60) == 1
    assert "server unreachable" in process.stderr.read().decode()
    postgres.start()
    # the desktop's sync is killed (kill -9) in the middle of a batch
    sync_folder(folders[0], postgres.conninfo)
    process = _margin_sync(folders[1], postgres.conninfo, MARGIN_SYNC_TEST_PAUSE="0.2")
    _wait_for_rows(postgres, postgres.sql("SELECT COUNT(*) FROM margin_changes")[0][0] + 40, process)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    for _round in range(2):
        for folder in folders:
            sync_folder(folder, postgres.conninfo)
    _assert_converged(folders, typed)
    _assert_counted(postgres, folders)


def test_a_clock_an_hour_behind_still_orders_by_the_hybrid_clock(tmp_path, postgres, monkeypatch):
    import db.library.store as store

    folders = tmp_path / "laptop", tmp_path / "desktop"
    Library.open(folders[0]).close()
    for folder in folders:  # the desktop starts empty: nothing of its own was ever stamped
        sync_folder(folder, postgres.conninfo)
    with Library.open(folders[0]) as laptop:
        paper_id = laptop.ids()[0]
        laptop.set_note(paper_id, "written first, on the laptop")
        laptop.set_rating(paper_id, 2)
    sync_folder(folders[0], postgres.conninfo)
    real = store.wall_ms
    monkeypatch.setattr(store, "wall_ms", lambda: real() - 3_600_000)  # the desktop's clock is an hour slow
    sync_folder(folders[1], postgres.conninfo)  # it sees the laptop's edit...
    with Library.open(folders[1]) as desktop:  # ...and edits after it, at a wall time an hour before it
        desktop.set_note(paper_id, "written later, on the desktop")
        desktop.set_rating(paper_id, 5)
    sync_folder(folders[1], postgres.conninfo)
    monkeypatch.setattr(store, "wall_ms", real)
    sync_folder(folders[0], postgres.conninfo)
    for folder in folders:
        with Library.open(folder) as library:
            paper = library.paper(paper_id)
            assert (paper.note, paper.rating) == ("written later, on the desktop", 5)
            assert "written first, on the laptop" in {text for _at, text in library.note_history(paper_id)}


def test_a_client_older_than_the_servers_schema_says_so_in_one_line_and_writes_nothing(tmp_path, postgres):
    folder = tmp_path / "laptop"
    with Library.open(folder) as library:
        library.set_rating(library.ids()[0], 4)
    sync_folder(folder, postgres.conninfo)
    with Library.open(folder) as library:
        library.set_rating(library.ids()[1], 3)
        before = (library.last_change(), library.sync_book.sync_state(), library.sync_book.outbox_size())
    postgres.sql("UPDATE margin_schema SET version = %s", (SERVER_SCHEMA_VERSION + 1,))
    server_before = postgres.sql("SELECT COUNT(*), MAX(id) FROM margin_changes")
    result = margin("sync", "--server", postgres.conninfo, library=folder, subprocess=True)
    assert result.code == 1
    assert len(result.stderr.strip().splitlines()) == 1 and "newer than this Margin" in result.stderr
    with Library.open(folder) as library:
        assert (library.last_change(), library.sync_book.sync_state(), library.sync_book.outbox_size()) == before
    assert postgres.sql("SELECT COUNT(*), MAX(id) FROM margin_changes") == server_before


def test_status_and_log_from_the_command_line_and_no_password_printed_or_stored(tmp_path, postgres):
    folder = tmp_path / "laptop"
    with Library.open(folder) as library:
        library.set_rating(library.ids()[0], 4)
    status = margin("sync", "--status", "--server", postgres.conninfo, library=folder)
    assert status.code == 0 and status.stdout.startswith("39 changed fields waiting to be sent")  # 38 papers, 1 rating
    url = postgres.conninfo + " password=hunter2"
    done = margin("sync", "--server", url, library=folder)
    assert done.code == 0, done.stderr
    assert "hunter2" not in done.stdout + done.stderr
    status = margin("sync", "--status", library=folder)
    assert status.stdout.startswith("synced with") and "hunter2" not in status.stdout
    assert b"hunter2" not in (folder / "library.db").read_bytes()
    postgres.stop()
    status = margin("sync", "--status", library=folder)
    assert status.code == 0 and status.stdout.startswith("server unreachable (")
    failed = margin("sync", library=folder)
    assert failed.code == 1 and failed.stderr.startswith("margin: server unreachable (")
    assert margin("sync", "--log", library=folder).stdout.startswith("no conflicts")


def test_a_batch_the_server_kept_but_the_client_never_heard_of_is_kept_once(tmp_path, postgres):
    from db.sync import open_for_sync
    from db.sync.server import Server
    from db.sync.stamping import clock_of, stamp

    folder = tmp_path / "laptop"
    with Library.open(folder) as library:
        library.set_note(library.ids()[0], "a note")
    library = open_for_sync(folder)
    try:  # a sync that died between the server's commit and the library's note of it
        with Server(postgres.conninfo) as remote:
            remote.prepare()
            stamp(library)
            rows = library.sync_book.outbox(1000)
            remote.push(clock_of(library).device, rows)
        library.sync_book.set_sync_state({"server": postgres.conninfo})
    finally:
        library.close()
    report = sync_folder(folder)
    assert report.sent == len(rows)
    (count,) = _server_counts(postgres).values()
    assert count == (len(rows), len(rows), len(rows))


def test_screening_decisions_and_saved_searches_travel(tmp_path, postgres):
    """Issue 29's decisions (with their reasons) and issue 31's saved searches, added to what travels after both
    landed: made on the laptop, found on the desktop; a cleared decision and a removed search travel too."""
    folders = tmp_path / "laptop", tmp_path / "desktop"
    Library.open(folders[0]).close()
    for folder in folders:
        sync_folder(folder, postgres.conninfo)
    with Library.open(folders[0]) as laptop:
        first, second = laptop.ids()[:2]
        laptop.set_decision(first, "exclude", "wrong population")
        laptop.set_decision(second, "include")
        laptop.save_search("graphs", "tag:graphs rating:>=4")
        laptop.save_search("old", "venue:ICML")
    sync_folder(folders[0], postgres.conninfo)
    sync_folder(folders[1], postgres.conninfo)
    with Library.open(folders[1]) as desktop:
        assert desktop.decision(first)[:2] == ("exclude", "wrong population")
        assert desktop.decision(second)[:2] == ("include", None)
        assert dict(desktop.saved_searches()) == {"graphs": "tag:graphs rating:>=4", "old": "venue:ICML"}
        desktop.set_decision(second, None)
        desktop.remove_saved_search("old")
    sync_folder(folders[1], postgres.conninfo)
    sync_folder(folders[0], postgres.conninfo)
    with Library.open(folders[0]) as laptop:
        assert laptop.decision(second) is None and laptop.decision(first)[0] == "exclude"
        assert dict(laptop.saved_searches()) == {"graphs": "tag:graphs rating:>=4"}


def _copy_of(folder, target):
    import shutil

    shutil.copytree(folder, target)
    return target


@pytest.mark.parametrize("copy_sends_first", [False, True])
def test_a_copied_library_folder_becomes_a_device_of_its_own_and_loses_nothing(tmp_path, postgres,
                                                                                copy_sends_first):
    """A new user's trial: a synced library's folder copied to a second machine kept the same device id, so the
    server kept only the first-sent of the two's changes under each number and neither received the other's.
    Whichever of the two syncs second becomes a device of its own (its summary says so); every edit of both
    reaches both and a third library; an edit after that travels too."""
    original = tmp_path / "laptop"
    Library.open(original).close()
    sync_folder(original, postgres.conninfo)
    copy = _copy_of(original, tmp_path / "desktop")
    with Library.open(original) as library:
        first, second = library.ids()[:2]
        library.set_rating(first, 5)
        library.set_note(first, "from the laptop")
    with Library.open(copy) as library:
        library.set_rating(second, 1)
        library.set_note(second, "from the copy")
        library.add_tags(second, ["copytag"])
    order = [copy, original] if copy_sends_first else [original, copy]
    reports = [sync_folder(folder) for folder in order]
    assert reports[0].copied_from is None
    assert reports[1].copied_from is not None and "a device of its own" in reports[1].summary()
    sync_folder(order[0])
    third = tmp_path / "third"
    Library.open(third).close()
    sync_folder(third, postgres.conninfo)
    for folder in (original, copy, third):
        with Library.open(folder) as library:
            one = library.paper(first)
            assert (one.rating, one.note) == (5, "from the laptop"), folder.name
            paper = library.paper(second)
            assert (paper.rating, paper.note, paper.tags) == (1, "from the copy", ["copytag"]), folder.name
    with Library.open(original) as library:
        library.set_rating(first, 2)
    for folder in (original, copy, third):
        sync_folder(folder)
    for folder in (copy, third):
        with Library.open(folder) as library:
            assert library.paper(first).rating == 2, folder.name
    devices = {device for (device,) in postgres.sql("SELECT DISTINCT device FROM margin_changes")}
    assert len(devices) == 3


def test_a_copy_that_only_receives_still_receives_the_originals_edits(tmp_path, postgres):
    """The copy made no edit of its own: it must not take the original's later changes for its own (the server
    holds numbers under its device id that it never gave)."""
    original = tmp_path / "laptop"
    Library.open(original).close()
    sync_folder(original, postgres.conninfo)
    copy = _copy_of(original, tmp_path / "desktop")
    with Library.open(original) as library:
        first = library.ids()[0]
        library.set_note(first, "written after the copy")
    sync_folder(original)
    with Library.open(copy) as library:
        assert "a copy of another library" in sync_status(library).line()
    report = sync_folder(copy)
    assert report.copied_from is not None
    with Library.open(copy) as library:
        assert library.paper(first).note == "written after the copy"
    assert sync_folder(original).copied_from is None


def test_a_note_received_in_four_versions_that_loses_is_one_conflict(tmp_path, postgres):
    """A new user's trial: a new library whose note was written after another machine's four versions of it logged
    four conflicts on its first sync ("7 conflicts decided by the clock" for a handful of fields): one line per
    field, the other machine's latest version named as dropped."""
    laptop, desktop = tmp_path / "laptop", tmp_path / "desktop"
    Library.open(laptop).close()
    Library.open(desktop).close()
    sync_folder(laptop, postgres.conninfo)
    with Library.open(laptop) as library:
        paper_id = library.ids()[0]
    for version in range(1, 5):
        with Library.open(laptop) as library:
            library.set_note(paper_id, f"version {version}")
        sync_folder(laptop)
    with Library.open(desktop) as library:
        library.set_note(paper_id, "keep me")
    report = sync_folder(desktop, postgres.conninfo)
    with Library.open(desktop) as library:
        assert library.paper(paper_id).note == "keep me"
        notes = [row for row in library.sync_book.conflicts(100) if row[1] == paper_id and row[2] == "note"]
    assert [(row[3], row[5]) for row in notes] == [("keep me", "version 4")]
    assert report.conflicts == 1
