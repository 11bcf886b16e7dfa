"""CSL-JSON for Zotero, pandoc and citeproc processors: a JSON array of CSL items.

Item: `id` (the same citation key as BibTeX), `type` (from the paper's entry type: "article-journal",
"paper-conference", "book", "chapter", "thesis", "report", "manuscript" for an unpublished submission, else
"article"), `title`, `author`/`editor` (db.text.names: {"family", "given", "non-dropping-particle", "suffix"} or
{"literal"} for an organisation), `issued` ({"date-parts": [[year, month]]}), `container-title` (the venue),
`page`, `volume`, `issue`, `publisher`, `publisher-place`, `ISBN`, `ISSN`, `language`, `edition`,
`collection-title`, `abstract`, `URL`, `DOI`, `number` + `publisher` "arXiv" for an arXiv id, and `keyword`:
the file's keywords and the user's tags, ", "-joined (a comma inside one becomes ";", so no tool splits it).

The user's note is never in `note`: citeproc-js, pandoc and Zotero read `note` as "Extra", whose `key: value`
lines set variables (a note line `issued: 1999` changed the printed year). Margin's own data goes to `custom`
(CSL-JSON 1.0.2's key-value field, which processors do not print): `margin_id` (the paper's id), `note` (the
user's note), `tags` and `keywords` (exact lists), `rating` (1..5) and `read` (true) when set, `title_source`
("derived": `title` is Margin's headline for an untitled paper;
"user": the title is the user's and `file_title` the file's), `decision`, `source_note` (the file's note).
Text is plain Unicode, never escaped: CSL-JSON carries exact strings. Source: CSL-JSON schema,
citation-style-language/schema `csl-data.json` (v1.0.2); Zotero's "Extra" field documentation.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from db.exporters.common import (
    citation_key,
    citation_keys,
    entry_type,
    export_title,
    export_venue,
    submission_note,
    title_source,
)
from db.paper import Paper
from db.text.names import csl_name

TYPES = {"article": "article-journal", "inproceedings": "paper-conference", "conference": "paper-conference",
         "book": "book", "mvbook": "book", "incollection": "chapter", "inbook": "chapter", "phdthesis": "thesis",
         "mastersthesis": "thesis", "thesis": "thesis", "techreport": "report", "report": "report",
         "unpublished": "manuscript", "online": "webpage", "proceedings": "book"}
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_FIELDS = (("pages", "page"), ("volume", "volume"), ("issue", "issue"), ("publisher", "publisher"),
           ("address", "publisher-place"), ("isbn", "ISBN"), ("issn", "ISSN"), ("language", "language"),
           ("edition", "edition"), ("series", "collection-title"))


def _month(text: str) -> int | None:
    text = text.strip().lower()
    if text.isdigit():
        return int(text) if 1 <= int(text) <= 12 else None
    return next((number for number, name in enumerate(_MONTHS, start=1) if text and name.startswith(text[:3])),
                None)


def csl_item(paper: Paper, key: str | None = None) -> dict:
    """One CSL item (keys in the schema's spelling; absent values are left out, not null); `key` is its id
    (common.citation_keys), the paper's own key when None."""
    item: dict = {"id": key or citation_key(paper), "type": TYPES.get(entry_type(paper), "article"),
                  "title": export_title(paper)}
    if paper.authors:
        item["author"] = [csl_name(name) for name in paper.authors]
    if paper.extra.get("editors"):
        item["editor"] = [csl_name(name) for name in paper.extra["editors"]]
    if paper.year:
        month = _month(str(paper.extra.get("month") or ""))
        item["issued"] = {"date-parts": [[paper.year, month] if month else [paper.year]]}
    venue = export_venue(paper)
    if venue:
        item["container-title"] = venue
    for key, name in _FIELDS:
        if paper.extra.get(key):
            item[name] = str(paper.extra[key])
    if paper.abstract:
        item["abstract"] = paper.abstract
    if paper.url:
        item["URL"] = paper.url
    if paper.doi:
        item["DOI"] = paper.doi
    if paper.arxiv_id:
        item["number"] = paper.arxiv_id
        if not venue and "publisher" not in item:
            item["publisher"] = "arXiv"
    words = list(dict.fromkeys([*paper.keywords, *paper.tags]))
    if words:
        item["keyword"] = ", ".join(word.replace(",", ";") for word in words)
    custom: dict = {"margin_id": paper.id}
    if paper.note:
        custom["note"] = paper.note
    if paper.tags:
        custom["tags"] = list(paper.tags)
    if paper.rating:
        custom["rating"] = paper.rating
    if paper.read:
        custom["read"] = True
    if words != paper.keywords:  # tags added, or the file repeated a keyword
        custom["keywords"] = list(paper.keywords)
    source = title_source(paper)
    if source != "file":
        custom["title_source"] = source
    if source == "user" and paper.file_title:
        custom["file_title"] = paper.file_title
    if paper.extra.get("decision"):
        custom["decision"] = str(paper.extra["decision"])
        if paper.venue and not venue:
            custom["venue"] = paper.venue
    if paper.extra.get("note"):
        custom["source_note"] = str(paper.extra["note"])
    if submission_note(paper):
        item["genre"] = submission_note(paper)
    item["custom"] = custom
    return item


def export_csl_json(papers: Sequence[Paper]) -> str:
    """The CSL-JSON text: an array of items in the order given, UTF-8 text kept as is, ending in a newline."""
    keys = citation_keys(papers)
    return json.dumps([csl_item(paper, keys[paper.id]) for paper in papers], ensure_ascii=False, indent=1) + "\n"
