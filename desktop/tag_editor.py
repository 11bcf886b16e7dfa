"""The tag editor: the paper's tags as removable chips, and a line to add one (Enter), with completion."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtWidgets import QCompleter, QHBoxLayout, QLineEdit, QToolButton, QWidget


class TagEditor(QWidget):
    """Emits `tagAdded(str)` when the user enters a tag and `tagRemoved(str)` when they click a chip's ×.

    A tag may contain spaces and commas: one Enter adds one tag.
    """

    tagAdded = Signal(str)
    tagRemoved = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._chips = QWidget(self)
        self._chips_layout = QHBoxLayout(self._chips)
        self._chips_layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addWidget(self._chips)
        self.input = QLineEdit(self)
        self.input.setObjectName("tagInput")
        self.input.setPlaceholderText(self.tr("Add a tag and press Enter"))
        self.input.setAccessibleName(self.tr("New tag"))
        self.input.setClearButtonEnabled(True)
        self._completion = QStringListModel(self)
        completer = QCompleter(self._completion, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.input.setCompleter(completer)
        self.input.returnPressed.connect(self._enter)
        self._layout.addWidget(self.input, 1)
        self.setFocusProxy(self.input)
        self._tags: list[str] = []

    def tags(self) -> list[str]:
        return list(self._tags)

    def setTags(self, tags: list[str]) -> None:
        """Show these tags as chips (does not emit)."""
        self._tags = list(tags)
        while self._chips_layout.count():
            item = self._chips_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        for tag in self._tags:
            chip = QToolButton(self._chips)
            chip.setText(f"{tag}  ×")
            chip.setObjectName("tagChip")
            chip.setToolTip(self.tr("Remove the tag “%1”").replace("%1", tag))
            chip.setAccessibleName(self.tr("Remove tag %1").replace("%1", tag))
            chip.clicked.connect(lambda _=False, t=tag: self.tagRemoved.emit(t))
            self._chips_layout.addWidget(chip)

    def setCompletions(self, names: list[str]) -> None:
        self._completion.setStringList(names)

    def _enter(self) -> None:
        text = " ".join(self.input.text().split())
        if text:
            self.tagAdded.emit(text)
        self.input.clear()
