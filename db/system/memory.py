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
