"""What the index holds for a paper: the index schema (its fields and their formats) and the document of a paper.

Fields: `text` (title, authors, abstract, note and tags in one field, title tokens weighted 2×, so that a
free-text word is one posting list) and `textpos` (the same text's positions, for phrases and `title:`), tag
(whole tags), venue, year, rating (0 = none), read, decision (the screening decision, "none" for none), reason
(the exclusion reason, folded and whitespace-collapsed: db.search.analysis.reason_value), venue_decision (the
venue's decision and presentation words, db.search.analysis.decision_words: accept, oral, reject, withdrawn …), id.
Text is analyzed by db/search/analysis.py. whoosh pickles the schema into the index, naming each field's format
and analyzer class by module path (db.search.postings, db.search.analysis): moving one of them needs a new
INDEX_SCHEMA_VERSION (db/search/index.py), so that indexes are rebuilt once instead of failing to open.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from whoosh.codec.whoosh3 import W3Codec
from whoosh.fields import ID, KEYWORD, Schema

from db.paper import Paper
from db.search.analysis import (
    BOOST_MARK,
    PARTS,
    SEGMENT,
    TEXT_FIELD,
    decision_words,
    number_value,
    query_analyzers,
    reason_value,
    tag_analyzer,
    tag_value,
)
from db.search.postings import POSITIONS_FIELD, positional, weighted
from db.text.cleaning import MAX_ABSTRACT, MAX_TITLE

TITLE_BOOST = 2.0


def make_schema() -> Schema:
    """The index's fields (see the module's docstring)."""
    analyzers = query_analyzers()
    return Schema(
        id=ID(stored=True, unique=True, sortable=True),
        text=weighted(analyzers[TEXT_FIELD]),  # the PARTS: what every query is scored from
        textpos=positional(analyzers[TEXT_FIELD], scorable=False),  # … their positions, each part its own range
        tag=KEYWORD(analyzer=tag_analyzer()),
        venue=positional(analyzers["venue"]),
        year=ID(),  # four digits, "0000" for none (whoosh's NumericRange misses bounded ranges)
        rating=ID(),  # "0" for none, else "1".."5"
        read=ID(),
        decision=ID(),  # include, exclude, maybe or none (db.library.decisions)
        reason=ID(),  # the exclusion reason as reason_value gives it ("" for none)
        venue_decision=KEYWORD(),  # the venue's words, space-separated, as decision_words gives them
    )


def codec() -> W3Codec:
    """The codec every segment is written with."""
    # big posting blocks, quick to inflate: the ranker reads whole posting lists, block by block
    return W3Codec(blocklimit=1024, compression=0)


def document(paper: Paper) -> dict:
    """The whoosh document for a paper (field name → value). Tags are kept whole, one per line (a comma stays
    inside its tag). Title and abstract are indexed up to the sizes an import keeps (db.text.cleaning): a library
    an older Margin filled with a 5 MB abstract is not indexed word by word for minutes."""
    parts = {"title": f"{TITLE_BOOST}{BOOST_MARK}{_clean(paper.label[:MAX_TITLE])}",
             "authors": " ; ".join(paper.authors), "abstract": paper.abstract[:MAX_ABSTRACT],
             "note": paper.note, "tags": " ; ".join(paper.tags)}
    text = SEGMENT.join(parts[name] if name == "title" else _clean(parts[name]) for name in PARTS)
    return {
        "id": paper.id,
        "text": text,
        POSITIONS_FIELD: text,
        "tag": "\n".join(tag_value(tag) for tag in paper.tags),
        "venue": _clean(paper.venue or ""),
        "year": number_value("year", paper.year),
        "rating": number_value("rating", paper.rating),
        "read": "yes" if paper.read else "no",
        "decision": paper.decision or "none",
        "reason": reason_value(paper.reason or ""),
        "venue_decision": " ".join(decision_words(paper.extra)),
    }


def documents_of(library, ids: list[str], start: int, end: int,
                 progress: Callable[[int, int], None] | None = None, total: int = 0) -> Iterator[dict]:
    """The documents of papers ids[start:end] of `library` (a db.library Library, or anything with its
    `papers(ids)`), read 1,000 at a time; `progress(done, total)` after each thousand (scaled to `total` when a
    helper process does the rest)."""
    for first in range(start, end, 1000):
        yield from map(document, library.papers(ids[first : min(first + 1000, end)]))
        if progress:
            progress((min(first + 1000, end) - start) * total // max(end - start, 1), total)


def _clean(text: str) -> str:
    return (text or "").replace(SEGMENT, " ").replace(BOOST_MARK, " ")
