"""Read a paper-list file of any supported format into paper records.

Decoding: UTF-8 (with or without BOM), UTF-16 with BOM, else a legacy encoding detected by
charset-normalizer (the result says which was assumed). Format: by content sniffing first, extension second.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field
from pathlib import Path

from db.corpus import looks_like_seed_text, parse_seed_text
from db.errors import InputError
from db.paper import PaperRecord

MAX_FILE_BYTES = 512 * 1024 * 1024


@dataclass
class ReadResult:
    """Records read from one file, the format and encoding used, and records skipped as (line, reason)."""

    path: Path
    format: str
    encoding: str
    records: list[PaperRecord]
    skipped: list[tuple[int | None, str]] = field(default_factory=list)


def decode(data: bytes, path: Path) -> tuple[str, str]:
    """Return (text, encoding name). Raises InputError when the bytes are not text in any detectable encoding."""
    if data.startswith(codecs.BOM_UTF8):
        return _strict(data[3:], "utf-8", path), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _strict(data, "utf-16", path), "utf-16"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        _reject_binary(text, path)
        return text, "utf-8"
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        raise InputError(path, "not a text file (no text encoding fits its bytes)", line=1)
    text = str(best)
    _reject_binary(text, path)
    return text, best.encoding


def _strict(data: bytes, encoding: str, path: Path) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError(path, f"invalid {encoding} text", line=line) from None


def _reject_binary(text: str, path: Path) -> None:
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InputError(path, "not a text file (it holds NUL bytes)", line=line)


def read_file(path: Path | str) -> ReadResult:
    """Read `path` into paper records. Raises InputError(path, line) when the file cannot be read at all."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, "no such file")
    if path.is_dir():
        raise InputError(path, "is a folder, not a file")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(path, f"cannot read the file ({error.strerror})") from None
    if not data.strip():
        raise InputError(path, "the file is empty", line=1)
    text, encoding = decode(data, path)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if looks_like_seed_text(text):
        return ReadResult(path, "seed", encoding, parse_seed_text(text, path))
    raise InputError(path, "not a paper list in a format Margin reads (seed text)", line=1)
