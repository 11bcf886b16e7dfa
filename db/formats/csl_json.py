"""CSL-JSON (citeproc JSON) items, as Zotero, Better BibTeX, Mendeley and DOI content negotiation write them.

Shape: an array of items or a single item; `title`, `abstract`, `author` as [{"family", "given"} or
{"literal"}], `container-title`, `issued` as {"date-parts": [[2016, 12, 20]]} (parts may be strings) or
{"raw"/"literal": "…"}, `DOI`, `URL`, `keyword` ("a, b"), `categories` (list). An item whose `custom`
holds {"title_source": "derived"} (Margin's own export of a paper without a title: `title` is Margin's
label) is read without a title. Read through
`db.formats.jsonlist.read`, which parses the JSON and calls `record_from_csl` for every CSL item.
Source: https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html and the CSL-JSON schema.
"""

from __future__ import annotations

from pathlib import Path

from db.formats.annotations import rating_of, read_of
from db.formats.common import DERIVED, clean, norm_arxiv, norm_doi, split_list, year_of
from db.paper import Annotations, PaperRecord

_CSL_ONLY = {"issued", "container-title", "citation-key", "date-parts", "collection-title", "publisher-place"}


def is_csl(obj: dict) -> bool:
    """True when the object carries CSL-only keys, a `type` with a CSL `custom` object (Margin's export of a
    paper without year, venue or authors, also one whose custom holds `margin_id`), or a `type` with CSL name
    objects as `author`."""
    if (_CSL_ONLY & set(obj) or "margin_id" in _custom(obj)
            or ("type" in obj and isinstance(obj.get("custom"), dict))):
        return True
    authors = obj.get("author")
    return "type" in obj and isinstance(authors, list) and bool(authors) and all(
        isinstance(a, dict) and ({"family", "given", "literal"} & set(a)) for a in authors)


def _name(author: object) -> str | None:
    if isinstance(author, str):
        return clean(author)
    if not isinstance(author, dict):
        return None
    if author.get("family") or author.get("given"):
        parts = (author.get("given"), author.get("dropping-particle"), author.get("non-dropping-particle"),
                 author.get("family"), author.get("suffix"))
        return clean(" ".join(str(part) for part in parts if part))
    return clean(author.get("literal"))


def _year(issued: object) -> int | None:
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return year_of(parts[0][0])
        return year_of(issued.get("raw") or issued.get("literal") or issued.get("year"))
    return year_of(issued)


def derived_title(item: dict) -> bool:
    """True when `custom.title_source` says the item's title is Margin's derived label (see module docstring)."""
    custom = item.get("custom")
    return isinstance(custom, dict) and str(custom.get("title_source", "")).strip().lower() == DERIVED


# CSL item types in BibTeX's words (db.paper.EXTRA_KEYS `type`); other types are `misc`
TYPES = {"article-journal": "article", "article-magazine": "article", "article-newspaper": "article",
         "paper-conference": "inproceedings", "book": "book", "chapter": "incollection", "thesis": "phdthesis",
         "report": "techreport", "manuscript": "unpublished", "webpage": "online", "post-weblog": "online",
         "article": "misc", "dataset": "misc", "software": "misc"}
_EXTRA = {"pages": "page", "volume": "volume", "issue": "issue", "publisher": "publisher", "isbn": "ISBN",
          "issn": "ISSN", "language": "language", "address": "publisher-place", "edition": "edition",
          "series": "collection-title"}
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _custom(item: dict) -> dict:
    custom = item.get("custom")
    return custom if isinstance(custom, dict) else {}


def _extra(item: dict) -> dict:
    extra: dict = {"type": TYPES.get(str(item.get("type", "")), "misc")}
    for key, name in _EXTRA.items():
        value = clean(item.get(name))
        if value:
            extra[key] = value
    if extra.get("publisher") == "arXiv" and norm_arxiv(item.get("number")):  # the preprint server, not a publisher
        del extra["publisher"]
    issued = item.get("issued")
    parts = issued.get("date-parts") if isinstance(issued, dict) else None
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and len(parts[0]) > 1:
        month = str(parts[0][1])
        extra["month"] = _MONTHS[int(month) - 1] if month.isdigit() and 1 <= int(month) <= 12 else month
    editors = item.get("editor") if isinstance(item.get("editor"), list) else []
    if editors:
        extra["editors"] = [name for name in (_name(e) for e in editors) if name]
    custom = _custom(item)
    if clean(custom.get("decision")):
        extra["decision"] = clean(custom["decision"])
    note = custom.get("source_note") if "source_note" in custom or "title_source" in custom else item.get("note")
    if clean(note):  # Margin's export keeps the file's note there; the user's note (`custom.note`) is no field
        extra["note"] = clean(note)
    return extra


def csl_annotations(item: dict) -> Annotations | None:
    """The user's marks in an item (issue 30): Margin's export keeps them in `custom` (`tags`, `rating`, `read`,
    `note`, with `margin_id`; `title` is the user's when `title_source` is "user"); another tool's `keyword`
    words are its tags (Zotero writes its tags there)."""
    custom = _custom(item)
    if {"margin_id", "tags", "note", "keywords", "title_source"} & set(custom):  # Margin's (also before margin_id)
        tags = [tag for tag in custom.get("tags") or [] if isinstance(tag, str)]
        note = custom.get("note") if isinstance(custom.get("note"), str) else None
        user = str(custom.get("title_source", "")).lower() == "user"
        marks = Annotations(tags=tags, rating=rating_of(custom.get("rating")), read=read_of(custom.get("read")),
                            note=note, title=clean(item.get("title")) if user else None)
    else:
        marks = Annotations(tags=split_list(item.get("keyword"), ",;") if item.get("keyword") else [],
                            rating=rating_of(custom.get("rating")), read=read_of(custom.get("read")))
    return marks or None


def record_from_csl(item: dict, line: int, path: Path) -> PaperRecord:
    """Map one CSL-JSON item onto a PaperRecord (arXiv id from `number`/`URL` when it names one)."""
    authors = item.get("author") if isinstance(item.get("author"), list) else []
    url = clean(item.get("URL") or item.get("url"))
    doi = norm_doi(item.get("DOI") or item.get("doi"))
    arxiv = None
    if doi and doi.startswith("10.48550/arxiv."):
        arxiv = norm_arxiv(doi.split("arxiv.", 1)[1])
    if not arxiv and "arxiv" in str(item.get("number", "")).lower():
        arxiv = norm_arxiv(item.get("number"))
    custom = _custom(item)
    if isinstance(custom.get("keywords"), list):  # Margin's export: the source's keywords (`keyword` adds tags)
        keywords = split_list(custom["keywords"])
    else:
        keywords = split_list(item.get("keyword"), ",;") + split_list(item.get("categories"))
    title = clean(custom.get("file_title")) if str(custom.get("title_source", "")).lower() == "user" else clean(
        item.get("title"))
    return PaperRecord(
        annotations=csl_annotations(item),
        title=None if derived_title(item) else title,
        abstract=clean(item.get("abstract")) or "",
        authors=[name for name in (_name(a) for a in authors) if name],
        venue=clean(item.get("container-title") or item.get("event-title") or item.get("event") or custom.get("venue")),
        year=_year(item.get("issued")) or _year(item.get("available-date")),
        url=url, doi=doi, arxiv_id=arxiv,
        keywords=keywords if isinstance(custom.get("keywords"), list) else list(dict.fromkeys(keywords)),
        extra=_extra(item),
        source=path.name, line=line,
    )
