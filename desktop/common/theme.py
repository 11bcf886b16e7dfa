"""Light, dark or the system's palette (View → Theme)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QFrame, QMenu, QProxyStyle, QScrollArea, QStyle, QWidget

THEMES = ("system", "light", "dark")
_system_palette: QPalette | None = None


def dark_palette() -> QPalette:
    palette = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#2b2b2b", QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1e1e", QPalette.ColorRole.AlternateBase: "#262626",
        QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#353535",
        QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.Highlight: "#3d7bd9",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#353535",
        QPalette.ColorRole.ToolTipText: "#e6e6e6", QPalette.ColorRole.Link: "#7fb0ff",
        QPalette.ColorRole.PlaceholderText: "#8a8a8a", QPalette.ColorRole.Mid: "#8a8a8a",
        QPalette.ColorRole.Midlight: "#444444", QPalette.ColorRole.BrightText: "#ff6b6b",
    }
    for role, color in colors.items():
        palette.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#777777"))
    return palette


class DarkStyle(QProxyStyle):
    """Fusion with an outline on unchecked check boxes in menus: Fusion draws it a little darker than the
    window, which on the dark palette disappears, so a View-menu toggle looked like a plain command."""

    def __init__(self):
        super().__init__("Fusion")

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802 - Qt's name
        super().drawPrimitive(element, option, painter, widget)
        if (element == QStyle.PrimitiveElement.PE_IndicatorCheckBox and isinstance(widget, QMenu)
                and option.state & QStyle.StateFlag.State_Off):
            painter.save()
            painter.setPen(QColor(UNCHECKED_OUTLINE))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(option.rect.adjusted(0, 0, -1, -1))
            painter.restore()


UNCHECKED_OUTLINE = "#9a9a9a"


def light_palette() -> QPalette:
    app = QApplication.instance()
    return app.style().standardPalette() if app else QPalette()


def apply_theme(name: str) -> str:
    """Apply `name` (system, light or dark) to the whole application. Returns the theme applied."""
    global _system_palette
    app = QApplication.instance()
    if app is None:
        return "system"
    if _system_palette is None:
        _system_palette = QPalette(app.palette())
    if name not in THEMES:
        name = "system"
    if name == "dark":
        app.setStyle(DarkStyle())
        app.setPalette(dark_palette())
    elif name == "light":
        app.setStyle("Fusion")
        app.setPalette(light_palette())
    else:
        app.setPalette(_system_palette)
    return name


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def scrolling(body: QWidget) -> QScrollArea:
    """`body` in a frameless scroll area that resizes it: a dock whose content needs more room than the screen
    has (a laptop's 768 px with two docks stacked) scrolls instead of growing the window past the screen."""
    area = QScrollArea()
    area.setWidget(body)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # as wide as its content, no wider
    area.setMinimumWidth(body.minimumSizeHint().width() + area.verticalScrollBar().sizeHint().width())
    area.setMinimumHeight(120)
    return area
