"""Issue 18, item 9, in real processes: a device or a pipe as import input is one line, and a console that
cannot show a title gets replacements, not a traceback (the rest: tests/unit/cli/test_hostile_inputs_small.py)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tests.helpers.faults import assert_one_line_error, db_state
from tests.helpers.runner import margin


@pytest.fixture
def folder(seeded_library, tmp_path):
    folder = tmp_path / "lib"
    shutil.copytree(seeded_library, folder)  # a command line makes no library by accident (issue 31)
    assert margin("list", library=folder, subprocess=True).returncode == 0
    return folder


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_device_or_a_pipe_as_import_input_is_one_line(folder, tmp_path, kind):
    if kind == "device":
        path = "/dev/zero"
        if not os.path.exists(path):
            pytest.skip("no /dev/zero here")
    else:
        path = str(tmp_path / "pipe")
        os.mkfifo(path)
    before = db_state(folder)
    result = margin("import", path, library=folder, timeout=30, subprocess=True)  # was a MemoryError or a hang
    assert_one_line_error(result, path, "not a regular file")
    assert db_state(folder) == before


def test_a_console_that_cannot_show_a_title_gets_replacements_not_a_traceback(folder):
    paper_id = json.loads(margin("list", "--json", library=folder, subprocess=True).stdout)[0]["id"]
    assert margin("annotate", paper_id, "--title", "Ünïcode 中文", library=folder, subprocess=True).returncode == 0
    for args in (["list"], ["list", "--json"]):
        result = margin(*args, library=folder, env={"PYTHONIOENCODING": "ascii"}, subprocess=True)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    listed = margin("list", "--json", library=folder, env={"PYTHONIOENCODING": "ascii"}, subprocess=True)
    assert "Ünïcode 中文" in listed.stdout
