"""Shared fixtures: a fresh library per test, the shared/ data folder (skipped when absent), headless Qt."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from db.library.library import Library  # noqa: E402

SHARED = ROOT.parent / "shared"
# three short abstracts on different subjects, for tests that need a few untitled papers of their own
ABSTRACTS = [
    "We propose GraphFoo, a method for graph learning that works well on many benchmarks and is fast.",
    "This paper studies reasoning in large language models with chain of thought prompting on math problems.",
    "A new optimizer named Zap converges faster than Adam on vision transformers across many model scales.",
]


@pytest.fixture
def shared_dir() -> Path:
    """`../shared` beside the project; tests that need it skip cleanly on a clone without it."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present beside the project")
    return SHARED


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    return tmp_path / "library"


@pytest.fixture
def library(library_dir: Path):
    """A fresh library seeded with the bundled corpus (38 ICML 2026 papers)."""
    lib = Library.open(library_dir)
    yield lib
    lib.close()


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path_factory, monkeypatch):
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
