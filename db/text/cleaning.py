"""What a user's note, title and tag are stored as: C0 control characters removed, and for titles and tags
NFC with whitespace collapsed and a length limit. `tag_key` is the key under which tags are one and the same.
No Qt, no database: the library, the import of backups, the query language and the window use these."""

from __future__ import annotations

import re

from db.paper import normalize_text

MAX_TITLE = 1000  # characters of a user's title (after cleaning)
MAX_TAG = 200  # characters of a tag
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def strip_controls(text: str) -> str:
    """`text` without C0 control characters other than tab, line feed and carriage return.

    NUL, bell, escape and the like mean nothing in a note, title or tag; kept, they would go into every
    export, and an export holding a NUL is not a text file to any reader (Margin's import refuses it)."""
    return _CONTROLS.sub("", text)


def clean_note(note: str) -> str:
    """The note as stored: exactly as written, without C0 controls other than tab, LF and CR."""
    return strip_controls(note)


def clean_title(title: str | None) -> str | None:
    """The user's title as stored: C0 controls removed, NFC, whitespace collapsed; None when that leaves
    nothing. Raises ValueError when it is longer than MAX_TITLE characters."""
    cleaned = normalize_text(strip_controls(title or "")) or None
    if cleaned and len(cleaned) > MAX_TITLE:
        raise ValueError(f"a title can have at most {MAX_TITLE:,} characters (this one has {len(cleaned):,})")
    return cleaned


def tag_key(name: str) -> str:
    """The key under which tags are matched: C0 controls removed, NFC, case-folded, whitespace collapsed."""
    return normalize_text(strip_controls(name)).casefold()


def clean_tag(name: str) -> str:
    """Return the tag as stored (C0 controls removed, NFC, whitespace collapsed). Raises ValueError for an
    empty tag or one longer than MAX_TAG characters."""
    cleaned = normalize_text(strip_controls(name))
    if not cleaned:
        raise ValueError("a tag cannot be empty or only spaces")
    if len(cleaned) > MAX_TAG:
        raise ValueError(f"a tag can have at most {MAX_TAG} characters")
    return cleaned
