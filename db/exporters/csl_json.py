"""CSL-JSON for Zotero, pandoc and citeproc processors: a JSON array of CSL items.

Item: `id` (the same citation key as BibTeX), `type` ("paper-conference" with a venue, else "article"),
`title`, `author` ([{"family", "given"}] or [{"literal"}]), `issued` ({"date-parts": [[year]]}),
`container-title` (the venue), `abstract`, `URL`, `DOI`, `number` + `publisher` "arXiv" for an arXiv id,
`note` (the user's note), `keyword` (the tags, ", "-joined: CSL has one string for keywords), and
`custom` {"title_source": "derived"} when the paper has no title and `title` holds Margin's derived label
(CSL-JSON 1.0.2's place for key-value data; Margin's reader then takes the title as absent). Text is
plain Unicode, never escaped: CSL-JSON carries exact strings. Source: CSL-JSON schema, citation-style-language/
schema `csl-data.json` (v1.0.2).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from db.exporters.common import citation_key, export_title, split_name, title_source
from db.paper import Paper


def csl_item(paper: Paper) -> dict:
    """One CSL item (keys in the schema's spelling; absent values are left out, not null)."""
    item: dict = {"id": citation_key(paper), "type": "paper-conference" if paper.venue else "article",
                  "title": export_title(paper)}
    if paper.authors:
        item["author"] = [split_name(name) for name in paper.authors]
    if paper.year:
        item["issued"] = {"date-parts": [[paper.year]]}
    if paper.venue:
        item["container-title"] = paper.venue
    if paper.abstract:
        item["abstract"] = paper.abstract
    if paper.url:
        item["URL"] = paper.url
    if paper.doi:
        item["DOI"] = paper.doi
    if paper.arxiv_id:
        item["number"] = paper.arxiv_id
        if not paper.venue:
            item["publisher"] = "arXiv"
    if paper.note:
        item["note"] = paper.note
    if paper.tags:
        item["keyword"] = ", ".join(paper.tags)
    if title_source(paper) == "derived":
        item["custom"] = {"title_source": "derived"}
    return item


def export_csl_json(papers: Sequence[Paper]) -> str:
    """The CSL-JSON text: an array of items in the order given, UTF-8 text kept as is, ending in a newline."""
    return json.dumps([csl_item(paper) for paper in papers], ensure_ascii=False, indent=1) + "\n"
