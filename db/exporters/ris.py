"""RIS for EndNote, Mendeley, Citavi and library systems (issue 30): one record per paper, `TY  - ` to `ER  - `.

Tags: `TY` (the entry type: JOUR, CPAPER, BOOK, CHAP, THES, RPRT, UNPB, ELEC, GEN), `ID` (the citation key, as
in BibTeX), `TI`, `AU` per author and `A2` per editor (`Last, First, Jr`), `PY` (year), `DA` (`2018/11//` with a
month), `T2` (the venue), `SP`/`EP` (pages), `VL`, `IS`, `PB`, `CY`, `SN` (ISBN or ISSN), `LA`, `ET`, `AB`, `DO`,
`UR` (the URL; an arXiv id as its abs URL when there is no URL), `KW` per keyword and per tag (EndNote and
Mendeley keep tags as keywords), `N1` per line of the user's note. A paper without a title gets Margin's derived
headline in square brackets as `TI` (a devised title, as cataloguers write one: a bibliography shows it is not
the paper's own) and a first `N1` saying so (db.formats.common.RIS_DEVISED_NOTE; Margin's reader then reads no
title). Values are one line each (line breaks inside a
title or abstract become spaces), so a line of the note can never be read as a tag; the text is UTF-8 without a
byte-order mark and lines end in CRLF, as the specification writes them. (A BOM, written until the new-user trial
for EndNote, hid the first record from rispy, the Python reader ASReview and others use; Zotero's RIS export
writes none either; EndNote reads UTF-8 when its import's Text Translation is "Unicode (UTF-8)".)
Margin's own reader (db.formats.ris) reads the file back: title, authors, venue, year, DOI, URL, abstract, type,
pages, volume, issue, publisher; the tags come back as keywords. Sources: RIS format specification (Research
Information Systems, RefMan 2011), EndNote's RIS tag list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from db.exporters.common import citation_keys, entry_type, export_title, export_venue, submission_note, title_source
from db.formats.common import DERIVED, RIS_DEVISED_NOTE
from db.paper import Paper
from db.text.names import name_parts

TYPES = {"article": "JOUR", "inproceedings": "CPAPER", "conference": "CPAPER", "book": "BOOK", "mvbook": "BOOK",
         "proceedings": "BOOK", "incollection": "CHAP", "inbook": "CHAP", "phdthesis": "THES",
         "mastersthesis": "THES", "thesis": "THES", "techreport": "RPRT", "report": "RPRT", "unpublished": "UNPB",
         "online": "ELEC", "misc": "GEN"}
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_EXTRA = (("volume", "VL"), ("issue", "IS"), ("publisher", "PB"), ("address", "CY"), ("isbn", "SN"), ("issn", "SN"),
          ("language", "LA"), ("edition", "ET"))
_BREAKS = re.compile(r"\s*[\r\n]+\s*")


def _one_line(text: object) -> str:
    return _BREAKS.sub(" ", str(text)).strip()


def _name(name: str) -> str:
    """`Last, First, Jr` (RIS's order) of a display name, through the one name parser (db.text.names)."""
    parts = name_parts(name)
    family = " ".join(part for part in (parts.von, parts.last) if part)
    if parts.literal or not (parts.first or parts.jr):
        return family or name
    return ", ".join(part for part in (family, parts.first, parts.jr) if part)


def _month(text: str) -> int | None:
    text = text.strip().lower()
    if text.isdigit():
        return int(text) if 1 <= int(text) <= 12 else None
    return _MONTHS.index(text[:3]) + 1 if text[:3] in _MONTHS else None


def ris_lines(paper: Paper, key: str) -> list[tuple[str, str]]:
    """The (tag, value) pairs of one record, in the order written (without the closing `ER`)."""
    extra = paper.extra
    devised = title_source(paper) == DERIVED
    title = _one_line(export_title(paper))
    lines = [("TY", TYPES.get(entry_type(paper), "GEN")), ("ID", key), ("TI", f"[{title}]" if devised else title)]
    lines += [("AU", _name(name)) for name in paper.authors if name.strip()]
    lines += [("A2", _name(name)) for name in extra.get("editors") or [] if name.strip()]
    if paper.year:
        lines.append(("PY", str(paper.year)))
        month = _month(str(extra.get("month") or ""))
        if month:
            lines.append(("DA", f"{paper.year}/{month:02d}//"))
    venue = export_venue(paper)
    if venue:
        lines.append(("T2", _one_line(venue)))
    pages = str(extra.get("pages") or "")
    if pages:
        start, _dash, end = (re.split(r"\s*([–—-]+)\s*", pages, maxsplit=1) + ["", ""])[:3]
        lines.append(("SP", _one_line(start)))
        if end:
            lines.append(("EP", _one_line(end)))
    lines += [(tag, _one_line(extra[key])) for key, tag in _EXTRA if extra.get(key)]
    if paper.abstract:
        lines.append(("AB", _one_line(paper.abstract)))
    if paper.doi:
        lines.append(("DO", _one_line(paper.doi)))
    url = paper.url or (f"https://arxiv.org/abs/{paper.arxiv_id}" if paper.arxiv_id else None)
    if url:
        lines.append(("UR", _one_line(url)))
    lines += [("KW", _one_line(word)) for word in dict.fromkeys([*paper.keywords, *paper.tags]) if word.strip()]
    if devised:
        lines.append(("N1", RIS_DEVISED_NOTE))
    said = submission_note(paper)
    if said:
        lines.append(("N1", said))
    lines += [("N1", line.strip()) for line in paper.note.splitlines() if line.strip()]
    return lines


def export_ris(papers: Sequence[Paper]) -> str:
    """The RIS text: one record per paper in the order given, a blank line between records."""
    keys = citation_keys(papers)
    records = []
    for paper in papers:
        body = "".join(f"{tag}  - {value}\r\n" for tag, value in ris_lines(paper, keys[paper.id]))
        records.append(body + "ER  - \r\n")
    return "\r\n".join(records)
