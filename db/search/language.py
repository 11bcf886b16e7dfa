"""The search query language: the user's text → a whoosh query, terms to highlight, and a hint.

The parser is hand-written so that no input can make it raise: stray operators are dropped, unclosed quotes
and parentheses are closed or taken as plain words, and a clause it cannot use becomes a short hint instead
of a silent empty result. Words are analyzed as the index holds them (db/search/analysis.py).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from whoosh import query as q
from whoosh.lang.porter import stem as porter_stem

from db.query_kind import unquoted
from db.search.analysis import PART_SPAN as PART_SPAN  # tests' reference ranker reads it from here
from db.search.analysis import (
    PARTS,
    SCREENING_VALUES,
    TEXT_FIELD,
    WORD,
    decision_value,
    fold,
    number_value,
    query_analyzers,
    reason_value,
    tag_value,
)
from db.search.syntax_help import SEARCH_SYNTAX_HELP as SEARCH_SYNTAX_HELP  # Help → Search syntax

FIELDS = ("title", "abstract", "author", "authors", "note", "tag", "tags", "venue", "year", "rating", "read",
          "decision", "reason")
_VENUE_WORDS = ("accept", "reject", "withdrawn", "oral", "poster", "spotlight", "workshop")  # the usual ones
SCREENING_DECISIONS = SCREENING_VALUES  # decision: values that mean the screening decision
_FIELD_NAMES = {"author": "authors", "tags": "tag"}
MAX_QUERY_CHARS = 1000
MIN_PREFIX = 2

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_RANGE = re.compile(r"^(\d*)\s*(?:\.\.|-)\s*(\d*)$")
_COMPARE = re.compile(r"^(>=|<=|>|<|=)?(\d+)$")
_TRUE = {"yes", "y", "true", "1", "read"}
_FALSE = {"no", "n", "false", "0", "unread"}


class InPart(q.WrappingQuery):
    """`child` (a query on the text field) matched only inside one part of it (PARTS[part]): run by
    SearchIndex's ranker, which checks the positions."""

    def __init__(self, child: q.Query, part: int):
        super().__init__(child)
        self.part = part

    def __eq__(self, other):
        return isinstance(other, InPart) and (self.child, self.part) == (other.child, other.part)

    def __hash__(self):
        return hash((self.child, self.part))

    def __repr__(self):
        return f"InPart({self.child!r}, {PARTS[self.part]})"


@dataclass
class ParsedQuery:
    """`query` is None when there is nothing to search; `hint` says why, or what was taken differently; `terms`
    are the words to highlight; `text` is the text parsed (as given)."""

    query: q.Query | None
    terms: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    text: str = ""

    @property
    def hint(self) -> str:
        return "; ".join(dict.fromkeys(self.hints))

    @property
    def ranked(self) -> bool:
        """True when the query has something to rank by: a word, phrase or wildcard searched in the text
        (title, abstract, authors, note, tags), not under a NOT. A query of filters only (venue:, tag:, year:,
        rating:, read:, NOT-ed words) selects papers without ranking them; its matches all score alike."""
        return self.query is not None and _ranks(self.query)


def _ranks(node: q.Query) -> bool:
    if isinstance(node, q.Not):
        return False
    if isinstance(node, InPart):
        return _ranks(node.child)
    if isinstance(node, (q.And, q.Or)):
        return any(_ranks(sub) for sub in node.subqueries)
    return getattr(node, "fieldname", None) == TEXT_FIELD


# ----------------------------------------------------------------------------------------------- lexing
@dataclass
class _Tok:
    kind: str  # "(", ")", "AND", "OR", "NOT", "word", "phrase", "field"
    text: str = ""


# a quoted phrase or value: a quote inside it is written twice (`tag:"say ""hi"""`, db.query_kind.quoted)
_LEX = re.compile(r'\s+|(?P<open>\()|(?P<close>\))|"(?P<phrase>(?:[^"]|"")*)(?P<end>"?)|(?P<chunk>[^\s()"]+)')


def _lex(text: str, hints: list[str]) -> list[_Tok]:
    tokens: list[_Tok] = []
    for m in _LEX.finditer(text):
        if m.group("open"):
            tokens.append(_Tok("("))
        elif m.group("close"):
            tokens.append(_Tok(")"))
        elif m.group("phrase") is not None:
            if m.group("end"):
                tokens.append(_Tok("phrase", unquoted(m.group("phrase"))))
            else:
                hints.append("unclosed quote: searched its words")
                tokens += [_Tok("word", w) for w in unquoted(m.group("phrase")).split()]
        elif m.group("chunk"):
            if re.match(r"(?i)-?is:", m.group("chunk")):  # the kinds (is:recommended…) were taken before
                hints.append(f"{m.group('chunk').lstrip('-')}: is: takes recommended, interests, check or conflict "
                             f"(unread papers: read:no); searched as a word")
            tokens += _chunk(m.group("chunk"))
    return tokens


def _chunk(chunk: str) -> list[_Tok]:
    if chunk in ("AND", "OR", "NOT", "&&", "||"):
        return [_Tok({"&&": "AND", "||": "OR"}.get(chunk, chunk))]
    if chunk.startswith("-"):
        return [_Tok("NOT"), *_chunk(chunk.lstrip("-"))] if chunk.strip("-") else []
    name, colon, rest = chunk.partition(":")
    if colon and name.lower() in FIELDS:
        field_tok = _Tok("field", _FIELD_NAMES.get(name.lower(), name.lower()))
        return [field_tok, _Tok("word", rest)] if rest else [field_tok]
    return [_Tok("word", chunk)]


# ----------------------------------------------------------------------------------------------- parsing
class _Parser:
    def __init__(self, tokens: list[_Tok], analyzers: dict, hints: list[str]):
        self.tokens = tokens
        self.default_field: str | None = None  # inside title:( … )
        self.i = 0
        self.analyzers = analyzers
        self.hints = hints
        self.terms: list[str] = []

    def peek(self) -> _Tok | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> _Tok:
        self.i += 1
        return self.tokens[self.i - 1]

    def parse(self) -> q.Query | None:
        parts = []
        while self.peek() is not None:
            part = self.parse_or(negated=False)
            if part is not None:
                parts.append(part)
            if self.peek() is not None and self.peek().kind == ")":
                self.take()  # a stray closing parenthesis
        return _and(parts)

    def parse_or(self, negated: bool) -> q.Query | None:
        parts = [self.parse_and(negated)]
        while self.peek() is not None and self.peek().kind == "OR":
            self.take()
            parts.append(self.parse_and(negated))
        parts = [p for p in parts if p is not None]
        if len(parts) > 1:
            return q.Or(parts)
        return parts[0] if parts else None

    def parse_and(self, negated: bool) -> q.Query | None:
        parts = []
        while (tok := self.peek()) is not None and tok.kind not in (")", "OR"):
            if tok.kind == "AND":
                self.take()
                continue
            part = self.parse_unary(negated)
            if part is not None:
                parts.append(part)
        return _and(parts)

    def parse_unary(self, negated: bool) -> q.Query | None:
        tok = self.take()
        if tok.kind == "NOT":
            nxt = self.peek()
            if nxt is None or nxt.kind in (")", "OR", "AND"):
                return None  # a dangling NOT
            inner = self.parse_unary(not negated)
            return q.Not(inner) if inner is not None else None
        if tok.kind == "(":
            inner = self.parse_or(negated)
            if self.peek() is not None and self.peek().kind == ")":
                self.take()
            return inner
        if tok.kind == "field":
            return self.parse_field(tok.text, negated)
        return self.text_query(self.default_field or TEXT_FIELD, tok.text, tok.kind == "phrase", negated)

    def parse_field(self, name: str, negated: bool) -> q.Query | None:
        value = self.peek()
        if value is None or value.kind not in ("word", "phrase", "("):
            self.hints.append(f"{name}: needs a value")
            return None
        if value.kind == "(":  # title:(a OR b): the group searched in that field
            self.take()
            saved, self.default_field = self.default_field, name
            inner = self.parse_or(negated)
            self.default_field = saved
            if self.peek() is not None and self.peek().kind == ")":
                self.take()
            return inner
        self.take()
        return self.field_query(name, value.text, value.kind == "phrase", negated)

    def field_query(self, name: str, value: str, phrase: bool, negated: bool) -> q.Query | None:
        if name in ("year", "rating"):
            return self.number_query(name, value)
        if name == "read":
            word = fold(value).strip()
            if word in _TRUE or word in _FALSE:
                return q.Term("read", "yes" if word in _TRUE else "no")
            self.hints.append("read: takes yes or no")
            return None
        if name == "decision":
            word = fold(value).strip()
            if word in SCREENING_DECISIONS:
                return q.Term("decision", word)
            return self.venue_decision(value)
        if name == "reason":
            reason = reason_value(value)
            if reason in ("", "none") and not phrase:  # excluded without a reason
                return q.And([q.Term("decision", "exclude"), q.Term("reason", "")])
            if not phrase and reason.endswith("*") and len(reason.rstrip("*")) >= MIN_PREFIX:
                return q.Prefix("reason", reason.rstrip("*"))
            return q.Term("reason", reason)
        if name == "tag":
            tag = tag_value(value)
            if not tag:
                self.hints.append("tag: needs a value")
                return None
            if not phrase and ("*" in tag or "?" in tag):
                return self.wildcard("tag", tag)
            return q.Term("tag", tag)
        return self.text_query(name, value, phrase, negated, highlight=name not in ("venue",))

    def venue_decision(self, value: str) -> q.Query | None:
        """`decision:` with a value other than the screening decisions (include, exclude, maybe, none): the venue's
        decision or presentation word (decision:oral, decision:reject; db.search.analysis.decision_words)."""
        word = decision_value(value)
        if not word:
            self.hints.append("decision: needs a value, e.g. decision:include or decision:oral")
            return None
        if word not in _VENUE_WORDS:  # a typo of a screening decision (decision:includ) finds nothing: say so
            self.hints.append(f"decision:{word} is no screening decision (include, exclude, maybe, none): "
                              f"matched as a venue's decision word")
        return q.Term("venue_decision", word)

    def number_query(self, name: str, value: str) -> q.Query | None:
        value = value.strip().lower()
        low_bound = 1  # 0 stands for "no year" / "unrated": comparisons never include it
        if name == "rating" and value in ("none", "no", "0", "unrated"):
            return q.Term("rating", number_value("rating", None))
        if m := _RANGE.match(value):
            start, end = (int(m.group(1)) if m.group(1) else None), (int(m.group(2)) if m.group(2) else None)
            if start is not None or end is not None:
                if start is not None and end is not None and start > end:
                    start, end = end, start
                self.rating_bounds(name, start or low_bound, end)
                return _number_range(name, max(start or low_bound, low_bound), end)
        elif m := _COMPARE.match(value):
            op, number = m.group(1) or "=", int(m.group(2))
            start, end = {"=": (number, number), ">": (number + 1, None), ">=": (number, None),
                          "<": (low_bound, number - 1), "<=": (low_bound, number)}[op]
            self.rating_bounds(name, start, end)
            if end is None or end >= max(start, low_bound):
                return _number_range(name, max(start, low_bound), end)
            return q.NullQuery
        example = ("rating:4, rating:>=4 or rating:none" if name == "rating"
                   else "year:2019, year:2017..2019 or year:>=2018")
        self.hints.append(f"{name}: takes a number, e.g. {example}")
        return None

    def rating_bounds(self, name: str, start: int, end: int | None) -> None:
        """A hint when a rating range holds no rating at all (rating:>=9, rating:<1): they are 1 to 5."""
        if name == "rating" and (start > 5 or (end is not None and end < max(start, 1))):
            self.hints.append("rating: ratings are 1 to 5 (rating:none for unrated papers)")

    def text_query(self, name: str, value: str, phrase: bool, negated: bool, highlight: bool = True):
        if name in PARTS:  # title:, abstract:, … are positions ranges of the one text field
            inner = self.text_query(TEXT_FIELD, value, phrase, negated, highlight)
            return InPart(inner, PARTS.index(name)) if inner is not None else None
        if name not in self.analyzers:
            return self.field_query(name, value, phrase, negated)
        folded = fold(value)
        if not phrase and ("*" in folded or "?" in folded):
            stripped = folded.strip("*?")
            if highlight and not negated and stripped:
                self.terms.append(stripped)
            return self.wildcard(name, folded)
        words = [t.text for t in self.analyzers[name](value)]
        if not words:
            return None
        if highlight and not negated:
            typed = WORD.findall(unicodedata.normalize("NFC", value))
            # a phrase is marked as a phrase (its words joined by a space), not word by word
            self.terms += [" ".join(typed)] if phrase and len(typed) > 1 else typed
        return q.Term(name, words[0]) if len(words) == 1 else q.Phrase(name, words)

    def wildcard(self, name: str, pattern: str) -> q.Query | None:
        if name != "tag":
            pattern = "".join(ch for ch in pattern if ch in "*?" or WORD.match(ch))
        letters = pattern.replace("*", "").replace("?", "")
        if not letters:
            self.hints.append("a lone * matches nothing: add letters, e.g. reinforc*")
            return None
        if len(letters) < MIN_PREFIX:
            self.hints.append(f"a wildcard needs at least {MIN_PREFIX} letters")
            return None
        head = re.split(r"[*?]", pattern, maxsplit=1)[0]
        if pattern != head + "*":
            return q.Wildcard(name, pattern)
        # the index holds stems: "learning*" must look for "learn…"
        stemmed = head if name == "tag" else porter_stem(head)
        if head.startswith(stemmed):
            return q.Prefix(name, stemmed)
        return q.Or([q.Prefix(name, head), q.Prefix(name, stemmed)])


def _number_range(name: str, start: int, end: int | None) -> q.Query:
    limit = 9999 if name == "year" else 9
    end = limit if end is None else min(end, limit)
    if start > end:
        return q.NullQuery
    if start == end:
        return q.Term(name, number_value(name, start))
    return q.TermRange(name, number_value(name, start), number_value(name, end))


def _and(parts: list[q.Query]) -> q.Query | None:
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else q.And(parts)


def parse(text: str, analyzers: dict) -> ParsedQuery:
    """Parse a user's query. `analyzers` maps field name → whoosh analyzer for the text fields (and "text").

    Returns a ParsedQuery; its `query` is None when nothing searchable is left (`hint` then says why).
    Never raises.
    """
    hints: list[str] = []
    given = text
    text = unicodedata.normalize("NFC", _CONTROL.sub(" ", text or ""))
    if len(text) > MAX_QUERY_CHARS:
        text = text[:MAX_QUERY_CHARS]
        hints.append(f"only the first {MAX_QUERY_CHARS} characters were searched")
    if not text.strip():
        return ParsedQuery(None, text=given)
    try:
        parser = _Parser(_lex(text, hints), analyzers, hints)
        parsed = parser.parse()
        terms = list(dict.fromkeys(parser.terms))
    except Exception:  # noqa: BLE001 - a bug here must not break the search box: search the plain words
        hints.append("searched the plain words")
        words = WORD.findall(text)
        parser = _Parser([_Tok("word", w) for w in words], analyzers, hints)
        parsed, terms = parser.parse(), words
    if parsed is None and not hints:
        hints.append("nothing to search for: type a word")
    return ParsedQuery(parsed, terms, hints, given)


def parse_query_text(text: str) -> ParsedQuery:
    """The user's query parsed for the index's fields (`parse` with query_analyzers()). Never raises."""
    return parse(text, query_analyzers())


def highlight_terms(text: str) -> list[str]:
    """What to highlight in the reader for query `text`: its words as typed (NFC), each phrase as one term (its
    words joined by a space), wildcard stems without the *; no field names, operators, NOT-ed words, or
    tag/venue/number values."""
    return parse_query_text(text).terms

