"""Walk one rating from key press to SQLite and back to the list (issue 33): which of Margin's modules it enters,
how often it reads the paper, what it writes. Not part of the test run.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/walk_rating.py            # this checkout
    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/walk_rating.py ../before  # another checkout

A window on a new library (the bundled 38 papers), the fourth paper chosen as a user would, then a real key
press "4" on the paper list; Python's profiler records every call into a module of `db` or `desktop` until the
event loop has run for 400 ms (the sidebar's 250 ms burst timer included), and sqlite3's trace callback every
statement on the window's library connection. Prints the modules in the order first entered, the calls of
Library.paper, the statements that read the paper's row, the write statements and the transactions.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

CODE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
sys.path.insert(0, str(CODE))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> None:
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication(sys.argv[:1])  # noqa: F841 - kept alive until the end
    from desktop.app import create_window

    window = create_window(Path(tempfile.mkdtemp()) / "library")
    window.show()

    def wait(ms: int) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    wait(1500)
    window.select_row(3, by_user=True)
    window.paper_list.setFocus()
    wait(300)
    paper_id = window.current_paper_id()
    sql: list[str] = []
    window.library._conn.set_trace_callback(sql.append)
    entered: dict[str, None] = {}
    calls: list[tuple[str, str]] = []

    def profile(frame, event, _arg):
        if event == "call":
            module = frame.f_globals.get("__name__", "")
            if module.split(".")[0] in ("db", "desktop"):
                entered.setdefault(module)
                calls.append((module, frame.f_code.co_name))

    sys.setprofile(profile)
    QTest.keyClick(window.paper_list, "4")
    wait(400)
    sys.setprofile(None)
    window.library._conn.set_trace_callback(None)
    reads = [s for s in sql if s.lstrip().upper().startswith("SELECT") and "FROM papers" in s and paper_id in s]
    writes = [s for s in sql if s.lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE")]
    print(f"code: {CODE}")
    print(f"modules entered: {len(entered)}\n  " + " → ".join(entered))
    print(f"Library.paper calls: {sum(1 for module, name in calls if name == 'paper' and 'library' in module)}")
    print(f"statements naming the paper and reading papers: {len(reads)}")
    for statement in reads:
        print("  " + " ".join(statement.split())[:110])
    print(f"GROUP BY over every paper: {sum(1 for s in sql if 'FROM papers GROUP BY' in s)}")
    begins = sum(1 for s in sql if s.strip().upper().startswith("BEGIN"))
    print(f"write statements: {len(writes)}; transactions: {begins}; statements in all: {len(sql)}")
    window.close()


if __name__ == "__main__":
    main()
