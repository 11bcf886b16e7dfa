"""Markdown that no reader turns into live HTML or a script link (new-user trial): imported text (an abstract, a
URL, a note taken from a file) is shown as written, never run.

`markdown_lines` escapes plain text line by line as `markdown.markdown_text` escapes a title (`< & \\ * _ [ ] > {`
and backticks), and also the marks that would open a block at the start of a line (`#`, `-`, `+`, `=`, `|`, `:`,
`~`, `1.`), so an abstract's "# Results" or "1. first" stays a sentence. `safe_link` gives the autolink form of a
URL with an http or https scheme (characters an autolink cannot hold percent-encoded), else None: a `javascript:`,
`data:` or `file:` URL is written as plain escaped text. `safe_note` keeps the user's Markdown (emphasis, lists,
headings, http/https/mailto links, code, math) and turns raw HTML, links to other schemes and pandoc attributes
(`{onclick=…}`, `{=html}`) into text; code spans, fenced code and math are left as written.

Sources: CommonMark 0.31 (autolinks, raw HTML, link destinations); pandoc's Markdown (backslash escapes of any
ASCII punctuation, attributes, raw blocks); OWASP XSS prevention (an allow-list of URL schemes). The window's
note view allows the same schemes (db.text.render.sanitize_html).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import quote

SAFE_SCHEMES = ("http", "https")
NOTE_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*):")
_BLOCK_START = re.compile(r"^(?:[#=+|:~-]|\d+[.)])")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# inline math by pandoc's rule: no space inside the dollars, no digit after the closing one (kept as written)
MATH = re.compile(r"\$(?=[^\s$])[^$\n]*?[^\s$\\]\$(?!\d)|\$[^\s$]\$(?!\d)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1(?!`)")
# `<` that opens an HTML tag, comment, declaration or an autolink (kept only for an allowed scheme, below)
_RAW_HTML = re.compile(r"<(?=[A-Za-z/!?])")
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}):[^\s<>]*>")
# an inline link or image `](dest` and a reference definition `[ref]: dest`
_INLINE_DEST = re.compile(r"\]\(\s*<?([^\s)>]*)")
_REFERENCE_DEF = re.compile(r"^( {0,3}\[[^\]]+\]):(\s*<?)(\S*)")
# where pandoc reads `{…}` as attributes: after a span, link, image or autolink; on an ATX heading; a fenced div
_ATTRIBUTES_AFTER = re.compile(r"(?<=[\])>])\{")
_ATTRIBUTE_LINE = re.compile(r"^ {0,3}(?:#|:::)")
_UNSAFE_IN_AUTOLINK = re.compile(r"[\x00-\x20<>\"\x7f\\`]")


def safe_link(url: str | None) -> str | None:
    """`url` ready to write as `<url>` when its scheme is http or https (spaces, `<`, `>`, quotes, backslashes,
    backticks and controls percent-encoded), else None (no URL, or a `javascript:`/`data:`/`file:`/relative one)."""
    if not url:
        return None
    url = url.strip()
    match = _SCHEME.match(url)
    if not match or match.group(1).lower() not in SAFE_SCHEMES:
        return None
    return _UNSAFE_IN_AUTOLINK.sub(lambda char: quote(char.group(0), safe=""), url)


def escape_line(text: str, inline) -> str:
    """One line of plain text through `inline` (markdown.markdown_text), with a block-opening mark at its start
    backslash-escaped."""
    text = inline(text)
    return _BLOCK_START.sub(lambda mark: mark.group(0)[:-1] + "\\" + mark.group(0)[-1], text, count=1)


def markdown_lines(text: str, inline) -> list[str]:
    """Plain text (an abstract) as escaped Markdown lines, one per line of `text` (blank lines kept)."""
    return [escape_line(line, inline) if line.strip() else "" for line in text.split("\n")]


def _allowed_destination(dest: str) -> bool:
    """A link destination that is http/https/mailto, an anchor, or a path with no scheme and no entity."""
    match = _SCHEME.match(dest)
    if match:
        return match.group(1).lower() in NOTE_SCHEMES
    return "&" not in dest.split("/", 1)[0] and "\\" not in dest.split("/", 1)[0]


def _safe_inline(text: str, every_brace: bool = False, after_code: bool = False) -> str:
    """One stretch of a note line outside code spans, its inline math left as written (`every_brace`, `after_code`:
    as `_safe_text`, for the stretch's start)."""
    out, last = [], 0
    for match in MATH.finditer(text):
        out += [_safe_text(text[last : match.start()], every_brace, after_code and last == 0), match.group(0)]
        last = match.end()
    return "".join(out) + _safe_text(text[last:], every_brace, after_code and last == 0)


def _safe_text(text: str, every_brace: bool = False, after_code: bool = False) -> str:
    """Raw HTML and links to other schemes made text; a `{` where pandoc would read attributes escaped, so it takes
    no `{onclick=…}` or `{=html}` from a note: right after `]`, `)` or `>` (a span, link, image), at the start of a
    stretch that follows a code span (`after_code`), and anywhere on a heading or a fenced div's line
    (`every_brace`). Any other `{` is the user's text and stays as written."""
    def autolink(match: re.Match[str]) -> str:
        return match.group(0) if match.group(1).lower() in NOTE_SCHEMES else "&lt;" + match.group(0)[1:]

    out, last = [], 0
    for match in _AUTOLINK.finditer(text):
        out += [_RAW_HTML.sub("&lt;", text[last : match.start()]), autolink(match)]
        last = match.end()
    text = "".join(out) + _RAW_HTML.sub("&lt;", text[last:])
    text = _INLINE_DEST.sub(lambda m: m.group(0) if _allowed_destination(m.group(1)) else "]\\(" + m.group(0)[2:],
                            text)
    if every_brace:
        return text.replace("{", "\\{")
    text = _ATTRIBUTES_AFTER.sub("\\\\{", text)
    return "\\" + text if after_code and text.startswith("{") else text


def outside_fences(lines: list[str]) -> Iterator[tuple[int, str, re.Match | None]]:
    """(index, line, opened) for each of `lines` outside fenced code blocks (CommonMark: 3+ backticks or tildes,
    indented 0–3 spaces, closed by a fence of the same character at least as long); `opened` is the match of a
    fence that opens on that line (None otherwise). Lines inside a block and its closing fence are not given."""
    fence = None
    for index, line in enumerate(lines):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
        yield index, line, opened


def safe_note(note: str) -> str:
    """The user's Markdown note with raw HTML (`<img …>`, `<!-- -->`) written as text (`&lt;img …>`) and links
    or images whose destination is not http, https, mailto or a plain path made text (`[x]\\(javascript:…)`,
    `[ref]\\: javascript:…`); everything else, code spans and fenced code included, as written."""
    lines = note.split("\n")
    display_math = False
    for index, line, opened in outside_fences(lines):
        if opened:  # its info string may carry pandoc attributes (`{=html}`, `{onclick=…}`)
            lines[index] = line[: opened.end()] + line[opened.end() :].replace("{", "\\{")
            continue
        if display_math or (line.lstrip().startswith("$$") and line.count("$$") == 1):
            display_math = display_math != (line.count("$$") % 2 == 1)
            continue
        definition = _REFERENCE_DEF.match(line)
        if definition and not _allowed_destination(definition.group(3)):
            line = definition.group(1) + "\\:" + line[len(definition.group(1)) + 1 :]
        every_brace = bool(_ATTRIBUTE_LINE.match(line))
        out, last = [], 0
        for span in _CODE_SPAN.finditer(line):
            out += [_safe_inline(line[last : span.start()], every_brace, last > 0), span.group(0)]
            last = span.end()
        lines[index] = "".join(out) + _safe_inline(line[last:], every_brace, last > 0)
    return "\n".join(lines)
