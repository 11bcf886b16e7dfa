"""A chart's legend as a widget of its own: entries of (sample picture, words) in rows as wide as the space lets
them be (desktop.common.flow_layout), so that it wraps in a narrow dock rather than covering what it explains.
The map's colours (desktop.docks.map_legend) and the progress chart's lines (desktop.docks.progress_legend) use it.
Words are plain text (a tag's name is user text)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from desktop.common.flow_layout import FlowLayout


class SwatchLegend(QWidget):
    """Entries of (sample, words); `set_entries` replaces them. `labels` are the words' QLabels, in order."""

    def __init__(self, parent: QWidget, name: str, gap: int = 8):
        super().__init__(parent)
        self.setObjectName(name)
        self.flow = FlowLayout(self, spacing=4)
        self.gap = gap  # pixels after an entry's words, before the next sample
        self.labels: list[QLabel] = []
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def set_entries(self, entries: list[tuple[QPixmap, str]]) -> None:
        """Show these (sample, words) entries instead of the ones shown."""
        while self.flow.count():
            item = self.flow.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self.labels = []
        for pixmap, words in entries:
            entry = QWidget(self)  # a sample and its words stay together on a row
            pair = QHBoxLayout(entry)
            pair.setContentsMargins(0, 0, self.gap, 0)
            pair.setSpacing(4)
            sample = QLabel(entry)
            sample.setPixmap(pixmap)
            text = QLabel(words, entry)
            text.setTextFormat(Qt.TextFormat.PlainText)
            pair.addWidget(sample)
            pair.addWidget(text)
            self.flow.addWidget(entry)
            entry.show()
            self.labels.append(text)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self.flow.heightForWidth(width)

    def texts(self) -> list[str]:
        """The words shown, in order (for tests and screen readers)."""
        return [label.text() for label in self.labels]
