"""Issue 15: an import of 1,000 papers into a library of 20,000 holds its memory bounded (not by the library).
Issue 28: a cold import of 100,000 papers grows the process by at most 400 MB (it held every record and every
planned row until its one write: 649 MB with the search index; the floor, sqlite-utils + FTS5, 378 MB; then,
with records spooled and the plan on disk, it still decoded the 250 MB list whole, its bytes and its text at
once: 496 MB; read value by value from the file, db.formats.json_stream: 175 MB).

The library is 20,000 generated papers (random words, 150–250 per abstract, as long as real abstracts); the
import is 1,000 of them again with a new title and one word changed,
so that every record goes through near-duplicate abstract matching (the costly path: titles no longer
identify them) and is updated in place. The import runs in a child process; its peak resident memory during
`Library.import_records` alone is measured as VmHWM after resetting it (/proc/self/clear_refs) just before,
minus the resident memory at that moment.

The bound, 24 MB: what the import itself needs is its 1,000 records' plan and match keys, SQLite's page
cache (2 MB per connection), the matcher's scratch database and its count of the keys of a sample of 300 of
the records (measured: 15 MB). Holding the library in
memory breaks it: only its abstracts as strings are ~50 MB (52.5 MB measured with that planted in the
matcher); the old in-memory shingle index of every abstract held ~480 MB (bench_import: 494 MB).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from db.library.library import Library
from db.paper import PaperRecord

BOUND_MB = 24
LIBRARY_SIZE = 20_000
IMPORT_SIZE = 1_000

CHILD = r"""
import gc, json, sys
from pathlib import Path
from db.import_job import read_inputs
from db.library.library import Library

def status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024

with Library.open(sys.argv[1], seed=False) as library:
    inputs = read_inputs([sys.argv[2]])
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS from here on
    before = status("VmRSS")
    report = library.import_records(inputs.records)
    peak = status("VmHWM")
print(json.dumps({"grew_mb": peak - before, "summary": report.summary()}))
"""


def _abstract(rng: random.Random, vocabulary: list[str]) -> str:
    return " ".join(rng.choice(vocabulary) for _ in range(rng.randint(150, 250))) + "."


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux /proc (VmHWM reset)")
def test_import_of_1000_into_20000_holds_memory_bounded(tmp_path: Path):
    rng = random.Random(15)
    vocabulary = [f"w{n}" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
                  for n in range(20_000)]
    records = [PaperRecord(title=f"Generated paper {n}", abstract=_abstract(rng, vocabulary), venue="GEN 2026",
                           year=2026) for n in range(LIBRARY_SIZE)]
    folder = tmp_path / "library"
    with Library.open(folder, seed=False) as library:
        assert len(library.import_records(records).new) == LIBRARY_SIZE
    changed = []
    for record in rng.sample(records, IMPORT_SIZE):
        words = record.abstract.split()
        words[len(words) // 2] = "changed"
        changed.append({"title": "Revised: " + record.title, "abstract": " ".join(words), "venue": record.venue,
                        "year": record.year})
    paper_list = tmp_path / "changed.json"
    paper_list.write_text(json.dumps(changed), encoding="utf-8")
    del records
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", CHILD, str(folder), str(paper_list)], capture_output=True,
                            text=True, timeout=600, cwd=root, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    print(f"import of {IMPORT_SIZE:,} into {LIBRARY_SIZE:,}: grew by {figures['grew_mb']:.1f} MB")
    assert figures["summary"].startswith(f"0 new, {IMPORT_SIZE:,} updated"), figures
    assert figures["grew_mb"] < BOUND_MB, f"the import grew by {figures['grew_mb']:.0f} MB (bound {BOUND_MB} MB)"


COLD_BOUND_MB = 400
COLD_SIZE = 100_000

COLD_CHILD = r"""
import json, sys
from pathlib import Path
from db.import_job import read_inputs
from db.library.library import Library

def status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024

before = status("VmRSS")  # Python and Margin loaded, nothing read
with Library.open(sys.argv[1], seed=False) as library:
    report = library.import_records(read_inputs([sys.argv[2]]).records)
print(json.dumps({"grew_mb": status("VmHWM") - before, "summary": report.summary()}))
"""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc (VmHWM)")
def test_a_cold_import_of_100000_grows_memory_by_at_most_400_mb(tmp_path: Path):
    """The whole list is read, matched and written (records spooled to disk as they are read, the plan kept on
    disk, written in chunks): VmHWM of the child less its resident memory before reading. Holding every record
    as before breaks it (~260 MB of PaperRecords at 100k, plus the planned rows: 649 MB)."""
    rng = random.Random(28)
    vocabulary = [f"w{n}" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
                  for n in range(20_000)]
    paper_list = tmp_path / "papers.json"
    with paper_list.open("w", encoding="utf-8") as out:  # (250 MB: written as made, not held)
        out.write("[")
        for n in range(COLD_SIZE):
            out.write(("," if n else "") + json.dumps({
                "title": f"Generated paper {n}", "abstract": _abstract(rng, vocabulary), "venue": "GEN 2026",
                "year": 2026, "author": f"Author {n % 997}; Author {n % 1009}"}))
        out.write("]")
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", COLD_CHILD, str(tmp_path / "library"), str(paper_list)],
                            capture_output=True, text=True, timeout=3600, cwd=root,
                            env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    print(f"cold import of {COLD_SIZE:,}: grew by {figures['grew_mb']:.0f} MB")
    assert figures["summary"].startswith(f"{COLD_SIZE:,} new, 0 updated"), figures
    assert figures["grew_mb"] <= COLD_BOUND_MB, f"grew by {figures['grew_mb']:.0f} MB (bound {COLD_BOUND_MB} MB)"
