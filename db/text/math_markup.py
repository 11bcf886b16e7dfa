"""Inline TeX math (the inside of `$…$`) as HTML that Qt's rich text shows, and as plain Unicode text.

latex2mathml parses the TeX (macros, braces, `\\mathcal`, `\\frac`, limits) into MathML; Qt's QTextBrowser does
not render MathML, so this module walks that tree and writes what it can show: `<sup>`/`<sub>` for scripts,
`<i>` for variables, upright runs (`<span class="upright">`) for `\\mathrm`, `\\text` and operator names,
fractions as a/b, roots as √x. The plain text (list labels, exports, search) uses Unicode superscript and
subscript characters where Unicode has them all (`K⁻¹`, `xᵢ²`), else `^`/`_` (`x^(a+b)`).

Every character written comes from the MathML's text nodes and is escaped; the only tags are the ones written
here. A fragment latex2mathml cannot parse falls back to pylatexenc's text conversion (db.text.abstract_markup).
"""

from __future__ import annotations

import html
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import lru_cache

_NS = "{http://www.w3.org/1998/Math/MathML}"
SUPERSCRIPTS = dict(zip(
    "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWβγδθφχ⊤′″*∗,. ",
    "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵝᵞᵟᶿᵠᵡᵀ′″**,. ", strict=True))
SUBSCRIPTS = dict(zip(
    "0123456789+-−=()aehijklmnoprstuvxβγρφχ,. ",
    "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ,. ", strict=True))
_ACCENTS = {"^": "\u0302", "ˆ": "\u0302", "~": "\u0303", "˜": "\u0303", "¯": "\u0304", "―": "\u0305",
            "‾": "\u0305", "→": "\u20d7", "˙": "\u0307", ".": "\u0307", "¨": "\u0308", "ˇ": "\u030c",
            "˘": "\u0306", "´": "\u0301", "`": "\u0300"}
_SCRIPTED = ("msub", "msup", "msubsup", "munder", "mover", "munderover")
_TOKENS = ("mi", "mn", "mo", "mtext", "ms", "mspace")
_LARGE_OPERATORS = set("∑∏∐∫∬∭∮⋃⋂⋁⋀⨁⨂")
_VARIANTS = {"bold": "BOLD", "double-struck": "DOUBLE-STRUCK", "script": "SCRIPT", "fraktur": "FRAKTUR",
             "bold-script": "BOLD SCRIPT", "sans-serif": "SANS-SERIF"}


def _is_variable(text: str) -> bool:
    """A single Latin letter or lower-case Greek letter: italic, as TeX sets variables."""
    return len(text) == 1 and (text.isascii() and text.isalpha() or "α" <= text <= "ω" or text in "ϵϑϕϱϖ")


def _styled_letters(text: str, variant: str) -> str:
    """`text` in a Unicode mathematical alphabet (`\\mathscr{L}` → ℒ, `\\mathbb{E}` → 𝔼) where one exists."""
    name = _VARIANTS.get(variant)
    if not name:
        return text
    out = []
    for char in text:
        case = "CAPITAL" if char.isupper() else "SMALL"
        for candidate in (f"MATHEMATICAL {name} {case} {char.upper()}", f"{name} {case} {char.upper()}"):
            try:
                out.append(unicodedata.lookup(candidate))
                break
            except KeyError:
                continue
        else:
            out.append(char)
    return "".join(out)


@lru_cache(maxsize=4096)
def _parse(latex: str) -> ET.Element | None:
    from latex2mathml.converter import convert  # (when math is first shown: ~0.1 s of imports, not at start)

    try:
        return ET.fromstring(convert(latex))
    except Exception:  # latex2mathml raises many kinds of errors on malformed TeX; the caller falls back
        return None


def _tag(element: ET.Element) -> str:
    return element.tag.removeprefix(_NS)


class _Writer:
    """Walks a MathML tree once; `html` selects tags or plain Unicode."""

    def __init__(self, html_out: bool, escape: Callable[[str], str]):
        self.html = html_out
        self.escape = escape
        self.depth = 0  # > 0 inside a superscript or subscript

    def inner(self, element: ET.Element) -> str:
        """A script's content (kept compact: `ℓ₁,₂`, not `ℓ₁, ₂`)."""
        self.depth += 1
        try:
            return self.node(element)
        finally:
            self.depth -= 1

    # ---------------------------------------------------------------- leaves
    def text(self, text: str, style: str = "") -> str:
        if not self.html:
            return text
        escaped = self.escape(text)
        if style == "i":
            return f"<i>{escaped}</i>"
        if style == "b":
            return f"<b>{escaped}</b>"
        if style == "bi":
            return f"<b><i>{escaped}</i></b>"
        if style == "upright":
            return f'<span class="upright">{escaped}</span>'
        return escaped

    def token(self, element: ET.Element) -> str:
        return self.text(*self.token_style(element))

    @staticmethod
    def token_style(element: ET.Element) -> tuple[str, str]:
        """A token's text and style: "i" (a variable), "upright", "b", "bi" or "" (as it is)."""
        tag = _tag(element)
        text = (element.text or "").replace("\u2061", "").replace("\u2062", "")
        if text.startswith("\\"):  # a macro latex2mathml does not know: its name, without the backslash
            text = text[1:]
        variant = element.get("mathvariant", "")
        text = _styled_letters(text, variant)
        if tag == "mi":
            if variant == "normal" or (len(text) > 1 and text.isascii()):
                return text, "upright"
            if variant in ("bold", "bold-italic"):
                return text, "bi" if variant == "bold-italic" or _is_variable(text) else "b"
            return text, "i" if _is_variable(text) and not variant else ""
        if tag == "mtext":
            return text, "b" if variant == "bold" else "upright"
        if tag == "mo" and len(text) > 1 and text.isalpha():  # operator names: max, lim, argmax
            return text, "upright"
        if tag == "mspace":
            width = element.get("width", "")
            return (" " if width.endswith("em") and _em(width) >= 0.5 else ("\u2009" if width else "")), ""
        return text, ""

    # ---------------------------------------------------------------- structure
    def node(self, element: ET.Element) -> str:
        tag = _tag(element)
        children = list(element)
        if tag in _TOKENS:
            return self.token(element)
        if tag in _SCRIPTED and children:
            return self.scripts(tag, element, children)
        if tag == "mfrac" and len(children) == 2:
            return f"{self.grouped(children[0])}/{self.grouped(children[1])}"
        if tag == "msqrt":
            return "√" + self.grouped_all(children)
        if tag == "mroot" and len(children) == 2:
            return self.script(self.inner(children[1]), up=True) + "√" + self.grouped(children[0])
        if tag == "mphantom":
            return ""
        if tag == "mtable":
            return "; ".join(", ".join(self.row(list(cell)) for cell in row) for row in children)
        return self.row(children)

    def row(self, children: list[ET.Element]) -> str:
        """Children side by side; neighbouring tokens of one style become one run (`\\mathrm{SE}` arrives as
        two letters, and is one upright run)."""
        parts: list[str] = []
        run_text, run_style = "", None
        for i, child in enumerate(children):
            following = children[i + 1] if i + 1 < len(children) else None
            space = following is not None and (self._needs_space(child, following) or (
                not self.depth and _tag(child) == "mo" and child.text == ","))  # (ϵ, γ, τ)
            if _tag(child) in _TOKENS:
                text, style = self.token_style(child)
                if style == run_style:
                    run_text += text
                else:
                    if run_style is not None:
                        parts.append(self.text(run_text, run_style))
                    run_text, run_style = text, style
                if space:
                    run_text += " "
                continue
            if run_style is not None:
                parts.append(self.text(run_text, run_style))
                run_text, run_style = "", None
            parts.append(self.node(child) + (" " if space else ""))
        if run_style is not None:
            parts.append(self.text(run_text, run_style))
        return "".join(parts)

    @staticmethod
    def _needs_space(child: ET.Element, following: ET.Element) -> bool:
        """Space around a function name (`d log n`, not `dlogn`) and after an operator with limits (`∑ᵢ xᵢ`,
        `maxᵢ aᵢ`), where TeX puts a thin space and the MathML has none."""
        if _is_function(following) and _tag(child) not in ("mo", "mspace") and not _word(child).endswith(" "):
            return True
        if _is_function(child):
            return not _word(following).startswith(("(", "[", "{", "|", ")", ",", " "))
        if _tag(child) in _SCRIPTED and len(child):
            base = child[0]
            return _word(base) in _LARGE_OPERATORS or _is_function(base)
        return False

    def scripts(self, tag: str, element: ET.Element, children: list[ET.Element]) -> str:
        base = children[0]
        if tag == "mover" and len(children) == 2 and (element.get("accent") == "true" or
                                                      children[1].get("accent") == "true" or
                                                      "".join(children[1].itertext()) in _ACCENTS):
            mark = _ACCENTS.get("".join(children[1].itertext()))
            if mark:
                return self.accented(base, mark)
        out = self.node(base)
        if tag in ("msub", "munder"):
            return out + self.script(self.inner(children[1]), up=False) if len(children) > 1 else out
        if tag in ("msup", "mover"):
            return out + self.script(self.inner(children[1]), up=True) if len(children) > 1 else out
        if len(children) > 2:  # msubsup, munderover
            out += self.script(self.inner(children[1]), up=False)
            out += self.script(self.inner(children[2]), up=True)
        return out

    def script(self, rendered: str, up: bool) -> str:
        if self.html:
            return f"<sup>{rendered}</sup>" if up else f"<sub>{rendered}</sub>"
        table = SUPERSCRIPTS if up else SUBSCRIPTS
        if rendered and all(char in table for char in rendered):
            return "".join(table[char] for char in rendered)
        return ("^" if up else "_") + (rendered if len(rendered) == 1 else f"({rendered})")

    def accented(self, base: ET.Element, mark: str) -> str:
        text = "".join(base.itertext())
        if len(text) == 1:
            return self.text(unicodedata.normalize("NFC", text + mark), "i" if _is_variable(text) else "")
        return self.node(base) + mark if not self.html else self.node(base) + self.escape(mark)

    def grouped(self, element: ET.Element) -> str:
        return self.grouped_all([element])

    def grouped_all(self, elements: list[ET.Element]) -> str:
        """The rendered elements, in parentheses when they are more than one symbol or number: (a+b)/2."""
        rendered = self.row(elements)
        plain = "".join("".join(e.itertext()) for e in elements)
        simple = len(plain) <= 1 or plain.replace(".", "").isdigit() or (plain.isalpha() and len(elements) == 1)
        return rendered if simple else f"({rendered})"


def _word(element: ET.Element) -> str:
    return "".join(element.itertext()).removeprefix("\\")


def _is_function(element: ET.Element) -> bool:
    """A function or operator name: `log`, `max`, `lim`, an unknown macro's name."""
    word = _word(element)
    return _tag(element) in ("mi", "mo") and len(word) > 1 and word.isascii() and word.isalpha()


def _em(width: str) -> float:
    try:
        return float(width.removesuffix("em"))
    except ValueError:
        return 0.0


def _write(tree: ET.Element, html_out: bool, escape: Callable[[str], str]) -> str | None:
    try:
        return _Writer(html_out, escape).node(tree).strip()
    except RecursionError:  # nesting deeper than Python's stack (a hostile file): the caller falls back
        return None


@lru_cache(maxsize=4096)
def _math_html(latex: str) -> str | None:
    tree = _parse(latex)
    if tree is None:
        return None
    return _write(tree, True, lambda text: html.escape(text, quote=False))


@lru_cache(maxsize=4096)
def math_to_plain(latex: str) -> str | None:
    """`K^{-1}` → `K⁻¹`, `\\sum_{i=1}^n x_i^2` → `∑ᵢ₌₁ⁿ xᵢ²`, `\\frac{a+b}{2}` → `(a+b)/2`, `\\chi` → `χ`.

    Returns None when the TeX cannot be parsed (the caller then uses its own fallback)."""
    tree = _parse(latex)
    if tree is None:
        return None
    return _write(tree, False, str)


def math_to_html(latex: str, escape: Callable[[str], str] | None = None) -> str | None:
    """An HTML fragment for TeX math `latex`: `K^{-1}` → `<i>K</i><sup>−1</sup>`, `\\mathrm{SE}` →
    `<span class="upright">SE</span>`. `escape` turns text into HTML (html.escape by default; the reader passes
    one that also marks search matches). Returns None when the TeX cannot be parsed."""
    if escape is None:
        return _math_html(latex)
    tree = _parse(latex)
    if tree is None:
        return None
    return _write(tree, True, escape)


def warm_up() -> None:
    """Import the TeX converter and convert one formula, on the calling thread (the search worker's, once the
    index is open): the first formula the reader shows then costs no imports on the window's thread (~20 ms at
    the first abstract with math, in the turn of the keystroke or the j that showed it)."""
    math_to_plain("x^{2}")
