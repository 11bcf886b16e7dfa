"""User text on a button, menu entry or action (QAbstractButton, QAction, QMenu titles; a QLabel with a buddy):
Qt reads one "&" there as a keyboard accelerator — it hides it and underlines the next letter — so a tag "R&D" would
show as "RD" with the D underlined and answer Alt+D. `literal(text)` doubles every "&", which Qt shows as one.
"""

from __future__ import annotations


def literal(text: str) -> str:
    """`text` shown as written on a button or menu entry: each "&" doubled ("R&D" → "R&&D"), so none is a
    mnemonic. Apply it to the user's part only, never to a translated string's own accelerator."""
    return text.replace("&", "&&")
