"""Start the window: `create_window(library)` for tests, `run(folder)` for `python main.py`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from db.errors import MarginError
from db.library import Library

NO_DISPLAY_MESSAGE = (
    "margin: no display found (DISPLAY and WAYLAND_DISPLAY are not set); start the window under a virtual "
    "display with `xvfb-run -a ./scripts/run.sh` (package xvfb), or use the command line: "
    "`.venv/bin/python main.py --help`")


def has_display() -> bool:
    """False on Linux/BSD when neither X11 nor Wayland is reachable and no Qt platform was chosen."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                or os.environ.get("QT_QPA_PLATFORM"))


def create_window(library: Path):
    """Build the main window on the library folder `library` (created and seeded when missing) without
    entering the event loop. A QApplication must already exist. Raises MarginError if it cannot be opened."""
    from desktop.main_window import MainWindow

    window = MainWindow(Library.open(Path(library)))
    window.setObjectName("mainWindow")
    return window


TRANSLATIONS = Path(__file__).resolve().parent.parent / "resources" / "translations"


def install_translation(app, folder: Path = TRANSLATIONS, locale=None) -> bool:
    """Load `folder`/margin_<locale>.qm for `locale` (a QLocale; the system's UI language when None), e.g.
    margin_zh_CN.qm, when there is one. Returns True when a translation was installed."""
    from PySide6.QtCore import QLocale, QTranslator

    translator = QTranslator(app)
    if translator.load(locale or QLocale.system(), "margin", "_", str(folder)):
        app.installTranslator(translator)
        return True
    return False


def run(folder: Path) -> int:
    """Open the window on `folder` and run until it closes. Returns the process exit code."""
    if not has_display():
        print(NO_DISPLAY_MESSAGE, file=sys.stderr)
        return 1
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Margin")
    app.setOrganizationName("Margin")
    app.setApplicationDisplayName("Margin")
    install_translation(app)
    from desktop.single_instance import InstanceServer, ask_running_instance

    if ask_running_instance(folder):
        print(f"margin: Margin is already open on {folder}; its window was brought forward", file=sys.stderr)
        return 0
    try:
        window = create_window(folder)
    except MarginError as error:
        print(f"margin: {error}", file=sys.stderr)
        QMessageBox.critical(None, "Margin", str(error))
        return 1
    server = InstanceServer(folder, window)
    server.raiseRequested.connect(lambda: (window.showNormal(), window.raise_(), window.activateWindow()))
    window.show()
    code = app.exec()
    window.library.close()
    return code
