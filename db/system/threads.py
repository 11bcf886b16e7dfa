"""Native thread pools pinned to one thread while Margin computes (issue 28).

OpenBLAS (numpy's and scipy's) and OpenMP (scikit-learn's k-means) start a thread per core for every operation
large enough, even a dot product of two 60,000-long vectors. On a quiet machine that saves microseconds; on a
busy one every such call waits for a core to wake its helper thread: measured on the 2-core laptop at load ~15, a
`numpy.linalg.norm` inside the SVM fit took 55 ms, and one Newton step 433 ms of CPU where one thread needs 87.
Margin's computations are many small operations (the SVM's conjugate gradients, the map's SVD and k-means), so
they run with one BLAS and one OpenMP thread: `with pinned(): ...` (threadpoolctl).

The limit is process-wide (that is how the libraries keep it) and it stays: `pinned()` sets it when a pool has more
than one thread and never restores it. A per-call limit restored afterwards does not hold across threads:
threadpoolctl lets one thread at a time control OpenBLAS, so the search worker's fit could run unpinned while the
map worker's limit ended, or restore two threads beneath it. Nothing in Margin gains from more BLAS threads (the
semantic vectors' products are bounded by memory; t-SNE keeps its own workers, db.map.layout). The
ThreadpoolController is threadpoolctl's cached one (made anew when more modules are loaded; making one scans the
process's shared objects, ~20 ms under load, while checking and setting its limits costs microseconds).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TypeVar

_lock = threading.Lock()
F = TypeVar("F", bound=Callable)


def pin() -> None:
    """Limit every BLAS and OpenMP thread pool the process has loaded to one thread (those above one)."""
    from threadpoolctl import get_cached_controller

    with _lock:
        controller = get_cached_controller()
        if any(pool.num_threads != 1 for pool in controller.lib_controllers):
            controller.limit(limits=1)


@contextmanager
def pinned() -> Iterator[None]:
    """Run the block with the process's BLAS and OpenMP pools at one thread (`pin`, on entry; it stays)."""
    pin()
    yield


def pinned_call(function: F) -> F:
    """Decorator: `function` runs with the pools pinned (`pin` before each call)."""

    @wraps(function)
    def call(*args, **kwargs):
        pin()
        return function(*args, **kwargs)

    return call  # type: ignore[return-value]
