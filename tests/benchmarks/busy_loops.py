"""Load for the benchmarks' `--busy` runs (issue 28): busy-loop child processes beside the measurement, as a
researcher's laptop runs a build or a notebook beside Margin; and the load average to print with every figure."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager


@contextmanager
def busy_loops(count: int = 2):
    """`count` Python processes spinning (`while True: pass`) while the block runs; each is ended by its own id."""
    children = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for child in children:
            child.kill()
            child.wait()


def uptime() -> str:
    """The load averages (1, 5, 15 min) as `uptime` prints them, and the core count."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"
