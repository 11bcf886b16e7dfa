"""arXiv API search results (Atom 1.0 feeds from export.arxiv.org/api/query), read with xml.etree.

Shape: `<feed xmlns="http://www.w3.org/2005/Atom">` with one `<entry>` per paper: `<id>` the abs URL with a
versioned id (`http://arxiv.org/abs/1201.4869v1`, `…/abs/cond-mat/0412498v1`; stored without version),
`<title>`, `<summary>` (hard-wrapped; whitespace is collapsed), `<author><name>`, `<published>` (year),
`<arxiv:doi>`, `<arxiv:journal_ref>` (venue, else "arXiv"), `<category term>` (keywords).
Errors: InputError(path, line) when the XML does not parse or is not an Atom feed.
Source: https://info.arxiv.org/help/api/user-manual.html §3.3 (the Atom response).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from db.errors import InputError
from db.formats.common import LineIndex, Skipped, clean, finish, norm_arxiv, norm_doi, year_of
from db.paper import PaperRecord

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
_ENTRY_TAG = re.compile(r"<(?:\w+:)?entry[\s>]")


def looks_like_atom(text: str) -> bool:
    """True for an XML document whose root is an Atom `<feed>`."""
    head = text.lstrip("\ufeff \t\r\n")[:2000]
    return head.startswith("<") and "http://www.w3.org/2005/Atom" in head and "feed" in head


def read(text: str, path: Path) -> tuple[list[PaperRecord], list[Skipped], str]:
    """Records of an arXiv Atom feed and skipped (line, reason). Raises InputError for text that does not start
    like XML, or broken XML."""
    if not text.lstrip("\ufeff \t\n").startswith("<"):
        raise InputError(path, "not XML (an arXiv Atom file starts with '<')", line=1)
    try:
        root = ElementTree.fromstring(text.lstrip("\ufeff \t\r\n").encode("utf-8"))
    except ElementTree.ParseError as error:
        line = error.position[0] if getattr(error, "position", None) else 1
        raise InputError(path, f"XML that does not parse ({clean(str(error).split(':')[0])})", line=line) from None
    if root.tag != f"{ATOM}feed":
        raise InputError(path, "an XML file that is not an Atom feed (arXiv API result)", line=1)
    index = LineIndex(text)
    lines = [index.line(match.start()) for match in _ENTRY_TAG.finditer(text)]
    records: list[PaperRecord] = []
    skipped: list[Skipped] = []
    for number, entry in enumerate(root.iter(f"{ATOM}entry")):
        line = lines[number] if number < len(lines) else None
        abs_url = clean(entry.findtext(f"{ATOM}id"))
        title = clean(entry.findtext(f"{ATOM}title"))
        if title == "Error" and abs_url and "api/errors" in abs_url:
            skipped.append((line, f"an arXiv API error entry ({clean(entry.findtext(f'{ATOM}summary'))})"))
            continue
        record = PaperRecord(
            title=title, abstract=clean(entry.findtext(f"{ATOM}summary")) or "",
            authors=[name for name in (clean(a.findtext(f"{ATOM}name")) for a in entry.findall(f"{ATOM}author"))
                     if name],
            venue=clean(entry.findtext(f"{ARXIV}journal_ref")) or "arXiv",
            year=year_of(entry.findtext(f"{ATOM}published")),
            url=re.sub(r"v\d+$", "", abs_url) if abs_url else None,
            doi=norm_doi(entry.findtext(f"{ARXIV}doi")),
            arxiv_id=norm_arxiv(abs_url.split("/abs/", 1)[-1]) if abs_url else None,
            keywords=[term for term in dict.fromkeys(c.get("term") for c in entry.findall(f"{ATOM}category")) if term],
            source=path.name, line=line,
        )
        finish(record, skipped, records)
    return records, skipped, "arxiv-atom"
