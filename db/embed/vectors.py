"""The stored vectors of a library as one matrix, for ranking: `SemanticVectors.load`.

Rows follow the ids given (library order); the vectors are centred on the library's mean vector and scaled
to unit length again, so that a dot product is a cosine that tells papers apart (raw e5 vectors of any two
abstracts have a cosine near 0.8). Held as float32 (100,000 papers × 384 dimensions ≈ 150 MB); a matrix
product over all of them takes a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from db.embed.models import EmbeddingModel, ModelUnavailable, configured, load_model, normalize
from db.embed.store import VectorStore

# texts that mean nothing: what they reach on a paper is that paper's noise (hub papers are near every query)
NOISE_PROBES = ("zzzz", "asdf", "qqqq xxxx", "lorem ipsum", "hmm", "the", "?", "我", "xyz abc", "test")
NOISE_MARGIN = 0.1  # cosine above the noise: on ICLR 2018 (400 papers, the default model) 0–4 papers pass for
# nonsense or off-topic searches (chocolate cake, tax law), 4–36 for a research question (tests/unit/embed)
_probe_vectors: dict[str, np.ndarray] = {}  # model key → the probes' raw query vectors (embedded once a process)


@dataclass
class SemanticVectors:
    """`matrix[i]` is the centred unit vector of `ids[i]` (zeros where `has[i]` is False); `mean` the raw
    mean that was taken off (to centre a query vector the same way); `generation` the store's when read."""

    model: EmbeddingModel
    ids: list[str]
    matrix: np.ndarray
    has: np.ndarray
    mean: np.ndarray
    generation: int

    def __post_init__(self):
        self.row = {paper_id: i for i, paper_id in enumerate(self.ids)}
        self._floor: np.ndarray | None = None

    def floor(self) -> np.ndarray:
        """Per paper (float32 [n]), the cosine a search text must pass to be near it in meaning: the most any of
        NOISE_PROBES (texts that mean nothing) reaches on it, plus NOISE_MARGIN. Computed once (the probes are
        embedded as queries once a process and model: a few tenths of a second)."""
        if self._floor is None:
            if self.model.key not in _probe_vectors:
                _probe_vectors[self.model.key] = self.model.queries(list(NOISE_PROBES))
            probes = self.center(_probe_vectors[self.model.key])
            self._floor = (self.matrix @ probes.T).max(axis=1) + NOISE_MARGIN
        return self._floor

    @property
    def coverage(self) -> float:
        """The share of papers with a vector (0..1)."""
        return float(self.has.mean()) if len(self.has) else 0.0

    def center(self, vectors: np.ndarray) -> np.ndarray:
        """Raw model vectors [n, d] centred and normalized as the rows are."""
        return normalize(np.asarray(vectors, dtype=np.float32) - self.mean)

    def query(self, text: str) -> np.ndarray:
        """A search text's vector (the model's query form), centred: float32 [d]."""
        return self.center(self.model.queries([text]))[0]

    @classmethod
    def load(cls, library_folder, ids: list[str], model: EmbeddingModel | None = None,
             store: VectorStore | None = None) -> SemanticVectors | None:
        """The vectors of `ids` (None when no model or no vector of it is stored: tf-idf alone then)."""
        try:
            model = model or load_model(configured(library_folder))
        except ModelUnavailable:
            return None
        store = store or VectorStore(library_folder)
        if not store.exists():
            return None
        generation = store.generation()
        raw, has, _quality = store.load(model.key, ids)
        if not has.any():
            return None
        matrix = raw.astype(np.float32)  # centred and scaled in place: one float32 copy at any time
        del raw
        mean = matrix.sum(axis=0, dtype=np.float64).astype(np.float32) / int(has.sum())  # absent rows are 0
        matrix -= mean
        norms = np.linalg.norm(matrix, axis=1)
        norms[norms == 0] = 1
        matrix /= norms[:, None]
        matrix[~has] = 0.0
        return cls(model, list(ids), matrix, has, mean, generation)


def available(library_folder=None) -> str | None:
    """None when a model loads, else the one line saying why semantic features are off."""
    try:
        load_model(configured(library_folder))
    except ModelUnavailable as error:
        return f"Semantic similarity is off: {error}; ranking uses tf-idf alone"
    return None
