"""The user's marks in other tools' fields, read into db.paper.Annotations (issue 30).

| tool | tags | rating | read | note |
|---|---|---|---|---|
| Margin (BibTeX) | `keywords` less `x-margin-keywords` (or `x-margin-tags`) | `ranking` | `readstatus` | `annote` |
| JabRef | `keywords` | `ranking = {rank1}`…`{rank5}` | `readstatus = {read}`/`{skimmed}` | `comment` |
| BibDesk, Papers, Mendeley | `keywords` | `rating = {0..5}` (0: none) | `read = {Yes}`/`{1}` | `annote` |
| Zotero (Better BibTeX) | `keywords` (Zotero's tags) | — | — | `annote` (when notes are exported) |
| Margin (CSL-JSON) | `custom.tags` | `custom.rating` | `custom.read` | `custom.note` |
| Zotero (CSL-JSON) | `keyword` | — | — | — |
| Margin (CSV) | `tags` | `rating` | `read` (yes/no) | `note` |

A skimmed paper counts as read (Margin's read mark says "I have looked at it"). Linked files: JabRef's
`file = {desc:path:type;…}`, Better BibTeX's `file = {path;path}`, BibDesk/Papers' `local-url`; `linked_files`
gives the paths. Sources: JabRef's field documentation (docs.jabref.org, "Special fields" and "File links"),
Better BibTeX's export documentation (retorque.re/zotero-better-bibtex), BibDesk's field list.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from db.formats.common import split_keywords
from db.paper import Annotations, linked_files  # noqa: F401 - read with the marks

_RANK = re.compile(r"^\s*rank\s*([1-5])\s*$", re.IGNORECASE)
_READ_WORDS = {"yes": True, "true": True, "1": True, "read": True, "skimmed": True, "x": True,
               "no": False, "false": False, "0": False, "unread": False, "toread": False}
# Margin's BibTeX escapes (db.exporters.bibtex.escape_text, without math) and the text each stands for
_UNESCAPES = (("{\\textbackslash}", "\\"), ("{\\textasciitilde}", "~"), ("{\\string^}", "^"), ("{`}", "`"),
              ("{\\textbraceleft}", "{"), ("{\\textbraceright}", "}"), ("\\{", "{"), ("\\}", "}"), ("\\$", "$"),
              ("\\&", "&"), ("\\%", "%"), ("\\#", "#"), ("\\_", "_"), ("{}", ""))
_UNESCAPE = re.compile("|".join(re.escape(token) for token, _text in _UNESCAPES))
_UNESCAPED = dict(_UNESCAPES)


def rating_of(value: object) -> int | None:
    """1..5 from `4`, `4.0`, `rank4` (JabRef) or `★★★★`; None for 0, empty or anything else."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        number = int(value)
        return number if 1 <= number <= 5 and number == value else None
    text = str(value).strip()
    match = _RANK.match(text)
    if match:
        return int(match.group(1))
    if text and set(text) <= {"★", "☆"}:
        text = str(text.count("★"))
    try:
        return rating_of(float(text))
    except ValueError:
        return None


def read_of(value: object) -> bool | None:
    """True for `Yes`, `true`, `1`, `read`, `skimmed`; False for `No`, `false`, `0`, `unread`; else None."""
    if isinstance(value, bool):
        return value
    if value is None:
        return None
    return _READ_WORDS.get(str(value).strip().lower())


def unescape_margin(text: str) -> str:
    """The exact text behind a value Margin's BibTeX export escaped (db.exporters.bibtex.escape_text without
    math): every escape undone, line breaks and spaces as they are."""
    return _UNESCAPE.sub(lambda match: _UNESCAPED[match.group(0)], text)


def bibtex_annotations(fields: dict[str, str], keywords: list[str], file_keywords: list[str],
                       tex: Callable[[str], str | None], user_title: str | None = None) -> Annotations | None:
    """The Annotations of one BibTeX entry (`fields` by lower-case name, raw values). `keywords` are the words of
    `keywords` and `file_keywords` those of Margin's `x-margin-keywords` (equal when absent), both decoded;
    `tex` decodes a TeX value of another tool. Margin's own export (an `x-margin-id`) is read exactly; another
    tool's `keywords` are its tags; `user_title` the user's title (`x-margin-title-source = {user}`), decoded.
    None when the entry carries no marks."""
    own = "x-margin-id" in fields
    if own and "x-margin-tags" in fields:
        tags = [word for word in (tex(raw) for raw in split_keywords(fields["x-margin-tags"])) if word]
    elif own:
        taken = set(file_keywords)
        tags = [word for word in keywords if word not in taken]
    else:
        tags = list(keywords)
    rating = rating_of(fields.get("ranking")) or rating_of(fields.get("rating"))
    read = read_of(fields.get("readstatus"))
    if read is None:
        read = read_of(fields.get("read"))
    if own:
        note = unescape_margin(fields["annote"]) if fields.get("annote") else None
    else:
        notes = [tex_note(fields[name], tex) for name in ("annote", "comment") if fields.get(name)]
        note = "\n\n".join(text for text in notes if text) or None
    marks = Annotations(tags=tags, rating=rating, read=read, note=note, title=user_title or None)
    return marks if marks or read is False else None


_LINE = "\ue000"  # a private-use character stands for a line break while TeX is decoded (it keeps none)


def tex_note(value: str, tex: Callable[[str], str | None]) -> str:
    """A multi-line TeX note (`annote`, `comment`) as text: decoded line by line structure kept, blank lines too."""
    text = value.replace("\r\n", "\n").replace("\r", "\n")
    decoded = tex(text.replace("\n", f" {_LINE} ")) or ""
    return "\n".join(line.strip() for line in decoded.split(_LINE)).strip()
