"""On-device semantic similarity (issue 32): the embedding seam, the stored vectors, the embedding job.

    from db.embed import embed
    embed(["a title. an abstract", ...])  # float32 [n, d], rows of unit length; ModelUnavailable without a model

Layers: models (the seam: which model, loaded once per process), store (the vectors file in the library
folder), job (what to embed, in two passes), vectors (the stored vectors as one matrix, for ranking).
"""

from __future__ import annotations

import numpy as np

from db.embed.models import ModelUnavailable, configured, load_model


def embed(texts: list[str], spec: str | None = None, library_folder=None) -> np.ndarray:
    """Passage vectors of `texts` with the model in force (`spec`, else configured(library_folder)): float32
    [len(texts), d], L2-normalized. Raises ModelUnavailable when there is no model."""
    return load_model(spec if spec is not None else configured(library_folder)).passages(list(texts))


__all__ = ["ModelUnavailable", "embed", "load_model", "configured"]
