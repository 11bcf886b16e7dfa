"""The search index's postings on disk and in memory: the formats of its text fields, reading segment files
through a memory map, and reading posting lists into numpy arrays (db/search/ranking.py ranks from them).

The text field is indexed twice: `text` holds only weights (term frequency with the title's boost; WeightsOnly)
and is what every query is scored from, so reading its blocks unpickles no positions; `textpos` holds the
positions (a posting's value: a count and uint32 positions, ArrayPositions; a block written by
db/search/writer.py keeps them packed, db/search/packing.py), read only to check a phrase or a part (`title:`),
for the documents that need it. Measured at 20,000 abstracts (issue 28): `textpos` 16 MB and `text` 7.5 MB
packed (79 and 27 MB as whoosh pickles them); one field holding both would save the ids' bytes (about 2 a
posting) but make every scored query unpickle positions, so the two fields stay. What is read once per
segment (paper ids, document lengths, decoded posting lists, position blocks, a term's packed positions) is
kept in `SegmentCache` across searchers: segments never change after they are written, only their deletions
do.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from whoosh.analysis import StemFilter
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher
from whoosh.fields import TEXT
from whoosh.formats import Frequency, Positions
from whoosh.lang.porter import stem as porter_stem
from whoosh.reading import TermNotFound
from whoosh.system import emptybytes
from whoosh.util.numeric import byte_to_length

from db.search.analysis import TextTokenizer, term_positions
from db.search.packing import POSITION_TYPE, Codes, PackedNumbers, PackedValues, encode_positions
from db.search.storage import MappedStorage, _MappedFile, open_index  # noqa: F401 - their home was here

POSITIONS_FIELD = "textpos"  # the positions of the text field's words (the text field itself holds weights)
CACHE_POSTINGS = 4_000_000  # decoded postings kept across queries (8 bytes each, a position 8: 32 MB at most)
_LENGTH_OF_BYTE = np.array([byte_to_length(b) if b else 0 for b in range(256)], dtype=np.float64)
_EMPTY_DOCS = np.zeros(0, dtype=np.int64)
_EMPTY_SCORES = np.zeros(0, dtype=np.float64)
np.unique(np.zeros(2))  # its first plain call imports numpy.ma (45 ms): here rather than in the first search


class WeightsOnly(Frequency):
    """whoosh's Frequency format without a value per posting: the weight (term frequency, with the boosts of
    the parts the term occurs in) is all the ranker reads, so a block unpickles to two tuples."""

    def fixed_value_size(self):
        return 0

    def word_values(self, value, analyzer, **kwargs):
        stem = fast_analysis(analyzer)
        if stem is None or kwargs.get("start_pos"):
            for term, freq, weight, _value in super().word_values(value, analyzer, **kwargs):
                yield term, freq, weight, emptybytes
            return
        boost = self.field_boost
        for term, (poslist, weight) in term_positions(value, stem).items():
            yield term, len(poslist), weight * boost, emptybytes


class ArrayPositions(Positions):
    """whoosh's Positions format storing the positions as a plain uint32 array instead of pickled deltas:
    the ranker decodes positions of phrase candidates, and this is several times faster to read."""

    def word_values(self, value, analyzer, **kwargs):
        stem = fast_analysis(analyzer)
        if stem is None or kwargs.get("start_pos"):
            yield from super().word_values(value, analyzer, **kwargs)
            return
        boost = self.field_boost
        for term, (poslist, weight) in term_positions(value, stem).items():
            yield term, len(poslist), weight * boost, encode_positions(poslist)

    def encode(self, poslist):
        return encode_positions(poslist)

    def decode_positions(self, valuestring):
        return positions_of(valuestring).tolist()


def positions_of(value: bytes) -> array:
    positions = array(POSITION_TYPE)
    positions.frombytes(value[4:])
    return positions


def fast_analysis(analyzer) -> bool | None:
    """For our own text analyzers (TextTokenizer, optionally | a plain Porter StemFilter): whether it stems;
    None for any other analyzer (then whoosh's token stream is used)."""
    items = getattr(analyzer, "items", [analyzer])
    if not items or type(items[0]) is not TextTokenizer:
        return None
    if len(items) == 1:
        return False
    stemmer = items[1]
    if (len(items) == 2 and type(stemmer) is StemFilter and getattr(stemmer, "stemfn", None) is porter_stem
            and not getattr(stemmer, "lang", None) and not getattr(stemmer, "ignore", None)):
        return True
    return None


def positional(analyzer, scorable: bool = True) -> TEXT:
    """A TEXT field type with ArrayPositions (`scorable=False`: no lengths, for the positions field)."""
    field_type = TEXT(analyzer=analyzer)
    field_type.format = ArrayPositions()
    field_type.scorable = scorable
    return field_type


def weighted(analyzer) -> TEXT:
    """A TEXT field type with WeightsOnly: scored, no positions."""
    field_type = TEXT(analyzer=analyzer)
    field_type.format = WeightsOnly()
    return field_type


@dataclass
class Postings:
    """One term's postings in one segment: local docnums (ascending) and weights; `values` for positions."""

    docs: np.ndarray
    weights: np.ndarray
    values: tuple = ()

    @property
    def size(self) -> int:
        """What it costs in the cache, in postings (positions count as postings)."""
        if isinstance(self.values, Codes):
            return len(self.docs) + (self.values.size + 2 * len(self.values.docs)) // 2 + 1  # 4 bytes a code
        if self.values is None:
            return len(self.docs) + 1
        extra = len(self.values[1]) if len(self.values) == 2 and isinstance(self.values[1], np.ndarray) else 0
        return len(self.docs) + extra + 1

    def positions_of(self, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(docnum per position, position) in the documents `wanted` (ascending) of this block with positions
        (as SegmentCache.position_block gives it)."""
        if isinstance(self.values, Codes):
            return self.values.select(wanted)
        owner, positions = self.values
        keep = np.isin(owner, wanted)
        return owner[keep], positions[keep]


_NO_POSTINGS = Postings(np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32))


def _weights(mini, count: int) -> np.ndarray:
    if mini is None:
        return np.ones(count, dtype=np.float32)
    if isinstance(mini, float):
        return np.full(count, mini, dtype=np.float32)
    if isinstance(mini, PackedNumbers):
        return mini.array().astype(np.float32)
    return np.array(mini, dtype=np.float32)  # whoosh writes float32 weights: nothing is lost


def _blocks(matcher, values: bool):
    """(local docnums, weights, values or ()) of each block of a whoosh3 leaf matcher, from its current block."""
    while matcher.is_active():
        matcher._read_data()  # one unpickling per block: (id deltas, weights, values)
        deltas, mini_weights, block_values = matcher._data
        deltas = deltas.array() if isinstance(deltas, PackedNumbers) else np.array(deltas, dtype=np.int64)
        docs = np.cumsum(deltas, dtype=np.int64).astype(np.int32)  # stored as deltas from 0
        if values and not isinstance(block_values, PackedValues):
            block_values = tuple(block_values)
        yield docs, _weights(mini_weights, len(docs)), (block_values if values else ())
        matcher._next_block()


def read_postings(reader, field: str, text, values: bool = False) -> Postings:
    """All postings of `text` in `field` of one segment's reader."""
    try:
        matcher = reader.postings(field, text)
    except TermNotFound:
        return _NO_POSTINGS
    if isinstance(matcher, W3LeafMatcher) and not matcher._byteids:
        parts = list(_blocks(matcher, values))
        if not parts:
            return _NO_POSTINGS
        docs = np.concatenate([p[0] for p in parts])
        weights = np.concatenate([p[1] for p in parts])
        found = tuple(v for p in parts for v in p[2]) if values else ()
        return Postings(docs, weights, found)
    docs, weights, found = [], [], []
    while matcher.is_active():  # postings stored inline with the term
        docs.append(matcher.id())
        weights.append(matcher.weight())
        if values:
            found.append(matcher.value())
        matcher.next()
    return Postings(np.array(docs, dtype=np.int32), np.array(weights, dtype=np.float32), tuple(found))


class SegmentCache:
    """What the ranker and the index read once per segment, kept across searchers: segments never change
    after they are written (only their deletions do), so after a small write only the new segment is read.

    `ids` is docnum → paper id and `lengths` the document lengths of a field (as whoosh stores them), each
    read as one array; `postings` and `position_block` keep decoded posting lists, least recently used
    dropped beyond `budget` postings."""

    def __init__(self, budget: int = CACHE_POSTINGS):
        self._segments: dict[str, dict] = {}
        self._postings: OrderedDict[tuple, Postings] = OrderedDict()
        self._size = 0
        self.budget = budget

    def keep(self, leaves) -> None:
        """Forget segments that are no longer among `leaves` (merged away or rebuilt)."""
        current = {self._key(sub) for sub, _offset in leaves}
        for key in [key for key in self._segments if key not in current]:
            del self._segments[key]
        for key in [key for key in self._postings if key[0] not in current]:
            self._size -= self._postings.pop(key).size

    def ids(self, leaves) -> list[str]:
        out: list[str] = []
        for sub, _offset in leaves:
            entry = self._segments.setdefault(self._key(sub), {})
            if "id" not in entry:
                entry["id"] = _read_ids(sub.reader())
            out += entry["id"]
        return out

    def lengths(self, leaves, field: str) -> np.ndarray:
        """The lengths of `field` per docnum across `leaves` (float64; 0 where a document has none)."""
        parts = []
        for sub, _offset in leaves:
            entry = self._segments.setdefault(self._key(sub), {})
            name = "length:" + field
            if name not in entry:
                entry[name] = _read_lengths(sub.reader(), field)
            parts.append(entry[name])
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float64)

    def postings(self, sub, field: str, text) -> Postings:
        """The postings of `text` in `field` of the segment of leaf searcher `sub` (weights, no values)."""
        return self._cached((self._key(sub), field, text), lambda: read_postings(sub.reader(), field, text))

    def position_directory(self, sub, field: str, text) -> tuple[list[int], list[int]]:
        """(start offsets, last docnums) of the posting blocks of `text` in `field`: block headers only."""

        def read():
            try:
                matcher = sub.reader().postings(field, text)
            except TermNotFound:
                return Postings(_EMPTY_DOCS, _EMPTY_SCORES, ((), ()))
            if not isinstance(matcher, W3LeafMatcher) or matcher._byteids:
                whole = read_postings(sub.reader(), field, text, values=True)
                return Postings(whole.docs, whole.weights, ((None,), (int(whole.docs[-1]) if len(whole.docs) else -1,),
                                                            whole))
            starts, last = [matcher._baseoffset], []
            while True:
                last.append(matcher._maxid)
                if matcher._lastblock:
                    break
                starts.append(matcher._nextoffset)
                matcher._goto(matcher._nextoffset)
            return Postings(_EMPTY_DOCS, _EMPTY_SCORES, (starts, last))

        return self._cached((self._key(sub), "dir:" + field, text), read).values

    def term_codes(self, sub, field: str, text) -> Codes | None:
        """Every packed block of `text` in `field` as one Codes (db.search.packing), so that the wanted
        postings are picked in one step; None when a block is not packed (written by whoosh's own writer,
        then read block by block: `position_block`)."""

        def read():
            try:
                matcher = sub.reader().postings(field, text)
            except TermNotFound:
                return Postings(_EMPTY_DOCS, _EMPTY_SCORES, None)
            if not isinstance(matcher, W3LeafMatcher) or matcher._byteids:
                return Postings(_EMPTY_DOCS, _EMPTY_SCORES, None)
            texts, docs = [], []
            for block_docs, _weights, values in _blocks(matcher, values=True):
                if not isinstance(values, PackedValues):
                    return Postings(_EMPTY_DOCS, _EMPTY_SCORES, None)
                texts.append(values.text)
                docs.append(block_docs)
            if not docs:
                return Postings(_EMPTY_DOCS, _EMPTY_SCORES, None)
            return Postings(_EMPTY_DOCS, _EMPTY_SCORES, Codes("".join(texts), np.concatenate(docs)))

        return self._cached((self._key(sub), "codes:" + field, text), read).values

    def position_block(self, sub, field: str, text, number: int, matchers: dict | None = None) -> Postings:
        """Block `number` of the postings of `text` in `field`, with values (positions). `matchers` keeps the
        term's matcher for the next block (a searcher's own dict: matchers read its open files)."""

        def read():
            directory = self.position_directory(sub, field, text)
            if len(directory) > 2:  # inline postings: one block
                return _flat(directory[2])
            key = (self._key(sub), field, text)
            matcher = None if matchers is None else matchers.get(key)
            if matcher is None:
                matcher = sub.reader().postings(field, text)
                if matchers is not None:
                    matchers[key] = matcher
            matcher._goto(directory[0][number])
            docs, weights, values = next(_blocks(matcher, values=True))
            return _flat(Postings(docs, weights, values))

        return self._cached((self._key(sub), "block:" + field, text, number), read)

    def _cached(self, key: tuple, read) -> Postings:
        found = self._postings.get(key)
        if found is not None:
            self._postings.move_to_end(key)
            return found
        found = read()
        self._postings[key] = found
        self._size += found.size
        while self._size > self.budget and len(self._postings) > 1:
            self._size -= self._postings.popitem(last=False)[1].size
        return found

    @staticmethod
    def _key(sub) -> str:
        return sub.reader().segment().segment_id()


def _flat(block: Postings) -> Postings:
    """A block of positions postings with `values` its packed codes (db.search.packing.Codes), or for a
    block of whoosh's own writing (docnum per position, position) as flat arrays: each value is a 4-byte
    count and the positions as uint32 (ArrayPositions)."""
    if isinstance(block.values, PackedValues):
        return Postings(block.docs, block.weights, Codes(block.values.text, block.docs))
    if not block.values:
        return Postings(block.docs, block.weights, (_EMPTY_DOCS, _EMPTY_DOCS))
    sizes = np.fromiter(map(len, block.values), dtype=np.int64, count=len(block.values)) // 4
    flat = np.frombuffer(b"".join(block.values), dtype=np.uint32)
    header = np.zeros(len(flat), dtype=bool)
    header[np.cumsum(sizes) - sizes] = True
    return Postings(block.docs, block.weights, (np.repeat(block.docs, sizes - 1), flat[~header].astype(np.int32)))


def _read_ids(reader) -> list[str]:
    """The stored `id` column of a segment, read at once (paper ids are ASCII; anything else item by item)."""
    column = reader.schema["id"].column_type
    raw = reader._perdoc.column_reader("id", column)
    lengths = getattr(raw, "_lengths", None)
    if lengths is not None and len(lengths) == reader.doc_count_all() and len(set(lengths)) == 1:
        size = lengths[0]
        data = raw._dbfile.get(raw._basepos, size * len(lengths))
        if data.isascii():
            text = data.decode("ascii")
            return [text[i : i + size] for i in range(0, len(text), size)]
    return list(reader.column_reader("id"))


def _read_lengths(reader, field: str) -> np.ndarray:
    """The document lengths of `field` in one segment: its one-byte length column, read at once."""
    count = reader.doc_count_all()
    perdoc = reader._perdoc
    name = f"_{field}_len"  # whoosh3's length column of a field (codec.whoosh3._lenfield)
    if not perdoc.has_column(name):
        return np.zeros(count, dtype=np.float64)
    column = perdoc.column_reader(name, LENGTHS_COLUMN)
    stored = min(getattr(column, "_count", 0), count)
    codes = np.zeros(count, dtype=np.uint8)
    if stored:
        codes[:stored] = np.frombuffer(column._dbfile.get(column._basepos, stored), dtype=np.uint8)
    return _LENGTH_OF_BYTE[codes]
