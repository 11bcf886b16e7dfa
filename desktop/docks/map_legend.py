"""The conference map's colour legend (desktop.docks.map): what each colour of the lit points means for the
colouring chosen (rating, read state or one tag), and that faint points are papers the list does not show.

Strings keep the MapDock translation context. A tag's name is user text: shown as plain text only.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from db.map.conference_map import RATING_COLOURS, READ_COLOUR, TAGGED_COLOUR, UNRATED, UNREAD_COLOUR
from desktop.common.flow_layout import FlowLayout
from desktop.docks.map_plot import FAINT


def entries(by: str, tag: str | None = None) -> list[tuple[tuple[int, ...], str]]:
    """The legend's (colour, words) for a colouring: `by` "rating", "read" or "tag" (with `tag`)."""
    if by == "read":
        items = [(READ_COLOUR, QCoreApplication.translate("MapDock", "read")),
                 (UNREAD_COLOUR, QCoreApplication.translate("MapDock", "unread"))]
    elif by == "tag":
        items = [(TAGGED_COLOUR, QCoreApplication.translate("MapDock", "tagged %1").replace("%1", tag or "")),
                 (UNRATED, QCoreApplication.translate("MapDock", "not tagged"))]
    else:
        items = [(RATING_COLOURS[stars], "★" * stars) for stars in (5, 4, 3, 2, 1)]
        items.append((UNRATED, QCoreApplication.translate("MapDock", "unrated")))
    return [*items, (FAINT[:3], QCoreApplication.translate("MapDock", "not in the list"))]


class MapLegend(QWidget):
    """Colour swatches with their words under the map, in rows as wide as the dock (one row held the dock at
    least 520 px wide, squeezing the window beside it on a laptop)."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("mapLegend")
        self.setAccessibleName(QCoreApplication.translate("MapDock", "Colour legend"))
        self.row = FlowLayout(self, spacing=4)
        self.row.setContentsMargins(4, 0, 4, 0)
        self.labels: list[QLabel] = []
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self.row.heightForWidth(width)

    def show_for(self, by: str, tag: str | None = None) -> None:
        """Show the legend of colouring `by` (entries)."""
        while self.row.count():
            item = self.row.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self.labels = []
        for rgb, words in entries(by, tag):
            entry = QWidget(self)  # a swatch and its words stay together on a row
            pair = QHBoxLayout(entry)
            pair.setContentsMargins(0, 0, 6, 0)
            pair.setSpacing(4)
            swatch = QLabel(entry)
            pixmap = QPixmap(10, 10)
            pixmap.fill(QColor(*rgb))
            swatch.setPixmap(pixmap)
            text = QLabel(words, entry)
            text.setTextFormat(Qt.TextFormat.PlainText)
            pair.addWidget(swatch)
            pair.addWidget(text)
            self.row.addWidget(entry)
            entry.show()
            self.labels.append(text)

    def texts(self) -> list[str]:
        """The words shown, in order (for tests and screen readers)."""
        return [label.text() for label in self.labels]
