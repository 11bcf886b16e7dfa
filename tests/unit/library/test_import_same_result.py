"""Issue 28: making the record import cheaper changed nothing it does — the same papers, match keys, merges,
duplicates, version groups, Changes and report lines as the import before (base cdb4942), stored here as
digests (tests/fixtures/import/same_result.json).

Three imports into one library: a real list (../shared/data/real/nips2015.json, read from its file) together
with a generated one (`generated_list`: real abstracts of nips2016 with planted exact and near-duplicates,
title+year duplicates, shared DOIs on different papers, arXiv versions, records found only by arXiv id, DOI or
OpenReview id, a templated block whose shared keys
become frequent, title-only and short-abstract records), then a re-import of changed records of both (found
again by abstract, by title, unchanged). Each runs three times: as it is (a list this size is held in memory:
the first import is a cold one, matched in memory and its frequent keys settled at once), the same with many
keys frequent, and with every threshold small (the records spooled to disk, the plan spilled, written in chunks
of 100, so that keys become frequent between chunks; the shingle sets kept and the keys inserted sorted, as a
large import does; the matcher's own papers in its DiskScratch, their prefix keys merged into its sorted arrays
every 50). Skips without ../shared.

To make the digests again with the code before (only when the import's result is meant to change):
    cd /work/wt/base && PYTHONPATH=. python /path/to/this/file --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

EXPECTED = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "same_result.json"
MODES = {"held": {}, "spilled": {"spool.HOLD": 40, "spool.BUFFER": 25, "import_plan.IN_MEMORY": 40,
                                 "import_plan.CHUNK": 100, "matching.LARGE": 100, "match_keys.BULK_ROWS": 50,
                                 "match_scratch.PENDING_KEYS": 50},
         # the cold path (a list held in memory into an empty library: keys settled in memory, rows written once)
         # with many keys frequent (in more than 3 prefixes), the shingle sets kept and the write in chunks of 100:
         # the code before found them chunk by chunk and made rows again; the digests are that code's
         "held, many frequent": {"match_keys.FREQUENT": 3, "import_plan.CHUNK": 100, "match_keys.BULK_ROWS": 50,
                                 "matching.LARGE": 100}}


def _real(name: str) -> Path:
    from tests.helpers.imports import SHARED

    path = SHARED / "real" / name
    if not path.exists():
        pytest.skip(f"shared sample {path} is not available")
    return path


TEMPLATE = ("we evaluate the proposed estimator on the benchmark suite collected from hospital records and report"
            " calibration accuracy and coverage across every cohort of the registry following the protocol of the"
            " consortium with bootstrap intervals computed over held out folds for each site").split()


def generated_list(source: Path) -> list[dict]:
    """~700 JSON records made from the first 250 real papers of `source` (see the module docstring)."""
    rng = random.Random(28)
    real = [r for r in json.loads(source.read_text(encoding="utf-8")) if len((r.get("abstract") or "").split()) > 40]
    real = real[:250]
    out = [{"title": r["title"], "abstract": r["abstract"], "year": 2016, "venue": "NIPS 2016",
            "author": r.get("author", "")} for r in real]
    for n, r in enumerate(real[:40]):  # exact copies, fuller: merged field by field
        out.append({"title": r["title"], "abstract": r["abstract"], "year": 2016, "doi": f"10.5555/nips.{n}",
                    "keywords": "learning; copy", "url": f"https://example.org/{n}"})
    for n, r in enumerate(real[40:80]):  # near-copies: one word changed, another title
        words = r["abstract"].split()
        words[len(words) // 3] = f"altered{n}"
        out.append({"title": f"Revisited: {r['title']}", "abstract": " ".join(words), "venue": "NIPS 2016"})
    for n, r in enumerate(real[80:90]):  # the same title and year, another abstract: found by title
        out.append({"title": r["title"].upper(), "abstract": real[200 + n]["abstract"][::-1], "year": 2016})
    for n in range(5):  # a DOI of a clearly different paper: kept apart, named
        out.append({"title": f"Completely unrelated work number {n}", "abstract": f"Short {n}.",
                    "doi": f"10.5555/nips.{n}"})
    for n, r in enumerate(real[95:105]):  # the preprint of a paper: a version of its own, grouped
        out.append({"title": r["title"], "abstract": r["abstract"], "year": 2015, "venue": "arXiv",
                    "arxiv_id": f"1506.{n:05d}v2", "author": r.get("author", "")})
    for n, r in enumerate(real[95:100]):  # the preprint again, found by its arXiv id alone (another abstract)
        out.append({"title": r["title"] + ".", "abstract": real[210 + n]["abstract"], "year": 2017, "venue": "arXiv",
                    "arxiv_id": f"1506.{n:05d}v3"})
    for n, r in enumerate(real[:5]):  # found by DOI alone (upper case; another abstract and year)
        out.append({"title": r["title"], "abstract": real[220 + n]["abstract"], "year": 2017,
                    "doi": f"10.5555/NIPS.{n}"})
    for n in range(5):  # a submission and its accepted version: one OpenReview id, nothing else shared
        out.append({"title": f"Anonymous submission {n}", "abstract": real[230 + n]["abstract"],
                    "openreview_id": f"orsub{n}"})
        out.append({"title": f"Accepted paper {n}", "abstract": real[240 + n]["abstract"][::-1],
                    "openreview_id": f"orsub{n}", "year": 2016})
    for n in range(220):  # templated abstracts sharing 44 words; every tenth twice, its last word changed
        words = list(TEMPLATE)
        for slot in range(14):
            words.insert(3 * slot + rng.randrange(3), f"u{n}x{slot}{rng.randrange(10**6)}")
        out.append({"title": f"Cohort study {n}", "abstract": " ".join(words)})
        if n % 10 == 0:
            out.append({"title": f"Cohort study {n} (again)", "abstract": " ".join(words[:-1] + ["changed"])})
    out += [{"title": f"Only a title {n}"} for n in range(10)] + [{"abstract": "Withdrawn."}, {"abstract": "Part of."}]
    rng.shuffle(out)
    return out


def changed_list(first: Path, second: list[dict]) -> list[dict]:
    """Records of both lists again: new titles with a word changed (found by abstract), the same (unchanged),
    a keyword more (updated)."""
    real = json.loads(first.read_text(encoding="utf-8"))
    out = []
    for r in real[:60]:
        words = (r.get("abstract") or "x").split()
        words[len(words) // 2] = "revised"
        out.append({"title": f"Revised: {r['title']}", "abstract": " ".join(words)})
    out += [{"title": r["title"], "abstract": r["abstract"]} for r in real[60:90]]
    out += [dict(r, keywords="again; more") for r in second[:80]]
    return out


def fingerprint(folder: Path, paths_per_import: list[list[Path]]) -> dict[str, str]:
    """Import each list of files in turn into a new library in `folder`; digests of what the library and the
    reports hold (timestamps and the writer's name aside)."""
    from db.import_job import read_inputs
    from db.library.library import Library

    reports = []
    with Library.open(folder, seed=False) as library:
        for paths in paths_per_import:
            report = library.import_records(read_inputs(paths).records)
            reports.append({"summary": report.summary(), "details": report.details(), "new": report.new,
                            "updated": report.updated, "unchanged": report.unchanged, "skipped": report.skipped,
                            "changed": sorted(report.changes.papers), "kinds": sorted(report.changes.kinds),
                            "by_paper": sorted((k, sorted(v)) for k, v in report.changes.by_paper.items())})
        rows = library.rows
        columns = [row[1] for row in rows("PRAGMA table_info(papers)") if row[1] not in ("added_at", "updated_at")]
        tables = {
            "papers": rows(f"SELECT {', '.join(columns)} FROM papers ORDER BY position"),
            "match_keys": rows("SELECT * FROM match_keys ORDER BY paper_id"),
            "abstract_keys": rows("SELECT * FROM abstract_keys ORDER BY key, size, paper_id"),
            "frequent_keys": rows("SELECT key FROM frequent_keys ORDER BY key"),
            "works": rows("SELECT * FROM works ORDER BY paper_id"),
            "change_log": rows("SELECT paper_id, kinds FROM change_log ORDER BY seq"),
        }
    result = {name: _digest(value) for name, value in tables.items()}
    result["counts"] = {name: len(value) for name, value in tables.items()}
    result.update({f"report {n}": _digest(report) for n, report in enumerate(reports)})
    result["summaries"] = [report["summary"] for report in reports]
    return result


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=False, default=list).encode()).hexdigest()


def run(folder: Path, mode: str, patch) -> dict:
    from db.formats import spool
    from db.library import import_plan, match_keys, match_scratch, matching

    modules = {"spool": spool, "import_plan": import_plan, "matching": matching, "match_keys": match_keys,
               "match_scratch": match_scratch}
    for name, value in MODES[mode].items():
        module, attribute = name.split(".")
        patch(modules[module], attribute, value)
    first, second = _real("nips2015.json"), _real("nips2016.json")
    generated = generated_list(second)
    made, again = folder / "generated.json", folder / "changed.json"
    made.write_text(json.dumps(generated), encoding="utf-8")
    again.write_text(json.dumps(changed_list(first, generated)), encoding="utf-8")
    return fingerprint(folder / "library", [[first, made], [again]])


@pytest.mark.parametrize("mode", list(MODES))
def test_an_import_gives_what_the_import_before_gave(tmp_path, monkeypatch, mode):
    got = run(tmp_path, mode, lambda module, name, value: monkeypatch.setattr(module, name, value, raising=False))
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))[mode]
    assert got["summaries"] == expected["summaries"]
    assert got["counts"] == expected["counts"]
    assert {k: v for k, v in got.items() if k not in ("summaries", "counts")} == {
        k: v for k, v in expected.items() if k not in ("summaries", "counts")}


if __name__ == "__main__" and "--write" in sys.argv:
    import tempfile

    sys.path.insert(0, str(Path.cwd()))
    results = {}
    for name in MODES:
        with tempfile.TemporaryDirectory() as folder:
            saved = []

            def patch(module, attribute, value, saved=saved):
                saved.append((module, attribute, getattr(module, attribute, None)))
                setattr(module, attribute, value)

            results[name] = run(Path(folder), name, patch)
            for module, attribute, value in reversed(saved):
                setattr(module, attribute, value)
    EXPECTED.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({name: result["summaries"] for name, result in results.items()}, indent=1))
