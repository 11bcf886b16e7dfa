"""PMLR (proceedings.mlr.press): a whole volume from its BibTeX file.

`GET /v{N}/assets/bib/bibliography.bib` is the volume's bibliography as PMLR publishes it (one `@Proceedings`,
then an `@InProceedings` per paper with title, author, pages, abstract, and where the volume has them `section`
(e.g. Oral / Poster) and `openreview`). It is read by Margin's BibTeX reader (db.formats.bibtex), so the venue
and year come from the volume entry. Kept beyond that reader: presentation (from `section`), the paper's PMLR page
(url) and its PDF link (`pdf`). One file a volume: nothing to page; the interval is one request a second.
Source: https://proceedings.mlr.press (the volume pages link their bibliography), mlresearch/v* on GitHub.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from db.errors import InputError
from db.fetch.http import Client
from db.formats import bibtex
from db.formats.common import clean
from db.paper import PaperRecord

NAME = "pmlr"
DEFAULT_BASE = "https://proceedings.mlr.press"
INTERVAL = 1.0
_ENTRY = re.compile(r"@InProceedings\s*\{\s*([^,\s]+)\s*,(.*?)(?=\n@|\Z)", re.IGNORECASE | re.DOTALL)
_FIELD = re.compile(r"^\s*(title|section)\s*=\s*\{(.*)\},?\s*$", re.IGNORECASE | re.MULTILINE)


def volume_number(target: str) -> str:
    """`229` from `229`, `v229` or a proceedings.mlr.press/v229 URL. Raises ValueError otherwise."""
    match = re.search(r"v?(\d+)\s*/?\s*$", target.strip())
    if not match:
        raise ValueError(f"{target!r} is not a PMLR volume number")
    return match.group(1)


def parse_volume(text: str, volume: str) -> list[PaperRecord]:
    """The papers of a PMLR volume's BibTeX. Raises ValueError for a file that is not BibTeX or has no paper."""
    if "@" not in text or not bibtex.looks_like_bibtex(text):
        raise ValueError("not a BibTeX file")
    try:
        records, _skipped, _kind = bibtex.read(text, Path(f"pmlr-v{volume}.bib"))
    except InputError as error:
        raise ValueError(error.message) from None
    if not records:
        raise ValueError("a volume without papers")
    keys: dict[str, tuple[str, str | None]] = {}
    for key, body in _ENTRY.findall(text):
        fields = {name.lower(): value for name, value in _FIELD.findall(body)}
        title = bibtex.tex_to_text(fields.get("title")) or ""
        keys[" ".join(title.split()).lower()] = (key, clean(fields.get("section")))
    base = f"{DEFAULT_BASE}/v{volume}"
    for record in records:
        key, section = keys.get(" ".join((record.title or "").split()).lower(), (None, None))
        if key:
            record.url = record.url or f"{base}/{key}.html"
            record.extra["pdf"] = f"{base}/{key}/{key}.pdf"
        if section:
            record.extra["presentation"] = section.lower()
        record.source, record.line = f"pmlr:v{volume}", None
    return records


def fetch_volume(client: Client, target: str, progress: Callable[[int, int | None], None] | None = None
                 ) -> list[PaperRecord]:
    """Every paper of PMLR volume `target` (229, v229). Raises FetchError."""
    from db.fetch.http import FetchError

    try:
        volume = volume_number(target)
    except ValueError as error:
        raise FetchError(f"pmlr: {error}") from None
    records = client.get(f"v{volume}/assets/bib/bibliography.bib", None, lambda text: parse_volume(text, volume))
    if progress:
        progress(len(records), len(records))
    return records
