"""The tag editor: the paper's tags as removable chips, and a line to add one (Enter), with completion.

The chips flow in rows across the pane (desktop.common.flow_layout), up to CHIP_ROWS rows, then scroll down: at
1,366 px a row used to show about one chip and a half, with a scrollbar under them."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QStringListModel, Qt, Signal
from PySide6.QtWidgets import (
    QCompleter,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.common.button_text import literal
from desktop.common.flow_layout import FlowLayout
from desktop.common.plain_text import as_plain

CHIP_CHARS = 28  # a longer tag is shown cut (its tooltip has it whole), so the pane never grows wider
MAX_CHIPS = 100  # chips shown; a paper with more tags says how many more
CHIP_ROWS = 3  # rows of chips shown before they scroll



class TagEditor(QWidget):
    """Emits `tagAdded(str)` when the user enters a tag and `tagRemoved(str)` when they click a chip's ×.

    A tag may contain spaces and commas: one Enter adds one tag.
    """

    tagAdded = Signal(str)
    tagRemoved = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._layout = QVBoxLayout(self)  # the chips in rows across the pane, the line to add one under them
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(4)
        self._chips = QWidget(self)
        self._chips_layout = FlowLayout(self._chips, spacing=4)
        self._chips_layout.addStretch(1)
        # many tags scroll down past CHIP_ROWS rows instead of growing the pane
        self._scroll = QScrollArea(self)
        self._scroll.setWidget(self._chips)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self._scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._scroll.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._scroll.setMinimumWidth(60)
        self._scroll.setFixedHeight(0)  # no chips: no room taken
        self._chips.installEventFilter(self)  # a chip added or the pane resized: the rows' height anew
        self._layout.addWidget(self._scroll)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        self._layout.addLayout(row)
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
        self.input.setMinimumWidth(170)
        row.addWidget(self.input)
        self.setFocusProxy(self.input)
        self._tags: list[str] = []

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if watched is self._chips and event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Resize):
            self._fit_rows()
        return super().eventFilter(watched, event)

    def _fit_rows(self) -> None:
        """Show the chips' rows whole, up to CHIP_ROWS of them (the rest scroll); no room when there are none."""
        chips = [self._chips_layout.itemAt(i).widget() for i in range(self._chips_layout.count())]
        chips = [chip for chip in chips if chip is not None]
        row = max((chip.sizeHint().height() for chip in chips), default=0)
        wanted = min(self._chips_layout.heightForWidth(self._scroll.width()), CHIP_ROWS * row + (CHIP_ROWS - 1) * 4)
        if self._scroll.height() != wanted:
            self._scroll.setFixedHeight(wanted)

    def tags(self) -> list[str]:
        return list(self._tags)

    def setTags(self, tags: list[str]) -> None:
        """Show these tags as chips (does not emit): the first MAX_CHIPS, then how many more there are (a
        widget per tag made a paper with 10,000 tags freeze the window for minutes)."""
        self._tags = list(tags)
        while self._chips_layout.count() > 1:  # keep the closing stretch
            item = self._chips_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        for tag in self._tags[:MAX_CHIPS]:
            chip = QToolButton(self._chips)
            shown = tag if len(tag) <= CHIP_CHARS else tag[: CHIP_CHARS - 1] + "…"
            chip.setText(f"{literal(shown)}  ×")  # a tag's own & is no mnemonic
            chip.setObjectName("tagChip")
            chip.setToolTip(as_plain(self.tr("Remove the tag “%1”").replace("%1", tag)))
            chip.setAccessibleName(self.tr("Remove tag %1").replace("%1", tag))
            chip.clicked.connect(lambda _=False, t=tag: self.tagRemoved.emit(t))
            self._chips_layout.insertWidget(self._chips_layout.count() - 1, chip)
        if len(self._tags) > MAX_CHIPS:
            more = QLabel(self.tr("and %1 more").replace("%1", f"{len(self._tags) - MAX_CHIPS:,}"), self._chips)
            more.setObjectName("moreTags")
            more.setTextFormat(Qt.TextFormat.PlainText)
            self._chips_layout.insertWidget(self._chips_layout.count() - 1, more)

    def setCompletions(self, names: list[str]) -> None:
        self._completion.setStringList(names)

    def _enter(self) -> None:
        text = " ".join(self.input.text().split())
        if text:
            self.tagAdded.emit(text)
        self.input.clear()
