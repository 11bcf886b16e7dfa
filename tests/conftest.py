"""Fixtures for every tier, none of them Qt: a fresh library per test, the shared/ data folder (skipped when
absent), two-topic libraries. Qt fixtures live in tests/gui/conftest.py and tests/system/conftest.py."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the window's background embedding child (issue 32) runs only in the tests that turn it on
os.environ.setdefault("MARGIN_EMBED_BACKGROUND", "0")
# the settings Margin's processes started by tests write (recent libraries, saved searches, language…) go to a
# folder of this run, never to the user's ~/.config/Margin (a new user's trial found a test's library among the
# recent ones, and a saved search of a test's library offered on a new library at the same path)
import tempfile  # noqa: E402

TEST_CONFIG = os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="margin-test-config-")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from db.library.library import Library  # noqa: E402
from tests.helpers.corpus import SHARED  # noqa: E402
from tests.helpers.topics import two_topics  # noqa: E402

TIERS = ("unit", "gui", "system")


def pytest_unconfigure(config):
    shutil.rmtree(TEST_CONFIG, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    """Each test carries its tier's marker (the folder it is in): `-m unit`, `-m "not system"`."""
    here = Path(__file__).resolve().parent
    for item in items:
        try:
            tier = Path(item.path).resolve().relative_to(here).parts[0]
        except ValueError:
            continue
        if tier in TIERS:
            item.add_marker(tier)


@pytest.fixture
def shared_dir() -> Path:
    """`../shared` beside the project; tests that need it skip cleanly on a clone without it."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present beside the project")
    return SHARED


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    return tmp_path / "library"


@pytest.fixture(scope="session")
def seeded_library(tmp_path_factory) -> Path:
    """A library folder seeded with the bundled corpus, made once per run for `library` to copy (seeding is a
    tenth of a second of CPU, and a few hundred tests start from it)."""
    folder = tmp_path_factory.mktemp("seeded") / "library"
    Library.open(folder).close()
    return folder


@pytest.fixture
def seeded_copy(library_dir: Path, seeded_library: Path) -> Path:
    """`library_dir` holding a copy of the run's seeded library, not opened: what `Library.open(library_dir)` on
    a new folder would make, for fixtures that want a seeded library folder rather than an open Library."""
    shutil.copytree(seeded_library, library_dir)
    return library_dir


@pytest.fixture
def library(seeded_copy: Path):
    """A fresh library seeded with the bundled corpus (38 ICML 2026 papers): a copy of the run's seeded folder."""
    lib = Library.open(seeded_copy)
    yield lib
    lib.close()


@pytest.fixture
def topics(library_dir):
    """A library of two clearly separated topics (tests.helpers.topics.two_topics); yields (library, {title: id})."""
    lib = Library.open(library_dir, seed=False)
    lib.import_records(two_topics())
    yield lib, {paper.label: paper.id for paper in lib.papers()}
    lib.close()
