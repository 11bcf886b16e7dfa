"""File → New library… / Open library… / Open recent, Edit → Delete, View → Language.

Switching library (or language) in the same session builds a new MainWindow on the chosen library with the
`open_window` callable the app handed the window, and closes the old one the way closing it always does
(MainWindow.closeEvent: the note and waiting edits saved, the search worker stopped, a backup written), then closes
the old Library. The recent libraries (most recent first, at most MAX_RECENT) are kept in QSettings under
`library/recent`; the language under desktop.common.i18n.LANGUAGE_KEY, read by the app at start.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QMainWindow, QMenu, QMessageBox

from db.errors import MarginError
from db.library.library import DB_NAME, Library
from desktop.common.button_text import literal
from desktop.common.i18n import LANGUAGE_KEY, LANGUAGES, apply_language, language_locale, plural, tr
from desktop.common.plain_text import as_plain
from desktop.window.view_state import keep_view, restore_view

MAX_RECENT = 8
RECENT_KEY = "library/recent"


def _language_label(code: str) -> str:
    return {"system": tr("System language"), "en": "English", "zh_CN": "简体中文"}[code]


# ---------------------------------------------------------------------- recent libraries
def recent_libraries(settings: QSettings) -> list[Path]:
    """The recent library folders, most recent first (folders that no longer hold a library are left out)."""
    value = settings.value(RECENT_KEY, [])
    folders = [value] if isinstance(value, str) else list(value or [])
    return [Path(folder) for folder in folders if folder and (Path(folder) / DB_NAME).is_file()]


def remember_library(settings: QSettings, folder: Path) -> None:
    folder = Path(folder).resolve()
    kept = [str(folder)] + [str(f) for f in recent_libraries(settings) if f.resolve() != folder]
    settings.setValue(RECENT_KEY, kept[:MAX_RECENT])


class LibrarySwitcher(QObject):
    """One per application: `switched(new_window)` after a window was replaced by one on another library
    (the app moves the one-window-per-library server to it)."""

    switched = Signal(object)


def switcher() -> LibrarySwitcher:
    app = QApplication.instance()
    found = app.findChild(LibrarySwitcher, "librarySwitcher")
    if found is None:
        found = LibrarySwitcher(app)
        found.setObjectName("librarySwitcher")
    return found


def switch_library(window, folder: Path, open_window: Callable[[Path], QMainWindow]):
    """Replace `window` (a MainWindow) by a new one on the library in `folder`, made by `open_window(folder)`
    (the app's create_window; it raises MarginError). On the same library (View → Language) the new window shows
    the view the old one showed: query with its filters, current and selected papers, scroll place
    (desktop.window.view_state). Returns the new window, or None when the library cannot be opened (said in a
    dialog; the old window stays) or the old window would not close (an import is running and the user kept
    it)."""
    same = Path(folder).resolve() == window.library.folder.resolve()
    view = keep_view(window) if same else None  # saved before the new window reads the settings
    try:
        new = open_window(Path(folder))
    except MarginError as error:
        QMessageBox.critical(window, tr("Cannot open the library"), as_plain(str(error)))
        return None
    if view is not None:
        restore_view(new, view)
    if window.isVisible():
        new.setGeometry(window.geometry())
        new.show()  # before the old one closes, so the application does not quit with its last window
    if not window.close():
        new.close()
        new.library.close()
        new.deleteLater()
        return None
    window.library.close()
    window.deleteLater()
    remember_library(new.settings, new.library.folder)
    switcher().switched.emit(new)
    return new


class _DeleteKey(QObject):
    """The Delete key pressed in the paper list (a shortcut takes it first when the window is active)."""

    def __init__(self, delete, parent):
        super().__init__(parent)
        self._delete = delete

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if (event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_Delete
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier):
            self._delete()
            return True
        return False


class LibraryActions:
    """The library, delete and language actions of `window`'s menus (built by desktop.window.actions)."""

    def __init__(self, window, open_window: Callable[[Path], QMainWindow], file_menu, edit_menu, view_menu):
        self.w = window
        self.open_window = open_window  # a window on another library folder (see switch_library)
        remember_library(window.settings, window.library.folder)
        first = file_menu.actions()[0] if file_menu.actions() else None
        self.new_action = self._action(tr("&New library…"), self.new_library_dialog, QKeySequence.StandardKey.New)
        self.open_action = self._action(tr("&Open library…"), self.open_library_dialog,
                                        QKeySequence.StandardKey.Open)
        file_menu.insertActions(first, [self.new_action, self.open_action])
        self.recent_menu = QMenu(tr("Open &recent"), file_menu)
        file_menu.insertMenu(first, self.recent_menu)
        file_menu.insertSeparator(first)
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()

        self.delete_action = self._action(tr("&Delete papers"), self.delete_selected)
        self.delete_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        # only while the list has focus: Delete in a text field deletes text
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        edit_menu.addSeparator()
        edit_menu.addAction(self.delete_action)
        window.paper_list.addAction(self.delete_action)
        self._delete_key = _DeleteKey(self.delete_selected, window.paper_list)  # also when the window is not
        window.paper_list.installEventFilter(self._delete_key)  # active (the shortcut map is then not asked)

        self.language_menu = view_menu.addMenu(tr("&Language"))
        group = QActionGroup(window)
        current = window.settings.value(LANGUAGE_KEY, "system", type=str)
        for code in LANGUAGES:
            action = self.language_menu.addAction(_language_label(code))
            action.setCheckable(True)
            action.setChecked(code == current)
            action.setData(code)
            action.triggered.connect(lambda _=False, c=code: self.set_language(c))
            group.addAction(action)

    def _action(self, text, slot, shortcut=None) -> QAction:
        action = QAction(text, self.w)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _=False: slot())
        return action

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        current = self.w.library.folder.resolve()
        folders = [folder for folder in recent_libraries(self.w.settings) if folder.resolve() != current]
        for folder in folders:
            action = self.recent_menu.addAction(literal(str(folder)))
            action.triggered.connect(lambda _=False, f=folder: self.open_library(f))
        if not folders:
            self.recent_menu.addAction(tr("No other library yet")).setEnabled(False)

    # ------------------------------------------------------------------ libraries
    def new_library_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.w, tr("New library: choose an empty folder"))
        if folder:
            self.new_library(Path(folder))

    def open_library_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.w, tr("Open library: choose a library folder"))
        if folder:
            self.open_library(Path(folder))

    def new_library(self, folder: Path):
        """Make an empty library in `folder` (which must not hold one) and switch to it. Returns the new window
        or None."""
        folder = Path(folder)
        if (folder / DB_NAME).exists():
            return self.open_library(folder)
        if folder.is_dir() and any(folder.iterdir()):
            QMessageBox.warning(self.w, tr("New library"), as_plain(tr(
                "%1 is not empty; choose an empty folder for a new library (or File → Open library… for an "
                "existing one).").replace("%1", str(folder))))
            return None
        try:
            Library.open(folder, seed=False).close()
        except MarginError as error:
            QMessageBox.critical(self.w, tr("New library"), as_plain(str(error)))
            return None
        return switch_library(self.w, folder, self.open_window)

    def open_library(self, folder: Path):
        """Switch to the library in `folder` (it must hold a library.db). Returns the new window or None."""
        folder = Path(folder)
        if not (folder / DB_NAME).is_file():
            QMessageBox.warning(self.w, tr("Open library"), as_plain(tr(
                "%1 holds no Margin library (no library.db); File → New library… makes one.").replace(
                "%1", str(folder))))
            return None
        if folder.resolve() == self.w.library.folder.resolve():
            return self.w
        return switch_library(self.w, folder, self.open_window)

    # ------------------------------------------------------------------ deleting
    def delete_selected(self) -> None:
        """Delete the selected papers (the current one when none is selected); Ctrl+Z brings them back."""
        ids = self.w.selected_ids() or ([self.w.current_paper_id()] if self.w.current_paper_id() else [])
        if not ids:
            return
        self.w.notes.flush()  # a note being written is saved to its paper before the paper goes
        self.w.ops.delete(ids)
        self.w.statusBar().showMessage(
            plural(tr("Deleted %n paper(s); Edit → Undo brings them back", "", len(ids)), len(ids)), 10000)

    # ------------------------------------------------------------------ language
    def set_language(self, code: str):
        """Choose the interface language and show the window in it (a new window on the same library)."""
        if code not in LANGUAGES:
            raise ValueError(code)
        self.w.settings.setValue(LANGUAGE_KEY, code)
        apply_language(QApplication.instance(), language_locale(code))
        return switch_library(self.w, self.w.library.folder, self.open_window)
