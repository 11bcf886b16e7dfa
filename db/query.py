"""A query typed by the user, parsed once, and the one entry point that answers it (`list`/`export --query`, the
window's search worker, the progress view).

`parse_query(text)` reads the query's kind (db.query_kind) and parses the rest of its words for the index
(db.search) once; `run_query` answers that parsed query and parses nothing again. Plain queries go to the search
index. Recommendation queries (`is:recommended`, `similar:ID`, `similar-tag:"NAME"`) go to
db.recommend.recommender, `is:interests` (one queue across the interests) to db.triage.interests, and `is:check`
(the papers of a view's random progress check) to db.triage.progress; any other words in the same query then
filter the recommendations and keep their order. A query of filters only (`venue:"ICLR 2018"`, `tag:x
rating:>=4`, …) has nothing to rank by: its papers come back in library order, so that annotating a paper
(which re-adds its index document at the end) does not move it.

This module stands above db/search, db/recommend and db/triage (it dispatches to all three); none of them
imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from db.errors import MarginError
from db.library.library import Library
from db.query_kind import CHECK, CONFLICT, INTERESTS, MEANING, PLAIN, RECOMMENDED, SIMILAR, QueryKind, parse_kind
from db.search import ParsedQuery, SearchIndex, parse_query_text
from db.text.labels import STOP_WORDS

SIMILAR_LIMIT = 20  # as Recommender.similar's default
RRF_K = 60  # reciprocal rank fusion's constant (Cormack, Clarke & Büttcher 2009)
MEANING_DEPTH = 200  # papers taken from each ranking into the fusion
_WORD = re.compile(r"\w+")
# the small words of a question in plain words, left out of a `~` query's BM25 half and its highlights (ORed, "on"
# or "to" matched nearly every paper and lit up in every abstract): function words and question words
QUESTION_STOP_WORDS = STOP_WORDS | frozenset(
    "how why do does did can could should would will i me my you your he she they them his her there here any some "
    "about not no also more most other only own same then too very just has have had having am s t".split())


@dataclass(frozen=True)
class Query:
    """A query parsed once: `text` as typed, its `kind`, and `words`, the kind's rest parsed for the index
    (db.search.ParsedQuery; None when the query has no words besides its kind's clause, or is empty)."""

    text: str
    kind: QueryKind
    words: ParsedQuery | None

    @property
    def empty(self) -> bool:
        """True for a query of whitespace only (every paper, in library order)."""
        return not self.text.strip()

    @property
    def terms(self) -> list[str]:
        """The words to highlight in the reader (the query's words as typed; none of the kind's clause)."""
        return list(self.words.terms) if self.words is not None else []

    @property
    def ranked(self) -> bool:
        """True for a plain query with something to rank by (ParsedQuery.ranked): answered by the index best
        first, rather than in library order (filters only) or in a recommender's order."""
        return self.kind.kind not in (MEANING,) and not self.kind.recommendation and self.words is not None \
            and self.words.ranked


def parse_query(text: str) -> Query:
    """`text` parsed once: its kind and its other words for the index. Never raises. A natural-language query
    (`~TEXT`) is searched in the index as its words joined by OR (no operator, field or phrase)."""
    kind = parse_kind(text)
    if kind.kind == MEANING:
        words = [word.lower() for word in _WORD.findall(kind.argument or "")]
        content = [word for word in words if word not in QUESTION_STOP_WORDS]
        words = content or words  # "how to make …": BM25 and the highlights take the words that carry meaning
        return Query(text, kind, parse_query_text(" OR ".join(words)) if words else None)
    return Query(text, kind, parse_query_text(kind.rest) if kind.rest.strip() else None)


@dataclass
class QueryResult:
    """Paper ids best first; `why` maps a recommended paper to its shared terms; `hint` is a status-bar
    note ("" when the query was taken as typed); `terms` are the words to highlight."""

    ids: list[str]
    why: dict[str, list[str]] = field(default_factory=dict)
    hint: str = ""
    terms: list[str] = field(default_factory=list)
    interest: dict[str, str] = field(default_factory=dict)  # is:interests: the interest a paper came for
    stale: bool = False  # searched in an index another process was still bringing up to date: ask again later


def run_query(library: Library, query: Query | str, index: SearchIndex, recommender=None) -> QueryResult:
    """Answer `query` (a Query from parse_query; text is parsed here once) on `library`: all papers in library
    order for an empty query and for a query of filters only (ParsedQuery.ranked is False), best first for one
    with words to rank by, in the recommender's order for a recommendation query.

    `recommender` is a db.recommend.recommender.Recommender to reuse (one is made when None and the query needs it).
    Raises MarginError (e.g. NoPositivesError) with a one-line message for a recommendation that cannot be
    made, and for an unknown `similar:` id.
    """
    if isinstance(query, str):
        query = parse_query(query)
    if query.empty:
        return QueryResult(library.ids())
    kind = query.kind
    if kind.kind == PLAIN and query.words is None:  # `~` alone (parse_kind: a `~` with nothing after is PLAIN)
        return QueryResult([], hint="~ needs a question after it, e.g. ~how do models learn from few examples")
    if kind.kind == MEANING:
        return _by_meaning(library, query, index, recommender)
    if not kind.recommendation:
        result = index.find(query.words)
        ids = result.ids if query.ranked else in_library_order(library, result.ids)
        return QueryResult(ids, hint=result.hint, terms=result.terms)
    if kind.kind == CONFLICT:  # a shared project's conflicts (issue 27), in library order, narrowed by the rest
        ids = library.project_book.conflict_ids()
        if kind.rest:
            matching = set(index.find(query.words).ids)
            ids = [paper_id for paper_id in ids if paper_id in matching]
        return QueryResult(ids, terms=query.terms)
    if kind.kind == CHECK:  # the random progress check's papers of the rest of the query (db.triage.progress)
        from db.triage.progress import check_ids, scope_of

        scope = scope_of(kind.rest)  # `is:check` alone: the whole library's check, else the latest drawn of any view
        return QueryResult(check_ids(library, scope if scope or library.latest_check("") else None),
                           terms=query.terms)
    if recommender is None:
        from db.recommend.recommender import Recommender

        recommender = Recommender(library)
    interest: dict[str, str] = {}
    # with a filter (`is:recommended venue:"ICLR 2018"`), every paper is ranked and the filter's best come
    # first: filtering the library-wide top 50 would leave only the venue's share of them
    every = {"limit": None} if kind.rest else {}
    if kind.kind == INTERESTS:
        from db.triage.interests import queue

        result = queue(library, recommender)
        if not result.ids and result.waiting:
            raise MarginError(f"Tag a paper with {', '.join(repr(name) for name in result.waiting)} to get "
                              f"suggestions for it")
        interest = result.interest
    elif kind.kind == RECOMMENDED:
        result = recommender.recommend(**every)
    elif kind.kind == SIMILAR:
        try:
            result = recommender.similar(library.find_id(kind.argument), **every)
        except KeyError:
            raise MarginError(f"no single paper has the id '{kind.argument}' (see: margin list)") from None
    else:
        result = recommender.more_like_tag(kind.argument or "", **every)
    ids = list(result.ids)
    hint = ""
    if kind.rest:
        narrowed = index.find(query.words)
        matching = set(narrowed.ids)
        ids = [i for i in ids if i in matching]
        if kind.kind != INTERESTS:
            from db.recommend.recommender import DEFAULT_LIMIT

            ids = ids[: SIMILAR_LIMIT if kind.kind == SIMILAR else DEFAULT_LIMIT]
        hint = narrowed.hint
    return QueryResult(ids, why=dict(result.why), hint=hint, terms=query.terms,
                       interest={i: interest[i] for i in ids if i in interest})


def _by_meaning(library: Library, query: Query, index: SearchIndex, recommender) -> QueryResult:
    """`~TEXT`: the index's BM25 ranking of the words and the papers nearest the text's vector (cosine), fused by
    reciprocal rank (each paper scores the sum of 1 / (RRF_K + rank) over the rankings it is in). A paper is near
    only above its noise floor (SemanticVectors.floor: what text meaning nothing reaches on it, plus a margin),
    so words that mean nothing find nothing, and the hint says so. Without vectors: the BM25 ranking alone, with
    a hint saying so."""
    found = index.find(query.words, limit=MEANING_DEPTH) if query.words is not None else None
    lexical = found.ids if found is not None else []
    if recommender is None:
        from db.recommend.recommender import Recommender

        recommender = Recommender(library)
    semantic = recommender.semantic_vectors()
    if semantic is None:
        return QueryResult(lexical, hint="no semantic vectors yet: matched by words only", terms=query.terms)
    scores = semantic.matrix @ semantic.query(query.kind.argument or "")
    scores[~semantic.has | (scores <= semantic.floor())] = -np.inf
    depth = min(MEANING_DEPTH, int(np.isfinite(scores).sum()))
    top = np.argpartition(-scores, depth - 1)[:depth] if depth else np.zeros(0, dtype=np.int64)
    nearest = [semantic.ids[i] for i in top[np.argsort(-scores[top], kind="stable")]]
    fused: dict[str, float] = {}
    for ranking in (lexical, nearest):
        for rank, paper_id in enumerate(ranking):
            fused[paper_id] = fused.get(paper_id, 0.0) + 1.0 / (RRF_K + rank + 1)
    ids = sorted(fused, key=lambda paper_id: -fused[paper_id])
    hint = found.hint if found is not None else ""
    if not nearest:
        hint = (f"no paper is near “{query.kind.argument}” in meaning (none above what text meaning nothing "
                f"reaches){': matched by words only' if ids else ''}")
    return QueryResult(ids, hint=hint, terms=query.terms)


def in_library_order(library: Library, ids: list[str]) -> list[str]:
    """`ids` in library order (papers.position, as `library.ids()` gives them)."""
    if len(ids) < 2:
        return list(ids)
    wanted = set(ids)
    return [paper_id for paper_id in library.ids() if paper_id in wanted]
