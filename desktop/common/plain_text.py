"""Text from files or users shown where Qt would read it as rich text (tooltips, message boxes, dialog labels).

Qt guesses: a string that looks like HTML (`<img src=/dev/zero>`, `<b>x</b>`) is rendered, and an image in it
is loaded. `as_plain(text)` gives markup that Qt always takes as rich text and that shows `text` exactly as
written (escaped, line breaks kept), so nothing in it is ever rendered or fetched.
"""

from __future__ import annotations

import html


def as_plain(text: str) -> str:
    """`text` escaped inside a `<qt>` document: shown literally by any Qt widget that reads rich text."""
    return "<qt>" + html.escape(text).replace("\n", "<br>") + "</qt>"
