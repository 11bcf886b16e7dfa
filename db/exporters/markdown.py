"""Markdown: one document for reading lists, or a folder of one `.md` file per paper (Obsidian and other vaults).

Single file: `# Margin notes`, then per paper a `## label` section with venue and year, stars, tags, authors,
link and Margin id as a list, the note under `### Note` (it is the user's Markdown already) and the
abstract as plain text (LaTeX converted to Unicode) under `### Abstract`. Imported text never becomes live HTML:
the abstract is escaped as the title is, links are written only to http(s) addresses, and the note keeps its
Markdown but not its raw HTML or script links (db.exporters.markdown_safety). Inline math in headings stays
math; a note's `---` line that would open a YAML block is written `- - -` (see `note_text`).

Folder (an Obsidian vault, issue 30): each file starts with YAML front matter (id, citekey, title, aliases,
title_source, venue, year, rating, tags as Obsidian tags, margin_tags as typed, authors, url, doi, read) followed by
the same section. Strings in the front matter are YAML double-quoted scalars (also valid JSON), so every
character of a title or tag comes back exactly. File names are `<label> (<id>).md`, made safe for Windows, macOS
and Linux and for Obsidian's links (see `safe_file_name`); db.vault keeps such a folder up to date.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from db.errors import MarginError
from db.exporters.common import citation_key, citation_keys, export_title, title_source
from db.exporters.markdown_safety import MATH, markdown_lines, outside_fences, safe_link, safe_note
from db.paper import Paper
from db.system.fileio import temporary_file
from db.text.abstract_markup import abstract_to_plain
from db.text.cleaning import strip_bidi
from db.text.render import stars

_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]>{])")  # `{`: pandoc reads `{onclick=…}` after a heading as attributes
_ENTITY = re.compile(r"&(?=#?\w+;)")
# path characters, C0 controls, and the bidi/format controls (U+202E would show a name reversed)
# and `# ^ [ ]`, which break an Obsidian link to the file (`[[name#heading]]`, `[[name^block]]`, `[[…]]`)
_FORBIDDEN = re.compile(r'[<>:"/\\|?*#^\[\]\x00-\x1f\x7f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]')
_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))}
MAX_NAME_BYTES = 120  # most file systems allow 255 bytes per name; leave room for the id and sync-tool suffixes
_SOURCE_WORDS = {"user": "set in Margin", "file": "from the imported file",
                 "derived": "none in the source; the heading is Margin's label derived from the abstract"}


def _escape_inline(text: str) -> str:
    return _INLINE_SPECIAL.sub(r"\\\1", _ENTITY.sub("&amp;", text)).replace("<", "&lt;")


def markdown_text(text: str) -> str:
    """Escape plain text (a label, a tag, a name) so Markdown renders it as written, on one line. Inline math
    (`$x^2$`, by pandoc's rule: no space inside the dollars, no digit after the closing one) is kept as math."""
    text = " ".join(text.split())
    out, last = [], 0
    for match in MATH.finditer(text):
        out += [_escape_inline(text[last : match.start()]), match.group(0)]
        last = match.end()
    text = "".join(out) + _escape_inline(text[last:])
    return text.replace("#", "\\#") if text.rstrip().endswith("#") or text.startswith("#") else text


def note_text(note: str) -> str:
    """The user's note as Markdown in an exported document: as written, except that a `---` line that would
    open a YAML metadata block (at the start or after a blank line, with text below it), and the `---` that
    closes it, are written `- - -`, the same thematic break, so pandoc does not take the note's block for the
    document's title (nor the closing line for a heading's underline)."""
    lines = note.rstrip().split("\n")
    opened = False
    for index, line in enumerate(lines):
        before_blank = index == 0 or not lines[index - 1].strip()
        after_text = index + 1 < len(lines) and lines[index + 1].strip()
        if line.rstrip() == "---" and (opened or (before_blank and after_text)):
            lines[index] = "- - -"
            opened = not opened
        elif not line.strip():
            opened = False
    return "\n".join(lines)


_ATX = re.compile(r"^( {0,3})(#{1,6})(?=[ \t]|$)")


def nest_headings(note: str, top: int) -> str:
    """The note's ATX headings (`#`, `##`, …) moved down so the highest becomes level `top` (at most 6), keeping
    their relative depth, so a note's `## Method` sits under the paper's `### Note` instead of beside the paper's
    own heading. Lines inside fenced code blocks are left alone."""
    lines = note.split("\n")
    headings = []
    for index, line, opened in outside_fences(lines):
        if opened:
            continue
        match = _ATX.match(line)
        if match:
            headings.append((index, match))
    if not headings:
        return note
    shift = max(0, top - min(len(match.group(2)) for _index, match in headings))
    for index, match in headings:
        depth = min(6, len(match.group(2)) + shift)
        lines[index] = match.group(1) + "#" * depth + lines[index][match.end():]
    return "\n".join(lines)


def paper_section(paper: Paper, level: int = 2, include_abstract: bool = True) -> list[str]:
    """The Markdown lines of one paper: a heading at `level`, the facts list, the note and the abstract."""
    hashes = "#" * level
    lines = [f"{hashes} {markdown_text(paper.label)}", ""]
    facts = []
    source = title_source(paper)
    if source != "file":
        facts.append(f"**Title:** {_SOURCE_WORDS[source]}")
    if paper.venue:
        where = paper.venue if not paper.year or str(paper.year) in paper.venue else f"{paper.venue} {paper.year}"
        facts.append(f"**Venue:** {markdown_text(where)}")
    elif paper.year:
        facts.append(f"**Year:** {paper.year}")
    if paper.rating:
        facts.append(f"**Rating:** {stars(paper.rating)} ({paper.rating}/5)")
    if paper.tags:
        facts.append("**Tags:** " + ", ".join(f"`{tag.replace('`', '')}`" for tag in paper.tags))
    if paper.authors:
        facts.append("**Authors:** " + "; ".join(markdown_text(author) for author in paper.authors))
    if paper.url:  # a link only to a web address; any other URL (`javascript:…`) is written as text
        link = safe_link(paper.url)
        facts.append(f"**Link:** <{link}>" if link else f"**Link:** {markdown_text(paper.url)}")
    if paper.doi:
        facts.append(f"**DOI:** <{safe_link('https://doi.org/' + paper.doi.strip())}>")
    facts.append(f"**Margin id:** `{paper.id}`")
    lines += [f"- {fact}" for fact in facts]
    lines.append("")
    if paper.note.strip():
        lines += [f"{hashes}# Note", "", nest_headings(note_text(safe_note(paper.note)), level + 2), ""]
    if include_abstract and paper.abstract:
        quoted = markdown_lines(abstract_to_plain(paper.abstract).strip(), markdown_text)
        lines += [f"{hashes}# Abstract", "", *(f"> {line}".rstrip() for line in quoted), ""]
    return lines


def export_markdown(papers: Sequence[Paper], title: str = "Margin notes", include_abstract: bool = True) -> str:
    """A Markdown document with one `## label` section per paper, in the order given."""
    lines = [f"# {markdown_text(title)}", ""]
    for paper in papers:
        lines += paper_section(paper, 2, include_abstract)
    return "\n".join(lines).rstrip() + "\n"


def yaml_value(value: object) -> str:
    """A YAML 1.2 flow value that is also JSON: strings double-quoted with escapes, lists in brackets.

    Line and paragraph separators (U+2028, U+2029, U+0085) and other non-printing characters are escaped,
    because YAML would fold them inside a quoted scalar.
    """
    if isinstance(value, list):
        return "[" + ", ".join(yaml_value(item) for item in value) + "]"
    text = json.dumps(value, ensure_ascii=False)
    return "".join(f"\\u{ord(c):04x}" if _needs_yaml_escape(c) else c for c in text)


def _needs_yaml_escape(char: str) -> bool:
    return char in "\u0085\u2028\u2029\ufeff" or unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn")


def obsidian_tag(tag: str) -> str | None:
    """`tag` as a tag Obsidian accepts (letters, digits, `_`, `-`, `/` for nesting; not digits alone): other
    characters become `-` ("to read" → "to-read", "a, b" → "a-b"), "1984" → "_1984"; None when nothing is left
    ("🎉"). Source: Obsidian Help, "Tags" (tag format)."""
    kept = "".join(char if char in "_-/" or unicodedata.category(char)[0] in "LNM" else "-"
                   for char in unicodedata.normalize("NFC", tag))
    kept = re.sub(r"/{2,}", "/", re.sub(r"-{2,}", "-", kept)).strip("-/")
    if not kept:
        return None
    return "_" + kept if not any(unicodedata.category(char)[0] in "LM" or char == "_" for char in kept) else kept


def front_matter(paper: Paper, citekey: str | None = None) -> list[str]:
    """The YAML front matter lines (with the `---` fences) of a paper's file: `tags` as Obsidian tags
    (`obsidian_tag`), `margin_tags` exactly as in Margin, `citekey` the citation key (the one BibTeX and
    CSL-JSON exports of the same papers use), `aliases` the title (so `[[Title]]` links to the file)."""
    tags = list(dict.fromkeys(tag for tag in (obsidian_tag(name) for name in paper.tags) if tag))
    fields = {"id": paper.id, "citekey": citekey or citation_key(paper), "title": export_title(paper),
              "aliases": [export_title(paper)], "title_source": title_source(paper), "venue": paper.venue,
              "year": paper.year, "rating": paper.rating, "tags": tags, "margin_tags": list(paper.tags),
              "authors": list(paper.authors), "url": paper.url if safe_link(paper.url) else None,  # http(s) only
              "doi": paper.doi, "read": paper.read}
    return ["---", *(f"{key}: {yaml_value(value)}" for key, value in fields.items()), "---", ""]


def safe_file_name(label: str, paper_id: str) -> str:
    """`<label> (<id>).md`, safe on Windows, macOS and Linux.

    Removes `< > : " / \\ | ? *` and control characters, collapses whitespace, trims trailing dots and spaces,
    avoids reserved device names (CON, NUL, COM1…), cuts the label to at most MAX_NAME_BYTES UTF-8 bytes at a
    character boundary and normalizes to NFC. The id makes the name unique, also on case-insensitive disks.
    """
    name = " ".join(_FORBIDDEN.sub(" ", unicodedata.normalize("NFC", strip_bidi(label))).split())
    encoded = name.encode("utf-8")[:MAX_NAME_BYTES]
    name = encoded.decode("utf-8", "ignore").strip(" .")
    if name.split(".")[0].upper() in _WINDOWS_RESERVED:
        name = f"_{name}"
    return f"{name or 'paper'} ({paper_id}).md"


def markdown_files(papers: Sequence[Paper], include_abstract: bool = True,
                   keys: dict[str, str] | None = None) -> dict[str, str]:
    """Folder mode: {file name: Markdown text with front matter}, one file per paper, in the order given.
    `keys` (paper id → citation key) when the papers are part of a larger export (db.vault), else theirs."""
    files = {}
    keys = keys if keys is not None else citation_keys(papers)
    for paper in papers:
        lines = front_matter(paper, keys.get(paper.id)) + paper_section(paper, 1, include_abstract)
        files[safe_file_name(paper.label, paper.id)] = "\n".join(lines).rstrip() + "\n"
    return files


def write_folder(files: dict[str, str], folder: Path) -> list[Path]:
    """Write `files` into `folder` (created when missing), each through a temporary file and a rename.

    A file from an earlier export of the same paper under another name (the label changed) is removed, so
    the folder holds one file per paper. Other files in the folder are left alone. A replaced file keeps its
    permissions; a new one gets 0o666 less the umask (db.system.fileio). Returns the paths
    written. Raises MarginError naming the path when the folder cannot be created or written.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise MarginError(f"{folder}: cannot create the folder ({error.strerror})") from None
    if not folder.is_dir():
        raise MarginError(f"{folder}: not a folder")
    written = []
    existing = [path for path in folder.iterdir() if path.suffix == ".md"]
    for name, text in files.items():
        suffix = name[name.rfind(" (") :]  # " (<id>).md"
        target = folder / name
        temp = None
        try:
            fd, temp = temporary_file(target, ".margin-")  # the mode a new file gets, or the replaced one's
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
            os.replace(temp, target)
            temp = None
            for old in existing:
                if old.name.endswith(suffix) and old.name != name:
                    old.unlink(missing_ok=True)
        except OSError as error:
            if temp is not None:  # leave no temporary file behind
                with contextlib.suppress(OSError):
                    os.unlink(temp)
            raise MarginError(f"{target}: cannot write ({error.strerror})") from None
        written.append(target)
    return written
