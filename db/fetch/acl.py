"""The ACL Anthology (aclanthology.org): a volume of an event from its BibTeX file.

`GET /volumes/{id}.bib` (e.g. `2024.acl-long`) is the volume's bibliography as the Anthology publishes it: a
`@proceedings` entry, then an `@inproceedings` per paper with title, authors, booktitle, year, pages, DOI, url
and abstract. It is read by Margin's BibTeX reader (db.formats.bibtex). An event (ACL 2024) has several volumes
(long, short, findings, …): fetch each by its id, as the event's page lists them. Kept beyond that reader: the
PDF link (the paper's Anthology URL + `.pdf`). One file a volume: nothing to page; one request a second.
Source: https://aclanthology.org/info/development/ (the volume and paper .bib exports).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from db.errors import InputError
from db.fetch.http import Client, FetchError
from db.formats import bibtex
from db.paper import PaperRecord

NAME = "acl"
DEFAULT_BASE = "https://aclanthology.org"
INTERVAL = 1.0
_VOLUME = re.compile(r"^(\d{4}\.[\w\-]+|[A-Z]\d{2}-\d{1,2})$")


def parse_volume(text: str, volume: str) -> list[PaperRecord]:
    """The papers of an Anthology volume's BibTeX (its `@proceedings` entry left out). Raises ValueError."""
    if not bibtex.looks_like_bibtex(text):
        raise ValueError("not a BibTeX file")
    try:
        records, _skipped, _kind = bibtex.read(text, Path(f"{volume}.bib"))
    except InputError as error:
        raise ValueError(error.message) from None
    if not records:
        raise ValueError("a volume without papers")
    for record in records:
        if record.url and "aclanthology.org/" in record.url:
            record.extra["pdf"] = record.url.rstrip("/") + ".pdf"
        record.source, record.line = f"acl:{volume}", None
    return records


def fetch_volume(client: Client, target: str, progress: Callable[[int, int | None], None] | None = None
                 ) -> list[PaperRecord]:
    """Every paper of Anthology volume `target` (`2024.acl-long`, or its URL). Raises FetchError."""
    volume = target.strip().rstrip("/").rsplit("/", 1)[-1].removesuffix(".bib")
    if not _VOLUME.match(volume):
        raise FetchError(f"acl: {target!r} is not an Anthology volume id such as 2024.acl-long")
    records = client.get(f"volumes/{volume}.bib", None, lambda text: parse_volume(text, volume))
    if progress:
        progress(len(records), len(records))
    return records
