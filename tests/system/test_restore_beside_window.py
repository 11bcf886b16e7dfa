"""`margin restore` of a damaged library while a window has it open (a new user's trial): it moved library.db
away under the window, which went on with the moved file and then failed with a traceback. It refuses in one
line, changing nothing, as long as the window (its single-instance socket, db.system.open_window) is there."""

from __future__ import annotations

import time
from pathlib import Path

from db.library.backup import write_backup
from db.library.library import Library
from db.system.open_window import window_open
from tests.helpers.faults import assert_one_line_error, btree_pages, damage_page, start_margin
from tests.helpers.runner import margin


def _damaged_with_a_backup(folder: Path) -> None:
    with Library.open(folder) as library:
        library.set_rating(library.ids()[0], 4)
        write_backup(library)


def _assert_refused(folder: Path) -> None:
    before = (folder / "library.db").read_bytes()
    line = assert_one_line_error(margin("restore", library=folder), "window has this library open",
                                 "nothing was changed")
    assert str(folder) in line
    assert (folder / "library.db").read_bytes() == before
    assert not list((folder / "backups").glob("library-damaged-*"))


def test_restore_refuses_while_a_window_s_instance_socket_is_open(qtbot, seeded_copy):
    from desktop.window.single_instance import InstanceServer

    _damaged_with_a_backup(seeded_copy)
    damage_page(seeded_copy, btree_pages(seeded_copy, "papers", "internal")[0])
    server = InstanceServer(seeded_copy)
    assert server.listening and window_open(seeded_copy)
    try:
        _assert_refused(seeded_copy)
    finally:
        server.close()
    assert not window_open(seeded_copy)  # the window gone (its socket file removed): the rebuild goes ahead
    done = margin("restore", library=seeded_copy)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("library rebuilt")


def test_restore_refuses_beside_a_real_window_process(seeded_copy):
    _damaged_with_a_backup(seeded_copy)
    window = start_margin(library=seeded_copy, env={"QT_QPA_PLATFORM": "offscreen"})
    try:
        deadline = time.monotonic() + 60
        while not window_open(seeded_copy):
            assert window.poll() is None, window.communicate()
            assert time.monotonic() < deadline, "the window did not start"
            time.sleep(0.1)
        damage_page(seeded_copy, btree_pages(seeded_copy, "papers", "internal")[0])
        _assert_refused(seeded_copy)
    finally:
        window.terminate()
        window.communicate(timeout=30)
    assert not window_open(seeded_copy)
