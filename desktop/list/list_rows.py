"""The rows a search's ids become in the paper list: sorted by a column when the list is sorted
(db.library.facets.order_ids), and one row per work (db.library.works: a work's later versions left out).

Both grow with the library (an ORDER BY over every paper; a dict look-up per id, 32 ms at 100k papers), so the
search worker (desktop.list.search_worker) arranges a search's ids here, off the GUI thread, and the list model
takes the rows as they come (desktop.list.paper_model.PaperTableModel.set_ids)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from db.library import facets
from db.library.library import Library


@dataclass(frozen=True)
class ListOrder:
    """How the list arranges ids: `sort_key` (a facets.SORT_KEYS key; None: as given, i.e. relevance or library
    order), `descending`, and `works` ({paper id: work id} of the papers in a group of versions, the list model's
    own dict: it is replaced, never changed in place, so it can be read on another thread)."""

    sort_key: str | None = None
    descending: bool = False
    works: dict[str, str] = field(default_factory=dict)


@dataclass
class Arranged:
    """`given`: the ids in list order, every version; `rows`: the same with each work's later versions left
    out; `works`: the works dict `rows` were made with (the model takes `rows` only while it holds that dict)."""

    given: list[str]
    rows: list[str]
    works: dict[str, str]


def one_per_work(ids: Sequence[str], works: dict[str, str]) -> list[str]:
    """`ids` with each work's later versions left out: the first of a work's versions in `ids` stands for it
    (one dict look-up per id: 32 ms at 100k papers)."""
    if not works:
        return list(ids)
    seen: set[str] = set()
    return [paper_id for paper_id in ids
            if (work := works.get(paper_id)) is None or (work not in seen and not seen.add(work))]


def arrange(library: Library, ids: list[str] | None, order: ListOrder) -> Arranged:
    """`ids` (every paper when None) sorted as `order` says, and their rows; reads `library` (the caller's
    connection: the worker's own)."""
    if order.sort_key:
        ids = facets.order_ids(library, ids, order.sort_key, order.descending)
    elif ids is None:
        ids = library.ids()
    return Arranged(ids, one_per_work(ids, order.works), order.works)
