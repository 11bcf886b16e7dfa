"""The command line as a process: `margin` with no command opens the window, and says so in one line when there
is no display."""

from tests.helpers.runner import margin


def test_window_command_without_display_says_so_in_one_line(seeded_copy, library_dir):
    no_display = {"DISPLAY": None, "WAYLAND_DISPLAY": None, "QT_QPA_PLATFORM": None}
    result = margin(library=library_dir, env=no_display, timeout=60, subprocess=True)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "no display found" in result.stderr and "xvfb-run" in result.stderr
