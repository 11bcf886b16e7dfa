"""The command line as a process: `margin` with no command opens the window, and says so in one line when there
is no display."""

import os
import subprocess
import sys

from tests.helpers.corpus import ROOT


def test_window_command_without_display_says_so_in_one_line(library_dir):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "--library", str(library_dir)],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "no display found" in result.stderr and "xvfb-run" in result.stderr
