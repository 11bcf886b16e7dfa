"""The postings of a text field for a whole new segment, kept as flat arrays while documents are added and turned
into posting blocks by numpy when the segment is written (db/search/writer.py's SegmentBuilder writes them).

Adding a document analyses its text once (db.search.analysis.text_parts) and appends a term number per word
(a dict lookup per word, in C: `map`) and one row per part (document, part, boost, word count); nothing is done
per posting. At the end one stable sort of the term numbers (terms in the order whoosh writes them) gives every
posting's document, term frequency and weight (the boosts of its occurrences summed in position order, as whoosh's
formats do), and every posting's positions packed as db/search/packing.py packs them: the same codes, made for
all postings at once, so that a block's packed positions are a slice of one string.
"""

from __future__ import annotations

from array import array

import numpy as np

from db.search.analysis import BOOST_MARK, PART_SPAN, SEGMENT, part_words, stem
from db.search.packing import _DELTA, _MAX_DELTA, _SWITCH, JUMP, JUMP_SIZE

# ASCII text: lower case, every byte that is not a word character (regex \w: letters, digits, _) a space
_ASCII_WORDS = bytes.maketrans(
    bytes(range(128)), bytes(c if chr(c).isalnum() or c == 95 else 32 for c in range(128)).lower())


def parts(value: str):
    """db.search.analysis.text_parts: (first position, boost, words) per part of a text value, the words of an
    ASCII part as bytes: what folding does to ASCII (lower case) and regex \\w+ done by bytes.translate and
    split, several times faster."""
    for number, part in enumerate(value.split(SEGMENT)):
        boost = 1.0
        if BOOST_MARK in part:
            mark, part = part.split(BOOST_MARK, 1)
            boost = float(mark or 1.0)
        if part.isascii():
            words = part.encode("ascii").translate(_ASCII_WORDS).split()
            yield number * PART_SPAN, boost, words if len(words) <= PART_SPAN else words[:PART_SPAN]
        else:
            yield number * PART_SPAN, boost, part_words(part)


class _TermNumbers(dict):
    """word → term number (the word's stem when stemming), numbering new terms as they come; a word is a str,
    or ASCII bytes (`parts`)."""

    def __init__(self, stemming: bool):
        super().__init__()
        self.stemming = stemming
        self.numbers: dict[str, int] = {}  # term → number
        self.terms: list[str] = []  # number → term

    def __missing__(self, word: str | bytes) -> int:
        text = word.decode("ascii") if isinstance(word, bytes) else word
        term = stem(text) if self.stemming else text
        number = self.numbers.get(term)
        if number is None:
            number = self.numbers[term] = len(self.terms)
            self.terms.append(term)
        self[word] = number
        return number


class TextPostings:
    """One text field's words (or the words the weights and positions fields share) of the documents added.

    `add(docnum, value)` returns the value's length (its word count, as whoosh counts it); `postings()` gives
    the posting lists (see `Postings`). Documents are added in ascending docnum order."""

    def __init__(self, stemming: bool):
        self._numbers = _TermNumbers(stemming)
        self._words = array("i")  # term number per word, documents and parts in order
        self._docs = array("I")  # per part with words: its document, part number, word count and boost
        self._parts = array("B")
        self._counts = array("I")
        self._boosts = array("d")
        self._found: Postings | None = None

    def add(self, docnum: int, value: str) -> int:
        length = 0
        number = self._numbers.__getitem__
        for first, boost, words in parts(value):
            if words:
                self._words.fromlist(list(map(number, words)))
                self._docs.append(docnum)
                self._parts.append(first // PART_SPAN)
                self._counts.append(len(words))
                self._boosts.append(boost)
                length += len(words)
        self._found = None
        return length

    def copy(self) -> TextPostings:
        """An independent copy (for when the weights and positions fields stop sharing their words)."""
        other = TextPostings(self._numbers.stemming)
        other._numbers.update(self._numbers)
        other._numbers.numbers.update(self._numbers.numbers)
        other._numbers.terms.extend(self._numbers.terms)
        for name in ("_words", "_docs", "_parts", "_counts", "_boosts"):
            getattr(other, name).extend(getattr(self, name))
        return other

    def postings(self) -> Postings:
        """The posting lists of the words added (worked out once)."""
        if self._found is None:
            self._found = _postings(self)
        return self._found


class Postings:
    """Posting lists of a field as arrays: `terms` (sorted, str), term i's postings are `start[i] … start[i+1]`
    of `docs` (uint32, ascending within a term) and `weights` (float32); `codes(i)` … packed positions."""

    __slots__ = ("terms", "start", "docs", "weights", "_codes", "_code_start", "_text")

    def __init__(self, terms, start, docs, weights, codes, code_start):
        self.terms, self.start, self.docs, self.weights = terms, start, docs, weights
        self._codes, self._code_start = codes, code_start
        self._text: str | None = None

    def packed(self, first: int, end: int) -> str:
        """The packed positions (db.search.packing) of postings first … end, as one string."""
        if self._text is None:
            self._text = self._codes.astype("<u4", copy=False).tobytes().decode("utf-32-le", "surrogatepass")
            self._codes = None
        return self._text[self._code_start[first] : self._code_start[end]]


def _postings(found: TextPostings) -> Postings:
    terms = found._numbers.terms
    if not found._words:
        return Postings([], np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.float32),
                        np.zeros(0, dtype=np.uint32), np.zeros(1, dtype=np.int64))
    by_text = sorted(range(len(terms)), key=terms.__getitem__)  # UTF-8 sorts as code points do
    rank = np.empty(len(terms), dtype=np.int32)
    rank[by_text] = np.arange(len(terms), dtype=np.int32)
    words = rank[np.frombuffer(found._words, dtype=np.int32)]
    # word numbers by term, then (stable) document and position; a radix sort when the terms fit 16 bits
    order = np.argsort(words.astype(np.uint16) if len(terms) <= 1 << 16 else words, kind="stable").astype(np.int32)
    words = np.repeat(np.arange(len(terms), dtype=np.int32), np.bincount(words, minlength=len(terms)))
    counts = np.frombuffer(found._counts, dtype=np.uint32).astype(np.int32)
    run_start = np.cumsum(counts, dtype=np.int32) - counts
    run = np.repeat(np.arange(len(counts), dtype=np.int32), counts)[order]  # the part (run) each word is in
    docs = np.frombuffer(found._docs, dtype=np.uint32)[run]
    new = np.ones(len(words), dtype=bool)
    new[1:] = (words[1:] != words[:-1]) | (docs[1:] != docs[:-1])
    posting = np.cumsum(new, dtype=np.int32) - 1  # posting number of each word
    firsts = np.flatnonzero(new)
    boosts = np.frombuffer(found._boosts, dtype=np.float64)
    if (boosts == 1.0).all():
        weights = np.bincount(posting, minlength=len(firsts)).astype(np.float32)
    else:  # summed in position order (bincount adds in index order), as whoosh's formats add boosts
        weights = np.bincount(posting, weights=boosts[run], minlength=len(firsts)).astype(np.float32)
    term_start = np.append(np.flatnonzero(np.append(True, words[firsts][1:] != words[firsts][:-1])), len(firsts))
    parts = np.frombuffer(found._parts, dtype=np.uint8).astype(np.int32)[run]
    codes, code_start = _codes(new, order - run_start[run], parts)
    return Postings([terms[i] for i in by_text], term_start, docs[firsts], weights, codes,
                    np.append(code_start[firsts], len(codes)))


def _codes(new: np.ndarray, within: np.ndarray, parts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The packed codes of words sorted by posting (`new`: a posting's first word; `within`: position in its
    part; `parts`): codes (uint32) and where each word's codes start, as packing.pack makes them."""
    count = len(within)
    if not count:
        return np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.int64)
    wide = np.int32 if count < 1 << 29 else np.int64  # int32: half the memory to fill (positions < 2**28)
    switch = new.copy()
    switch[1:] |= parts[1:] != parts[:-1]  # a posting's first word, or the first of a later part in it
    delta = within.astype(wide)
    delta[1:] -= within[:-1]
    switches = np.flatnonzero(switch)
    delta[switches] = within[switches]  # distances from the part's start
    far = np.flatnonzero(delta > _MAX_DELTA)
    if len(far):  # JUMP codes before the distance (never within an abstract)
        delta = delta.astype(np.int64)
        jumps = np.zeros(count, dtype=np.int64)
        jumps[far] = (delta[far] - _MAX_DELTA + JUMP_SIZE - 1) // JUMP_SIZE
        delta -= jumps * JUMP_SIZE
        sizes = switch + jumps + 1  # a code for the part, the jumps, then the distance's
        end = np.cumsum(sizes)  # where each word's codes end
        start = end - sizes
    else:
        end = np.cumsum(switch, dtype=wide)
        end += np.arange(1, count + 1, dtype=wide)
        start = end - 1
        start[switches] -= 1
    codes = np.empty(int(end[-1]), dtype=np.uint32)
    codes[start[switches]] = parts[switches] + np.where(new[switches], 0, _SWITCH)
    end -= 1
    delta += _DELTA
    codes[end] = delta
    if len(far):
        first = np.repeat(start[far] + switch[far], jumps[far])
        offset = np.arange(len(first)) - np.repeat(np.cumsum(jumps[far]) - jumps[far], jumps[far])
        codes[first + offset] = JUMP
    return codes, start
