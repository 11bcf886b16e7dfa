"""Read a paper-list file of any supported format into paper records.

Decoding: UTF-8 (with or without BOM), UTF-16 with BOM, else a legacy encoding detected by
charset-normalizer (the result says which was assumed). CRLF/CR line ends become LF; stray control
characters are dropped. Format: the one db.formats.registry.sniff chooses (the extension's, when the text has
that format's structure; else by how the text starts; the registry's module table lists the readers).

Errors: `read_file` raises InputError(path, message, line) when the file cannot be read at all (missing,
not text, undetectable encoding, JSON/XML that does not parse or is nested too deeply for the parser, CSV
without a usable header, empty, no known format, or no record could be taken). Records that cannot be taken
are listed in ReadResult.skipped.
"""

from __future__ import annotations

import codecs
import stat
from dataclasses import dataclass, field
from pathlib import Path

from db.errors import InputError
from db.formats import json_stream
from db.formats.common import strip_controls
from db.formats.registry import BY_NAME, FORMAT_NAMES, sniff
from db.paper import PaperRecord

MAX_FILE_BYTES = 512 * 1024 * 1024
_PREFERRED = ("cp1252", "latin_1", "iso8859_15")

__all__ = ["FORMAT_NAMES", "MAX_FILE_BYTES", "ReadResult", "decode", "read_file", "read_text", "sniff"]


@dataclass
class ReadResult:
    """Records read from one file, the format and encoding used, and records skipped as (line, reason)."""

    path: Path
    format: str
    encoding: str
    records: list[PaperRecord]
    skipped: list[tuple[int | None, str]] = field(default_factory=list)

    @property
    def assumed_encoding(self) -> str | None:
        """The encoding name when it was not UTF-8 (with or without BOM), else None."""
        return None if self.encoding in ("utf-8", "utf-8-sig", "ascii") else self.encoding


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
    if data.startswith((b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00", b"\x28\xb5\x2f\xfd")):  # gzip, bzip2, xz, zstd
        raise InputError(path, "a compressed file (gzip, bzip2, xz or zstd), not a paper list: decompress it first "
                               "(e.g. gunzip FILE.gz) and import what it holds", line=1)
    if data.startswith(b"PK\x03\x04"):  # a zip: an xlsx (Margin's own export), docx, odt…
        raise InputError(path, "a spreadsheet or other zip file, not a paper list: Margin writes xlsx for "
                               "spreadsheets but does not read it; import a CSV or Margin's JSON export", line=1)
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError(path, "not a text file (it holds NUL bytes)", line=line)
    from charset_normalizer import from_bytes

    matches = from_bytes(data)
    best = matches.best()
    if best is not None:  # among equally plausible guesses, prefer the commonest legacy encoding (Windows-1252)
        best = next((m for m in matches if m.encoding in _PREFERRED and m.chaos <= best.chaos + 0.01), best)
    if best is None:
        raise InputError(path, "not text in any encoding that could be detected", line=1)
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


def read_text(text: str, path: Path, records: list[PaperRecord] | None = None,
              ) -> tuple[str, list[PaperRecord], list[tuple[int | None, str]]]:
    """(format, records, skipped) of decoded, LF-normalized `text`. Raises InputError as `read_file`. `records`:
    as for `read_file`."""
    try:
        return _read_text(text, path, records)
    except RecursionError:  # a parser's last word on deeply nested input (JSON catches its own, with a line)
        raise InputError(path, "the file is nested too deeply to read", line=1) from None


def _read_text(text: str, path: Path, records: list[PaperRecord] | None,
               ) -> tuple[str, list[PaperRecord], list[tuple[int | None, str]]]:
    reader = BY_NAME.get(sniff(text, path))
    if reader is None:
        raise InputError(path, f"not a paper list in a format Margin reads ({FORMAT_NAMES})", line=1)
    before = len(records) if records is not None else 0
    records, skipped, kind = reader.read(text, path, records)
    _check_some_read(records, before, skipped, kind, path)
    return kind, records, skipped


def _check_some_read(records: list[PaperRecord], before: int, skipped: list, kind: str, path: Path) -> None:
    """InputError naming the first skipped record when a file gave no record."""
    if len(records) == before:
        line = skipped[0][0] if skipped else 1
        reason = f" ({skipped[0][1]})" if skipped else ""
        raise InputError(path, f"no paper could be read from this {kind} file{reason}", line=line)


def read_file(path: Path | str, records: list[PaperRecord] | None = None) -> ReadResult:
    """Read `path` into paper records. Raises InputError(path, line) when the file cannot be read at all.
    `records`: a list (or db.formats.spool.RecordSpool) the file's records are appended to (as they are read,
    for the formats that can: JSON), which the result's `records` then is."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, "no such file")
    if path.is_dir():
        raise InputError(path, "is a folder, not a file")
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # /dev/zero, a FIFO, a socket: endless or blocking reads
            raise InputError(path, "not a regular file (a device, pipe or socket); save the list to a file first")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(path, f"the file is larger than {MAX_FILE_BYTES // 2**20} MB")
        if json_stream.streamable(path):  # a large JSON array: value by value, never the whole text (issue 28)
            return _read_streamed(path, records)
        data = path.read_bytes()
    except OSError as error:
        raise InputError(path, f"cannot read the file ({error.strerror})") from None
    if not data.strip():
        raise InputError(path, "the file is empty", line=1)
    text, encoding = decode(data, path)
    del data  # the bytes are not needed while the text is parsed (150 MB for a list of 100k papers)
    text = strip_controls(text.replace("\r\n", "\n").replace("\r", "\n")).lstrip("\ufeff")
    if not text.strip():
        raise InputError(path, "the file is empty", line=1)
    kind, records, skipped = read_text(text, path, records)
    return ReadResult(path, kind, encoding, records, skipped)


def _read_streamed(path: Path, records: list[PaperRecord] | None) -> ReadResult:
    """read_file of a file db.formats.json_stream reads: the same records, skipped lines and errors."""
    from db.formats import jsonlist

    with path.open("rb") as handle:
        encoding = "utf-8-sig" if handle.read(3) == codecs.BOM_UTF8 else "utf-8"
    before = len(records) if records is not None else 0
    try:
        records, skipped, kind = jsonlist.read_values(json_stream.array_values(path), [], "json", path, records)
    except RecursionError:
        raise InputError(path, "the file is nested too deeply to read", line=1) from None
    _check_some_read(records, before, skipped, kind, path)
    return ReadResult(path, kind, encoding, records, skipped)
