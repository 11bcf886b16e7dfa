"""The keyboard shortcuts: one table of the single keys that triage binds (and the filter that binds them), and
the shortcuts dialog generated from it, from the rating box's keys (desktop.reader.rating_widget.RATING_KEYS) and
from the menu actions' own shortcuts (so a key is written once: where it is bound).

TRIAGE_KEYS rows are (keys, what, method, arguments): `keys` are Qt key names bound while the list or the reader
has focus (keys in EVERY_PANE also while the sidebar or the note preview has it); `method` is the name of a
MainWindow attribute path called with `arguments`. Menu shortcuts are read from the window's actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QTableWidget, QTableWidgetItem, QVBoxLayout

from db.text.translatable import QT_TRANSLATE_NOOP
from desktop.common.i18n import tr
from desktop.reader.rating_widget import RATING_KEYS


@dataclass(frozen=True)
class Key:
    keys: tuple[str, ...]  # Qt key names (Qt.Key.Key_<name>)
    what: str  # English, marked with QT_TRANSLATE_NOOP; shown through tr()
    method: str  # attribute path on the window ("tag_editor.setFocus")
    arguments: tuple = ()
    also: str = ""  # a key Qt's own widgets handle, shown beside ours ("↓")


TRIAGE_KEYS: tuple[Key, ...] = (
    Key(("J",), QT_TRANSLATE_NOOP("", "next paper"), "move_selection", (1,), also="↓"),
    Key(("K",), QT_TRANSLATE_NOOP("", "previous paper"), "move_selection", (-1,), also="↑"),
    Key(("1", "2", "3", "4", "5"), QT_TRANSLATE_NOOP("", "rate"), "rate_current", (None, True)),
    Key(("0",), QT_TRANSLATE_NOOP("", "clear the rating"), "rate_current", (0, True)),
    Key(("I",), QT_TRANSLATE_NOOP("", "include (screening decision)"), "screening.include"),
    Key(("E",), QT_TRANSLATE_NOOP("", "exclude: pick a reason (1–9, 0 for none)"), "screening.exclude"),
    Key(("M",), QT_TRANSLATE_NOOP("", "maybe (decide later)"), "screening.maybe"),
    Key(("U",), QT_TRANSLATE_NOOP("", "clear the screening decision"), "screening.clear"),
    Key(("V",), QT_TRANSLATE_NOOP("", "resolve a shared project's conflict (its owner or a resolver)"),
        "screening.resolve"),
    Key(("T",), QT_TRANSLATE_NOOP("", "edit tags"), "tag_editor.setFocus"),
    Key(("N",), QT_TRANSLATE_NOOP("", "edit the note"), "note_editor.setFocus"),
    Key(("R",), QT_TRANSLATE_NOOP("", "mark read / unread"), "toggle_read"),
    Key(("Slash",), QT_TRANSLATE_NOOP("", "search (from the list, reader, sidebar or note preview)"), "focus_search"),
    Key(("S",), QT_TRANSLATE_NOOP("", "similar papers"), "show_similar"),
    Key(("A",), QT_TRANSLATE_NOOP("", "accept a suggestion into its tag or interest"), "accept_suggestion"),
    Key(("X",), QT_TRANSLATE_NOOP("", "dismiss a suggestion (kept: the tag learns from it)"), "dismiss_suggestion"),
)
EVERY_PANE = frozenset({"Slash"})  # keys that also work while the sidebar or the note preview has focus


_SHOWN = {"Slash": "/", "Right": "→", "Left": "←", "Plus": "+", "Minus": "-"}


def qt_key(name: str) -> Qt.Key:
    return getattr(Qt.Key, f"Key_{name}")


def key_text(names: tuple[str, ...]) -> str:
    """How the dialog writes keys: `j`, `1–5` for a run of digits, `/`."""
    shown = [_SHOWN.get(name, name.lower()) for name in names]
    return f"{shown[0]}–{shown[-1]}" if len(shown) > 2 else " / ".join(shown)


def triage_bindings(window) -> dict[Qt.Key, object]:
    """Qt key → a callable on `window`, for every key of TRIAGE_KEYS (TriageKeys calls them)."""
    bindings = {}
    for row in TRIAGE_KEYS:
        target = window
        for part in row.method.split("."):
            target = getattr(target, part)
        for name in row.keys:
            arguments = tuple(int(name) if a is None else a for a in row.arguments)
            bindings[qt_key(name)] = (lambda t=target, a=arguments: t(*a))
    return bindings


class TriageKeys(QObject):
    """The triage keys at work: an event filter on `key_panes` (the list, the reader) that calls the bound command
    of `window` for a key of TRIAGE_KEYS pressed there, and on `other_panes` (the sidebar, the note preview) for
    the keys of EVERY_PANE only; never while a text field has focus. Esc, anywhere in the window, gives the
    first of `key_panes` the focus. `bindings`: Qt key → command."""

    def __init__(self, window, key_panes: tuple, other_panes: tuple):
        super().__init__(window)
        self.bindings = triage_bindings(window)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), window,
                  context=Qt.ShortcutContext.WindowShortcut).activated.connect(key_panes[0].setFocus)
        self._every_pane = {qt_key(name) for name in EVERY_PANE}
        self._key_panes, self._other_panes = key_panes, other_panes
        for pane in key_panes + other_panes:
            pane.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.KeyPress and (
                watched in self._key_panes or (watched in self._other_panes and event.key() in self._every_pane)):
            modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            action = self.bindings.get(event.key())
            letter = Qt.Key.Key_A <= event.key() <= Qt.Key.Key_Z  # Shift+N is a capital typed, not "note"
            if action is not None and (modifiers == Qt.KeyboardModifier.NoModifier or (
                    modifiers == Qt.KeyboardModifier.ShiftModifier and not letter)):
                action()
                return True
        return False


def _menu_rows(menu, path: str) -> list[tuple[str, str]]:
    rows = []
    for action in menu.actions():
        title = action.text().replace("&", "")
        if action.menu() is not None:
            rows += _menu_rows(action.menu(), f"{path} → {title}")
        else:
            keys = " / ".join(text for s in action.shortcuts() if (text := s.toString(
                QKeySequence.SequenceFormat.NativeText)))
            if keys:  # a standard key the platform leaves unbound (Quit on some desktops) has no text
                rows.append((keys, f"{path} → {title}"))
    return rows


def shortcut_rows(window) -> list[tuple[str, str]]:
    """(keys, what) for every shortcut of `window`: the triage keys, the rating box's keys, Esc, and every menu
    action that has a shortcut (read from the actions, so none is left out)."""
    rows = [(key_text(row.keys) + (f" / {row.also}" if row.also else ""), tr(row.what)) for row in TRIAGE_KEYS]
    rows.append(("Esc", tr("back to the list")))
    rows.append((key_text(tuple(RATING_KEYS)[:6]) + " / ← → + -", tr("in the rating box: rate, step the rating")))
    _ = getattr(window, "map_dock", None)  # the docks (made after the first paint) add menu entries: make them
    for action in window.menuBar().actions():
        if action.menu() is not None:
            rows += _menu_rows(action.menu(), action.text().replace("&", ""))
    return rows


def shortcuts_dialog(window) -> QDialog:
    """Help → Keyboard shortcuts: a two-column table (keys, what they do), generated from the bindings."""
    dialog = QDialog(window)
    dialog.setWindowTitle(tr("Keyboard shortcuts"))
    dialog.resize(620, 640)
    rows = shortcut_rows(window)
    table = QTableWidget(len(rows), 2, dialog)
    table.setObjectName("shortcutsTable")
    table.setAccessibleName(tr("Keyboard shortcuts"))
    table.setHorizontalHeaderLabels([tr("Keys"), tr("Does")])
    table.verticalHeader().hide()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setWordWrap(True)
    for number, (keys, what) in enumerate(rows):
        table.setItem(number, 0, QTableWidgetItem(keys))
        table.setItem(number, 1, QTableWidgetItem(what))
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.setAlternatingRowColors(True)
    table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(table)
    layout.addWidget(buttons)
    return dialog
