"""The unit tier runs no Qt and starts no process: its tests take no Qt fixture and start no process themselves
(Margin's own helper processes are its business), and a run of this tier alone fails when Qt was imported.

pytest-qt (the qt_api setting in pyproject.toml) imports PySide6 when pytest starts, whatever is collected, and
a plugin cannot be turned off for one folder. So the check has two strengths:
- `pytest tests/unit -p no:pytest-qt`: nothing may import PySide6 at all (the strict check);
- `pytest tests/unit`: no module of `desktop` was imported, and no module of `db` holds anything of PySide6.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import sysconfig
import types
from pathlib import Path

import pytest

from db.library.library import Library

QT_FIXTURES = {"qtbot", "qapp", "qtmodeltester", "qtlog", "make_window", "short_delays"}
_UNIT_ONLY: list[bool] = []
HERE = Path(__file__).resolve().parent
TESTS = HERE.parent


def pytest_collection_modifyitems(config, items):
    unit = [item for item in items if HERE in Path(item.path).parents]
    _UNIT_ONLY[:] = [bool(items) and len(unit) == len(items)]


def pytest_collection_finish(session):
    """Everything alive once the tests are collected (the modules, whoosh, sqlite-utils, the test items) lives to
    the end of the run: gc.freeze() takes it out of the garbage collector's full collections, which db's
    release_memory() runs after every import and index build (a few hundred per run, each a tenth of a second
    when it walks the whole test process; in the app it walks the app's). A test's own garbage is collected as
    before, and at its end (unit_rules); what outlives a test is frozen in turn, as pytest keeps adding to it."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def unit_rules(request, monkeypatch):
    """A unit test that takes a Qt fixture or starts a process itself fails: tests/gui and tests/system take them.
    After the test, its garbage is collected and what outlives it is frozen (see pytest_collection_finish)."""
    qt = QT_FIXTURES & set(request.fixturenames)
    if qt:
        pytest.fail(f"tests/unit takes no Qt fixture ({', '.join(sorted(qt))}): move the test to tests/gui")

    start = subprocess.Popen.__init__

    def refuse_from_tests(self, args, *rest, **kwargs):  # Margin's own helper processes and tools are not refused
        caller = _first_caller_outside_the_standard_library()
        if caller is not None and TESTS in Path(caller).resolve().parents:
            raise AssertionError("tests/unit starts no process: run the command in-process "
                                 "(tests.helpers.runner.margin) or move the test to tests/system")
        start(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse_from_tests)
    yield
    gc.collect()  # the test's garbage; what outlives it (pytest's reports, caches) is frozen as at collection
    gc.freeze()


@pytest.fixture(scope="session")
def seeded_library(tmp_path_factory) -> Path:
    """The unit tier's seeded library (tests/conftest.py's `library` copies it) carries its search index, built
    once per run: the index is derived data keyed to the library's change log, so a copy of both is current and
    ensure_index / SearchIndex.open only open it (a fifth of a second per test otherwise). Tests of a build or
    rebuild damage or replace the copy's index first, as they would one built in the test."""
    from db.search.index import ensure_index

    folder = tmp_path_factory.mktemp("seeded-indexed") / "library"
    with Library.open(folder) as library:
        ensure_index(library).close()
    return folder


def _first_caller_outside_the_standard_library() -> str | None:
    """The file of the innermost frame that is not Python's standard library (subprocess, multiprocessing, …)."""
    stdlib = sysconfig.get_paths()["stdlib"]
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith(stdlib) and not name.startswith("<"):
            return name
        frame = frame.f_back
    return None


def qt_imports(strict: bool) -> list[str]:
    """What of Qt this run brought in: desktop modules, db modules holding PySide6 objects, PySide6 itself."""
    found = sorted(name for name in sys.modules if name == "desktop" or name.startswith("desktop."))
    for name, module in list(sys.modules.items()):
        if not (name == "db" or name.startswith("db.")) or module is None:
            continue
        for value in vars(module).values():
            origin = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", "")
            if isinstance(origin, str) and origin.startswith(("PySide6", "shiboken6")):
                found.append(f"{name} (holds {origin})")
                break
    if strict and "PySide6" in sys.modules:
        found.append("PySide6")
    return found


def pytest_sessionfinish(session, exitstatus):
    if not (_UNIT_ONLY and _UNIT_ONLY[0]) or session.config.getoption("collectonly", False):
        return
    strict = not session.config.pluginmanager.has_plugin("pytest-qt")
    found = qt_imports(strict)
    if found:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = "the unit tier imported Qt: " + ", ".join(found)
        if reporter is not None:
            reporter.write_line(message, red=True, bold=True)
        else:
            print(message, file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
