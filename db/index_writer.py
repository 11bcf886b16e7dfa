"""Writing many documents into a new whoosh segment at once, for the search index (db/search_index.py).

whoosh's writer sends every posting through a pool (a tuple per posting, sorted, spilled to temporary files)
and then looks up each posting's document length again while it writes the segment: at 20,000 abstracts
that is most of a minute. `SegmentBuilder` keeps each term's postings in arrays in memory and writes them
block by block through the same codec, so the segment on disk is the one whoosh would write (same terms,
weights, positions, lengths, stored fields and columns). It uses whoosh-reloaded 2.7's segment writer
internals (perdocwriter, fieldwriter, the postings writer's block buffer, the commit steps that its
multiprocessing writer also calls); tests/test_search_build.py checks the result against whoosh's own writer.
"""

from __future__ import annotations

from array import array

from whoosh.codec.whoosh3 import length_to_byte
from whoosh.writing import NO_MERGE, SegmentWriter

_QUANTIZED: dict[int, int] = {}  # length → the length whoosh reads back from its one-byte column


def _quantized(length: int) -> int:
    if length not in _QUANTIZED:
        from whoosh.util.numeric import byte_to_length

        _QUANTIZED[length] = byte_to_length(length_to_byte(length)) if length else 0
    return _QUANTIZED[length]


class SegmentBuilder:
    """Add documents to `writer` (a whoosh SegmentWriter) without its posting pool; `commit()` writes the
    new segment beside the index's existing ones (no merge; deletions made through the writer are kept)."""

    def __init__(self, writer: SegmentWriter):
        if not isinstance(writer, SegmentWriter):
            raise TypeError("SegmentBuilder needs a whoosh SegmentWriter")
        self.writer = writer
        self.schema = writer.schema
        self._terms: dict[str, dict[bytes, tuple[array, array, list]]] = {}
        self._lengths: dict[str, array] = {}  # scorable field → quantized length per new document
        self._first = writer.docnum
        self.count = 0

    def add(self, fields: dict) -> None:
        """Like writer.add_document(**fields) for this schema (no field boosts, no vectors, no spelling)."""
        writer = self.writer
        perdoc = writer.perdocwriter
        docnum = writer.docnum
        perdoc.start_doc(docnum)
        try:
            for name in sorted(fields):
                value = fields[name]
                if value is None or name.startswith("_"):
                    continue
                field = self.schema[name]
                length = 0
                if field.indexed:
                    terms = self._terms.setdefault(name, {})
                    for tbytes, freq, weight, vbytes in field.index(value):
                        posting = terms.get(tbytes)
                        if posting is None:
                            terms[tbytes] = posting = (array("I"), array("f"), [])
                        posting[0].append(docnum)
                        posting[1].append(weight)
                        posting[2].append(vbytes)
                        length += freq
                    if not field.scorable:
                        length = 0
                    else:
                        lengths = self._lengths.setdefault(name, array("I"))
                        lengths.extend([0] * (docnum - self._first + 1 - len(lengths)))
                        lengths[docnum - self._first] = _quantized(length)
                perdoc.add_field(name, field, value if field.stored else None, length)
                if field.column_type and value is not None:
                    perdoc.add_column_value(name, field.column_type, field.to_column_value(value))
        except BaseException:
            perdoc.cancel_doc()
            raise
        perdoc.finish_doc()
        writer._added = True
        writer.docnum += 1
        self.count += 1

    def commit(self) -> None:
        """Write the postings, then the segment and the index's table of contents; releases the lock."""
        writer = self.writer
        if not self.count:
            writer.commit(merge=False)
            return
        segments = writer._merge_segments(NO_MERGE, False, False)
        writer.perdocwriter.close()
        fields = writer.fieldwriter
        blocklimit = writer.codec._blocklimit
        for name in sorted(self._terms):
            field = self.schema[name]
            terms = self._terms[name]
            lengths = self._lengths.get(name)
            fields.start_field(name, field)
            postwriter = fields._postwriter
            for tbytes in sorted(terms):
                ids, weights, values = terms[tbytes]
                fields.start_term(tbytes)
                for start in range(0, len(ids), blocklimit):
                    block_ids = ids[start : start + blocklimit]
                    block_weights = weights[start : start + blocklimit]
                    postwriter._ids = block_ids
                    postwriter._weights = block_weights
                    postwriter._values = values[start : start + blocklimit]
                    postwriter._maxweight = max(0, max(block_weights))
                    if lengths is not None:
                        block_lengths = [lengths[d - self._first] for d in block_ids]
                        postwriter._minlength = min(block_lengths) or None
                        postwriter._maxlength = max(block_lengths)
                    if start + blocklimit < len(ids):
                        postwriter._write_block()  # the last block is written by finish_term
                fields.finish_term()
            fields.finish_field()
            del self._terms[name]  # let the memory go as soon as a field is written
        segment = writer.get_segment()
        writer._close_segment()
        writer._assemble_segment()
        writer._commit_toc([*segments, segment])
        writer._finish()

    def cancel(self) -> None:
        self._terms.clear()
        if not self.writer.is_closed:
            self.writer.cancel()
