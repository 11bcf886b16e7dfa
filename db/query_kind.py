"""What a query asks for besides its words: its kind (plain, recommended, similar, similar-tag, interests, check).

A kind is one clause of the query, standing alone between spaces, anywhere in it, in any case:

| clause               | kind          | argument        |
|----------------------|---------------|-----------------|
| (none)               | `PLAIN`       | None            |
| `is:recommended`     | `RECOMMENDED` | None            |
| `similar:ID`         | `SIMILAR`     | the id (or a unique prefix of it), as typed |
| `similar-tag:"NAME"` | `SIMILAR_TAG` | the tag name (quotes optional for a name without spaces; "" when empty) |
| `is:interests`       | `INTERESTS`   | None            |
| `is:check`           | `CHECK`       | None            |
| `is:conflict`        | `CONFLICT`    | None (issue 27: a shared project's papers whose decisions conflict) |
| `~TEXT` (at the start) | `MEANING`   | TEXT, a question in plain language (issue 32) |

A query starting with `~` is a natural-language search: the rest is no query language but words, matched by
meaning and by BM25 together (db.query); nothing else in it is a clause. Otherwise the first such clause gives
the kind; the rest of the query (`QueryKind.rest`) narrows the kind's papers
(`is:recommended venue:"ICLR 2018"`). Ground floor: no Margin module is imported here; db.query answers a query by
its kind, db.search.filters treats a kind's clause as the sidebar's "view" filter, db.triage.progress takes it out
of a view's scope.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PLAIN = "plain"
RECOMMENDED = "recommended"
SIMILAR = "similar"
SIMILAR_TAG = "similar-tag"
INTERESTS = "interests"
CHECK = "check"
CONFLICT = "conflict"
MEANING = "meaning"

# one kind clause, delimited by whitespace or the ends of the text (an unclosed quote runs to the end)
_CLAUSE = re.compile(
    r'(?i)(?:^|(?<=\s))(?:(?P<recommended>is:recommended)|similar:(?P<similar>\S+)'
    r'|similar-tag:(?:"(?P<quoted>(?:[^"]|"")*)"?|(?P<bare>\S+))|(?P<check>is:check)|(?P<interests>is:interests)'
    r'|(?P<conflict>is:conflict))(?=\s|$)')


def quoted(value: str) -> str:
    """`value` as one quoted query value, read back whole by the query language (`tag:` + this is the tag named
    `value`, `venue:` + this that venue): in double quotes, each quote inside written twice (`"a ""b"" c"` is
    the value `a "b" c`)."""
    return '"' + value.replace('"', '""') + '"'


def unquoted(inside: str) -> str:
    """The text between a quoted value's quotes as the user meant it: a doubled quote is one quote."""
    return inside.replace('""', '"')


@dataclass(frozen=True)
class QueryKind:
    """A query's kind (one of the module's constants), its argument (the id of `similar:`, the tag of
    `similar-tag:`, else None) and the rest of the query: for PLAIN the whole text as typed, else the text
    without the kind's clause, ends stripped ("" when the clause stands alone)."""

    kind: str = PLAIN
    argument: str | None = None
    rest: str = ""

    @property
    def recommendation(self) -> bool:
        """True for every kind but PLAIN and MEANING: the papers come from the recommender, the interests queue
        or the progress check, in their order, and the rest of the query only filters them."""
        return self.kind not in (PLAIN, MEANING)

    def clause(self) -> str:
        """The kind's clause as the parser reads it back ("" for PLAIN): `similar-tag:"NAME"` (quoted())."""
        if self.kind == SIMILAR:
            return f"similar:{self.argument}"
        if self.kind == SIMILAR_TAG:
            return f"similar-tag:{quoted(self.argument or '')}"
        if self.kind == MEANING:
            return f"~{self.argument}"
        return "" if self.kind == PLAIN else f"is:{self.kind}"

    def __str__(self) -> str:
        """The query as text: the clause, then the rest; `parse_kind(str(kind)) == kind`."""
        if self.kind == PLAIN:
            return self.rest
        if self.kind == MEANING:
            return f"~{self.argument}"
        return f"{self.clause()} {self.rest}".strip()


def parse_kind(text: str) -> QueryKind:
    """The kind of query `text` (see the module's table). Never raises; any text is PLAIN without a clause."""
    if text.lstrip().startswith("~"):
        words = text.lstrip()[1:].strip()
        return QueryKind(MEANING, words, "") if words else QueryKind(PLAIN, None, "")
    found = _CLAUSE.search(text)
    if found is None:
        return QueryKind(PLAIN, None, text)
    rest = (text[: found.start()] + " " + text[found.end() :]).strip()
    if found.group("similar") is not None:
        return QueryKind(SIMILAR, found.group("similar"), rest)
    if found.group("quoted") is not None or found.group("bare") is not None:
        name = unquoted(found.group("quoted")) if found.group("quoted") is not None else found.group("bare")
        return QueryKind(SIMILAR_TAG, name or "", rest)
    kind = next(name for name in (RECOMMENDED, CHECK, INTERESTS, CONFLICT) if found.group(name))
    return QueryKind(kind, None, rest)


def is_kind_clause(text: str) -> bool:
    """Whether `text` is exactly one kind clause (`is:recommended`, `similar:ab12`, `similar-tag:"x y"`, …)."""
    return _CLAUSE.fullmatch(text) is not None


def without_kinds(text: str) -> str:
    """`text` with every kind clause replaced by a space (whitespace otherwise as typed)."""
    return _CLAUSE.sub(" ", text)
