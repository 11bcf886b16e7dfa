"""The Qt fixtures, shared by tests/gui/conftest.py and tests/system/conftest.py (which import them by name):
an own QSettings folder per test, and main windows built on the test's library."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path_factory):
    """Each test gets its own QSettings folder, so window state never leaks between tests or to the user."""
    try:
        from PySide6.QtCore import QSettings
    except ImportError:
        return
    folder = tmp_path_factory.mktemp("settings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))


@pytest.fixture
def make_window(qtbot, library_dir):
    """Build (and show) main windows on the test's library; all are closed at the end of the test."""
    from desktop.app import create_window
    from desktop.common import theme

    windows = []

    def make():
        window = create_window(library_dir)
        window.setProperty("quietImport", True)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()
        window.library.close()
    theme.apply_theme("system")
