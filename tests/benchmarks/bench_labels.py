"""Benchmark of derived labels and math rendering; prints a table. Not part of the test run.

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_labels.py [N_UNTITLED]

Uses the abstracts of ../shared/data/real/*.json: the time to derive one headline (db.text.labels), to render one
abstract as plain text and as HTML (math through db.text.math_markup), and the one-time relabel when a library of
N untitled papers (default 4,000; made from those abstracts as seed text) is opened under a new label rule.
"""

from __future__ import annotations

import glob
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from db.library.importing import LABEL_RULE_FILE  # noqa: E402
from db.library.library import Library  # noqa: E402
from db.text.abstract_markup import abstract_to_html, abstract_to_plain  # noqa: E402
from db.text.labels import derive_label  # noqa: E402


def _abstracts() -> list[str]:
    found = []
    for path in sorted(glob.glob(str(ROOT.parent / "shared" / "data" / "real" / "*.json"))):
        found += [" ".join(x["abstract"].split()) for x in json.loads(Path(path).read_text()) if x.get("abstract")]
    return found


def _per_item_ms(function, items) -> float:
    started = time.perf_counter()
    for item in items:
        function(item)
    return (time.perf_counter() - started) / len(items) * 1000


def main() -> int:
    wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    abstracts = _abstracts()
    if not abstracts:
        print("../shared/data/real is not present beside the project")
        return 1
    rows = [("derive_label, per abstract", f"{_per_item_ms(derive_label, abstracts):.3f} ms"),
            ("abstract_to_plain, per abstract", f"{_per_item_ms(abstract_to_plain, abstracts):.3f} ms"),
            ("abstract_to_html, per abstract", f"{_per_item_ms(abstract_to_html, abstracts):.3f} ms")]
    folder = Path(tempfile.mkdtemp()) / "library"
    seed = folder.parent / "untitled.txt"
    texts = [f"{a} (variant {i // len(abstracts)} of the text, number {i})" for i, a in
             enumerate(abstracts * (wanted // len(abstracts) + 1))][:wanted]
    seed.write_text("ICML 2026 Papers\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    from db.formats.importer import read_file

    with Library.open(folder, seed=False) as lib:
        lib.import_records(read_file(seed).records)
        untitled = lib.count()
    (folder / LABEL_RULE_FILE).unlink()
    started = time.perf_counter()
    Library.open(folder).close()
    rows.append((f"open with a new label rule, {untitled:,} untitled papers", f"{time.perf_counter() - started:.2f} s"))
    started = time.perf_counter()
    Library.open(folder).close()
    rows.append(("open again (rule noted)", f"{(time.perf_counter() - started) * 1000:.1f} ms"))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
