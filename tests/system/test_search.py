"""The search index while another process holds its lock or left it behind: a change is saved and the
index catches up, a search reads the index as it stands, a search with nothing to apply takes no lock."""

from db.search.index import SearchIndex, ensure_index

REASONING = "9342e12f8e8d"  # the chain-of-thought / graph reachability abstract


def test_lock_left_by_a_dead_process_does_not_block(library, tmp_path):
    import subprocess
    import sys

    ensure_index(library)
    script = ("import sys, time; from whoosh import index; ix = index.open_dir(sys.argv[1]); w = ix.writer();"
              " print('locked', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", script, str(library.folder / "index")],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    holder.kill()
    holder.wait()
    pid = library.ids()[2]
    library.set_note(pid, "okapi")
    index = SearchIndex.for_library(library)
    assert index.open(library) is False
    assert index.search("okapi") == [pid]


def _hold_index_lock(library):
    """A second process holding the index's lock (index.lock) until it is killed."""
    import subprocess
    import sys

    script = ("import sys, time; from whoosh.util.filelock import FileLock; lock = FileLock(sys.argv[1]);"
              " assert lock.acquire(blocking=False); print('locked', flush=True); time.sleep(120)")
    holder = subprocess.Popen([sys.executable, "-c", script, str(library.folder / "index.lock")],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    return holder


def test_while_another_process_keeps_the_index_lock_a_change_is_saved_and_a_search_reads_the_index(
        library, monkeypatch, capsys):
    """A new user's trial: `annotate --rating` waited two minutes, then said exit 1 although the rating was saved;
    `list` failed with no results. Now the change is saved with exit 0 and a line saying the index catches up;
    a search answers from the index as it stands, and says so."""
    import db.search.folder
    from main import main as cli_main

    ensure_index(library)
    pid = library.ids()[2]
    holder = _hold_index_lock(library)
    try:
        monkeypatch.setattr(db.search.folder, "LOCK_WAIT", 0.3)
        monkeypatch.setattr(db.search.folder.IndexLock.__init__, "__defaults__", (None, 0.3))
        folder = str(library.folder)
        library.close()
        assert cli_main(["--library", folder, "annotate", pid, "--rating", "4"]) == 0
        err = capsys.readouterr().err
        assert "the change was saved; the search index will catch up later" in err
        assert cli_main(["--library", folder, "list", "reasoning"]) == 0
        out, err = capsys.readouterr()
        assert REASONING in out
        assert "searched the index as it stands" in err
    finally:
        holder.kill()
        holder.wait()
    from db.library.library import Library

    with Library.open(library.folder, seed=False) as again:
        assert again.paper(pid).rating == 4
        index = SearchIndex.for_library(again)
        assert index.open(again) is False  # caught up once the lock was free
        assert index.search("rating:4") == [pid]


def test_a_search_with_nothing_to_apply_takes_no_lock(library):
    ensure_index(library)
    holder = _hold_index_lock(library)
    try:
        index = SearchIndex.for_library(library)
        index._folder_lock.timeout = 30
        import time

        started = time.monotonic()
        assert index.open(library) is False
        assert index.sync(library) == 0
        assert REASONING in index.search("reasoning")
        assert time.monotonic() - started < 20  # a lock waited for would take its 30 s (20: a busy machine)
    finally:
        holder.kill()
        holder.wait()
