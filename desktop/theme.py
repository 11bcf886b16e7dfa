"""Light, dark or the system's palette (View → Theme)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

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
        app.setStyle("Fusion")
        app.setPalette(dark_palette())
    elif name == "light":
        app.setStyle("Fusion")
        app.setPalette(light_palette())
    else:
        app.setPalette(_system_palette)
    return name


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128
