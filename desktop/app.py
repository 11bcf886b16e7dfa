"""Start the window: `create_window(library)` for tests, `run(folder)` for `python main.py`."""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from db.errors import LibraryDamaged, MarginError
from db.library.damage import damaged, is_damage
from db.library.library import Library
from db.system.resources import ICONS_DIR, TRANSLATIONS_DIR
from desktop.common.plain_text import as_plain

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


def create_window(library: Path, ask_rebuild: Callable[[LibraryDamaged], bool] | None = None):
    """Build the main window on the library folder `library` (created and seeded when missing) without
    entering the event loop. A QApplication must already exist. Raises MarginError if it cannot be opened.

    Only the ends of the library's tables are read before the window is built; every page is read just after
    its list's first paint (desktop.window.page_check, `window.page_check`), and a damaged page found there is
    offered for rebuilding as at open (`ask_rebuild(error)`, a dialog by default): the window is then replaced
    by one on the rebuilt library, or closed when the user declines."""
    from PySide6.QtGui import QIcon

    from desktop.common.i18n import use_number_locale
    from desktop.window.main_window import MainWindow
    from desktop.window.page_check import PageCheck

    use_number_locale()
    # File → Open library and View → Language make their new window the same way
    window = MainWindow(Library.open(Path(library), read_pages=False), open_window=create_window)
    window.setObjectName("mainWindow")
    window.setWindowIcon(QIcon(str(ICONS_DIR / "margin.svg")))
    window.page_check = PageCheck(window)
    window.page_check.damageFound.connect(partial(_damage_found_later, window, ask_rebuild))
    return window


def _damage_found_later(window, ask_rebuild, error: LibraryDamaged):
    """A damaged page found after the window opened (desktop.window.page_check): the rebuild offered at open
    (`ask_rebuild`); the window is replaced by one on the rebuilt library (returned), or closed (None)."""
    from PySide6.QtWidgets import QApplication

    print(f"margin: {error}", file=sys.stderr)
    if not (ask_rebuild or _ask_rebuild)(error):
        window.close()
        return None
    app, folder, geometry = QApplication.instance(), window.library.folder, window.geometry()
    quits = app.quitOnLastWindowClosed()
    app.setQuitOnLastWindowClosed(False)  # the new window comes after the rebuild, once this one is closed
    try:
        if not window.close():  # an import runs and the user kept it
            return None
        window.library.close()  # no connection of this process may stay on the file the rebuild moves aside
        window.deleteLater()
        from db.library.integrity import rebuild
        from desktop.window.library_menu import switcher

        try:
            report = rebuild(folder)
            print(f"margin: {report.summary()}", file=sys.stderr)
            new = _create_checked(folder, ask_rebuild)
        except MarginError as problem:  # said as at open; no window is left, so Margin ends
            from PySide6.QtWidgets import QMessageBox

            print(f"margin: {problem}", file=sys.stderr)
            QMessageBox.critical(None, "Margin", as_plain(str(problem)))
            app.quit()
            return None
        new.setGeometry(geometry)
        new.show()
        new.statusBar().showMessage(report.summary(), 30000)
        switcher().switched.emit(new)  # the app serves the new window (one window per library)
        return new
    finally:
        app.setQuitOnLastWindowClosed(quits)


def open_window(folder: Path, ask_rebuild: Callable[[LibraryDamaged], bool] | None = None):
    """`create_window(folder)`, except that a damaged library.db is offered for rebuilding first
    (`ask_rebuild(error)`, a dialog by default; db.library.integrity.rebuild from the readable rows and the newest
    backup), and the window opens on the rebuilt library. Returns None when the user declines. Raises
    MarginError for a library that cannot be opened otherwise, or cannot be rebuilt."""
    try:
        return _create_checked(folder, ask_rebuild)
    except LibraryDamaged as error:
        print(f"margin: {error}", file=sys.stderr)
        if not (ask_rebuild or _ask_rebuild)(error):
            return None
        from db.library.integrity import rebuild  # only for a damaged library: it loads the backup reader

        report = rebuild(Path(folder))
        print(f"margin: {report.summary()}", file=sys.stderr)
        window = _create_checked(folder, ask_rebuild)
        window.statusBar().showMessage(report.summary(), 30000)
        if ask_rebuild is None:  # the user chose in the dialog: say what the rebuild did, in full
            from PySide6.QtWidgets import QMessageBox

            from desktop.common.i18n import tr

            QMessageBox.information(None, tr("The library was rebuilt"), as_plain(report.summary()))
        return window


def _create_checked(folder: Path, ask_rebuild: Callable[[LibraryDamaged], bool] | None = None):
    try:
        return create_window(folder, ask_rebuild)
    except sqlite3.DatabaseError as error:  # a damaged page read while building the window
        if is_damage(error):
            raise damaged(Path(folder), error) from None
        raise


def damaged_box(error: LibraryDamaged):
    """The dialog that says the library is damaged and offers to rebuild it (buttons: Rebuild, Quit)."""
    from PySide6.QtWidgets import QMessageBox

    from desktop.common.i18n import tr

    if error.backup is not None:
        plan = tr("Margin can rebuild the library from what is still readable in it and from the newest backup, "
                  "%1.").replace("%1", str(error.backup))
    else:
        plan = tr("There is no backup. Margin can rebuild the library from what is still readable in it.")
    text = "\n\n".join([
        tr("The library database %1 is damaged (%2).").replace("%1", str(error.path)).replace("%2", error.reason),
        plan,
        tr("The damaged file is kept in the library's backups folder. Papers that cannot be read come back by "
           "importing their files again.")])
    box = QMessageBox(QMessageBox.Icon.Critical, tr("The library is damaged"), as_plain(text))
    box.addButton(tr("Rebuild the library"), QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(box.addButton(tr("Quit"), QMessageBox.ButtonRole.RejectRole))
    return box


def _ask_rebuild(error: LibraryDamaged) -> bool:
    from PySide6.QtWidgets import QMessageBox

    box = damaged_box(error)
    box.exec()
    return box.buttonRole(box.clickedButton()) == QMessageBox.ButtonRole.AcceptRole


def _reporting_damage(previous, window):
    """An excepthook that tells the user, once, when a damaged page is read while the window runs (the
    error also goes to `previous`, as every uncaught error does)."""
    told = []

    def hook(kind, error, trace):
        previous(kind, error, trace)
        if is_damage(error) and not told:
            from PySide6.QtWidgets import QMessageBox

            from desktop.common.i18n import tr

            told.append(True)
            message = damaged(window.library.folder, error)
            QMessageBox.critical(window, tr("The library is damaged"), as_plain(
                str(message) + "\n\n" + tr("Close Margin and open it again to rebuild the library.")))

    return hook


TRANSLATIONS = TRANSLATIONS_DIR


def install_translation(app, folder: Path = TRANSLATIONS, locale=None) -> bool:
    """Load `folder`/margin_<locale>.qm for `locale` (a QLocale; the system's UI language when None), e.g.
    margin_zh_CN.qm, when there is one, with Qt's own translation (desktop.common.i18n.apply_language).
    Returns True when a Margin translation was installed."""
    from PySide6.QtCore import QLocale

    from desktop.common.i18n import apply_language

    return apply_language(app, locale or QLocale.system(), folder)


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
    app.setDesktopFileName("margin")  # the desktop entry of `margin install-desktop` (Wayland matches it)
    from PySide6.QtGui import QIcon

    from desktop.common.i18n import language_locale
    from desktop.window.library_menu import switcher

    app.setWindowIcon(QIcon(str(ICONS_DIR / "margin.svg")))
    install_translation(app, locale=language_locale())  # View → Language (the system's language by default)
    from desktop.window.single_instance import InstanceServer, ask_running_instance

    if ask_running_instance(folder):
        print(f"margin: Margin is already open on {folder}; its window was brought forward", file=sys.stderr)
        return 0
    try:
        window = open_window(folder)
    except MarginError as error:
        print(f"margin: {error}", file=sys.stderr)
        QMessageBox.critical(None, "Margin", as_plain(str(error)))
        return 1
    if window is None:
        return 1
    previous_hook = sys.excepthook
    current = {}

    def serve(window) -> None:
        """Make `window` the one this process brings forward, on its library (again after File → Open)."""
        if "server" in current:
            current["server"].close()
        sys.excepthook = _reporting_damage(previous_hook, window)
        server = current["server"] = InstanceServer(window.library.folder, window)
        server.raiseRequested.connect(lambda: (window.showNormal(), window.raise_(), window.activateWindow()))
        current["window"] = window

    serve(window)
    switcher().switched.connect(serve)
    window.show()
    code = app.exec()
    current["window"].library.close()
    return code
