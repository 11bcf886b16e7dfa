"""Translation for code outside QObject subclasses.

`tr(text)` looks `text` up in the empty context, which is where pyside6-lupdate files the strings of a
module-level `tr("…")` call; QObject subclasses use their own `self.tr`, filed under their class name.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """`text` translated; with `n` >= 0, `%n` in it becomes n (and the translation's plural form for n)."""
    return QCoreApplication.translate("", text, disambiguation, n)
