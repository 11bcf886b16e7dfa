"""Reader for the seed corpus format (resources/corpus/*.txt).

UTF-8 text; the first non-empty line is the collection header (`ICML 2026 Papers`, `ICML 2026 论文列表`);
after it one abstract per paragraph, paragraphs separated by blank lines. The venue is the header's leading
`NAME YEAR`.
"""

from __future__ import annotations

import re
from pathlib import Path

from db.errors import InputError
from db.paper import PaperRecord
from db.system.resources import CORPUS_DIR

_VENUE = re.compile(r"^\s*([^\W\d_][\w&.\-]*(?:\s+[^\W\d_][\w&.\-]*)*?)\s+((?:19|20)\d\d)\b")
BUNDLED_CORPUS = CORPUS_DIR


def venue_from_header(header: str) -> tuple[str | None, int | None]:
    """Return (venue, year) from a header such as `ICML 2026 Papers` → ("ICML 2026", 2026).

    Returns (None, None) when the header does not start with a name and a year.
    """
    match = _VENUE.match(header)
    if not match:
        return None, None
    year = int(match.group(2))
    return f"{match.group(1)} {year}", year


# a paragraph that starts like Markdown or other markup (a heading, a list item, a quote, a table row, a code
# fence, a rule, YAML front matter) is no abstract: Margin's own Markdown export, a README, a MANIFEST.md
_MARKUP = re.compile(r"^\s*(#|>|[-*+]\s|\d+[.)]\s|\||```|~~~|---|\*\*\*|===|<[a-zA-Z!/])")


def is_markup(line: str) -> bool:
    """True when `line` starts like Markdown or HTML markup rather than prose."""
    return bool(_MARKUP.match(line))


def looks_like_seed_text(text: str) -> bool:
    """True when `text` has a short header line that is not markup, followed by blank-line-separated
    paragraphs of which at most half start like markup (so a Markdown document is not taken for a paper
    list: its headings and list items would become papers)."""
    lines = text.lstrip("\ufeff").splitlines()
    non_empty = [i for i, line in enumerate(lines) if line.strip()]
    if len(non_empty) < 2:
        return False
    first = lines[non_empty[0]]
    if len(first) > 200 or is_markup(first) or non_empty[0] + 1 >= len(lines) or lines[non_empty[0] + 1].strip():
        return False
    starts = [lines[i] for i in non_empty[1:] if not lines[i - 1].strip()]  # the first line of each paragraph
    return sum(map(is_markup, starts)) * 2 <= len(starts)


def parse_seed_text(text: str, path: Path | str = "<text>") -> list[PaperRecord]:
    """Parse seed-format `text` into paper records in file order, each with its 1-based start line.

    Raises InputError(path, line) when there is no header or no abstract after it.
    """
    return read_seed_text(text, path)[0]


def read_seed_text(text: str, path: Path | str = "<text>") -> tuple[list[PaperRecord], list[tuple[int, str]]]:
    """(records, skipped) of seed-format `text`: a paragraph that starts like markup is skipped as
    (line, reason). Raises InputError(path, line) when there is no header or no abstract after it."""
    lines = text.lstrip("\ufeff").splitlines()
    header_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_index is None:
        raise InputError(path, "the file is empty", line=1)
    header = lines[header_index].strip()
    venue, year = venue_from_header(header)
    records: list[PaperRecord] = []
    skipped: list[tuple[int, str]] = []
    paragraph: list[str] = []
    start = 0

    def finish() -> None:
        if is_markup(paragraph[0]):
            skipped.append((start, "starts like Markdown or markup (a heading, list item or quote), not an abstract"))
        else:
            records.append(_record(paragraph, start, venue, year, header))

    for number, line in enumerate(lines[header_index + 1 :], start=header_index + 2):
        if line.strip():
            if not paragraph:
                start = number
            paragraph.append(line.strip())
            continue
        if paragraph:
            finish()
            paragraph = []
    if paragraph:
        finish()
    if not records:
        raise InputError(path, "a header line but no abstracts after it", line=header_index + 1)
    return records, skipped


def read(text: str, path: Path) -> tuple[list[PaperRecord], list[tuple[int, str]], str]:
    """(records, skipped, "seed") of seed-format `text`, as db.formats.registry calls every reader. Raises
    InputError(path, 1) when the text is not laid out as a seed file (a Markdown document, say), else as
    `read_seed_text`."""
    if not looks_like_seed_text(text):
        raise InputError(path, "not a paper list Margin reads: plain text needs a header line ('ICML 2026 "
                         "Papers'), a blank line, then one abstract per paragraph (Markdown, such as Margin's "
                         "own Markdown export, is not imported: import its JSON export)", line=1)
    records, skipped = read_seed_text(text, path)
    return records, skipped, "seed"


def _record(paragraph: list[str], line: int, venue: str | None, year: int | None, header: str) -> PaperRecord:
    return PaperRecord(abstract=" ".join(paragraph), venue=venue, year=year, source=header, line=line)


def bundled_corpus_files() -> list[Path]:
    """The bundled corpus files (resources/corpus/*.txt), sorted by name."""
    return sorted(BUNDLED_CORPUS.glob("*.txt"))
