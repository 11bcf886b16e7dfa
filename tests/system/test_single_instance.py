"""A second Margin on the same library brings the first forward instead of opening a second window."""

import os
import subprocess
import sys
from pathlib import Path

from db.library.library import Library
from desktop.window.single_instance import InstanceServer, ask_running_instance, server_name

ROOT = Path(__file__).resolve().parents[2]


def test_server_names_differ_per_library(tmp_path):
    assert server_name(tmp_path / "a") != server_name(tmp_path / "b")
    assert server_name(tmp_path / "a") == server_name(tmp_path / "x" / ".." / "a")


def test_second_instance_reaches_the_first(qtbot, tmp_path):
    library = tmp_path / "lib"
    assert ask_running_instance(library) is False
    server = InstanceServer(library)
    assert server.listening is True
    with qtbot.waitSignal(server.raiseRequested, timeout=5000):
        assert ask_running_instance(library) is True
    server.close()


def test_second_process_exits_and_says_so(qtbot, tmp_path):
    library = tmp_path / "lib"
    Library.open(library).close()  # the window refuses a folder that holds no library (issue 31)
    server = InstanceServer(library)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "--library", str(library)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    with qtbot.waitSignal(server.raiseRequested, timeout=20000):
        pass
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 0
    assert "already open" in err
    server.close()
