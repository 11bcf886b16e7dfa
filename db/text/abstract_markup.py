"""Render abstract text (inline LaTeX, TeX quotes and dashes, Markdown emphasis, URLs) to HTML or plain text.

Abstracts are not LaTeX documents: `%` is a percent sign, not a comment. So the text is tokenized here and
only the pieces that are LaTeX go to a converter: math between `$…$` or `\\(…\\)` to db.text.math_markup
(superscripts, subscripts, upright `\\mathrm`, fractions; pylatexenc when it cannot be parsed), style macros
such as `\\emph{…}` and accents to pylatexenc for the conversion to Unicode. Nothing in the input is ever
passed through as HTML: every character of the source is escaped, and the only tags in the output are the ones
this module writes.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text

from db.text.math_markup import math_to_html, math_to_plain

_STYLE_TAGS = {
    "emph": "i", "textit": "i", "textsl": "i", "mathit": "i", "textbf": "b", "mathbf": "b", "bm": "b",
    "boldsymbol": "b", "texttt": "code", "mathtt": "code", "underline": "u", "textsc": "span", "text": "span",
    "textrm": "span", "textsf": "span", "mathrm": "span", "mathsf": "span",
}
_TOKEN = re.compile(
    r"""(?P<url>https?://[^\s<>"'{}]+)
      | (?P<dmath>(?<!\\)\$\$(?P<dmath_body>.+?)(?<!\\)\$\$)
      | (?P<math>(?<!\\)\$(?P<math_body>[^$]+?)(?<!\\)\$)
      | (?P<pmath>\\\((?P<pmath_body>.+?)\\\))
      | (?P<style>\\(?P<style_name>[a-zA-Z]+)\s*\{)
      | (?P<accent>\\[`'^"~=.uvHckrbd]\s*(?:\{\\?[a-zA-Z]\}|\\?[a-zA-Z]))
      | (?P<escaped>\\[%&$#_{}])
      | (?P<macro>\\[a-zA-Z]+\*?)
      | (?P<bold>\*\*)
      | (?P<italic>\*)
      | (?P<open>\{) | (?P<close>\})
      | (?P<quote>``|''|---|--|~)
    """,
    re.VERBOSE | re.DOTALL,
)
_BOLD_OPENS = re.compile(r"\*\*(?=\S)[^\n]*?\S\*\*")
_ITALIC_OPENS = re.compile(r"\*(?=[^\s*])[^*\n]*?[^\s*]\*(?![\w*])|\*[^\s*]\*(?![\w*])")
_QUOTES = {"``": "\u201c", "''": "\u201d", "---": "\u2014", "--": "\u2013", "~": "\u00a0"}
_TRAILING_URL_PUNCT = ".,;:!?)]"


@lru_cache(maxsize=4096)
def latex_to_unicode(latex: str) -> str:
    """Convert a LaTeX fragment (e.g. the inside of `$…$`) to Unicode text: `\\Omega(n)` → `Ω(n)`."""
    try:
        text = LatexNodes2Text(math_mode="text", strict_latex_spaces=True).latex_to_text(latex)
    except Exception:  # pylatexenc raises on malformed input; fall back to the source text
        text = latex
    return text.strip() if latex.strip() else latex


def _word_before(text: str, index: int) -> bool:
    return index > 0 and (text[index - 1].isalnum() or text[index - 1] == "*")


def _tokens(text: str):
    """Yield (kind, value) pairs: ("text", s), ("math", TeX), ("url", s), ("open", tag), ("close", tag)."""
    stack: list[str | None] = []  # one entry per open brace: the tag it closes, or None
    bold = italic = False
    pos = 0
    for match in _TOKEN.finditer(text):
        if match.start() > pos:
            yield "text", text[pos : match.start()]
        pos = match.end()
        kind = match.lastgroup
        value = match.group(0)
        if match.group("url"):
            url = value
            while url and url[-1] in _TRAILING_URL_PUNCT:
                url = url[:-1]
            yield "url", url
            if len(url) < len(value):
                yield "text", value[len(url) :]
        elif match.group("dmath") or match.group("math") or match.group("pmath"):
            body = match.group("dmath_body") or match.group("math_body") or match.group("pmath_body")
            yield "math", body
        elif match.group("style"):
            tag = _STYLE_TAGS.get(match.group("style_name"))
            if tag is None:  # an unknown macro with an argument: keep the argument's text
                stack.append(None)
            else:
                stack.append(tag)
                yield "open", tag
        elif match.group("accent"):
            yield "text", latex_to_unicode(value)
        elif match.group("escaped"):
            yield "text", value[1]
        elif match.group("macro"):
            yield "text", latex_to_unicode(value) if value not in ("\\\\",) else " "
        elif kind == "bold":
            if bold:
                bold = False
                yield "close", "b"
            elif _BOLD_OPENS.match(text, match.start()):
                bold = True
                yield "open", "b"
            else:
                yield "text", value
        elif kind == "italic":
            if italic and text[match.start() - 1 : match.start()].strip():
                italic = False
                yield "close", "i"
            elif not italic and _ITALIC_OPENS.match(text, match.start()) and not _word_before(text, match.start()):
                italic = True
                yield "open", "i"
            else:
                yield "text", value
        elif kind == "open":
            stack.append(None)
        elif kind == "close":
            if stack:
                tag = stack.pop()
                if tag:
                    yield "close", tag
            else:
                yield "text", "}"
        elif kind == "quote":
            yield "text", _QUOTES[value]
    if pos < len(text):
        yield "text", text[pos:]
    for tag in reversed(stack):
        if tag:
            yield "close", tag
    if italic:
        yield "close", "i"
    if bold:
        yield "close", "b"


def _balanced(tokens):
    """Drop close tags that have no open tag, and close what is left open, so the HTML is well formed."""
    open_tags: list[str] = []
    out = []
    for kind, value in tokens:
        if kind == "open":
            open_tags.append(value)
        elif kind == "close":
            if value not in open_tags:
                continue
            while open_tags:  # close inner tags first, then reopen them
                top = open_tags.pop()
                out.append(("close", top))
                if top == value:
                    break
            continue
        out.append((kind, value))
    out.extend(("close", tag) for tag in reversed(open_tags))
    return out




def abstract_to_html(text: str, highlight: re.Pattern[str] | None = None) -> str:
    """Return an HTML fragment (no <html>/<body>) for abstract `text`.

    Math becomes `<span class="math">` with <sup>/<sub>, <i> variables and upright runs (math_html), style
    macros and Markdown emphasis become <i>/<b>, URLs become `<a href>` links (http/https only). When
    `highlight` is given, its matches in the text are wrapped in `<span class="hit">`.
    """
    parts: list[str] = []
    for kind, value in _balanced(_tokens(text)):
        if kind == "text":
            parts.append(_escape(value, highlight))
        elif kind == "math":
            parts.append(f'<span class="math">{math_html(value, highlight)}</span>')
        elif kind == "url":
            href = html.escape(value, quote=True)
            parts.append(f'<a href="{href}">{html.escape(value)}</a>')
        elif kind == "open":
            parts.append(f"<{value}>")
        elif kind == "close":
            parts.append(f"</{value}>")
    return "".join(parts)


def abstract_to_plain(text: str) -> str:
    """Return abstract `text` as plain Unicode: math converted, markup and emphasis markers removed."""
    return "".join(math_plain(value) if kind == "math" else value
                   for kind, value in _tokens(text) if kind in ("text", "math", "url"))


def math_plain(latex: str) -> str:
    """TeX math as plain Unicode: `K^{-1}` → `K⁻¹` (db.text.math_markup; pylatexenc's text when it cannot parse)."""
    plain = math_to_plain(latex)
    return latex_to_unicode(latex) if plain is None else plain


def math_html(latex: str, highlight: re.Pattern[str] | None = None) -> str:
    """TeX math as an HTML fragment (db.text.math_markup), search matches marked when `highlight` is given."""
    rendered = math_to_html(latex, None if highlight is None else lambda text: _escape(text, highlight))
    return _escape(latex_to_unicode(latex), highlight) if rendered is None else rendered


def fold_for_matching(text: str) -> str:
    """`text` with each character lower-cased and stripped of accents, one character for one, so that match
    positions in the folded text are positions in `text` (`Képes` → `kepes`)."""
    return "".join(_fold_char(char) for char in text)


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    base = unicodedata.normalize("NFD", char)[0].lower()
    return base if len(base) == 1 else char


def _escape(text: str, highlight: re.Pattern[str] | None) -> str:
    if highlight is None:
        return html.escape(text, quote=False)
    out, pos = [], 0
    for match in highlight.finditer(fold_for_matching(text)):
        if match.end() == match.start():
            continue
        out.append(html.escape(text[pos : match.start()], quote=False))
        out.append(f'<span class="hit">{html.escape(text[match.start() : match.end()], quote=False)}</span>')
        pos = match.end()
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)
