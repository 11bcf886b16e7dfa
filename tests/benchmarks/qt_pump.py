"""Waiting in a benchmark's window child: the Qt event loop run until a condition holds (bench_app.py and
gui_gaps.py type and rate the same way)."""

from __future__ import annotations

import time


def pump_until(condition, timeout: float = 600.0) -> bool:
    """Process the application's events (QApplication.instance()) every 0.5 ms until `condition()` is true or
    `timeout` seconds have passed; returns `condition()`."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    end = time.perf_counter() + timeout
    while not condition() and time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.0005)
    return condition()
