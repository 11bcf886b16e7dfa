"""LaTeX accents and special letters in names → Unicode, before a name is split into words.

BibTeX's name rules split a name on spaces and ties (`~`) and read the case of each word's first letter, so an
accent written `\\v Skoda` (a space after a letter macro), `Brise\\~no` (a tie-like `~` inside a word) or
`\\"Unal` (unbraced at the start of a word) is broken apart or dropped when it is left to the TeX decoder after
the split. `decode_accents` composes every accent form first, braced or not, at a word's start or inside it:
`\\"U`, `\\"{U}`, `{\\"U}`, `{\\"{U}}`, `\\v{S}`, `\\v S`, `{\\v S}`, `\\'{\\i}`, `\\c c`, and the special letters
`\\o`, `\\L`, `\\ss`, `\\aa`, `\\AE`, … (followed by `{}`, a space or a non-letter). Other TeX (`{Barnes and
Noble}`, `\\textbf`) is left for the TeX decoder. Source: the LaTeX accent commands of the LaTeX2e manual, §23.5.
"""

from __future__ import annotations

import re
import unicodedata

_SYMBOL_ACCENTS = {"`": "\u0300", "'": "\u0301", "^": "\u0302", "~": "\u0303", "=": "\u0304", ".": "\u0307",
                   '"': "\u0308"}
_LETTER_ACCENTS = {"u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328", "d": "\u0323",
                   "b": "\u0331", "r": "\u030a"}
_LETTERS = {"o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
            "aa": "å", "AA": "Å", "i": "ı", "j": "ȷ"}
# the accented letter: {x}, {\i}, \i, or x (a letter)
_ARGUMENT = (r"(?:\{\s*(?P<braced>\\[ij](?![A-Za-z])|[A-Za-z])\s*\}"
             r"|(?P<dotless>\\[ij])(?:\s+|(?![A-Za-z]))|(?P<bare>[A-Za-z]))")
_ACCENT = re.compile(
    r"(?P<open>\{)?\\(?:(?P<symbol>[`'^~=.\"])\s*|(?P<letter>[uvHckdbr])(?:\s+|(?=[{\\])))" + _ARGUMENT
    + r"(?(open)\})")
_LETTER = re.compile(r"(?P<open>\{)?\\(?P<name>ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?:\{\}|\s+|(?![A-Za-z]))(?(open)\})")


def decode_accents(text: str) -> str:
    """`text` with every LaTeX accent and special-letter macro replaced by its Unicode letter (NFC); the rest
    of the text as it was."""
    if "\\" not in text:
        return text
    text = _ACCENT.sub(_accented, text)
    return _LETTER.sub(lambda match: _LETTERS[match["name"]], text)


def _accented(match: re.Match) -> str:
    base = match["braced"] or match["dotless"] or match["bare"]
    if base in ("\\i", "\\j"):
        base = base[1]  # an accent on a dotless i is written on i
    mark = _SYMBOL_ACCENTS[match["symbol"]] if match["symbol"] else _LETTER_ACCENTS[match["letter"]]
    return unicodedata.normalize("NFC", base + mark)
