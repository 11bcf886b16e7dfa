"""A large JSON paper list read from its file value by value (issue 28), never whole.

`read_file` (db.formats.importer) reads a file into bytes and decodes them into one string: a list of 100,000
papers (250 MB of JSON) held 500 MB at that moment, its bytes and its text. A file of at least `STREAM_BYTES`
whose name says JSON (.json, .jsonl, .ndjson), whose text is UTF-8 (with or without BOM) without NUL and
starts with an array (`[`), is read here instead: decoded `CHUNK_BYTES` at a time (CRLF/CR made LF, control
characters dropped, leading BOMs dropped, as db.formats.importer does to a whole text) and parsed one array
value at a time from a window of the text, so the memory is bounded by the largest value, not the file.

What it gives is what db.formats.jsonlist gives for the same text: the same values with the same 1-based
start lines, and the same InputError (message, line, column) for JSON that does not parse, is nested too
deeply, or has data after the array. Any other file (or one that fails the checks: not UTF-8, holds NUL,
starts with `{`) is left to the whole-text path, which names its problems as before. `streamable(path)`
checks (one pass over the file, decoding only); `array_values(path)` yields (line, value).
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from pathlib import Path

from db.errors import InputError
from db.formats.common import strip_controls

STREAM_BYTES = 8 * 2**20  # files from this size on are streamed when they can be
CHUNK_BYTES = 2**20  # read and decoded at a time
_TRIM_CHARS = 2**20  # text already parsed that is dropped from the window once it is this long
_JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")


def _decoded(path: Path) -> Iterator[str]:
    """The file's text in pieces, as db.formats.importer makes the whole text: UTF-8 after an optional BOM,
    CRLF and CR as LF, control characters dropped, leading U+FEFF dropped. Raises UnicodeDecodeError."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    pending, leading = "", True
    with path.open("rb") as handle:
        data = handle.read(CHUNK_BYTES)
        if data.startswith(codecs.BOM_UTF8):
            data = data[3:]
        while True:
            final = not data
            text = pending + decoder.decode(data, final=final)
            pending = ""
            if not final and text.endswith("\r"):  # a CR whose LF comes in the next piece
                text, pending = text[:-1], "\r"
            text = strip_controls(text.replace("\r\n", "\n").replace("\r", "\n"))
            if leading:
                text = text.lstrip("\ufeff")
                leading = not text
            if text:
                yield text
            if final:
                return
            data = handle.read(CHUNK_BYTES)


def streamable(path: Path) -> bool:
    """True when `path` is read here: large enough, named as JSON, UTF-8 without NUL throughout (a pass that
    only decodes), its text starting with a JSON array as db.formats.registry.sniff and jsonlist see it."""
    from db.formats.jsonlist import looks_like_json
    from db.formats.registry import sniff

    if path.suffix.lower() not in _JSON_SUFFIXES or path.stat().st_size < STREAM_BYTES:
        return False
    decoder = codecs.getincrementaldecoder("utf-8")()
    with path.open("rb") as handle:
        if handle.read(2) in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
            return False
        handle.seek(0)
        try:
            while data := handle.read(CHUNK_BYTES):
                if b"\x00" in data:  # (in UTF-8 a zero byte is NUL, which the whole-text path refuses)
                    return False
                decoder.decode(data)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return False
    head = ""
    for text in _decoded(path):
        head += text
        if len(head) >= 4096:
            break
    if len(head.strip()) == 0 or sniff(head, path) != "json" or not looks_like_json(head):
        return False
    from db.formats.jsonlist import _WS

    return head.startswith("[", _WS.match(head).end())


class _Window:
    """The part of the file's text not parsed yet (`text`), with the line and column its first character has
    in the whole text."""

    def __init__(self, pieces: Iterator[str]):
        self._pieces = pieces
        self.text = ""
        self.eof = False
        self.line_at = 1  # the line of text[0]
        self.column_at = 0  # characters before text[0] on its line
        self._counted = (0, 1)  # (index, its line): `line` counts on from the last index asked (values go forward)

    def more(self, at_least: int = 1) -> bool:
        """Append at least `at_least` characters (or all that is left); False at the end of the file."""
        added = []
        count = 0
        while count < at_least:
            piece = next(self._pieces, None)
            if piece is None:
                self.eof = True
                break
            added.append(piece)
            count += len(piece)
        if added:
            self.text += "".join(added)
        return bool(added)

    def trim(self, index: int) -> int:
        """Drop the text before `index` once it is long; returns where `index` is now."""
        if index < _TRIM_CHARS:
            return index
        newlines = self.text.count("\n", 0, index)
        if newlines:
            self.line_at += newlines
            self.column_at = index - self.text.rfind("\n", 0, index) - 1
        else:
            self.column_at += index
        self.text = self.text[index:]
        self._counted = (0, self.line_at)
        return 0

    def line(self, index: int) -> int:
        """The line of text[index] in the whole text (counting the newlines since the last index asked, not
        since the window's start: a window of a one-line file is ~1 MB)."""
        start, line = self._counted
        if index < start:
            start, line = 0, self.line_at
        line += self.text.count("\n", start, index)
        self._counted = (index, line)
        return line

    def blank(self, index: int) -> int:
        """The index of the first character at or after `index` that is not whitespace (len(text) at the end)."""
        from db.formats.jsonlist import _WS

        while True:
            index = _WS.match(self.text, index).end()
            if index < len(self.text) or not self.more():
                return index

    def error(self, error: json.JSONDecodeError) -> json.JSONDecodeError:
        """`error` (raised on the window) with the line and column it has in the whole text."""
        if error.lineno == 1:
            error.colno += self.column_at
        error.lineno += self.line_at - 1
        return error


def array_values(path: Path) -> Iterator[tuple[int, object]]:
    """(start line, value) of each value of the JSON array that is the text of `path` (see `streamable`), as
    they are parsed. Raises InputError(path, message, line) as db.formats.jsonlist does for the same text."""
    from db.formats.jsonlist import _DECODER, TOO_DEEP, _unparsed

    window = _Window(_decoded(path))
    try:
        index = window.blank(0) + 1  # (the "[" streamable saw)
        index = window.blank(index)
        if window.text.startswith("]", index):
            index += 1
        else:
            while True:
                index = window.trim(index)
                while True:  # parse the value; read on while it may go on past the window
                    try:
                        value, end = _DECODER.raw_decode(window.text, index)
                        if end < len(window.text) or window.eof:
                            break
                    except json.JSONDecodeError as error:
                        if window.eof:
                            raise window.error(error) from None
                    except RecursionError:
                        raise InputError(path, TOO_DEEP, line=window.line(index)) from None
                    window.more(max(1, len(window.text) - index))  # (doubling what a long value has read)
                yield window.line(index), value
                del value
                index = window.blank(end)
                if window.text.startswith(",", index):
                    index = window.blank(index + 1)
                    continue
                if window.text.startswith("]", index):
                    index += 1
                    break
                raise window.error(json.JSONDecodeError("expected ',' or ']'", window.text, index))
        index = window.blank(index)
        if index < len(window.text):
            raise window.error(json.JSONDecodeError("extra data after the array", window.text, index))
    except json.JSONDecodeError as error:
        raise InputError(path, _unparsed(error, window.text), line=error.lineno) from None
