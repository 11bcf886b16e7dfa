"""The whoosh search index in the library's `index/` folder: derived data, rebuilt from SQLite at will.

Fields: title (boosted), abstract, authors, note, tags (free text), tag (whole tags), venue, year, rating,
read. Text is folded to NFC, lower case and without accents, then stemmed (English); stop words are kept so
that a quoted phrase such as "chain of thought" matches.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh import qparser, query, scoring
from whoosh.analysis import CharsetFilter, LowercaseFilter, RegexTokenizer, StemFilter
from whoosh.fields import BOOLEAN, ID, KEYWORD, NUMERIC, TEXT, Schema
from whoosh.support.charset import accent_map

from db.library import Library, tag_key
from db.paper import Paper

INDEX_SCHEMA_VERSION = 1
_STAMP = "margin-index.json"
_TEXT_FIELDS = ("title", "abstract", "authors", "note", "tags")
_FIELD_BOOSTS = {"title": 2.0, "abstract": 1.0, "authors": 1.0, "note": 1.0, "tags": 1.5}
_FIELD_ALIASES = {"author": "authors", "tag": "tag"}


def _analyzer():
    return RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map) | StemFilter(cachesize=50000)


def make_schema() -> Schema:
    text = _analyzer()
    return Schema(
        id=ID(stored=True, unique=True),
        title=TEXT(analyzer=text, field_boost=2.0),
        abstract=TEXT(analyzer=text),
        authors=TEXT(analyzer=RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map)),
        note=TEXT(analyzer=text),
        tags=TEXT(analyzer=text),
        tag=KEYWORD(commas=True, lowercase=True),
        venue=TEXT(analyzer=RegexTokenizer() | LowercaseFilter()),
        year=NUMERIC(int, bits=32, signed=False),
        rating=NUMERIC(int, bits=8, signed=False),
        read=BOOLEAN(),
    )


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text or "")


def document(paper: Paper) -> dict:
    """The whoosh document for a paper. Tags are stored whole (a comma inside a tag becomes a space)."""
    return {
        "id": paper.id,
        "title": _fold(paper.label),
        "abstract": _fold(paper.abstract),
        "authors": _fold(" ; ".join(paper.authors)),
        "note": _fold(paper.note),
        "tags": _fold(" ; ".join(paper.tags)),
        "tag": ",".join(tag_key(tag).replace(",", " ") for tag in paper.tags),
        "venue": _fold(paper.venue or ""),
        "year": paper.year or 0,
        "rating": paper.rating or 0,
        "read": paper.read,
    }


class SearchIndex:
    """The library's search index. One writer at a time per process (an internal lock).

    `open()` rebuilds the index when it is missing, from another schema, or unreadable, and catches up with
    papers queued in SQLite (changes the index has not seen, e.g. after a crash).
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._index = None
        self._lock = threading.RLock()

    @classmethod
    def for_library(cls, library: Library) -> SearchIndex:
        return cls(library.folder / "index")

    def needs_rebuild(self) -> bool:
        """True when the index is missing, from another schema version, or cannot be opened."""
        try:
            stamp = json.loads((self.folder / _STAMP).read_text())
            if stamp.get("schema") != INDEX_SCHEMA_VERSION:
                return True
            self._index = whoosh_index.open_dir(str(self.folder))
            with self._index.searcher() as searcher:
                searcher.doc_count()
        except Exception:  # a missing, truncated or garbage index: whoosh raises many kinds
            self._index = None
            return True
        return False

    def open(self, library: Library, progress: Callable[[int, int], None] | None = None) -> bool:
        """Make the index usable and current with `library`. Returns True when it had to be rebuilt."""
        with self._lock:
            rebuilt = False
            if self.needs_rebuild():
                self.rebuild(library, progress)
                rebuilt = True
            else:
                self.sync(library)
                with self._index.searcher() as searcher:
                    if searcher.doc_count() != library.count():
                        self.rebuild(library, progress)
                        rebuilt = True
            return rebuilt

    def rebuild(self, library: Library, progress: Callable[[int, int], None] | None = None) -> None:
        """Build the index anew from every paper in the library."""
        with self._lock:
            self._index = None
            if self.folder.exists():
                shutil.rmtree(self.folder, ignore_errors=True)
            self.folder.mkdir(parents=True, exist_ok=True)
            index = whoosh_index.create_in(str(self.folder), make_schema())
            ids = library.ids()
            writer = index.writer(limitmb=256)
            for start in range(0, len(ids), 1000):
                for paper in library.papers(ids[start : start + 1000]):
                    writer.add_document(**document(paper))
                if progress:
                    progress(min(start + 1000, len(ids)), len(ids))
            writer.commit(optimize=True)
            (self.folder / _STAMP).write_text(json.dumps({"schema": INDEX_SCHEMA_VERSION}))
            self._index = index
            library.clear_index_queue(library.index_queue())

    def sync(self, library: Library) -> int:
        """Bring queued papers up to date in the index. Returns how many were updated."""
        with self._lock:
            queued = library.index_queue()
            if not queued:
                return 0
            if self._index is None and self.needs_rebuild():
                self.rebuild(library)
                return len(queued)
            papers = {paper.id: paper for paper in library.papers(queued)}
            writer = self._index.writer(timeout=10.0)
            try:
                for paper_id in queued:
                    if paper_id in papers:
                        writer.update_document(**document(papers[paper_id]))
                    else:
                        writer.delete_by_term("id", paper_id)
            except BaseException:
                writer.cancel()
                raise
            writer.commit()
            library.clear_index_queue(queued)
            return len(queued)

    def search(self, text: str, limit: int | None = None) -> list[str]:
        """Paper ids matching query `text`, best match first (BM25F). An empty query matches nothing here:
        callers show the library in its own order instead."""
        with self._lock:
            if self._index is None:
                return []
            parsed = parse_query(text, self._index.schema)
            if parsed is None:
                return []
            with self._index.searcher(weighting=scoring.BM25F(title_B=0.75)) as searcher:
                try:
                    results = searcher.search(parsed, limit=limit)
                except Exception:  # a query whoosh parsed but cannot run: search its plain words instead
                    plain = parse_query(" ".join(re.findall(r"\w+", text)).lower(), self._index.schema)
                    if plain is None:
                        return []
                    results = searcher.search(plain, limit=limit)
                return [hit["id"] for hit in results]



def highlight_terms(text: str) -> list[str]:
    """The words of a query, for highlighting matches in the reader (field names and operators dropped)."""
    words = re.findall(r"\w+", re.sub(r"\b\w+:", " ", _fold(text)))
    return [w for w in words if w not in ("AND", "OR", "NOT")]


def parse_query(text: str, schema: Schema) -> query.Query | None:
    """Parse a user's query. Words are ANDed; `field:value` restricts a field; anything the parser cannot
    take falls back to plain terms. Returns None for a query with no searchable words."""
    text = _fold(text).strip()
    if not text:
        return None
    for alias, field_name in _FIELD_ALIASES.items():
        text = re.sub(rf"\b{alias}:", f"{field_name}:", text, flags=re.IGNORECASE)
    parser = qparser.MultifieldParser(list(_TEXT_FIELDS), schema, fieldboosts=_FIELD_BOOSTS)
    try:
        parsed = parser.parse(text)
        parsed.normalize()
    except Exception:  # whoosh's parser raises on some malformed input; fall back to plain words
        parsed = None
    if parsed is None or parsed is query.NullQuery:
        words = re.findall(r"\w+", text)
        if not words:
            return None
        # lower case: whoosh's operators are upper case, so the words are only words now
        parsed = parser.parse(" ".join(word.lower() for word in words))
    return parsed


def ensure_index(library: Library) -> SearchIndex:
    """Open (and rebuild or catch up as needed) the library's index; for headless commands."""
    index = SearchIndex.for_library(library)
    index.open(library)
    return index


def tags_query_value(tags: Iterable[str]) -> str:
    return ",".join(tag_key(tag) for tag in tags)
