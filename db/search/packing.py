"""A posting block's positions packed into one string (the index's positions fields, written by
db/search/writer.py), and read back into numpy arrays in one pass (db/search/postings.py).

whoosh pickles a block's values as a tuple of bytes, one per posting; under its pickle protocol 2 each bytes
object is a `codecs.encode(str, "latin1")` call: about 12 bytes and a function call per posting before the
positions themselves (4 bytes each). A packed block is one `PackedValues`, pickled as one str of code
points, which pickle stores as UTF-8, so that small numbers take one byte:

- a posting starts with code `part` (0 … 15: the part of the text field its first position is in);
- a later part of the same posting starts with `16 + part`;
- a position is `32 + its distance from the previous position in the part` (from 0 for the part's first);
- `JUMP` (U+10FFFF) adds JUMP_SIZE to the distance without a position (for gaps beyond one code point).

An abstract's word positions are mostly a byte each. whoosh reads a packed block as any other (its matchers
index the block's values: `PackedValues[i]` is the posting's value as ArrayPositions encodes it), so a merge
or whoosh's own phrase matcher keeps working; segments written by whoosh's own writer keep the tuple of bytes.
"""

from __future__ import annotations

import re
from array import array

import numpy as np
from whoosh.system import pack_uint

PART_BITS = 28  # positions are part << PART_BITS | position in the part (db.search.analysis.PART_SPAN)
_SWITCH, _DELTA = 16, 32  # codes: 0-15 a posting's first part, 16-31 a later part, then distances
JUMP = 0x10FFFF
JUMP_SIZE = 0x100000
_MAX_DELTA = JUMP - 1 - _DELTA
_STARTS = re.compile("[\x00-\x0f]")
_MASK = (1 << PART_BITS) - 1
_SINGLE: dict[int, str] = {}  # position → the packed posting of a term that occurs once there


def pack(positions) -> str:
    """The packed string of one posting's positions (ascending; part << 28 | position in the part)."""
    if len(positions) == 1:
        found = _SINGLE.get(positions[0])
        if found is None:
            found = _pack(positions)
            if len(_SINGLE) < 100_000:
                _SINGLE[positions[0]] = found
        return found
    return _pack(positions)


def _pack(positions) -> str:
    codes = []
    part = -1
    previous = 0
    for position in positions:
        here = position >> PART_BITS
        if here != part:
            codes.append(here if part < 0 else _SWITCH + here)
            part, previous = here, 0
        within = position & _MASK
        delta = within - previous
        previous = within
        while delta > _MAX_DELTA:
            codes.append(JUMP)
            delta -= JUMP_SIZE
        codes.append(_DELTA + delta)
    return "".join(map(chr, codes))


def unpack(text: str, docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(docnum per position, position) of a packed block whose postings are for `docs` (in order): int64
    arrays, positions ascending within each document."""
    return decode(np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32), docs)


def decode(codes: np.ndarray, docs) -> tuple[np.ndarray, np.ndarray]:
    """(docnum per position, position) of packed `codes` (uint32) whose postings are for `docs` (in order)."""
    codes = codes.astype(np.int64)
    if not len(codes):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    marker = codes < _DELTA
    jump = codes == JUMP
    posting = np.cumsum(codes < _SWITCH) - 1
    last_marker = np.maximum.accumulate(np.where(marker, np.arange(len(codes)), 0))
    steps = np.where(marker, 0, np.where(jump, JUMP_SIZE, codes - _DELTA))
    total = np.cumsum(steps)
    within = total - total[last_marker]
    part = codes[last_marker] & 15
    keep = ~(marker | jump)
    return np.asarray(docs, dtype=np.int64)[posting[keep]], (part[keep] << PART_BITS) | within[keep]


class PackedValues:
    """A block's values packed into one string (see the module's docstring); a sequence of the postings'
    values as ArrayPositions encodes them (count, then uint32 positions), for whoosh's own readers."""

    __slots__ = ("text", "_values")

    def __init__(self, text: str):
        self.text = text
        self._values: list[bytes] | None = None

    def __reduce__(self):
        return PackedValues, (self.text,)

    def values(self) -> list[bytes]:
        """Every posting's value as ArrayPositions encodes it (decoded once)."""
        if self._values is None:
            starts = [m.start() for m in _STARTS.finditer(self.text)]
            owner, positions = unpack(self.text, np.arange(len(starts), dtype=np.int64))
            counts = np.bincount(owner, minlength=len(starts)).tolist()
            ends = np.cumsum(counts).tolist()
            flat = positions.tolist()
            self._values = [encode_positions(flat[end - count : end]) for count, end in zip(counts, ends, strict=True)]
        return self._values

    def __len__(self) -> int:
        return len(self.values())

    def __getitem__(self, number: int) -> bytes:
        return self.values()[number]

    def __iter__(self):
        return iter(self.values())

    def __eq__(self, other) -> bool:
        return isinstance(other, PackedValues) and other.text == self.text

    __hash__ = None


class PackedNumbers:
    """A block's id deltas or whole-number weights as one string of code points (pickled as UTF-8: one byte
    for a number under 128); iterates and indexes as the tuple of ints whoosh would have written."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    @classmethod
    def of(cls, numbers) -> PackedNumbers | None:
        """Packed `numbers` (ints), or None when one is negative or beyond a code point, or for fewer than 16
        (a tuple is smaller than the class name pickled with them)."""
        if len(numbers) < 16 or min(numbers) < 0 or max(numbers) > JUMP:
            return None
        return cls("".join(map(chr, numbers)))

    def __reduce__(self):
        return PackedNumbers, (self.text,)

    def array(self) -> np.ndarray:
        """The numbers as a uint32 array."""
        return np.frombuffer(self.text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)

    def __len__(self) -> int:
        return len(self.text)

    def __getitem__(self, number):
        if isinstance(number, slice):
            return tuple(map(ord, self.text[number]))
        return ord(self.text[number])

    def __iter__(self):
        return map(ord, self.text)

    def __eq__(self, other) -> bool:
        return isinstance(other, PackedNumbers) and other.text == self.text

    __hash__ = None


class Codes:
    """A packed block's codes (uint32) and where each posting starts in them, for decoding the positions of
    some of its postings only (`select`)."""

    __slots__ = ("codes", "starts", "ends", "docs")

    def __init__(self, text: str, docs: np.ndarray):
        self.codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        self.starts = np.flatnonzero(self.codes < _SWITCH)
        self.ends = np.append(self.starts[1:], len(self.codes))
        self.docs = np.asarray(docs, dtype=np.int64)

    @property
    def size(self) -> int:
        return len(self.codes)

    def pick(self, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(codes, docnums) of the postings of the docnums `wanted` (ascending; those not in this block are
        left out), for `decode`: the codes of several blocks may be concatenated and decoded at once."""
        at = np.searchsorted(self.docs, wanted)
        inside = at < len(self.docs)
        at = at[inside]
        at = at[self.docs[at] == wanted[inside]]
        if len(at) == len(self.docs):
            return self.codes, self.docs
        lengths = self.ends[at] - self.starts[at]
        index = np.repeat(self.starts[at] - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
        return self.codes[index], self.docs[at]

    def select(self, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(docnum per position, position) of the postings of the docnums `wanted` (ascending)."""
        return decode(*self.pick(wanted))


POSITION_TYPE = "I"  # a value's positions as unsigned 32-bit integers after a 4-byte count (ArrayPositions)


def encode_positions(positions) -> bytes:
    """A posting's value as ArrayPositions writes it: the count (whoosh's pack_uint), then uint32 positions."""
    return pack_uint(len(positions)) + array(POSITION_TYPE, positions).tobytes()
