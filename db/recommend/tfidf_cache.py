"""The tf-idf matrix of a library's papers, cached in `<library>/recommend/tfidf.npz` (derived data).

Each paper's text is its label (the user's title, else the file's title, else the derived label), its
abstract and its note. The matrix has one L2-normalized row per paper in library order (scikit-learn's
TfidfVectorizer: sublinear tf, English stop words, unigrams and bigrams), and, when the recommender's sentence
evidence is on, one row per sentence of each paper beside it (db.recommend.sentences: same vocabulary and idf;
it doubles the fit's time and the file's size).

The cache file holds the matrix, the sentence rows if any, the vocabulary, the idf weights, the paper ids in row order
and one 64-bit digest of each paper's text. `refresh` compares the digests with the library's current texts: a
paper whose text changed, or that is new, is transformed with the cached vocabulary and idf and spliced in (an
import of a few papers or a note edit costs milliseconds); when more than REFIT_SHARE of the rows changed since the last
fit, or the cache is missing, unreadable or of another schema, the vectorizer is fitted anew. Until then a
word that only the spliced papers use is not a column, and the idf weights are those of the last fit. The file
is replaced atomically, so another process never reads half of it.

Why not refit on every change: at 20k papers a fit takes about 6 s on a 2-core machine, a splice of 50 new
papers well under a second (tests/benchmarks/bench_recommend.py).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse

from db.errors import MarginError
from db.library.library import Library
from db.recommend import sentences
from db.system.fileio import write_atomically

CACHE_DIR = "recommend"
CACHE_FILE = "tfidf.npz"
CACHE_SCHEMA = 3  # bump when the text, the tokenizer or the vectorizer settings change
REFIT_SHARE = 0.2
MAX_FEATURES = 60_000

_TEXT_SQL = ("SELECT p.id, COALESCE(a.title, p.label), p.abstract, COALESCE(a.note, '') FROM papers p"
             " LEFT JOIN annotations a ON a.paper_id = p.id ORDER BY p.position")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_URL = re.compile(r"\b(?:https?://|www\.)\S+")
_WORD = re.compile(r"(?u)\b[^\W\d_][^\W_]+\b")  # words of 2+ letters or digits that start with a letter
_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"  # as db.search.analysis
_CJK = re.compile(f"[{_CJK_CHARS}]")
_CJK_OR_NOT = re.compile(f"[{_CJK_CHARS}]+|[^{_CJK_CHARS}]+")
_BREAK = re.compile(r"[.!?;:,()\[\]{}](?:\s|$)|[;()\[\]{}]|\n")  # no phrase across these


def prepare(text: str) -> str:
    """Lower case, accents stripped (as scikit-learn's strip_accents_unicode), URLs and LaTeX command names
    (`\\mathcal`) removed."""
    text = _LATEX_COMMAND.sub(" ", _URL.sub(" ", text)).lower()
    if text.isascii():
        return text
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


def stop_words() -> frozenset[str]:
    """scikit-learn's English stop words (imported when first needed: scikit-learn takes a second to import,
    and only fitting or transforming texts needs it)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return ENGLISH_STOP_WORDS


def analyze(text: str) -> list[str]:
    """The terms of a text: its words less English stop words, and each pair of neighbouring words left
    (`chain of thought` gives `chain thought`) within one clause: a phrase never spans a sentence break. Chinese,
    Japanese and Korean are written without spaces: a run of their characters gives its overlapping character
    bigrams (`中文文本` gives `中文 文本` … as words of their own, as the search index does), not one word."""
    terms: list[str] = []
    stop = stop_words()
    for clause in _BREAK.split(prepare(text)):
        words = [word for word in _WORD.findall(clause) if word not in stop]
        if _CJK.search(clause):
            terms += [bigram for word in words if _CJK.search(word) for bigram in _cjk_terms(word)]
            words = [word for word in words if not _CJK.search(word)]
        terms += words
        terms += [f"{first} {second}" for first, second in zip(words, words[1:], strict=False)]
    return terms


def _cjk_terms(word: str) -> list[str]:
    """A word holding CJK characters: each CJK run's overlapping character bigrams (a lone character itself),
    and its other letters as words of 2+ characters."""
    terms: list[str] = []
    for run in _CJK_OR_NOT.findall(word):
        if _CJK.match(run):
            terms += [run[i:i + 2] for i in range(len(run) - 1)] or [run]
        elif len(run) > 1:
            terms.append(run)
    return terms


def paper_text(label: str | None, abstract: str | None, note: str | None) -> str:
    return "\n".join(part for part in (label, abstract, note) if part)


def digests(texts: Sequence[str]) -> np.ndarray:
    """One 64-bit digest (BLAKE2b) of each text, as uint64."""
    joined = b"".join(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest() for text in texts)
    return np.frombuffer(joined, dtype="<u8").copy()


def make_vectorizer(documents: int):
    """The vectorizer for a library of `documents` papers: a term must occur in 2 papers (3 from 5,000 on)
    and in at most a quarter of them once the library has 200 papers (below that, stop words only)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        analyzer=analyze, sublinear_tf=True, dtype=np.float32, max_features=MAX_FEATURES,
        min_df=1 if documents < 50 else 2 if documents < 5000 else 3,
        max_df=1.0 if documents < 200 else 0.25,
    )


@dataclass
class TfidfMatrix:
    """The tf-idf rows of a library: `matrix[row[id]]` is a paper's L2-normalized vector over `terms`."""

    ids: list[str]
    matrix: sparse.csr_matrix
    terms: np.ndarray
    idf: np.ndarray
    digests: np.ndarray
    fitted_rows: int  # how many papers the vocabulary and idf were fitted on
    # each paper's sentences as rows of their own (db.recommend.sentences): paper i's are
    # sentence_rows[sentence_ptr[i]:sentence_ptr[i + 1]]; None where not computed (a matrix built by hand)
    sentence_rows: sparse.csr_matrix | None = None
    sentence_ptr: np.ndarray | None = None

    def __post_init__(self):
        self.row = {paper_id: i for i, paper_id in enumerate(self.ids)}

    @property
    def fingerprint(self) -> str:
        """A digest of the library state the matrix holds: the ids in order and each paper's text digest."""
        state = hashlib.blake2b(digest_size=16)
        state.update("\n".join(self.ids).encode())
        state.update(self.digests.tobytes())
        return state.hexdigest()

    def vectorizer(self):
        """A vectorizer with this matrix's vocabulary and idf (to transform new or changed papers)."""
        vectorizer = make_vectorizer(self.fitted_rows)
        vectorizer.vocabulary_ = {term: i for i, term in enumerate(self.terms.tolist())}
        vectorizer.idf_ = self.idf
        return vectorizer


@dataclass
class RefreshReport:
    """What `TfidfCache.refresh` did: "unchanged", "updated" (`changed` rows transformed) or "fitted"."""

    kind: str
    changed: int
    seconds: float


def fit(ids: list[str], texts: list[str], with_sentences: bool = False) -> TfidfMatrix:
    """Fit the vectorizer on every text. An empty library, or one without a single word, gives no columns.
    `with_sentences`: each paper's sentence rows too (db.recommend.sentences; about doubles the time)."""
    vectorizer = make_vectorizer(len(texts))
    try:
        matrix = vectorizer.fit_transform(texts).tocsr()
        terms = np.array(vectorizer.get_feature_names_out(), dtype=str)
        idf = vectorizer.idf_.astype(np.float32)
    except ValueError:  # "empty vocabulary": no paper has a word left after stop words
        matrix = sparse.csr_matrix((len(texts), 0), dtype=np.float32)
        terms, idf = np.array([], dtype=str), np.array([], dtype=np.float32)
    rows, ptr = None, None
    if with_sentences:
        rows, ptr = sentences.transform(vectorizer, [sentences.split(text) for text in texts])
    return TfidfMatrix(ids, matrix, terms, idf, digests(texts), len(texts), rows, ptr)


class TfidfCache:
    """The cache file of one library folder."""

    def __init__(self, library_folder: Path | str, with_sentences: bool = False):
        self.path = Path(library_folder) / CACHE_DIR / CACHE_FILE
        self.with_sentences = with_sentences  # keep each paper's sentence rows too (a cache without them is refitted)

    def load(self) -> TfidfMatrix | None:
        """The cached matrix, or None when the file is missing, unreadable or from another schema."""
        try:
            # our own file object: np.load leaves its file open when the archive is garbage
            with open(self.path, "rb") as stream, np.load(stream, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("schema") != CACHE_SCHEMA:
                    return None
                matrix = sparse.csr_matrix((data["data"], data["indices"], data["indptr"]),
                                           shape=tuple(data["shape"]))
                rows, ptr = None, None
                if "s_ptr" in data:
                    rows = sparse.csr_matrix((data["s_data"], data["s_indices"], data["s_indptr"]),
                                             shape=tuple(data["s_shape"]))
                    ptr = data["s_ptr"]
                loaded = TfidfMatrix(data["ids"].tolist(), matrix, data["terms"], data["idf"], data["digests"],
                                     int(meta["fitted_rows"]), rows, ptr)
        except Exception:  # noqa: BLE001 - missing, truncated or garbage: the caller fits anew
            return None
        consistent = (matrix.shape == (len(loaded.ids), len(loaded.terms)) and len(loaded.idf) == len(loaded.terms)
                      and len(loaded.digests) == len(loaded.ids) and meta.get("fingerprint") == loaded.fingerprint
                      and (rows is None or (rows.shape[1] == len(loaded.terms) and int(ptr[-1]) == rows.shape[0]
                                            and len(ptr) == len(loaded.ids) + 1)))
        return loaded if consistent else None

    def save(self, tfidf: TfidfMatrix) -> None:
        """Write the cache atomically (a temporary file renamed over the old one). A folder that cannot be
        written only costs the next process a refit, so OSError is swallowed."""
        meta = {"schema": CACHE_SCHEMA, "fitted_rows": tfidf.fitted_rows, "fingerprint": tfidf.fingerprint}
        matrix, rows = tfidf.matrix, tfidf.sentence_rows
        extra = {} if rows is None else {"s_data": rows.data, "s_indices": rows.indices, "s_indptr": rows.indptr,
                                         "s_shape": np.array(rows.shape), "s_ptr": tfidf.sentence_ptr}
        buffer = io.BytesIO()
        np.savez(buffer, meta=np.array(json.dumps(meta)), data=matrix.data, indices=matrix.indices,
                 indptr=matrix.indptr, shape=np.array(matrix.shape), ids=np.array(tfidf.ids, dtype=str),
                 terms=tfidf.terms, idf=tfidf.idf, digests=tfidf.digests, **extra)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, buffer.getvalue())  # the one atomic write (db.system.fileio)
        except (OSError, MarginError):
            pass

    def refresh(self, library: Library, current: TfidfMatrix | None = None) -> tuple[TfidfMatrix, RefreshReport]:
        """The matrix for the library as it is now, starting from `current` (else the cache file); saves
        the cache when anything changed."""
        started = time.perf_counter()
        rows = library.paper_texts()
        ids = [row[0] for row in rows]
        texts = [paper_text(label, abstract, note) for _id, label, abstract, note in rows]
        now = digests(texts)
        if current is None:
            current = self.load()
        if current is not None and self.with_sentences and current.sentence_rows is None:
            current = None  # fitted without sentence rows: fit anew with them
        if current is not None and current.ids == ids and np.array_equal(current.digests, now):
            return current, RefreshReport("unchanged", 0, time.perf_counter() - started)
        changed = _changed_rows(current, ids, now) if current is not None else None
        if changed is None or len(changed) + _removed(current, ids) > REFIT_SHARE * max(current.fitted_rows, 1):
            tfidf, kind, count = fit(ids, texts, self.with_sentences), "fitted", len(ids)
        else:
            tfidf, kind, count = _splice(current, ids, texts, now, changed), "updated", len(changed)
        self.save(tfidf)
        return tfidf, RefreshReport(kind, count, time.perf_counter() - started)


    def update(self, library: Library, current: TfidfMatrix, paper_ids: Sequence[str]) -> tuple[TfidfMatrix,
                                                                                             RefreshReport]:
        """The matrix after the texts of `paper_ids` (papers already in `current`) were edited: only their texts
        are read; saves the cache when any differs. Falls back to `refresh` for a paper the matrix lacks."""
        started = time.perf_counter()
        wanted = [paper_id for paper_id in dict.fromkeys(paper_ids)]
        rows: list[tuple] = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            rows += library.paper_texts(chunk)
        if any(row[0] not in current.row for row in rows):
            return self.refresh(library, current)
        texts = {current.row[paper_id]: paper_text(label, abstract, note) for paper_id, label, abstract, note in rows}
        fresh = dict(zip(texts, digests(list(texts.values())), strict=True))
        changed = sorted(i for i, digest in fresh.items() if current.digests[i] != digest)
        if not changed:
            return current, RefreshReport("unchanged", 0, time.perf_counter() - started)
        if len(changed) > REFIT_SHARE * max(current.fitted_rows, 1):
            return self.refresh(library, current)
        now = current.digests.copy()
        now[changed] = [fresh[i] for i in changed]
        tfidf = _splice(current, current.ids, texts, now, changed)
        self.save(tfidf)
        return tfidf, RefreshReport("updated", len(changed), time.perf_counter() - started)


def _changed_rows(current: TfidfMatrix, ids: list[str], now: np.ndarray) -> list[int]:
    """Positions in `ids` of papers that are new or whose text digest differs from the cached one."""
    return [i for i, paper_id in enumerate(ids)
            if (old := current.row.get(paper_id)) is None or current.digests[old] != now[i]]


def _removed(current: TfidfMatrix, ids: list[str]) -> int:
    return len(set(current.ids) - set(ids))


def _splice(current: TfidfMatrix, ids: list[str], texts, now: np.ndarray,
            changed: list[int]) -> TfidfMatrix:
    """The cached rows reordered to `ids`, with the `changed` positions transformed anew (same vocabulary);
    `texts[i]` is the text at position i (a list, or a dict holding the changed positions)."""
    vectorizer = current.vectorizer()
    fresh = (vectorizer.transform([texts[i] for i in changed]).astype(np.float32) if changed
             else sparse.csr_matrix((0, len(current.terms)), dtype=np.float32))
    stacked = sparse.vstack([current.matrix, fresh], format="csr")
    source = np.fromiter((current.row.get(paper_id, -1) for paper_id in ids), dtype=np.int64, count=len(ids))
    source[changed] = len(current.ids) + np.arange(len(changed))
    rows, ptr = None, None
    if current.sentence_rows is not None:  # kept in step: the changed papers' sentences transformed, the rest moved
        fresh_rows, fresh_ptr = sentences.transform(vectorizer, [sentences.split(texts[i]) for i in changed])
        all_rows = sparse.vstack([current.sentence_rows, fresh_rows], format="csr")
        all_ptr = np.concatenate([current.sentence_ptr, current.sentence_ptr[-1] + fresh_ptr[1:]])
        rows, ptr = sentences.take(all_rows, all_ptr, source)
    return TfidfMatrix(ids, stacked[source], current.terms, current.idf, now, current.fitted_rows, rows, ptr)
