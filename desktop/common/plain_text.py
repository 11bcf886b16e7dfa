"""Text from files or users shown where Qt would read it as rich text (tooltips, message boxes, dialog labels).

Qt guesses: a string that looks like HTML (`<img src=/dev/zero>`, `<b>x</b>`) is rendered, and an image in it
is loaded. `as_plain(text)` gives markup that Qt always takes as rich text and that shows `text` exactly as
written (escaped, line breaks kept), so nothing in it is ever rendered or fetched.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from db.text.cleaning import strip_bidi


def as_plain(text: str) -> str:
    """`text` escaped inside a `<qt>` document: shown literally by any Qt widget that reads rich text, in the
    order it is stored (bidirectional controls removed: db.text.cleaning.strip_bidi)."""
    return "<qt>" + html.escape(strip_bidi(text)).replace("\n", "<br>") + "</qt>"


def plain_label(parent: QWidget | None, text: str = "", name: str = "", selectable: bool = False) -> QLabel:
    """A word-wrapped QLabel that shows `text` (and whatever is set on it later) as plain text, never as rich
    text; `name` its object name (tests find it by that), `selectable` lets the mouse select its text."""
    label = QLabel(text, parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    if name:
        label.setObjectName(name)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label
