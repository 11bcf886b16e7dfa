"""Where a cold import + index's CPU goes (issue 28): one cold import of a JSON list into a new library, then the
search index built, with process CPU timers around each stage (the index helper's CPU from RUSAGE_CHILDREN). Not
part of the test run. Run it once per checkout to compare, from that checkout's folder:

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_import_stages.py /tmp/somewhere papers-20000.json

Prints one line per stage: python + imports, reading the list, matching (planning), settling the frequent keys
(a cold import held in memory), writing (SQL and version groups), the rest of Library.import_records (commit,
fitting records, the keys check), and the index in this process and in its helper.
"""

import resource
import shutil
import sys
import time

STARTED = time.process_time()

from pathlib import Path  # noqa: E402

from db.import_job import read_inputs  # noqa: E402
from db.library import import_plan, importing  # noqa: E402
from db.library.library import Library  # noqa: E402
from db.search import SearchIndex  # noqa: E402

STAGES: dict[str, float] = {}
IMPORT_PARTS = ("match (plan)", "settle frequent keys", "write (SQL + versions)")


def timed(owner, name: str, label: str) -> None:
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        started = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            STAGES[label] = STAGES.get(label, 0) + time.process_time() - started

    setattr(owner, name, wrapper)


def main(folder: Path, paper_list: Path) -> None:
    timed(importing, "_match_records", IMPORT_PARTS[0])
    if hasattr(import_plan.PlannedPapers, "settle_frequent"):  # (not in the code before)
        timed(import_plan.PlannedPapers, "settle_frequent", IMPORT_PARTS[1])
    timed(importing, "write_import", IMPORT_PARTS[2])
    STAGES["python + imports"] = time.process_time() - STARTED
    shutil.rmtree(folder, ignore_errors=True)
    started = time.process_time()
    records = read_inputs([paper_list]).records
    STAGES["read list"] = time.process_time() - started
    with Library.open(folder, seed=False) as library:
        started = time.process_time()
        library.import_records(records)
        whole = time.process_time() - started
        STAGES["import, the rest (commit, fit, keys check)"] = whole - sum(STAGES.get(k, 0) for k in IMPORT_PARTS)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.process_time()
        SearchIndex.for_library(library).open(library)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        STAGES["index (this process)"] = time.process_time() - started
        STAGES["index (helper process)"] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    total = sum(STAGES.values())
    for label, seconds in STAGES.items():
        print(f"{label:45s} {seconds:6.2f} s  {100 * seconds / total:4.1f}%")
    print(f"{'total':45s} {total:6.2f} s")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
