"""The conference map's colour legend (desktop.docks.map): what each colour of the lit points means for the
colouring chosen (rating, read state or one tag), and that faint points are papers the list does not show.

Strings keep the MapDock translation context. A tag's name is user text: shown as plain text only.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor, QPixmap
from PySide6.QtWidgets import QWidget

from db.map.conference_map import RATING_COLOURS, READ_COLOUR, TAGGED_COLOUR, UNRATED, UNREAD_COLOUR
from desktop.common.swatch_legend import SwatchLegend
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


class MapLegend(SwatchLegend):
    """Colour swatches with their words, under the map, wrapping when the dock is narrow."""

    def __init__(self, parent: QWidget):
        super().__init__(parent, "mapLegend", gap=6)
        self.setAccessibleName(QCoreApplication.translate("MapDock", "Colour legend"))
        self.flow.setContentsMargins(4, 0, 4, 0)

    def show_for(self, by: str, tag: str | None = None) -> None:
        """Show the legend of colouring `by` (entries)."""
        self.set_entries([(_swatch(rgb), words) for rgb, words in entries(by, tag)])


def _swatch(rgb: tuple[int, ...]) -> QPixmap:
    pixmap = QPixmap(10, 10)
    pixmap.fill(QColor(*rgb))
    return pixmap
