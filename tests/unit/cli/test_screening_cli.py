"""`margin decide`, `margin reasons`, `margin criteria` and the PRISMA counts of `margin progress` (issue 29)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from db.cli.screening import prisma_line
from db.library.decisions import Prisma
from db.library.library import Library
from db.library.schema import DEFAULT_REASONS
from tests.helpers.records import papers
from tests.helpers.runner import margin


def _decided(library_dir, tmp_path) -> list[str]:
    """Decide five papers, edit the reasons and the criteria from the command line; returns the library's ids."""
    def run(*args):
        return margin(*args, library=library_dir)

    with Library.open(library_dir) as library:
        ids = library.ids()
    result = run("decide", ids[0][:6], "include")
    assert result.returncode == 0 and result.stdout.startswith(f"{ids[0]}  include  ")
    assert run("decide", ids[1], "exclude", "--reason", "WRONG POPULATION").stdout.startswith(
        f"{ids[1]}  exclude (wrong population)")
    assert run("decide", ids[2], "exclude", "--reason", "5").stdout.startswith(f"{ids[2]}  exclude (duplicate)")
    assert run("decide", ids[3], "maybe").returncode == 0
    assert run("decide", ids[4], "exclude").returncode == 0  # no reason
    for bad in (("decide", ids[5], "exclude", "--reason", "no such reason"), ("decide", ids[5], "accept"),
                ("decide", ids[5], "include", "--reason", "duplicate"), ("decide", "ffffff", "include")):
        failed = run(*bad)
        assert failed.returncode == 1 and failed.stderr.startswith("margin: ") and "Traceback" not in failed.stderr
    assert run("decide", ids[3], "none").stdout.startswith(f"{ids[3]}  undecided")

    listed = run("reasons", "--add", "not a benchmark", "--rename", "wrong topic", "off topic").stdout.splitlines()
    assert listed[0] == "1. wrong population  (1 excluded)" and listed[1] == "2. off topic  (0 excluded)"
    assert listed[-1] == f"{len(DEFAULT_REASONS) + 1}. not a benchmark  (0 excluded)"
    assert run("reasons", "--remove", "DUPLICATE").stdout.count("\n") == len(DEFAULT_REASONS)
    assert run("reasons", "--add", "  ").returncode == 1

    for bad in (("--add", "Off Topic"), ("--remove", "no such reason"), ("--rename", "off topic", "WRONG STUDY DESIGN"),
                ("--add", "3")):
        failed = run("reasons", *bad)
        assert failed.returncode == 1 and failed.stderr.count("\n") == 1 and "Traceback" not in failed.stderr
    assert "--merge" in run("reasons", "--rename", "off topic", "wrong study design").stderr
    merged = run("reasons", "--rename", "off topic", "wrong study design", "--merge")
    assert merged.returncode == 0 and "off topic" not in merged.stdout
    assert run("decide", ids[5], "exclude", "--reason", "0").stdout.startswith(f"{ids[5]}  exclude  ")
    assert run("decide", ids[5], "none").returncode == 0

    empty = run("criteria")
    assert empty.stdout == "" and "margin criteria --set" in empty.stderr
    text = "Agents that use tools.\nNo surveys."
    assert run("criteria", "--set", text).stdout == text + "\n"
    criteria_file = tmp_path / "criteria.txt"
    criteria_file.write_text("From a file", encoding="utf-8")
    assert run("criteria", "--set-file", str(criteria_file)).stdout == "From a file\n"
    assert run("criteria", "--set-file", str(tmp_path / "missing.txt")).returncode == 1
    return ids


def test_decide_reasons_and_criteria(library_dir, tmp_path):
    ids = _decided(library_dir, tmp_path)
    with Library.open(library_dir) as library:
        assert library.paper(ids[2]).reason == "duplicate" and library.paper(ids[1]).read
        assert library.criteria() == "From a file"
    listed = json.loads(margin("list", "reason:duplicate", "--json", library=library_dir).stdout)
    assert [(p["id"], p["screening_decision"], p["exclusion_reason"]) for p in listed] == [(ids[2], "exclude",
                                                                                          "duplicate")]


@pytest.mark.slow  # `progress` fits the recommender: seconds on a loaded machine
def test_progress_gives_prisma_counts_equal_to_a_hand_count(library_dir, tmp_path):
    ids = _decided(library_dir, tmp_path)

    def run(*args):
        return margin(*args, library=library_dir)

    prisma_file = tmp_path / "prisma.csv"
    progress = run("progress", "--json", "--prisma-csv", str(prisma_file))
    assert progress.returncode == 0
    prisma = json.loads(progress.stdout)["prisma"]
    # by hand: 0 include; 1 wrong population; 2 duplicate (removed from the list since, kept on the paper);
    # 3 cleared; 4 excluded without a reason
    assert prisma == {"records": 38, "screened": 4, "included": 1, "excluded": 3, "maybe": 0, "undecided": 34,
                      "excluded_by_reason": {"duplicate": 1, "wrong population": 1, "(no reason given)": 1}}
    rows = list(csv.reader(io.StringIO(prisma_file.read_bytes().decode("utf-8-sig"))))
    assert rows[0] == ["stage", "reason", "count"]
    assert ["records excluded", "wrong population", "1"] in rows and ["records included", "", "1"] in rows
    assert ["records excluded", "", "3"] in rows and ["records excluded", "(no reason given)", "1"] in rows
    assert ["records screened", "", "4"] in rows and ["not screened yet", "", "34"] in rows
    view = run("progress", "decision:exclude", "--prisma-csv", str(tmp_path))  # a folder: refused
    assert view.returncode == 1 and "is a folder" in view.stderr
    assert ids


def test_the_progress_line_of_the_prisma_counts():
    counts = Prisma(38, 4, 1, 3, 0, {"duplicate": 1, "wrong population": 1, "": 1})
    assert prisma_line(counts) == ("screening: 4 of 38 decided: 1 included, 3 excluded (duplicate 1, "
                                   "wrong population 1, no reason 1), 0 maybe")


def test_an_unknown_reason_hints_what_this_library_may_do(tmp_path):
    """New-user trial (2026-12-03): the hint of an unknown reason was `margin reasons --add` even in a project
    member's library, where that is refused, and even for an empty reason, which `--add` refuses too."""
    folder = tmp_path / "lib"
    with Library.open(folder, seed=False) as library:
        library.import_records(papers(2))
        paper_id = library.ids()[0]
    own = margin("decide", paper_id, "exclude", "--reason", "wrong species", library=folder)
    assert own.code == 1 and "margin reasons --add 'wrong species' adds it" in own.stderr
    empty = margin("decide", paper_id, "exclude", "--reason", " ", library=folder)
    assert empty.code == 1 and "needs a word or two" in empty.stderr and "--add" not in empty.stderr
    with Library.open(folder, seed=False) as library:
        library.project_book.put_project("iclr-rl", "host=nowhere user=bob", {
            "role": "bob", "owner": "alice", "blind": False, "criteria": "", "reasons": ["off-topic", "no code"],
            "members": ["alice", "bob"]})
        library.set_exclusion_reasons(["off-topic", "no code"])
    member = margin("decide", paper_id, "exclude", "--reason", "wrong population", library=folder)
    assert member.code == 1 and "--add" not in member.stderr and member.stderr.count("\n") == 1
    assert "1. off-topic; 2. no code" in member.stderr and "ask its owner (alice)" in member.stderr
    assert margin("reasons", "--add", "wrong population", library=folder).code == 1  # what the old hint offered
    assert margin("decide", paper_id, "exclude", "--reason", "2", library=folder).stdout.startswith(
        f"{paper_id}  exclude (no code)")
