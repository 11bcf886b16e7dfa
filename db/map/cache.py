"""The map cache: `<library>/map/map.npz` (derived data, like the index: deleting it only costs a rebuild).

Papers added later are placed among their neighbours (db.map.layout.extend) instead of recomputing the map;
when more than REFIT_SHARE of the papers are newer than the last fit, or the cache is missing, unreadable or of
another schema, the map is computed anew. Removed papers are dropped. Edits to a paper's text do not move it
until the next refit.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from db.embed.vectors import SemanticVectors
from db.errors import MarginError
from db.library.library import Library
from db.map.layout import COARSE, FINE, ConferenceMap, Region, compute, extend
from db.recommend.tfidf_cache import TfidfCache
from db.system.fileio import write_atomically

CACHE_DIR = "map"
CACHE_FILE = "map.npz"
CACHE_SCHEMA = 1  # bump when the placement, the regions or the file layout change
REFIT_SHARE = 0.2
FITTED = 0.05  # the share of a whole map's work done once the tf-idf matrix is fitted (db.map.layout.REDUCED: reduced)


@dataclass
class RefreshReport:
    """What `MapCache.refresh` did: "unchanged", "placed" (`changed` new papers placed, removed dropped) or
    "fitted" (the whole map computed), and how long it took."""

    kind: str
    changed: int
    seconds: float


class MapCache:
    """The map file of one library folder."""

    def __init__(self, library_folder: Path | str):
        self.folder = Path(library_folder)
        self.path = self.folder / CACHE_DIR / CACHE_FILE

    def load(self) -> ConferenceMap | None:
        """The cached map, or None when the file is missing, unreadable, inconsistent or of another schema."""
        try:
            with open(self.path, "rb") as stream, np.load(stream, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("schema") != CACHE_SCHEMA:
                    return None
                ids = data["ids"].tolist()
                xy, clusters = data["xy"].astype(np.float32), data["cluster"].astype(np.int32)
                regions = [Region(int(r["level"]), list(r["terms"]), tuple(r["center"]), int(r["papers"]))
                           for r in meta["regions"]]
                loaded = ConferenceMap(ids, xy, clusters, regions, int(meta["fitted_rows"]),
                                       meta.get("placed_by", "tfidf"))
        except Exception:  # noqa: BLE001 - missing, truncated or garbage: the caller computes anew
            return None
        counts = [len(loaded.regions_at(level)) for level in (COARSE, FINE)]
        consistent = (xy.shape == (len(ids), 2) and clusters.shape == (2, len(ids))
                      and all(not len(ids) or int(clusters[level].max()) < max(counts[level], 1)
                              for level in (COARSE, FINE)))
        return loaded if consistent else None

    def save(self, conference_map: ConferenceMap) -> None:
        """Write the cache atomically; a folder that cannot be written only costs the next process a rebuild."""
        meta = {"schema": CACHE_SCHEMA, "fitted_rows": conference_map.fitted_rows,
                "placed_by": conference_map.placed_by,
                "regions": [{"level": r.level, "terms": r.terms, "center": list(r.center), "papers": r.papers}
                            for r in conference_map.regions]}
        buffer = io.BytesIO()
        np.savez(buffer, meta=np.array(json.dumps(meta)), ids=np.array(conference_map.ids, dtype=str),
                             xy=conference_map.xy, cluster=conference_map.cluster)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, buffer.getvalue())  # the one atomic write (db.system.fileio)
        except (OSError, MarginError):
            pass

    def refresh(self, library: Library, current: ConferenceMap | None = None,
                progress: Callable[[str], None] | None = None,
                step: Callable[[float], object] | None = None) -> tuple[ConferenceMap, RefreshReport]:
        """The map of the library as it is now, from `current` (else the cache file): unchanged when the same
        papers are on it (no text is read then), new papers placed among their neighbours, or computed anew
        (see the module). `progress` is told, in words, when the slow path starts; `step(share done)` when it
        starts (0), once the tf-idf matrix is fitted (FITTED), between the layout's parts and during t-SNE
        (db.map.layout.compute): an exception it raises stops the work there, and nothing is saved. Saves when
        anything changed."""
        started = time.perf_counter()
        ids = library.ids()
        if current is None:
            current = self.load()
        placed_by = layout_input(self.folder, len(ids))  # issue 32: semantic vectors once every paper has one
        if current is not None and current.placed_by != placed_by:
            current = None  # the map was laid out from other features: lay it out anew
        if current is not None and len(current.ids) == len(ids) and set(current.ids) == set(ids):
            if current.ids != ids:  # same papers, library order changed: reorder, nothing to compute
                current = _reorder(current, ids)
            return current, RefreshReport("unchanged", 0, time.perf_counter() - started)
        new = [i for i in ids if current is None or i not in current.row]
        placing = bool(current is not None and current.ids and len(new) <= REFIT_SHARE * max(current.fitted_rows, 1))
        if not placing and step:
            step(0.0)  # the slow path starts (the tf-idf fit may come first): shown, and it may stop here
        tfidf, _report = TfidfCache(self.folder).refresh(library)
        if not placing and step:
            step(FITTED)
        semantic = SemanticVectors.load(self.folder, ids) if placed_by != "tfidf" else None
        if placing:
            result, kind = extend(current, tfidf, ids, semantic), "placed"
        else:
            if progress:
                progress(f"computing the map of {len(ids):,} papers")
            result, kind = compute(tfidf, ids, semantic, step), "fitted"
        result.placed_by = placed_by
        self.save(result)
        return result, RefreshReport(kind, len(new) if kind == "placed" else len(ids), time.perf_counter() - started)


def _reorder(current: ConferenceMap, ids: list[str]) -> ConferenceMap:
    rows = [current.row[i] for i in ids]
    return ConferenceMap(ids, current.xy[rows], current.cluster[:, rows], current.regions, current.fitted_rows,
                         current.placed_by)


def layout_input(folder: Path, papers: int) -> str:
    """What a map of the library in `folder` is laid out from: the model key of its semantic vectors when all
    `papers` papers have a full-quality one (db.embed), else "tfidf"."""
    from db.embed.models import ModelUnavailable, configured, load_model
    from db.embed.store import FULL, VectorStore

    store = VectorStore(folder)
    if not papers or not store.exists():
        return "tfidf"
    try:
        model = load_model(configured(folder))
        return model.key if store.counts(model.key).get(FULL, 0) >= papers else "tfidf"
    except ModelUnavailable:
        return "tfidf"
    finally:
        store.close()
