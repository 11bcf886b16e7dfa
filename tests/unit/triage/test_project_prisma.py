"""PRISMA counts of a shared project per member and for the project after resolution (issue 27,
db.triage.project_prisma), against counts worked out by hand on a scripted pattern of three reviewers (and a
fourth member who decided nothing), with resolutions and excludes without a reason; blind keeps only one's own."""

from __future__ import annotations

import pytest

from db.library.decisions import NO_REASON
from db.triage.project_prisma import PROJECT, REASONS_DIFFER, project_decision, project_prisma

PAPERS = [f"p{i}" for i in range(1, 11)]
I, E, M = "include", "exclude", "maybe"  # noqa: E741 - the screening keys
# paper: {reviewer: (decision, reason)}; what the project decides, by hand, on the right
PATTERN = {
    "p1": {"alice": (I, ""), "bob": (I, ""), "carol": (I, "")},  # include (all alike)
    "p2": {"alice": (E, "off-topic"), "bob": (E, "off-topic")},  # exclude, off-topic
    "p3": {"alice": (E, "off-topic"), "bob": (E, "")},  # exclude, off-topic (the one given)
    "p4": {"alice": (E, "no code"), "bob": (E, "off-topic")},  # exclude, reasons differ
    "p5": {"alice": (I, ""), "bob": (E, "no code")},  # conflict → resolved exclude, no reason
    "p6": {"alice": (I, ""), "carol": (E, "")},  # conflict, unresolved → awaiting
    "p7": {"alice": (M, ""), "bob": (I, "")},  # maybe list → resolved include
    "p8": {"carol": (I, "")},  # one decision → awaiting
    # p9: nobody decided                                                           # awaiting
    "p10": {"alice": (E, ""), "bob": (E, ""), "carol": (E, "")},  # exclude, no reason
}
RESOLUTIONS = {"p5": (E, ""), "p7": (I, "")}
MEMBERS = ["alice", "bob", "carol", "dave"]


def _rows(pattern=PATTERN):
    return [(paper, who, decision, reason) for paper, by in pattern.items() for who, (decision, reason) in by.items()]


def _plain(counts):
    return (counts.records, counts.screened, counts.included, counts.excluded, counts.excluded_by_reason,
            counts.maybe, counts.undecided)


def test_each_members_counts_are_their_own_decisions_and_not_the_resolutions():
    found = project_prisma(PAPERS, _rows(), RESOLUTIONS, MEMBERS, "bob", blind=False)
    assert list(found.members) == ["alice", "bob", "carol", "dave"]
    # alice: p1 p5 p6 include, p2 p3 off-topic, p4 no code, p10 none, p7 maybe; p8 p9 await her
    assert _plain(found.members["alice"]) == (10, 8, 3, 4, {"off-topic": 2, "no code": 1, "": 1}, 1, 2)
    # bob: p1 p7 include; p2 p4 off-topic, p3 p10 none, p5 no code; p6 p8 p9 await him
    assert _plain(found.members["bob"]) == (10, 7, 2, 5, {"off-topic": 2, "": 2, "no code": 1}, 0, 3)
    assert _plain(found.members["carol"]) == (10, 4, 2, 2, {"": 2}, 0, 6)
    assert _plain(found.members["dave"]) == (10, 0, 0, 0, {}, 0, 10)  # a member who decided nothing yet


def test_the_projects_counts_are_the_decisions_after_resolution():
    found = project_prisma(PAPERS, _rows(), RESOLUTIONS, MEMBERS, "bob", blind=False)
    # included p1, p7 (resolved); excluded p2 p3 off-topic, p5 (resolved) p10 no reason, p4 reasons differ;
    # awaiting p6 (an unresolved conflict), p8 (one decision), p9 (none)
    assert _plain(found.project) == (10, 7, 2, 5, {"off-topic": 2, "": 2, REASONS_DIFFER: 1}, 0, 3)
    assert found.conflicts == 1
    unresolved = project_prisma(PAPERS, _rows(), {}, MEMBERS, "bob", blind=False)
    # without the resolutions p5 awaits (a second conflict) and p7 is on the maybe list: 6 decided, 4 await
    assert _plain(unresolved.project) == (10, 6, 1, 4, {"off-topic": 2, "": 1, REASONS_DIFFER: 1}, 1, 4)
    assert unresolved.conflicts == 2
    late = project_prisma(PAPERS, _rows(), {**RESOLUTIONS, "p9": (I, "")}, MEMBERS, "bob", blind=False)
    assert _plain(late.project)[:3] == (10, 8, 3) and late.project.undecided == 2  # a resolution stands alone


def test_json_and_csv_name_the_rows_as_the_librarys_prisma_export():
    found = project_prisma(PAPERS, _rows(), RESOLUTIONS, MEMBERS, "bob", blind=False)
    data = found.to_json()
    assert data["project"]["excluded_by_reason"] == {"off-topic": 2, NO_REASON: 2, REASONS_DIFFER: 1}
    assert data["project"]["conflicts"] == 1 and data["project"]["undecided"] == 3
    assert data["members"]["carol"]["excluded_by_reason"] == {NO_REASON: 2}
    text = found.to_csv()
    assert text.startswith("\ufeffmember,stage,reason,count\r\n")
    lines = text[1:].split("\r\n")
    assert "carol,records excluded,(no reason given),2" in lines
    assert "alice,records screened,,8" in lines and "alice,awaiting this member's decision,,2" in lines
    assert f"{PROJECT},records included,,2" in lines
    assert f"{PROJECT},awaiting a second decision or a resolution,,3" in lines
    assert f"{PROJECT},records excluded,{REASONS_DIFFER},1" in lines


def test_while_blind_only_ones_own_counts_are_made_whatever_else_is_handed_in():
    # the server hides the others' rows while blind; even handed them, they are not counted
    found = project_prisma(PAPERS, _rows(), RESOLUTIONS, MEMBERS, "bob", blind=True)
    assert list(found.members) == ["bob"]
    assert _plain(found.members["bob"]) == (10, 7, 2, 5, {"off-topic": 2, "": 2, "no code": 1}, 0, 3)
    assert found.project is None and found.conflicts == 0
    assert found.to_json()["project"] is None
    assert {row[0] for row in found.stages()} == {"bob"}
    alone = project_prisma(PAPERS, [], {}, MEMBERS, "dave", blind=True)
    assert list(alone.members) == ["dave"] and alone.members["dave"].undecided == 10


def test_one_papers_project_decision_under_rayyans_rules():
    assert project_decision({"a": (I, ""), "b": (M, ""), "c": (I, "")}, None) == (M, "")
    assert project_decision({"a": (I, ""), "b": (E, "x")}, None) is None
    assert project_decision({"a": (I, ""), "b": (E, "x")}, (M, "")) == (M, "")
    assert project_decision({}, (E, "late")) == (E, "late")  # a resolution stands on its own
    assert project_decision({"a": (I, "")}, None) is None
    assert project_decision({"a": (E, ""), "b": (E, "")}, None) == (E, "")
    assert project_decision({"a": (I, ""), "b": (I, "")}, (I, "stray")) == (I, "")  # only exclusions keep reasons


def test_decisions_on_other_papers_are_ignored_and_bad_ones_refused():
    rows = [*_rows(), ("elsewhere", "alice", I, "")]
    found = project_prisma(PAPERS, rows, RESOLUTIONS, MEMBERS, "bob", blind=False)
    assert found.members["alice"].screened == 8
    with pytest.raises(ValueError):
        project_prisma(PAPERS, [("p1", "alice", "perhaps", "")], {}, MEMBERS, "alice", blind=False)


def test_the_project_decision_follows_the_agreement_reports_classes_for_every_pattern():
    from itertools import product

    from db.triage.agreement import classify

    for size in range(4):
        for labels in product((I, E, M), repeat=size):
            kind = classify(labels)
            found = project_decision({f"r{i}": (label, "") for i, label in enumerate(labels)}, None)
            expected = None if kind in ("conflict", "awaiting") else (M, "") if kind == "maybe" else (labels[0], "")
            assert found == expected, labels
