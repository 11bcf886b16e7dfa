"""Giving freed memory back to the operating system after a big piece of work (an import, an index build).

CPython frees the objects, but glibc's allocator keeps the freed heap mapped: after importing 1,000 papers
into a 20,000-paper library the window process stayed about 200 MB larger than before. `malloc_trim(0)`
returns it. A no-op where glibc is not the C library (macOS, Windows, musl).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
import threading
from contextlib import contextmanager

_trim = None
if sys.platform.startswith("linux"):
    try:
        _trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        _trim.argtypes = [ctypes.c_size_t]
        _trim.restype = ctypes.c_int
    except (OSError, AttributeError):
        _trim = None


def release_memory() -> None:
    """Collect garbage and hand free heap pages back to the OS (glibc); cheap (a few ms).

    The full collection runs on the main thread only: on a worker thread (the window's search worker builds
    the index) it could free another thread's objects there — Qt objects in a reference cycle must be destroyed
    on their own thread (a collection on the search worker crashed a test run with a segfault)."""
    if threading.current_thread() is threading.main_thread():
        gc.collect()
    if _trim is not None:
        _trim(0)


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
_AFTER = 32 << 20  # the mmap threshold glibc's own adjustment reaches after big frees (its maximum, 64-bit)
_mallopt = None
if _trim is not None:
    try:
        _mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
        _mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        _mallopt.restype = ctypes.c_int
    except (OSError, AttributeError):
        _mallopt = None


@contextmanager
def heap_kept(size: int = 1 << 30):
    """While in it, glibc serves allocations up to `size` bytes from its heap and keeps freed heap memory, so that
    work that allocates and frees big arrays over and over (an index build's segments) reuses the same pages
    instead of having the kernel map and zero fresh ones each time (page faults: most of a segment's numpy work
    on a busy machine). After it the thresholds are where glibc's own adjustment takes them after big frees
    (mmap above 32 MiB, trim above 64 MiB; setting them ends that adjustment, so they are not set back to
    its 128 KiB start, which would map every array of a search afresh) and free heap memory is given back
    (malloc_trim). A no-op without glibc."""
    if _mallopt is None:
        yield
        return
    _mallopt(_M_MMAP_THRESHOLD, size)
    _mallopt(_M_TRIM_THRESHOLD, size)
    try:
        yield
    finally:
        _mallopt(_M_MMAP_THRESHOLD, _AFTER)
        _mallopt(_M_TRIM_THRESHOLD, 2 * _AFTER)
        _trim(0)
