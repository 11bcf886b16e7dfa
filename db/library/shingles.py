"""The word 3-shingles of an abstract as 63-bit keys in one global order (`shingle_key`): what near-duplicate
matching compares (Jaccard of the sets) and what its prefix keys are taken from (db.library.match_keys).

A text's keys are made by numpy from a table of its words' hashes (`shingle_array`); the last abstracts' sets
are kept (`shingles`), and an import makes those of the next records at once (`remember_shingles`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from itertools import chain

import numpy as np

MIN_WORDS = 12
_WORD = re.compile(r"\w+")


# words so common in abstracts that a shingle made of them is a poor candidate key: such shingles come last
# in the global order (the order is fixed here, not taken from the library, so that keys are stored once)
_COMMON = frozenset("""
a an the of in on at to for from by with without and or but not no nor as is are was were be been being this
that these those it its we our us they their them which who whom whose what when where how than then there here
such can could may might will would should do does did has have had into onto over under between among through
during within via per also both each either more most less very so thus however while whereas if whether only
other another same all any some many much few one two new based using use used show shows shown paper propose
proposed present approach method methods results result problem problems model models learning data task tasks
performance work well state art
""".split())
_MASK = (1 << 61) - 1
# ASCII text: lower case, every byte that is not a word character (regex \w: letters, digits, _) a space
_ASCII_WORDS = bytes.maketrans(
    bytes(range(128)), bytes(c if chr(c).isalnum() or c == 95 else 32 for c in range(128)).lower())

AHEAD = 64  # abstracts whose shingles an import makes at once (`remember_shingles`: ~20 KB a set kept)
_recent: dict[str, frozenset[int] | None] = {}  # the last abstracts' (an import asks for each one's twice or more)
_RECENT = 2 * AHEAD  # (more than AHEAD: the sets made ahead are still kept when the last of them is matched)
_sorted: dict[frozenset[int], list[int]] = {}  # the last shingle sets' keys in ascending order (ordered_prefix)


def shingles(abstract: str | None) -> frozenset[int] | None:
    """The word 3-shingles of the abstract as their keys (`shingle_key`), or None when it has fewer than
    MIN_WORDS words. The last _RECENT abstracts' are kept (an import asks for each one's two or three times)."""
    text = abstract or ""
    if text in _recent:
        return _recent[text]
    ordered = shingle_array(text)
    return _keep(text, None if ordered is None else ordered.tolist())


def _keep(text: str, ordered: list[int] | None) -> frozenset[int] | None:
    """Keep the shingle set of a text (given as its keys ascending, None for too few words) among the last
    _RECENT, and its keys ascending for `ascending` (ordered_prefix needs them so: made here once)."""
    if len(_recent) >= _RECENT:
        del _recent[next(iter(_recent))]  # the oldest
    keys = None if ordered is None else frozenset(ordered)
    _recent[text] = keys
    if keys is not None:
        if len(_sorted) >= _RECENT:
            del _sorted[next(iter(_sorted))]
        _sorted[keys] = ordered
    return keys


def remember_shingles(abstracts: Sequence[str | None]) -> None:
    """Make the shingle sets of these abstracts (up to AHEAD) at once and keep them as `shingles` does, so that
    asking for them next costs nothing. The same keys as `shingles`, made with one pass over the word table
    while it is in the processor's cache: made between an import's other work for each record, the lookups miss
    it (20,000 abstracts with a loop evicting the cache between them: 2.7 s one by one, 1.6 s made ahead)."""
    texts = []
    for text in dict.fromkeys(abstract or "" for abstract in abstracts):
        if text in _recent:
            _recent[text] = _recent.pop(text)  # (kept as the newest: not dropped before it is asked for)
        else:
            texts.append(text)
    split = [_words(text) for text in texts]
    long = [words for words in split if len(words) >= MIN_WORDS]
    everything = list(chain.from_iterable(long))
    if not everything:
        for text in texts:
            _keep(text, None)
        return
    ids = _numbers(everything)
    if ids is None:  # (more words than the table holds: one text at a time)
        for text in texts:
            shingles(text)
        return
    lengths = np.fromiter(map(len, long), dtype=np.intp, count=len(long))
    starts = np.ones(len(ids), dtype=bool)  # the shingles' first words: all but each text's last two
    ends = np.cumsum(lengths)
    starts[ends - 1] = starts[ends - 2] = False
    first = np.flatnonzero(starts)
    keys = _keys_of(ids[first], ids[first + 1], ids[first + 2])
    bounds = np.concatenate(([0], np.cumsum(lengths - 2))).tolist()
    for number in range(len(long)):
        keys[bounds[number] : bounds[number + 1]].sort()
    distinct = np.empty(len(keys), dtype=bool)
    np.not_equal(keys[1:], keys[:-1], out=distinct[1:])
    distinct[bounds[:-1]] = True  # (each text's first key)
    ordered = keys[distinct].tolist()
    bounds = np.searchsorted(np.flatnonzero(distinct), bounds).tolist()  # (each text's in `ordered`)
    made = iter(range(len(long)))
    for text, words in zip(texts, split, strict=True):
        if len(words) < MIN_WORDS:
            _keep(text, None)
        else:
            number = next(made)
            _keep(text, ordered[bounds[number] : bounds[number + 1]])


def _words(text: str) -> list[bytes] | list[str]:
    """A text's words as shingles are made of: case-folded runs of letters, digits and underscores."""
    if text.isascii():  # (what casefold and regex \w+ do to ASCII, by bytes.translate and split: 4× faster)
        return text.encode("ascii").translate(_ASCII_WORDS).split()
    return _WORD.findall(text.casefold())


def _numbers(words: list[bytes] | list[str]) -> np.ndarray | None:
    """The words' numbers in the word table (words not met before are added; the table is made again when it is
    full), or None when these words alone are more than it holds."""
    try:
        return np.fromiter(map(_table.index.__getitem__, words), dtype=np.intp, count=len(words))
    except KeyError:  # the table is full (a bounded cache: the vocabulary of a big import is larger)
        _table.clear()
        if len(set(words)) > _table.size:
            return None
        return np.fromiter(map(_table.index.__getitem__, words), dtype=np.intp, count=len(words))


def _keys_of(first: np.ndarray, second: np.ndarray, third: np.ndarray) -> np.ndarray:
    """The keys (`shingle_key`) of the shingles whose words have these numbers in the word table."""
    table = _table
    return (table.common[first] + table.common[second] + table.common[third]
            + (table.hashes[0][first] ^ table.hashes[1][second] ^ table.hashes[2][third]))


def shingle_array(text: str) -> np.ndarray | None:
    """The distinct shingle keys of a text ascending (int64: `shingle_key` fits in 63 bits), or None when it has
    fewer than MIN_WORDS words. Vectorised: the words' entries are looked up once, the keys made by numpy."""
    words = _words(text)
    if len(words) < MIN_WORDS:
        return None
    ids = _numbers(words)
    if ids is None:  # (never for an abstract: they are cut to 50,000 characters, db.text.cleaning)
        raise ValueError(f"a text of more than {_table.size:,} distinct words")
    keys = _keys_of(ids[:-2], ids[1:-1], ids[2:])
    keys.sort()
    distinct = np.empty(len(keys), dtype=bool)
    distinct[0] = True
    np.not_equal(keys[1:], keys[:-1], out=distinct[1:])
    return keys[distinct]


class _WordTable:
    """Per word: (common << 61) and three 61-bit hashes (as 1st, 2nd and 3rd word of a shingle), as arrays indexed
    by the word's number in `index` (up to `size` words, then made again)."""

    def __init__(self, size: int = 1 << 18):
        self.size = size
        self.common = np.zeros(size, dtype=np.int64)
        self.hashes = np.zeros((3, size), dtype=np.int64)
        self.index = _Index(self)

    def clear(self) -> None:
        self.index = _Index(self)

    def add(self, word: str | bytes) -> None:
        number = self.index[word] = len(self.index)
        common, *hashes = _word_entry(word)
        self.common[number] = common
        self.hashes[:, number] = hashes


class _Index(dict):
    """Word → its number in the table. A word not met before is added when it is looked up (no second pass over
    a text's words); a KeyError once the table is full."""

    def __init__(self, table: _WordTable) -> None:
        super().__init__()
        self._table = table

    def __missing__(self, word: str | bytes) -> int:
        if len(self) >= self._table.size:
            raise KeyError(word)
        self._table.add(word)
        return self[word]


_table = _WordTable()


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    common = len(a & b)
    return common / (len(a) + len(b) - common)


def _word_entry(word: str | bytes) -> tuple[int, int, int, int]:
    """(common << 61, and three 61-bit hashes: as 1st, 2nd and 3rd word of a shingle) of a word (str, or an
    ASCII word as bytes)."""
    if isinstance(word, bytes):
        word = word.decode("ascii")
    digest = hashlib.blake2b(word.encode(), digest_size=24).digest()
    return ((word in _COMMON) << 61, *(int.from_bytes(digest[i : i + 8], "big") & _MASK for i in (0, 8, 16)))


def shingle_key(a: str, b: str, c: str) -> int:
    """The place of the shingle (a, b, c) in the global order, as a 63-bit integer: how many of its words are
    common (2 bits: shingles of rarer words first), then a hash that is the same in every process and on every
    machine (61 bits: the words' blake2b hashes for their place, xor-ed). Two different shingles may share a
    key: that only adds a candidate to compare."""
    (common_a, hash_a, _, _), (common_b, _, hash_b, _), (common_c, _, _, hash_c) = map(_word_entry, (a, b, c))
    return common_a + common_b + common_c + (hash_a ^ hash_b ^ hash_c)


def ascending(keys: frozenset[int]) -> list[int]:
    """The keys of a shingle set in ascending order (the last _RECENT sets' kept: an import orders each set two
    to four times, in its own order and the library's)."""
    ordered = _sorted.get(keys)
    if ordered is None:
        if len(_sorted) >= _RECENT:
            del _sorted[next(iter(_sorted))]
        ordered = _sorted[keys] = sorted(keys)
    return ordered


