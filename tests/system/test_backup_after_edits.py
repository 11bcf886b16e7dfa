"""Backups you can count on (issue 31, item 6): the window backs up while it is being edited, not only at quit and
once a day. 30 edits in a window that is then killed with SIGKILL are all in the newest backup once the backup
interval has passed (BACKUP_AFTER_MS, 5 minutes; made 2 s here), so restoring it after losing library.db loses
none of them."""

from __future__ import annotations

import json
import shutil
import signal

import pytest

from db.formats.corpus import bundled_corpus_files
from db.library.backup import backups_in
from db.library.library import Library
from tests.helpers.faults import start_python, wait_until
from tests.helpers.runner import margin

EDITING_WINDOW = """
import sys
from PySide6.QtWidgets import QApplication
from desktop.window import backups
backups.EDIT_CHECK_MS, backups.BACKUP_AFTER_MS = 200, 2000  # the interval, made short
backups.BACKUP_FIRST_CHECK_MS = 3_600_000  # the daily backup is not what this test is about
app = QApplication([])
from desktop.app import create_window
window = create_window(sys.argv[1])
window.show()
ids = window.library.ids()
for n in range(10):
    window.ops.rate(ids[n], 1 + n % 5)
    window.ops.change_tags(ids[10 + n], add=[f"tag {n}"])
    window.ops.set_title(ids[20 + n], f"My title {n}")
print("edited", flush=True)
app.exec()
"""


def _edits_in(backup: dict, ids: list[str]) -> int:
    items = {item["id"]: item["annotations"] for item in backup["papers"]}
    found = sum(items.get(ids[n], {}).get("rating") == 1 + n % 5 for n in range(10))
    found += sum(f"tag {n}" in items.get(ids[10 + n], {}).get("tags", []) for n in range(10))
    found += sum(items.get(ids[20 + n], {}).get("title") == f"My title {n}" for n in range(10))
    return found


def _newest(folder) -> dict:
    found = backups_in(folder)
    try:
        return json.loads(found[-1].read_text(encoding="utf-8")) if found else {"papers": []}
    except (OSError, ValueError):
        return {"papers": []}  # being written (it is renamed into place; a partial read is not possible)


@pytest.mark.slow  # a window in a child process, a backup in its child
def test_kill_9_after_30_edits_loses_none_once_the_backup_interval_has_passed(seeded_copy, library_dir, tmp_path):
    with Library.open(library_dir) as library:
        ids = library.ids()
    window = start_python(EDITING_WINDOW, str(library_dir))
    try:
        assert window.stdout.readline().strip() == "edited", window.stderr.read()
        assert wait_until(lambda: _edits_in(_newest(library_dir), ids) == 30, timeout=60, interval=0.2), (
            f"the newest backup holds {_edits_in(_newest(library_dir), ids)} of the 30 edits")
    finally:
        window.send_signal(signal.SIGKILL)
        window.wait(30)
    newest = backups_in(library_dir)[-1]
    lost = tmp_path / "restored"  # library.db lost: the bundled corpus and the newest backup
    result = margin("import", *map(str, bundled_corpus_files()), str(newest), library=lost)
    assert result.code == 0, result.stderr
    with Library.open(lost) as restored:
        papers = {paper.id: paper for paper in restored.papers()}
    assert [papers[ids[n]].rating for n in range(10)] == [1 + n % 5 for n in range(10)]
    assert all(f"tag {n}" in papers[ids[10 + n]].tags for n in range(10))
    assert [papers[ids[20 + n]].user_title for n in range(10)] == [f"My title {n}" for n in range(10)]
    shutil.rmtree(lost)
