"""One entry point for a query typed by the user, shared by `list`/`export --query` and the window's worker.

Plain queries go to the search index (db.search.index). Recommendation queries (`is:recommended`,
`similar:ID`, `similar-tag:"NAME"`) go to db.recommend.recommender, `is:interests` (one queue across the
interests) to db.triage.interests, and `is:check` (the papers of a view's random progress check) to
db.triage.progress; any other words in the same query then filter the recommendations and keep their order.
A query of filters only (`venue:"ICLR 2018"`, `tag:x rating:>=4`, …) has nothing to rank by: its papers come
back in library order, so that annotating a paper (which re-adds its index document at the end) does not move it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from db.errors import MarginError
from db.library.library import Library
from db.search import SearchIndex, highlight_terms, parse_query_text

SIMILAR_LIMIT = 20  # as Recommender.similar's default
RECOMMENDATION = re.compile(
    r'(?i)(?:^|(?<=\s))(?:(is:recommended)|similar:(\S+)|similar-tag:(?:"([^"]*)"?|(\S+))|(is:check)|(is:interests))(?=\s|$)')


@dataclass
class QueryResult:
    """Paper ids best first; `why` maps a recommended paper to its shared terms; `hint` is a status-bar
    note ("" when the query was taken as typed); `terms` are the words to highlight."""

    ids: list[str]
    why: dict[str, list[str]] = field(default_factory=dict)
    hint: str = ""
    terms: list[str] = field(default_factory=list)
    interest: dict[str, str] = field(default_factory=dict)  # is:interests: the interest a paper came for


def run_query(library: Library, text: str, index: SearchIndex, recommender=None) -> QueryResult:
    """Answer `text` on `library`: all papers in library order for an empty query and for a query of filters
    only (ParsedQuery.ranked is False), best first for one with words to rank by, in the recommender's order
    for a recommendation query.

    `recommender` is a db.recommend.recommender.Recommender to reuse (one is made when None and the query needs it).
    Raises MarginError (e.g. NoPositivesError) with a one-line message for a recommendation that cannot be
    made, and for an unknown `similar:` id.
    """
    if not text.strip():
        return QueryResult(library.ids())
    found = RECOMMENDATION.search(text)
    if found is None:
        result = index.find(text)
        ids = result.ids if parse_query_text(text).ranked else in_library_order(library, result.ids)
        return QueryResult(ids, hint=result.hint, terms=result.terms)
    rest = (text[: found.start()] + " " + text[found.end() :]).strip()
    if found.group(5):  # is:check: the random progress check's papers of the rest of the query (db.triage.progress)
        from db.triage.progress import check_ids, scope_of

        ids = check_ids(library, scope_of(rest))
        return QueryResult(ids, terms=highlight_terms(rest) if rest else [])
    if recommender is None:
        from db.recommend.recommender import Recommender

        recommender = Recommender(library)
    recommended, paper_id, tag = found.group(1), found.group(2), found.group(3) or found.group(4)
    interest: dict[str, str] = {}
    # with a filter (`is:recommended venue:"ICLR 2018"`), every paper is ranked and the filter's best come
    # first: filtering the library-wide top 50 would leave only the venue's share of them
    every = {"limit": None} if rest else {}
    if found.group(6):
        from db.triage.interests import queue

        result = queue(library, recommender)
        if not result.ids and result.waiting:
            raise MarginError(f"Tag a paper with {', '.join(repr(name) for name in result.waiting)} to get "
                              f"suggestions for it")
        interest = result.interest
    elif recommended:
        result = recommender.recommend(**every)
    elif paper_id is not None:
        try:
            result = recommender.similar(library.find_id(paper_id), **every)
        except KeyError:
            raise MarginError(f"no single paper has the id '{paper_id}' (see: margin list)") from None
    else:
        result = recommender.more_like_tag(tag or "", **every)
    ids = list(result.ids)
    hint = ""
    if rest:
        narrowed = index.find(rest)
        matching = set(narrowed.ids)
        ids = [i for i in ids if i in matching]
        if not found.group(6):
            from db.recommend.recommender import DEFAULT_LIMIT

            ids = ids[: SIMILAR_LIMIT if paper_id is not None else DEFAULT_LIMIT]
        hint = narrowed.hint
    return QueryResult(ids, why=dict(result.why), hint=hint, terms=highlight_terms(rest) if rest else [],
                       interest={i: interest[i] for i in ids if i in interest})


def in_library_order(library: Library, ids: list[str]) -> list[str]:
    """`ids` in library order (papers.position, as `library.ids()` gives them)."""
    if len(ids) < 2:
        return list(ids)
    wanted = set(ids)
    return [paper_id for paper_id in library.ids() if paper_id in wanted]
