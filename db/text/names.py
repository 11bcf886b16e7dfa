"""Person names: the one parser every reader and exporter uses (BibTeX's rules, through bibtexparser v2).

Margin stores an author as one display string, "First von Last" with a suffix after it ("Henry Ford Jr.");
an organisation stays as written ("Barnes and Noble"). Readers turn what their format holds into that form:

- `split_bibtex_names("{Barnes and Noble} and van Hasselt, H.")` → the names of a BibTeX `author` field,
  split on a top-level ` and ` only (braces protect), raw TeX kept for the caller to decode;
- `split_author_text("Smith, J.; Doe, Jane")` → names from one plain-text cell (CSV, JSON): split on `;`,
  else on a brace-aware ` and `, else on `,` (but "Last, First" alone is one name);
- `display_name("van Hasselt, H.")` → "H. van Hasselt" (BibTeX's three forms: "First von Last",
  "von Last, First", "von Last, Jr, First").

Exporters go back through `name_parts(display)`, which reads a display string with the same rules (a trailing
Jr./Sr./II/III/IV is the suffix), then write `bibtex_name` ("van Hasselt, H.", organisations in braces) or
`csl_name` ({"family", "given", "non-dropping-particle", "suffix"}, organisations as {"literal"}).
Source: bibtexparser.middlewares.names (Tame the BeaST, §11 "Names").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from db.text.tex_accents import decode_accents

_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v", "2nd", "3rd"}
_AND_WORD = re.compile(r"\band\b", re.IGNORECASE)


@dataclass
class NameParts:
    """A name in BibTeX's four parts, each a (possibly empty) string."""

    first: str = ""
    von: str = ""
    last: str = ""
    jr: str = ""
    literal: bool = field(default=False)  # an organisation or one-word name: `last` holds it whole

    def display(self) -> str:
        """"First von Last Jr" (the form Margin stores)."""
        return " ".join(part for part in (self.first, self.von, self.last, self.jr) if part)



@cache
def _bibtex():
    """bibtexparser's name parser, imported when a name is first parsed (not to open the window: ~50 ms)."""
    from bibtexparser.middlewares import names

    return names

def _clean(text: str) -> str:
    return " ".join(text.split())


def split_bibtex_names(text: str) -> list[str]:
    """The names of a BibTeX name list, split on ` and ` outside braces (case-insensitive). Empty names are
    left out; accents are composed (db.text.tex_accents), other raw TeX (braces, macros) is kept."""
    text = _clean(decode_accents(text or ""))
    if not text:
        return []
    try:
        names = _bibtex().split_multiple_persons_names(text)
    except _bibtex().InvalidNameError:  # unbalanced braces: fall back to a plain split, the text is kept
        names = re.split(r"\s+and\s+", text, flags=re.IGNORECASE)
    return [name.strip() for name in names if name.strip()]


def parse_bibtex_name(raw: str, decode: Callable[[str], str | None] = lambda text: text) -> NameParts:
    """The parts of one raw BibTeX name, each decoded with `decode` (TeX → Unicode). A name that is one
    brace group (`{Barnes and Noble}`) or one word is literal."""
    raw = _clean(decode_accents(raw))
    whole = raw.startswith("{") and raw.endswith("}") and _balanced_group(raw)
    try:
        parts = _bibtex().parse_single_name_into_parts(raw, strict=False)
    except _bibtex().InvalidNameError:
        return NameParts(last=decode(raw) or raw, literal=True)
    def join(words: list[str]) -> str:
        return _clean(decode(" ".join(words)) or "") if words else ""
    result = NameParts(join(parts.first), join(parts.von), join(parts.last), join(parts.jr))
    result.literal = whole or not (result.first or result.von or result.jr)
    return result


def _balanced_group(text: str) -> bool:
    """True when `text` is one brace group: its first `{` closes at the last character."""
    depth = 0
    for index, char in enumerate(text):
        depth += char == "{"
        depth -= char == "}"
        if depth == 0:
            return index == len(text) - 1
    return False


def display_name(name: str) -> str:
    """A name in any of BibTeX's forms ("Last, First", "von Last, Jr, First", "First von Last") as
    "First von Last Jr". Text without commas is returned as written (cleaned)."""
    name = _clean(name or "")
    if "," not in name or name.count(",") > 2:
        return name
    parts = [part.strip() for part in name.split(",")]
    if not all(parts):
        return name
    return parse_bibtex_name(name).display()


def split_author_text(text: str | None) -> list[str]:
    """Display names from one plain-text author cell (see the module docstring)."""
    text = _clean(text or "")
    if not text:
        return []
    if ";" in text:
        names = text.split(";")
    elif _AND_WORD.search(text) and " and " in f" {text.lower()} ":
        names = split_bibtex_names(text)
    elif "," in text:
        pieces = [piece.strip() for piece in text.split(",")]
        names = [text] if len(pieces) == 2 and " " not in pieces[0] else pieces
    else:
        names = [text]
    names = [name.strip()[1:-1] if _balanced_group(name.strip()) and name.strip().startswith("{") else name
             for name in names]
    return [shown for shown in (display_name(name) for name in names) if shown]


def name_parts(display: str) -> NameParts:
    """Read a stored display name back into parts (BibTeX's "First von Last" rules; a trailing Jr./Sr./II/III
    is the suffix; a name with a bare "and" in it, or of one word, is literal)."""
    display = display_name(display)
    if not display:
        return NameParts(literal=True)
    if "," in display or " and " in f" {display.lower()} " or len(display.split()) == 1:
        return NameParts(last=display, literal=True)
    words = display.split()
    jr = ""
    if len(words) > 2 and words[-1].lower() in _SUFFIXES:
        jr, words = words[-1], words[:-1]
    # a word with braces or TeX in it is parsed as a stand-in of the same case, then put back as written
    kept: dict[str, str] = {}
    for index, word in enumerate(words):
        if not _plain_word(word):
            token = f"{'x' if word[:1].islower() else 'X'}marginword{index}"
            kept[token] = word
            words[index] = token
    try:
        parts = _bibtex().parse_single_name_into_parts(" ".join(words), strict=False)
    except _bibtex().InvalidNameError:
        return NameParts(last=display, literal=True)

    def join(group: list[str]) -> str:
        return " ".join(kept.get(word, word) for word in group)
    return NameParts(join(parts.first), join(parts.von), join(parts.last), jr)


def _plain_word(word: str) -> bool:
    return "{" not in word and "}" not in word and "\\" not in word


def csl_name(display: str) -> dict[str, str]:
    """A CSL-JSON name object for a stored display name."""
    parts = name_parts(display)
    if parts.literal or not parts.last:
        return {"literal": display.strip()}
    name = {"family": parts.last}
    if parts.first:
        name["given"] = parts.first
    if parts.von:
        name["non-dropping-particle"] = parts.von
    if parts.jr:
        name["suffix"] = parts.jr
    return name


def family_name(display: str) -> str:
    """The family name (without particle) of a stored display name; an organisation's whole name."""
    return name_parts(display).last


def bibtex_name(display: str, escape: Callable[[str], str]) -> str:
    """A stored display name as a BibTeX name, its parts escaped with `escape`: "von Last, Jr, First",
    an organisation or one-word name in braces (so no " and " inside it splits it)."""
    parts = name_parts(display)
    if parts.literal or not parts.last:
        return "{" + escape(_clean(display)) + "}"
    last = " ".join(part for part in (parts.von, parts.last) if part)
    pieces = [escape(last)] + ([escape(parts.jr)] if parts.jr else []) + ([escape(parts.first)] if parts.first else [])
    return ", ".join(pieces)
