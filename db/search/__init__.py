"""Search: the library's whoosh index and the query language, behind one interface.

Everything that touches whoosh lives in this package; the rest of Margin imports only the names below
(tests/unit/search/test_search_seam.py checks it). whoosh-reloaded is pinned to the exact version its internals were
written against (`WHOOSH_VERSION`); `check_whoosh()` fails with a clear message on any other.

Modules:
- `engine`: the pinned whoosh-reloaded version and the internal names this package relies on;
- `analysis`: text as the index holds it: folding, words and CJK bigrams, stems, the indexed forms of values;
- `language`: the query language (text → whoosh query, words to highlight, hints);
- `filters`: the sidebar's filters spliced into a query's text (public);
- `documents`: the index schema and a paper's document;
- `postings`: the text fields' formats, segment files through a memory map, posting lists as numpy arrays;
- `ranking`: BM25 ranking straight from the posting lists (the first page first);
- `writer`: writing index segments without whoosh's posting pool (and the helper process);
- `folder`: the index folder on disk shared by processes (lock, fresh folder, swap);
- `index`: `SearchIndex`, keeping the index current with the library and answering queries.

A query's kind (`is:recommended`, `similar:ID`, …) is db/query_kind.py; answering a whole query (the index, or
recommendations, interests, the progress check) is db/query.py, which stands above this package.

Interface:
- `SearchIndex(folder)` / `SearchIndex.for_library(library)`: `open(library)`, `sync(library)`, `rebuild`,
  `find(text or ParsedQuery, limit=None) -> SearchResult` (ids best first, hint, highlight terms), `search(text)`,
  `similar(paper_id)`, `pending(library)`, `close()`;
- `ensure_index(library) -> SearchIndex` for headless commands;
- `parse_query_text(text) -> ParsedQuery` (`.query`, `.ranked`, `.terms`, `.hint`), `highlight_terms(text)`;
- `fold(text)`, `stem(word)`: text as it is matched; `highlight_prefixes(terms)`: the starts of the words a
  renderer marks for a query's terms (db.text.render takes them from its caller); `SEARCH_SYNTAX_HELP`;
- `check_whoosh()`: raises db.errors.MarginError naming the installed and the pinned whoosh-reloaded version
  (and any internal name this package uses that is missing); `SearchIndex` calls it.
"""

from db.search.analysis import fold, highlight_prefixes, stem
from db.search.index import INDEX_SCHEMA_VERSION, SearchIndex, SearchResult, ensure_index
from db.search.language import SEARCH_SYNTAX_HELP, ParsedQuery, highlight_terms, parse_query_text

__all__ = ["INDEX_SCHEMA_VERSION", "SEARCH_SYNTAX_HELP", "ParsedQuery", "SearchIndex", "SearchResult",
           "ensure_index", "fold", "highlight_prefixes", "highlight_terms", "parse_query_text", "stem"]
