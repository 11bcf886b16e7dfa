"""Backups you can count on (issue 31, item 6): every piece of user state is in a backup and a JSON export —
highlight lists, interests and dismissals, liked sources, saved searches, progress checks, papers only read — and
restoring brings all of it back; `margin backup` writes one now."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from db.formats.corpus import bundled_corpus_files
from db.library.backup import latest_backup, write_backup
from db.library.library import Library
from tests.helpers.runner import margin


def _make_state(library: Library) -> dict:
    ids = library.ids()
    library.set_highlight_lists(["reinforc*", "bound"], ["survey"])
    library.add_tags(ids[1], ["theory"])
    library.set_interest("theory")
    library.set_dismissed(ids[2], "theory")
    library.set_liked_source("venue", "ICML 2026")
    library.save_search("Theory to read", 'tag:"theory" read:no')
    library.save_search("Bounds", "bound*")
    library.add_check_sample('venue:"ICML 2026"', ids[5:25], ids[5:10])
    library.set_read(ids[30], True)  # only read: no rating, tag or note
    return library.user_state()


def _restored_state(tmp_path: Path, source: Path) -> tuple[dict, dict[str, bool]]:
    """Import the corpus and `source` into a new library; its user state and read flags."""
    target = tmp_path / "restored"
    result = margin("import", *map(str, bundled_corpus_files()), str(source), library=target)
    assert result.code == 0, result.stderr
    with Library.open(target) as library:
        return library.user_state(), {paper.id: paper.read for paper in library.papers()}


def test_a_backup_restored_into_a_lost_library_brings_back_every_list_search_and_check(library, tmp_path):
    before = _make_state(library)
    read_id = library.ids()[30]
    path = write_backup(library)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["state"] == before
    assert read_id in {item["id"] for item in data["papers"]}
    state, read = _restored_state(tmp_path, path)
    assert state == before
    assert read[read_id] is True


def test_a_json_export_carries_the_same_state_and_the_papers_only_read(library, tmp_path):
    before = _make_state(library)
    read_id = library.ids()[30]
    out = tmp_path / "export.json"
    assert margin("export", "--format", "json", "--output", str(out), library=library.folder).code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["state"] == before and read_id in {item["id"] for item in data["papers"]}
    state, read = _restored_state(tmp_path, out)
    assert state == before and read[read_id] is True


def test_restoring_adds_what_is_missing_and_takes_nothing_away(library, tmp_path):
    before = _make_state(library)
    path = write_backup(library)
    library.set_highlight_lists(["graph"], [])  # changed since the backup
    library.remove_saved_search("Bounds")
    library.set_interest("theory", on=False)
    assert margin("restore", str(path), library=library.folder).code == 0
    after = library.user_state()
    assert after["highlight"] == {"include": ["graph", "reinforc*", "bound"], "exclude": ["survey"]}
    assert after["saved_searches"] == before["saved_searches"]
    assert after["interests"] == ["theory"] and after["checks"] == before["checks"]
    assert margin("restore", str(path), library=library.folder).stdout.count("put back") == 0  # twice: no change


def test_a_backup_is_written_anew_when_only_the_state_changed(library):
    first = write_backup(library)
    library.save_search("New", "x")
    second = write_backup(library)
    assert second != first and json.loads(second.read_text(encoding="utf-8"))["state"]["saved_searches"] == [
        ["New", "x"]]


def test_margin_backup_writes_one_now_and_names_it(library):
    result = margin("backup", library=library.folder)
    assert result.code == 0 and result.stdout.strip() == str(latest_backup(library))


def test_a_rebuilt_library_keeps_its_saved_searches(library, tmp_path):
    library.save_search("Kept", "tag:theory")
    library.close()
    copy = tmp_path / "copy"
    shutil.copytree(library.folder, copy)
    from db.library.integrity import rebuild

    rebuild(copy)
    with Library.open(copy) as rebuilt:
        assert rebuilt.saved_searches() == [("Kept", "tag:theory")]
