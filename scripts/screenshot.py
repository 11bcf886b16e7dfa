"""Save screenshots of the window on a library (offscreen), for the README.

Usage: python scripts/screenshot.py OUT.png [--library DIR] [--query TEXT] [--select ID] [--size WxH] [--progress]
       [--language zh_CN]   (the window in that translation: resources/translations/margin_<language>.qm)
A fresh temporary library seeded with the bundled corpus is used when --library is not given.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--library")
    parser.add_argument("--query", default="")
    parser.add_argument("--select")
    parser.add_argument("--demo", action="store_true", help="rate, tag and note a few papers first")
    parser.add_argument("--theme", choices=("system", "light", "dark"), default="light")
    parser.add_argument("--preview", action="store_true", help="show the note's rendered preview")
    parser.add_argument("--size", help="window size as WIDTHxHEIGHT, e.g. 1000x700")
    parser.add_argument("--progress", action="store_true", help="show the triage progress dock with its figures")
    parser.add_argument("--language", help="the window in this language, e.g. zh_CN (English when not given)")
    args = parser.parse_args()

    started = time.perf_counter()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from desktop.app import create_window

    app = QApplication(sys.argv[:1])
    folder = Path(args.library) if args.library else Path(tempfile.mkdtemp()) / "library"
    from PySide6.QtCore import QSettings

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)  # never the user's own window settings
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    if args.language:
        from PySide6.QtCore import QLocale

        from desktop.app import install_translation

        if not install_translation(app, locale=QLocale(args.language)):
            print(f"no translation margin_{args.language}.qm (run scripts/update_translations.sh)", file=sys.stderr)
            return 1
    window = create_window(folder)
    window.reading.stop()
    if args.size:
        width, height = (int(x) for x in args.size.lower().split("x"))
        window.resize(width, height)
    window.show()
    app.processEvents()
    print(f"launch to first paint: {time.perf_counter() - started:.2f} s", file=sys.stderr)
    if args.demo:
        lib = window.library
        window.apply_changes(
            lib.set_rating("6ac65bf33b7e", 5) | lib.add_tags("6ac65bf33b7e", ["agents", "to read"])
            | lib.set_note("6ac65bf33b7e", "Evidence accumulation like **GLEAN** could check our $\\Omega(n)$ bound."
                           "\n\n- compare with CoT lower bounds\n- budget: $50 for API calls")
            | lib.set_rating("9342e12f8e8d", 4) | lib.add_tags("9342e12f8e8d", ["theory"])
            | lib.set_read("9342e12f8e8d", True)
            | lib.set_rating("c9c83c252bec", 3) | lib.add_tags("c9c83c252bec", ["spatial", "to read"]))
        window.sidebar.refresh()
    if args.query:
        window.set_query(args.query)
        deadline = time.time() + 10
        while window.search.query != args.query and time.time() < deadline:
            app.processEvents()
            time.sleep(0.02)
    if args.progress:
        window.progress_dock.show()
        window.resize(1500, 860)
        deadline = time.time() + 30
        while window.progress_dock.current is None and time.time() < deadline:
            app.processEvents()
            time.sleep(0.02)
    if args.select:
        window.select_paper(args.select)
    window.actions_.set_theme(args.theme)
    if args.preview:
        window.note_editor.tabs.setCurrentWidget(window.note_editor.preview)
    QTimer.singleShot(300, app.quit)
    app.exec()
    window.grab().save(args.output)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
