"""The sidebar's filters in the query text: a click replaces the filter of its kind, Ctrl+click adds one.

`with_filter(query_text, fragment, add=False)` takes what the sidebar emits as `fragment`: `venue:"NIPS 2017"`,
`tag:"to read"`, `rating:5`, `rating:none`, `read:no`, `is:recommended` — or "" for All papers, which clears
the query. No Qt here; the window calls it.

The query is read with the query language's lexer (db.search.language: `_LEX`, `_chunk`) into the shape its parser
gives it: an OR of AND-sequences of clauses, a clause being a word, a phrase, a field filter (`venue:ICLR`,
`venue:"ICLR 2018"`, `venue:(a OR b)`), a group in parentheses or a NOT-ed clause. A filter's *kind* is its field
(`tag` and `tags` are one kind, `author` and `authors` another); a query kind's clause (db.query_kind: `is:recommended`,
`similar:ID`, `similar-tag:NAME`, `is:interests`, `is:check`) is one kind, "view".

Replacing (add=False) removes every clause standing at the top of the query — ANDed with the rest — that is a
filter of the fragment's kind, or an OR or group made only of such filters (`venue:A OR venue:B`). NOT-ed
filters (`-venue:X`, `NOT tag:x`), filters inside an OR or group with anything else (`graph OR tag:x`) and
the user's words stay as typed. Adding (add=True) removes nothing. Either way a filter already standing in
the query is not added twice (`tag:x` is `tag:"X"`: the comparison folds case and accents).

Result: the clauses kept, in the order typed, then the fragment's, one space apart — so
`graph venue:"ICLR 2018" tag:x` + `venue:"NIPS 2017"` gives `graph tag:x venue:"NIPS 2017"`. What the parser
would read the same way is tidied: a top-level OR beside other clauses is put in parentheses (so that the
fragment narrows all of it, as in `(graph OR tree) venue:"NIPS 2017"`), a missing closing quote or
parenthesis is added, and stray `)` and dangling operators are dropped. Never raises.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from db.query_kind import is_kind_clause, quoted, unquoted
from db.search.analysis import fold, tag_value
from db.search.language import _CONTROL, _LEX, _chunk

# (sep, clause): sep is the AND (or &&) typed before the clause, None when the AND is implied
_Items = list[tuple["str | None", "_Clause"]]
_Alternatives = list[tuple[str, _Items]]  # (the OR typed before it, its clauses), for each alternative
VIEW = "view"
ONE_PER_PAPER = frozenset({"venue", "year", "rating", "read", "decision"})  # fields with one value a paper
_OR = re.compile(r"\s+(?:OR|\|\|)\s+")


@dataclass
class _Piece:
    kind: str  # "(", ")", "phrase", "chunk"
    text: str  # as typed; a phrase with its quotes, the closing one added when missing
    gap: bool  # whitespace before it


@dataclass
class _Clause:
    text: str
    kind: str | None  # the filter's kind; None for words, phrases, NOT-ed clauses and mixed groups
    key: tuple  # equal for the same filter however it is spelled
    alternatives: bool = False  # an OR without parentheses: parenthesized when other clauses stand beside it


def with_filter(query_text: str, fragment: str, add: bool = False) -> str:
    """`query_text` with the sidebar's `fragment` in it: replacing the standing filters of its kind, or when
    `add` (Ctrl+click) beside them; "" for an empty `fragment` (All papers). See the module's docstring."""
    fragment = _clean(fragment)
    if not fragment.strip():
        return ""
    try:
        clauses = _clauses(_clean(query_text))
        added = _clauses(fragment)
    except RecursionError:  # parentheses nested hundreds deep: keep the text as it is, the fragment after it
        return " ".join([*_clean(query_text).split(), fragment.strip()])
    if not add:
        kinds = {clause.kind for _sep, clause in added if clause.kind}
        clauses = [(sep, clause) for sep, clause in clauses if clause.kind not in kinds]
    else:
        clauses, added = _either(clauses, added)
    keys = {clause.key for _sep, clause in clauses}
    for _sep, clause in added:
        if clause.key not in keys:
            clauses.append((None, clause))
            keys.add(clause.key)
    out: list[str] = []
    for n, (sep, clause) in enumerate(clauses):
        if n and sep:
            out.append(sep)
        out.append(f"({clause.text})" if clause.alternatives and len(clauses) > 1 else clause.text)
    return " ".join(out)


def with_tag_renamed(query_text: str, old: str, new: str) -> str:
    """`query_text` with its filters on tag `old` (`tag:"old"`, `tag:old`, `-tags:old`; in any case) naming `new`
    instead, after the tag was renamed or merged; the rest as typed."""
    forms = [re.escape(quoted(old))]
    if old and not any(char.isspace() or char in '"()' for char in old):
        forms.append(re.escape(old) + r"(?=[\s)]|$)")
    pattern = re.compile(r'(?i)(?<![\w:"])(-?)(tags?):(?:' + "|".join(forms) + ")")
    return pattern.sub(lambda m: f"{m.group(1)}{m.group(2)}:{quoted(new)}", query_text)


def _either(clauses: _Items, added: _Items) -> tuple[_Items, _Items]:
    """Adding (Ctrl+click) a filter of a field a paper has one value of (ONE_PER_PAPER: its venue, year, rating,
    read state, decision) beside standing ones of the same field: a paper cannot match both, so they become one
    group of alternatives, `(venue:"A" OR venue:"B")` — ANDed they would always list nothing. Tags (a paper has
    many) stay ANDed. Returns the clauses kept and the clauses still to add."""
    left: _Items = []
    for sep, new in added:
        same = [clause for _sep, clause in clauses if clause.kind == new.kind and new.kind in ONE_PER_PAPER]
        if not same:
            left.append((sep, new))
            continue
        parts = [part for clause in same for part in _OR.split(_inside(clause.text))]
        if fold(new.text) not in {fold(part.strip()) for part in parts}:
            parts.append(new.text)
        text = f"({' OR '.join(part.strip() for part in parts)})" if len(parts) > 1 else parts[0]
        clauses = [(s, clause) for s, clause in clauses if clause.kind != new.kind]
        clauses.append((None, _Clause(text, new.kind, (False, new.kind, fold(text)))))
    return clauses, left


def _inside(text: str) -> str:
    """A group's text without its outer parentheses (as written, when it is not one group)."""
    return text[1:-1] if text.startswith("(") and text.endswith(")") and text.count("(") == 1 else text


def _clean(text: str) -> str:
    return unicodedata.normalize("NFC", _CONTROL.sub(" ", text or ""))


def _clauses(text: str) -> _Items:
    """The clauses ANDed at the top of `text`; an OR at the top is one clause (`alternatives`)."""
    reader = _Reader(_pieces(text))
    out: _Items = []
    for alternatives in reader.top():
        if len(alternatives) == 1:
            out += alternatives[0][1]
        elif alternatives:
            rendered = _render(alternatives)
            out.append((None, _Clause(rendered, _kind(alternatives), (False, "", fold(rendered)), True)))
    return out


def _pieces(text: str) -> list[_Piece]:
    pieces: list[_Piece] = []
    gap = False
    for m in _LEX.finditer(text):
        if m.group("open"):
            pieces.append(_Piece("(", "(", gap))
        elif m.group("close"):
            pieces.append(_Piece(")", ")", gap))
        elif m.group("phrase") is not None:
            pieces.append(_Piece("phrase", f'"{m.group("phrase")}"', gap))
        elif m.group("chunk"):
            tokens = _chunk(m.group("chunk"))
            if len(tokens) > 1 and tokens[-1].kind in ("NOT", "AND", "OR"):  # -NOT, -OR: operators only
                pieces += [_Piece("chunk", token.kind, gap) for token in tokens]
            else:
                pieces.append(_Piece("chunk", m.group("chunk"), gap))
        else:
            gap = True
            continue
        gap = False
    return pieces


def _operator(piece: _Piece | None) -> str | None:
    """"AND" or "OR" when `piece` is one (also && and ||)."""
    if piece is None or piece.kind != "chunk":
        return None
    tokens = _chunk(piece.text)
    return tokens[0].kind if len(tokens) == 1 and tokens[0].kind in ("AND", "OR") else None


def _render(alternatives: _Alternatives) -> str:
    out: list[str] = []
    for n, (or_text, items) in enumerate(alternatives):
        if n:
            out.append(or_text)
        for m, (sep, clause) in enumerate(items):
            if m and sep:
                out.append(sep)
            out.append(clause.text)
    return " ".join(out)


def _kind(alternatives: _Alternatives) -> str | None:
    """The one kind of filter all the clauses are, else None."""
    kinds = {clause.kind for _or, items in alternatives for _sep, clause in items}
    return kinds.pop() if len(kinds) == 1 else None


def _value_key(name: str, value: str) -> str:
    if name == "tag":
        return tag_value(value)
    return " ".join(fold(value).split())


class _Reader:
    """Pieces → alternatives and clauses, as db.search.language._Parser groups the same tokens."""

    def __init__(self, pieces: list[_Piece]):
        self.pieces = pieces
        self.i = 0

    def peek(self) -> _Piece | None:
        self.skip_empty()
        return self.pieces[self.i] if self.i < len(self.pieces) else None

    def take(self) -> _Piece:
        self.i += 1
        return self.pieces[self.i - 1]

    def skip_empty(self) -> None:
        """Pass chunks the lexer makes nothing of (a lone `-`)."""
        while self.i < len(self.pieces) and self.pieces[self.i].kind == "chunk" and not _chunk(
                self.pieces[self.i].text):
            self.i += 1

    def top(self) -> list[_Alternatives]:
        """The whole text: one OR expression, or several ANDed ones where a stray `)` ends one."""
        parts = [self.expression(inner=False)]
        while self.peek() is not None:  # a stray ")"
            self.take()
            parts.append(self.expression(inner=False))
        return parts

    def expression(self, inner: bool) -> _Alternatives:
        """Alternatives up to a `)` (taken when `inner`) or the end of the text."""
        alternatives: _Alternatives = []
        items: _Items = []
        or_text, and_text = "OR", None
        while (piece := self.peek()) is not None:
            if piece.kind == ")":
                if inner:
                    self.take()
                break
            if operator := _operator(piece):
                self.take()
                if operator == "AND":
                    and_text = piece.text
                    continue
                if items:
                    alternatives.append((or_text, items))
                    items = []
                or_text, and_text = piece.text, None
                continue
            clause = self.clause()
            if clause is not None:
                items.append((and_text if items else None, clause))
                and_text = None
        if items:
            alternatives.append((or_text, items))
        return alternatives

    def group(self) -> tuple[str, str | None]:
        """After a `(`: the group's text, closed, and its kind."""
        alternatives = self.expression(inner=True)
        return f"({_render(alternatives)})", _kind(alternatives)

    def clause(self) -> _Clause | None:
        piece = self.take()
        if piece.kind == "(":
            text, kind = self.group()
            return _Clause(text, kind, (False, "", fold(text))) if text != "()" else None
        if piece.kind == "phrase":
            return _Clause(piece.text, None, (False, "", fold(piece.text)))
        if piece.text == "NOT":
            nxt = self.peek()
            if nxt is None or nxt.kind == ")" or _operator(nxt):
                return None  # a dangling NOT: the parser drops it
            inner = self.clause()
            return _Clause(f"NOT {inner.text}", None, (True, inner.key)) if inner is not None else None
        tokens = _chunk(piece.text)
        negated = bool(tokens) and tokens[0].kind == "NOT"  # -word, -field:value
        while tokens and tokens[0].kind == "NOT":
            tokens = tokens[1:]
        if tokens and tokens[0].kind == "field":
            return self.field(piece, tokens[0].text, tokens[1].text if len(tokens) > 1 else None, negated)
        text = piece.text
        if not negated and text.lower().endswith("similar-tag:"):
            nxt = self.peek()
            if nxt is not None and nxt.kind == "phrase" and not nxt.gap:
                text += self.take().text
        if not negated and is_kind_clause(text):
            return _Clause(text, VIEW, (False, VIEW, fold(text)))
        return _Clause(text, None, (negated, "", fold(text)))

    def field(self, piece: _Piece, name: str, value: str | None, negated: bool) -> _Clause | None:
        """`name:value`; when the chunk is only `name:`, its value is the next phrase, group or word."""
        text = piece.text
        if value is None:
            nxt = self.peek()
            space = " " if nxt is not None and nxt.gap else ""
            if nxt is not None and nxt.kind == "phrase":
                value = unquoted(self.take().text[1:-1])
                text += space + nxt.text
            elif nxt is not None and nxt.kind == "(":
                self.take()
                group, _ = self.group()
                text += space + group
            elif nxt is not None and nxt.kind == "chunk" and [t.kind for t in _chunk(nxt.text)] == ["word"]:
                value = self.take().text
                text += space + value
            else:
                return None  # a field without a value: the parser skips it
        key = (negated, name, _value_key(name, value) if value is not None else fold(text))
        return _Clause(text, None if negated else name, key)
