"""Writing a field's posting lists, held as arrays, into a new segment's postings and term files: the bytes
whoosh-reloaded 2.7's W3PostingsWriter and W3FieldWriter write (same blocks, block infos and term infos),
with each block's statistics and its ids and weights worked out for all blocks at once by numpy, and the
block encodings of db/search/writer.py (`_fast_blocks`: ids and whole-number weights as PackedNumbers,
positions as PackedValues). Used by writer.SegmentBuilder.write_segment; tests/unit/search/test_search_build.py
reads the result back with whoosh's own readers.
"""

from __future__ import annotations

import zlib
from pickle import dumps

import numpy as np
from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC, W3TermInfo
from whoosh.filedb import filetables
from whoosh.system import emptybytes, pack_int, pack_long, pack_ushort
from whoosh.util.numeric import length_to_byte

from db.search.packing import JUMP, PackedNumbers, PackedValues

_FLUSH = 1 << 22  # bytes of blocks gathered before they are written
_TERM_INFO = W3TermInfo._struct.pack
_KEY_LENGTHS, _KEY_LENGTHS_SIZE = filetables._lengths.pack, filetables._lengths.size


class FieldPostings:
    """A field's posting lists: `terms` (sorted; str or UTF-8 bytes), term i's postings are start[i] … start[i+1]
    of `docs` (ascending within a term) and `weights` (float32); `values(first, end)` gives what a block of
    postings first … end stores as values (None: no values, as for a format of fixed size 0)."""

    def __init__(self, terms, start, docs, weights, values):
        self.terms, self.start, self.docs, self.weights, self.values = terms, start, docs, weights, values


def listed(terms: dict, value_size: int | None) -> FieldPostings:
    """FieldPostings of `terms` (term → (docnums array, weights array("f"), values list)), as SegmentBuilder
    collects the fields it analyses with whoosh (ids, tags …); values are kept as whoosh's _mini_values keeps them."""
    names = sorted(terms)
    docs, weights, values, start = [], [], [], [0]
    for name in names:
        ids, found, stored = terms[name]
        docs.extend(ids)
        weights.extend(found)
        values.extend(stored if stored and value_size != 0 else [emptybytes] * len(ids))
        start.append(len(docs))

    def block_values(first: int, end: int):
        if value_size is None or value_size < 0:
            return tuple(values[first:end])
        return None if value_size == 0 else emptybytes.join(values[first:end])

    return FieldPostings(names, np.array(start, dtype=np.int64), np.array(docs, dtype=np.int64),
                         np.array(weights, dtype=np.float32), block_values)


def write_field(fields, name: str, field, postings: FieldPostings, lengths, first: int) -> None:
    """Write `postings` as field `name` through `fields` (a W3FieldWriter, between start_field and finish_field
    it calls itself); `lengths`: the quantized length of each new document (docnum - `first`), or None for a
    field without lengths."""
    fields.start_field(name, field)
    postwriter = fields._postwriter
    limit, compression = postwriter._blocklimit, postwriter._compression
    postfile, tindex, fieldkey = fields._postfile, fields._tindex, pack_ushort(fields._fieldid)
    docs = postings.docs.astype(np.int64)
    weights = postings.weights
    count = len(docs)
    term_start = postings.start.astype(np.int64)
    if not count:
        fields.finish_field()
        return
    # blocks: each term's postings, `limit` at a time
    term_of = np.repeat(np.arange(len(term_start) - 1), np.diff(term_start))
    within = np.arange(count) - term_start[term_of]
    block_start = np.flatnonzero(within % limit == 0)
    block_end = np.append(block_start[1:], count)
    last = np.append(term_of[block_start][1:] != term_of[block_start][:-1], True)  # a term's last block
    deltas = docs.copy()
    deltas[1:] -= docs[:-1]
    deltas[block_start] = docs[block_start]
    wide = np.float64
    low, high = np.minimum.reduceat(weights, block_start), np.maximum.reduceat(weights, block_start)
    whole = np.add.reduceat((weights != np.floor(weights)).astype(np.int64), block_start) == 0
    sums = np.add.reduceat(weights.astype(wide), block_start)
    if lengths is not None:
        posting_lengths = np.frombuffer(lengths, dtype=np.uint32)[docs - first] if len(lengths) else \
            np.zeros(count, dtype=np.uint32)
        shortest = np.minimum.reduceat(posting_lengths, block_start).tolist()
        longest = np.maximum.reduceat(posting_lengths, block_start).tolist()
    else:
        shortest = [None] * len(block_start)
        longest = [0] * len(block_start)
    id_text = _text(deltas) if deltas.max() <= JUMP else None
    in_range = (weights >= 0) & (weights <= JUMP)
    weight_text = _text(np.where(in_range, weights, 0).astype(np.int64)) if whole.any() else ""
    block_info = zip(block_start.tolist(), block_end.tolist(), last.tolist(), low.tolist(), high.tolist(),
                     whole.tolist(), sums.tolist(), shortest, longest, docs[block_start].tolist(),
                     docs[block_end - 1].tolist(), strict=True)
    chunks, size = [], 0
    base = postfile.tell()
    offset = base  # where the next byte goes
    terms = iter(postings.terms)
    keys, infos = [], []
    values_of = postings.values
    info = None
    for start, end, is_last, lowest, highest, all_whole, total, short, long, first_id, last_id in block_info:
        if info is None:  # a term's first block
            term_offset = offset
            chunks.append(WHOOSH3_HEADER_MAGIC)
            offset += 4
            info = [0, 0, None, 0, 0, first_id]  # weight, df, min length, max length, max weight, min id
        n = end - start
        if id_text is not None:
            ids = PackedNumbers(id_text[start:end]) if n >= 16 else tuple(map(ord, id_text[start:end]))
        else:
            found = deltas[start:end].tolist()
            ids = PackedNumbers.of(found) or tuple(found)
        if lowest == highest == 1.0:
            mini = None
        elif lowest == highest:
            mini = lowest
        elif all_whole:
            if lowest >= 0 and highest <= JUMP:
                mini = PackedNumbers(weight_text[start:end]) if n >= 16 else tuple(map(ord, weight_text[start:end]))
            else:
                mini = tuple(map(int, weights[start:end].tolist()))
        else:
            mini = tuple(weights[start:end].tolist())
        data = dumps((ids, mini, values_of(start, end)), 2)
        if compression:
            data = zlib.compress(data, compression)
        short = short or None
        top = max(0, highest)
        head = dumps((n, last_id, top, compression, length_to_byte(short), length_to_byte(long)), 2)
        chunks += [pack_int(-(len(head) + len(data)) if is_last else len(head) + len(data)), head, data]
        offset += 4 + len(head) + len(data)
        size += len(data)
        info[0] += total
        info[1] += n
        info[2] = short if info[2] is None else min(info[2], short)
        info[3] = max(info[3], long)
        info[4] = max(info[4], top)
        if is_last:
            term = next(terms)
            keys.append(fieldkey + (term.encode("utf-8") if isinstance(term, str) else term))
            weight, df, short_all, long_all, top_all, min_id = info
            infos.append(_TERM_INFO(False, weight, df, 0 if short_all is None else length_to_byte(short_all),
                                    length_to_byte(long_all), top_all, min_id, last_id)
                         + pack_long(term_offset) + pack_int(offset - term_offset))
            info = None
            if size > _FLUSH:
                postfile.write(b"".join(chunks))
                chunks, size = [], 0
    postfile.write(b"".join(chunks))
    _add_terms(tindex, keys, infos)
    fields.finish_field()


def _add_terms(tindex, keys: list[bytes], infos: list[bytes]) -> None:
    """tindex.add(key, info) for each term (an OrderedHashWriter, keys ascending), its file written at once."""
    dbfile = tindex.dbfile
    position = dbfile.tell()
    last, hashfn, buckets, index = tindex.lastkey, tindex.hashfn, tindex.buckets, tindex.index
    chunks = []
    for key, info in zip(keys, infos, strict=True):
        if key <= last:
            raise ValueError(f"Keys must increase: {last!r}..{key!r}")
        index.append(position)
        h = hashfn(key)
        buckets[h & 255].append((h, position))
        chunks += [_KEY_LENGTHS(len(key), len(info)), key, info]
        position += _KEY_LENGTHS_SIZE + len(key) + len(info)
        last = key
    dbfile.write(b"".join(chunks))
    tindex.lastkey = last


def _text(numbers: np.ndarray) -> str:
    """`numbers` (each 0 … 0x10FFFF) as a string of those code points."""
    return numbers.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


def packed_values(text_postings):
    """The `values` of a positions field from db.search.batch.Postings: a block's packed positions."""
    return lambda first, end: PackedValues(text_postings.packed(first, end))


def no_values(first: int, end: int) -> None:
    return None
