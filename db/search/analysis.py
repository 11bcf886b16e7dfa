"""Text as the index holds it and a query matches it: folding, words and CJK bigrams, English stems, the parts
of the combined text field, and the indexed forms of tags, years and ratings.

Text is folded the same way for indexing and querying (`fold`): NFC, case-folded, accents removed; CJK runs become
overlapping character bigrams (`TextTokenizer`); words are stemmed (Porter). `TextTokenizer` is named in the
index's pickled schema (db/search/documents.py): moving it means a new INDEX_SCHEMA_VERSION.
"""

from __future__ import annotations

import re
import unicodedata

from whoosh.analysis import StemFilter, Token, Tokenizer
from whoosh.lang.porter import stem as porter_stem
from whoosh.support.charset import accent_map

from db.text.abstract_markup import fold_for_matching
from db.text.cleaning import tag_key

TEXT_FIELD = "text"  # title, authors, abstract, note and tags together, title tokens weighted higher
PARTS = ("title", "authors", "abstract", "note", "tags")  # their order in TEXT_FIELD
PART_SPAN = 1 << 28  # part i holds positions i * PART_SPAN … (i + 1) * PART_SPAN - 1 (all five fit 32 bits)
SEGMENT = "\x1e"  # separates the parts of the combined text field
BOOST_MARK = "\x1f"  # "2.0\x1ftitle text": a part with a token boost

_MARKS = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_RUNS = re.compile(rf"[{_CJK}]+|[^{_CJK}]+")
_CJK_RUN = re.compile(rf"[{_CJK}]")
_MAPPED = re.compile("[A-Z\x80-\U0010ffff]+")  # the runs of characters whoosh's accent map may change
WORD = re.compile(r"\w+")


def reason_value(reason: str) -> str:
    """An exclusion reason as the index holds it and `reason:` matches it: folded, whitespace runs collapsed."""
    return " ".join(fold(reason).split())


def fold(text: str) -> str:
    """Text as it is matched: NFC, case-folded, accents removed (NFD marks and whoosh's accent map)."""
    text = unicodedata.normalize("NFC", text or "").casefold()
    if text.isascii():
        return text
    text = _MAPPED.sub(_unaccent, _MARKS.sub("", unicodedata.normalize("NFD", text)))
    return unicodedata.normalize("NFC", text)


def _unaccent(run: re.Match) -> str:
    return run.group().translate(accent_map)


class TextTokenizer(Tokenizer):
    """Words of folded text; a CJK run becomes its character bigrams (a lone CJK character stays one token).

    A value made of parts `boost\\x1ftext` separated by `\\x1e` gives each part's tokens that boost; part i
    starts at position i * PART_SPAN, so that `title:` can be answered from positions and no phrase spans two
    parts.
    """

    def __call__(self, value, positions=False, chars=False, keeporiginal=False, removestops=True,
                 start_pos=0, start_char=0, tokenize=True, mode="", **kwargs):
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for first, boost, pieces in text_parts(value, start_pos):
            for pos, piece in enumerate(pieces, first):
                token.text = piece
                token.boost = boost
                token.stopped = False
                if positions:
                    token.pos = pos
                if chars:
                    token.startchar = token.endchar = start_char
                yield token


def text_parts(value: str, start_pos: int = 0):
    """(first position, boost, words) for each part of a text value, as TextTokenizer yields them: folded
    words and CJK bigrams, at most PART_SPAN (268 million) per part."""
    for number, part in enumerate(value.split(SEGMENT)):
        boost = 1.0
        if BOOST_MARK in part:
            mark, part = part.split(BOOST_MARK, 1)
            boost = float(mark or 1.0)
        yield start_pos + number * PART_SPAN, boost, part_words(part)


def part_words(part: str) -> list[str]:
    """The words of one part of a text value (text_parts): folded words and CJK bigrams, at most PART_SPAN."""
    part = fold(part)
    words = WORD.findall(part)
    if _CJK_RUN.search(part):
        words = [piece for word in words for piece in _pieces(word)]
    return words[:PART_SPAN]


class _Stems(dict):
    """word → Porter stem, filled on first use (a plain dict lookup after that)."""

    def __missing__(self, word: str) -> str:
        stemmed = porter_stem(word)
        if len(self) < 500_000:
            self[word] = stemmed
        return stemmed


_STEMS = _Stems()


def stem(word: str) -> str:
    """The English (Porter) stem of a folded word, as the index holds it (cached)."""
    return _STEMS[word]


def term_positions(value: str, stem: bool) -> dict[str, tuple[list[int], float]]:
    """term → (positions, weight) for a text value: what TextTokenizer (| StemFilter when `stem`) yields,
    grouped per term without a Token per word (the bulk of indexing time). The weight is the sum of the
    boosts of the term's occurrences, added in position order as whoosh's Positions format does."""
    positions: dict[str, list[int]] = {}
    boosted: dict[int, float] = {}  # part number → boost, for parts whose boost is not 1
    in_boosted: set[str] = set()  # terms that occur in such a part
    for first, boost, words in text_parts(value):
        if stem:
            words = list(map(_STEMS.__getitem__, words))
        if boost != 1.0:
            boosted[first // PART_SPAN] = boost
            in_boosted.update(words)
        get = positions.get
        for pos, term in enumerate(words, first):
            found = get(term)
            if found is None:
                positions[term] = [pos]
            else:
                found.append(pos)
    out = {}
    for term, found in positions.items():
        if term in in_boosted:
            weight = 0.0
            for pos in found:
                weight += boosted.get(pos // PART_SPAN, 1.0)
        else:
            weight = float(len(found))
        out[term] = (found, weight)
    return out


def _pieces(word: str) -> list[str]:
    if not _CJK_RUN.search(word):
        return [word]
    pieces = []
    for run in _RUNS.findall(word):
        if _CJK_RUN.match(run) and len(run) > 1:
            pieces += [run[i : i + 2] for i in range(len(run) - 1)]
        else:
            pieces.append(run)
    return pieces


def text_analyzer():
    """Folded words and CJK bigrams, stemmed (English), stop words kept so that phrases keep them."""
    return TextTokenizer() | StemFilter(cachesize=100000)


def plain_analyzer():
    """Folded words without stemming (venue)."""
    return TextTokenizer()


def tag_analyzer():
    """Whole tags, one per line, already folded by `tag_value`."""
    from whoosh.analysis import RegexTokenizer

    return RegexTokenizer(r"[^\n]+")


def tag_value(tag: str) -> str:
    """The indexed form of one tag: its library key, accents folded too (a comma stays inside the tag)."""
    return fold(tag_key(tag))


def number_value(name: str, number: int | None) -> str:
    """The indexed form of a year or rating: fixed width digits, so that ranges compare as text; 0 = none."""
    return f"{min(max(number or 0, 0), 9999):04d}" if name == "year" else str(min(max(number or 0, 0), 9))


_ANALYZERS: dict = {}


def query_analyzers() -> dict:
    """Field name → analyzer for the fields whose values are analyzed text (shared, built once)."""
    if not _ANALYZERS:
        text = text_analyzer()
        _ANALYZERS.update({TEXT_FIELD: text, "venue": plain_analyzer()})
    return _ANALYZERS


def highlight_prefixes(words: list[str]) -> list[str]:
    """The starts of the words to mark for a query's `words` (ParsedQuery.terms): each word folded as the text it
    is marked in (db.text.abstract_markup.fold_for_matching), cut to its English stem when that is a start of it
    of 3 letters or more (reasoning → reason), else to all but its last two letters (at least 3). Non-ASCII words
    and words of 3 letters or fewer stay whole; words under 2 characters are left out; order kept, no repeats.
    A phrase ("policy gradient", a term with spaces) stays one entry, each of its words cut so."""
    prefixes = []
    for word in words:
        if " " in word:
            prefixes.append(" ".join(_highlight_prefix(part) for part in word.split()))
        elif len(word) >= 2:
            prefixes.append(_highlight_prefix(word))
    return list(dict.fromkeys(prefixes))


def _highlight_prefix(word: str) -> str:
    word = fold_for_matching(word)
    if word.isascii() and len(word) > 3:
        stemmed = stem(word)
        word = stemmed if word.startswith(stemmed) and len(stemmed) >= 3 else word[: max(3, len(word) - 2)]
    return word


# `decision:` (db.search.language): the values a user's own screening decision takes (issue 29's side of the
# field); every other value is matched against the venue's decision and presentation words below
SCREENING_VALUES = ("include", "exclude", "maybe", "none")
_DECISION_WORDS = {"accepted": "accept", "rejected": "reject", "withdraw": "withdrawn", "orals": "oral",
                   "posters": "poster", "spotlights": "spotlight", "workshops": "workshop"}


def decision_value(word: str) -> str:
    """A venue decision word as the index holds it: folded, one spelling (`Rejected` → reject, `withdraw` →
    withdrawn, `accepted` → accept)."""
    word = fold(word).strip()
    return _DECISION_WORDS.get(word, word)


def decision_words(extra: dict) -> list[str]:
    """The venue's words for a paper (db.paper extra `decision` and `presentation`): "Accept (Oral)" gives
    accept, oral; "Reject" reject; "Withdrawn" withdrawn; a published paper with a decision also gets accept."""
    from db.paper import published

    text = " ".join(str(extra.get(key) or "") for key in ("decision", "presentation"))
    words = [decision_value(word) for word in re.findall(r"[^\W_]+", text)]
    if extra.get("decision") and published(extra) and "workshop" not in words:
        words.append("accept")
    return list(dict.fromkeys(word for word in words if word))
