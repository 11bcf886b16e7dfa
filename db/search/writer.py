"""Writing many documents into a new whoosh segment at once, for the search index (db/search/index.py).

whoosh's writer sends every posting through a pool (a tuple per posting, sorted, spilled to temporary files)
and then looks up each posting's document length again while it writes the segment: at 20,000 abstracts
that is most of a minute. `SegmentBuilder` keeps the words of our text fields as flat arrays (db/search/batch.py:
a term number per word, nothing per posting until the segment is written) and the other fields' postings in
arrays per term, and writes every field's blocks at once (db/search/blocks.py), so the segment on disk is the one
whoosh would write (same terms, weights, positions, lengths, stored fields and columns; blocks encoded as
db/search/packing.py says). It uses whoosh-reloaded 2.7's segment writer internals (perdocwriter, fieldwriter
and its files, the commit steps that its multiprocessing writer also calls); tests/unit/search/test_search_build.py
checks the result against whoosh's own writer.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from array import array
from pathlib import Path

from whoosh.analysis import IDTokenizer, LowercaseFilter, RegexTokenizer
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, STORED_COLUMN, length_to_byte
from whoosh.fields import ID
from whoosh.formats import Existence
from whoosh.system import emptybytes
from whoosh.writing import NO_MERGE, SegmentWriter

from db.search.analysis import TEXT_FIELD
from db.search.batch import TextPostings
from db.search.blocks import FieldPostings, listed, no_values, packed_values, write_field
from db.search.documents import document
from db.search.postings import POSITIONS_FIELD, ArrayPositions, WeightsOnly, fast_analysis
from db.system.memory import heap_kept

_ROOT = Path(__file__).resolve().parents[2]
_QUANTIZED: dict[int, int] = {}  # length → the length whoosh reads back from its one-byte column


def _quantized(length: int) -> int:
    if length not in _QUANTIZED:
        from whoosh.util.numeric import byte_to_length

        _QUANTIZED[length] = byte_to_length(length_to_byte(length)) if length else 0
    return _QUANTIZED[length]


_UNKNOWN = object()


def _fast_text(field) -> bool | None:
    """Whether a field's text can be analysed by term_positions (then: whether it stems); None if not. Our
    text fields: WeightsOnly and scored (the text's weights), or ArrayPositions (scored, or the positions)."""
    if not field.indexed or field.format.field_boost != 1.0:
        return None
    if not ((type(field.format) is WeightsOnly and field.scorable) or type(field.format) is ArrayPositions):
        return None
    return fast_analysis(field.analyzer)


_TEXT, _PLAIN, _EMPTY_IS_NOTHING, _INDEXED, _STORED = "text", "plain", "words", "indexed", "stored"


def _splits_words(field) -> bool:
    """Whether `field`'s analyzer is a whoosh RegexTokenizer finding words that are never empty (KEYWORD's, the
    tags'), alone or with LowercaseFilter: no token for an empty value."""
    items = getattr(field.analyzer, "items", [field.analyzer])
    return (bool(items) and type(items[0]) is RegexTokenizer and not items[0].gaps
            and items[0].expression.search("") is None and all(type(item) is LowercaseFilter for item in items[1:]))


def _plain_id(field) -> bool:
    """Whether `field` is a whoosh ID field as whoosh makes it (its str value is its one term, no lowercasing),
    so that its posting is made without whoosh's token stream."""
    return (type(field) is ID and type(field.analyzer) is IDTokenizer and type(field.format) is Existence
            and not getattr(field.analyzer, "lowercase", False))


def _text_pair(schema) -> tuple[str, str] | None:
    """(TEXT_FIELD, POSITIONS_FIELD) when the schema has them as db/search/documents.py makes them (weights,
    scored; positions, not scored; the same analysis), so that their postings can be collected once."""
    if TEXT_FIELD not in schema or POSITIONS_FIELD not in schema:
        return None
    weights, positions = schema[TEXT_FIELD], schema[POSITIONS_FIELD]
    if (type(weights.format) is not WeightsOnly or type(positions.format) is not ArrayPositions
            or not weights.scorable or positions.scorable):
        return None
    stem = _fast_text(weights)
    return (TEXT_FIELD, POSITIONS_FIELD) if stem is not None and stem == _fast_text(positions) else None


class SegmentBuilder:
    """Add documents to `writer` (a whoosh SegmentWriter) without its posting pool; `commit()` writes the
    new segment beside the index's existing ones (no merge; deletions made through the writer are kept)."""

    def __init__(self, writer: SegmentWriter):
        if not isinstance(writer, SegmentWriter):
            raise TypeError("SegmentBuilder needs a whoosh SegmentWriter")
        self.writer = writer
        self.schema = writer.schema
        self._terms: dict[str, dict[bytes, tuple[array, array, list]]] = {}  # fields analysed by whoosh
        self._texts: dict[str, TextPostings] = {}  # our text fields (the two of the shared text: one object)
        self._shared_length = 0
        self._lengths: dict[str, array] = {}  # scorable field → quantized length per new document
        self._first = writer.docnum
        self._plans: dict[str, tuple] = {}  # field name → how `add` handles it (_plan)
        self._pair = _text_pair(self.schema)  # (weights field, positions field) of the same text, or None
        self.count = 0

    def add(self, fields: dict) -> None:
        """Like writer.add_document(**fields) for this schema (no field boosts, no vectors, no spelling)."""
        writer = self.writer
        perdoc = writer.perdocwriter
        docnum = writer.docnum
        perdoc.start_doc(docnum)
        shared = self._shared(fields)  # the text's weights and positions: one posting list per term
        stored = {}
        try:
            for name in sorted(fields):
                value = fields[name]
                if value is None or name.startswith("_"):
                    continue
                plan = self._plans.get(name) or self._plan(name)
                field, kind = plan[0], plan[1]
                length = 0
                if kind is _TEXT:  # our text fields: str values, their words kept as arrays (batch.py)
                    if shared and name == self._pair[1]:
                        length = self._shared_length  # added with the weights field
                    else:
                        texts = self._texts.get(name)
                        pair = shared and name == self._pair[0]
                        if texts is None:
                            texts = self._texts[name] = TextPostings(plan[2])
                            if pair:
                                self._texts[self._pair[1]] = texts
                        length = texts.add(docnum, value)
                        if pair:
                            self._shared_length = length
                elif kind is _PLAIN or kind is _INDEXED or kind is _EMPTY_IS_NOTHING and value != "":
                    terms = self._terms.setdefault(name, {})
                    items = ((value.encode("utf-8"), 1, plan[2], emptybytes),) \
                        if kind is _PLAIN and isinstance(value, str) else field.index(value)
                    for tbytes, freq, weight, vbytes in items:
                        posting = terms.get(tbytes)
                        if posting is None:
                            terms[tbytes] = posting = (array("I"), array("f"), [])
                        posting[0].append(docnum)
                        posting[1].append(weight)
                        posting[2].append(vbytes)
                        length += freq
                if plan[3]:  # stored
                    stored[name] = value
                if plan[4]:  # indexed and scored: its length (whoosh3's per-document writer's add_field)
                    self._note_length(name, docnum, length)
                    if length:
                        perdoc.add_column_value(plan[5], LENGTHS_COLUMN, length_to_byte(length))
                        perdoc._fieldlengths[name] += length
                if plan[6] is not None:
                    perdoc.add_column_value(name, plan[6], field.to_column_value(value))
        except BaseException:
            perdoc.cancel_doc()
            raise
        if stored:
            perdoc.add_column_value("_stored", STORED_COLUMN, stored)
        perdoc._indoc = False  # finish_doc
        writer._added = True
        writer.docnum += 1
        self.count += 1

    def _plan(self, name: str) -> tuple:
        """How `add` handles field `name`: (field, kind, stemming or boost, stored, scored, its length column's
        name, its column type or None)."""
        field = self.schema[name]
        stem = _fast_text(field)
        if stem is not None:
            kind, detail = _TEXT, stem
        elif not field.indexed:
            kind, detail = _STORED, None
        else:
            kind = _PLAIN if _plain_id(field) else _EMPTY_IS_NOTHING if _splits_words(field) else _INDEXED
            detail = field.format.field_boost
        plan = (field, kind, detail, field.stored, field.indexed and field.scorable, f"_{name}_len",
                field.column_type or None)
        self._plans[name] = plan
        return plan

    def _shared(self, fields: dict) -> bool:
        """Whether this document's text goes into the words the weights and positions fields share (both hold
        the same value); they stop sharing, for good, at the first document where they differ."""
        if self._pair is None:
            return False
        weights, positions = (self._texts.get(name) for name in self._pair)
        if weights is not positions:  # no longer shared (or only one has words yet)
            return False
        value = fields.get(self._pair[0])
        if isinstance(value, str) and value == fields.get(self._pair[1]):
            return True
        if weights is not None:  # split them: each field its own copy of the words so far
            self._texts[self._pair[0]] = weights.copy()
        else:
            self._pair = None
        return False

    def _note_length(self, name: str, docnum: int, length: int) -> None:
        lengths = self._lengths.setdefault(name, array("I"))
        lengths.extend([0] * (docnum - self._first + 1 - len(lengths)))
        lengths[docnum - self._first] = _quantized(length)

    def commit(self, extra_segments: tuple = ()) -> None:
        """Write the postings, then the segment and the index's table of contents (with `extra_segments`,
        written by helpers, after this one); releases the lock."""
        writer = self.writer
        if not self.count and not extra_segments:
            writer.commit(merge=False)
            return
        segments = writer._merge_segments(NO_MERGE, False, False)
        new = [self.write_segment()] if self.count else []
        writer._close_segment()
        writer._commit_toc([*segments, *new, *extra_segments])
        writer._finish()

    def write_segment(self):
        """Write this builder's segment files (not the table of contents) and return the segment."""
        writer = self.writer
        writer.perdocwriter.close()
        fields = writer.fieldwriter
        for name in sorted(set(self._terms) | set(self._texts)):
            field = self.schema[name]
            if name in self._texts:
                found = self._texts[name].postings()
                values = packed_values(found) if type(field.format) is ArrayPositions else no_values
                postings = FieldPostings(found.terms, found.start, found.docs, found.weights, values)
            else:
                postings = listed(self._terms[name], field.format.fixed_value_size())
            write_field(fields, name, field, postings, self._lengths.get(name), self._first)
            self._terms.pop(name, None)  # let the memory go as soon as a field is written
            self._texts.pop(name, None)
        fields.close()
        segment = writer.get_segment()
        writer._assemble_segment()
        return segment

    def cancel(self) -> None:
        self._terms.clear()
        self._texts.clear()
        if not self.writer.is_closed:
            self.writer.cancel()


SEGMENT_DOCS = 20_000  # a rebuild writes a segment per this many papers: its postings in memory stay bounded


def write_segments(index, documents, codec, per_segment: int = SEGMENT_DOCS) -> list:
    """Write `documents` (an iterable of whoosh documents) into new segments of `index`, `per_segment` at a time,
    each by its own SegmentBuilder (so that only one segment's postings are in memory). The caller holds the
    index's write lock and lists the returned segments in its commit (SegmentBuilder.commit(extra_segments))."""
    with heap_kept():  # each segment's arrays reuse the pages of the one before
        return _write_segments(index, documents, codec, per_segment)


def _write_segments(index, documents, codec, per_segment: int) -> list:
    segments = []
    builder = None
    try:
        for fields in documents:
            if builder is None:
                builder = SegmentBuilder(SegmentWriter(index, _lk=False, codec=codec))
            builder.add(fields)
            if builder.count >= per_segment:
                segments.append(_finish(builder))
                builder = None
        if builder is not None:
            segments.append(_finish(builder))
            builder = None
    except BaseException:
        if builder is not None:
            builder.writer.pool.cleanup()
        raise
    return segments


def _finish(builder: SegmentBuilder):
    segment = builder.write_segment()
    builder.writer.pool.cleanup()
    return segment


class Helper:
    """A second Python process that writes a segment of the same (new) index from documents sent to it, so
    that both cores analyse text. `finish()` returns its segments for SegmentBuilder.commit(extra_segments)."""

    def __init__(self, folder: Path, codec):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(_ROOT), os.environ.get("PYTHONPATH")])))
        self.process = subprocess.Popen([sys.executable, "-m", "db.search.writer", str(folder)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=str(_ROOT), env=env)
        pickle.dump(codec, self.process.stdin)

    def send(self, documents: list[dict]) -> None:
        pickle.dump(documents, self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)

    def send_library(self, library_folder: Path, ids: list[str]) -> None:
        """Let the helper read the papers `ids` from the library itself (while this process works)."""
        pickle.dump(("library", str(library_folder), ids), self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)

    def finish(self) -> list:
        pickle.dump(None, self.process.stdin)
        self.process.stdin.close()
        segments = pickle.load(self.process.stdout)
        if self.process.wait() != 0:
            raise RuntimeError("the index helper process failed")
        return segments

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _helper_main(folder: str) -> None:
    from whoosh import index as whoosh_index

    codec = pickle.load(sys.stdin.buffer)
    batches = []
    while (batch := pickle.load(sys.stdin.buffer)) is not None:  # read all first: the sender has work to do
        batches.append(batch)
    segments = write_segments(whoosh_index.open_dir(folder), _documents(batches), codec)  # the parent holds the lock
    pickle.dump(segments, sys.stdout.buffer)
    sys.stdout.flush()


def _documents(batches):
    for batch in batches:
        if isinstance(batch, tuple):  # ("library", folder, ids): read them here
            from db.library.library import Library

            with Library.open(Path(batch[1]), seed=False) as library:
                for start in range(0, len(batch[2]), 1000):
                    yield from map(document, library.papers(batch[2][start : start + 1000]))
            continue
        yield from batch


if __name__ == "__main__":
    _helper_main(sys.argv[1])
