"""Highlight word lists (issue 16, item 4): words and phrases the researcher wants to notice at a glance, kept in
the library — *include* words (marked green in the reader: "this is for me") and *exclude* words (red: "not
for me"), as Rayyan, Covidence and Abstrackr have them.

A list entry is a word or a phrase, matched case-insensitively at word boundaries; a trailing `*` matches any
ending (`reinforc*`). `mark(html, lists)` marks them in the text of the reader's HTML (never inside a tag or a
link); `count(text, lists)` counts the matches of each list in a paper's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

INCLUDE, EXCLUDE = "include", "exclude"
KINDS = (INCLUDE, EXCLUDE)
COLOURS = {INCLUDE: "#c8f0c8", EXCLUDE: "#f8c8c8"}  # light green, light red: text stays readable in both themes
TEXT_COLOUR = "#111111"
MAX_ENTRY = 100
_TAG = re.compile(r"(<[^>]*>)")
_ENTITY = re.compile(r"(&#?\w+;)")


@dataclass
class HighlightLists:
    """The include and exclude entries, as the user wrote them."""

    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.include or self.exclude)

    def pattern(self) -> re.Pattern | None:
        """One pattern with a named group per list (longest entries first, so a phrase wins over its word)."""
        groups = [f"(?P<{kind}>{'|'.join(_entry(entry) for entry in entries)})"
                  for kind, entries in ((INCLUDE, self._sorted(self.include)), (EXCLUDE, self._sorted(self.exclude)))
                  if entries]
        return re.compile("|".join(groups), re.IGNORECASE) if groups else None

    @staticmethod
    def _sorted(entries: list[str]) -> list[str]:
        return sorted(entries, key=len, reverse=True)


def clean_entry(text: str) -> str:
    """An entry as stored: whitespace collapsed. Raises ValueError for an empty one, one of over MAX_ENTRY
    characters, or one without a letter or digit."""
    entry = " ".join(text.split())
    if not entry or not any(char.isalnum() for char in entry):
        raise ValueError(f"a highlight word needs a letter or digit: {text!r}")
    if len(entry) > MAX_ENTRY:
        raise ValueError(f"a highlight word or phrase has at most {MAX_ENTRY} characters")
    return entry


# scripts written without spaces between words: an entry in them is found inside a longer run (中文 in 中文文本), as
# the search finds it (db.search.analysis: CJK runs as bigrams); a word boundary there would never match
NO_SPACES = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


def _entry(entry: str) -> str:
    prefix = entry.endswith("*")
    body = entry.rstrip("*")
    words = [re.escape(word) for word in body.split()]
    start = "" if NO_SPACES.match(body) else r"\b"
    end = r"\w*" if prefix else ("" if NO_SPACES.match(body[-1:]) else r"\b")
    return start + r"\s+".join(words) + end


def mark(html_text: str, lists: HighlightLists) -> str:
    """`html_text` with every match of the lists wrapped in a coloured span (green include, red exclude); text
    inside tags and inside links (`<a>…</a>`) is left alone."""
    pattern = lists.pattern() if lists else None
    if pattern is None:
        return html_text
    parts = _TAG.split(html_text)
    in_link = 0
    for i, part in enumerate(parts):
        if i % 2:  # a tag
            lowered = part.lower()
            if lowered.startswith("<a ") or lowered == "<a>":
                in_link += 1
            elif lowered.startswith("</a"):
                in_link = max(0, in_link - 1)
            continue
        if in_link or not part:
            continue
        pieces = _ENTITY.split(part)  # `&amp;` stays whole even for an entry "amp"
        for j in range(0, len(pieces), 2):
            pieces[j] = pattern.sub(_span, pieces[j])
        parts[i] = "".join(pieces)
    return "".join(parts)


def _span(found: re.Match) -> str:
    return (f'<span class="hw-{found.lastgroup}" style="background-color: {COLOURS[found.lastgroup]}; '
            f'color: {TEXT_COLOUR}">{found.group(0)}</span>')


def count(text: str, lists: HighlightLists) -> dict[str, int]:
    """How many times the entries of each list occur in `text`: {"include": n, "exclude": m}."""
    counts = {INCLUDE: 0, EXCLUDE: 0}
    pattern = lists.pattern() if lists else None
    if pattern is not None:
        for found in pattern.finditer(text):
            counts[found.lastgroup] += 1
    return counts
