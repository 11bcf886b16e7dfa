"""Screening decisions in the library (issue 29): include / exclude with a reason / maybe per paper, the reason list
and the criteria, PRISMA counts against a hand count, the migration, backups, exports, queries and recommendations."""

from __future__ import annotations

import csv
import io
import json
import random
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from db.changes import DECISION, NOTHING, Changes
from db.errors import InputError
from db.exporters.margin_json import document
from db.library.backup import restore, write_backup
from db.library.decisions import Prisma
from db.library.library import SCHEMA_VERSION, Library
from db.library.schema import DEFAULT_REASONS, MIGRATIONS, SCHEMA_9
from db.recommend.labels import labels, labels_of
from db.search import ensure_index, parse_query_text
from tests.helpers.runner import margin


def _corpus() -> list[str]:
    from db.formats.corpus import bundled_corpus_files

    return [str(path) for path in bundled_corpus_files()]


# ------------------------------------------------------------------------------------------ one paper's decision
def test_a_decision_is_set_changed_cleared_and_says_what_changed(library):
    paper_id = library.ids()[0]
    assert library.set_decision(paper_id, "Exclude", "  wrong\tpopulation ") == Changes.of([paper_id], DECISION)
    paper = library.paper(paper_id)
    assert (paper.decision, paper.reason) == ("exclude", "wrong population") and paper.decided_at
    assert library.set_decision(paper_id, "exclude", "wrong population") == NOTHING  # the same again
    assert library.set_decision(paper_id, "include", "ignored") == Changes.of([paper_id], DECISION)
    assert library.paper(paper_id).reason is None  # a reason goes with exclude only
    assert library.set_decision(paper_id, "none") == Changes.of([paper_id], DECISION)
    assert library.decision(paper_id) is None and library.paper(paper_id).decision is None
    with pytest.raises(ValueError):
        library.set_decision(paper_id, "accept")
    with pytest.raises(ValueError):
        library.set_decision(paper_id, "exclude", "x" * 201)
    with pytest.raises(KeyError):
        library.set_decision("000000000000", "include")
    assert library.changes_since(0)[0].kinds_of(paper_id) >= {DECISION}


def test_a_decision_makes_a_paper_annotated_and_follows_it_through_delete_and_undo(library):
    paper_id = library.ids()[1]
    assert paper_id not in library.annotated_ids()
    library.set_decision(paper_id, "maybe")
    assert paper_id in library.annotated_ids() and library.paper(paper_id).is_annotated
    library.delete_papers([paper_id])
    assert library.decisions() == {}
    assert library.deleted_items()[0]["annotations"]["decision"]["decision"] == "maybe"
    library.undelete_papers([paper_id])
    assert library.paper(paper_id).decision == "maybe"


# ------------------------------------------------------------------------------------------ PRISMA counts
def test_prisma_counts_equal_a_hand_count(library):
    rng = random.Random(29)
    reasons = library.exclusion_reasons()
    given: dict[str, tuple[str, str | None]] = {}
    for paper_id in library.ids():
        choice = rng.choice(["include", "exclude", "exclude", "maybe", None])
        reason = rng.choice([*reasons[:3], None]) if choice == "exclude" else None
        if choice:
            library.set_decision(paper_id, choice, reason)
            given[paper_id] = (choice, reason)
    for ids in (None, library.ids()[::3]):
        chosen = library.ids() if ids is None else ids
        mine = [given[i] for i in chosen if i in given]
        by_reason: dict[str, int] = {}
        for decision, reason in mine:
            if decision == "exclude":
                by_reason[reason or ""] = by_reason.get(reason or "", 0) + 1
        counts = library.prisma_counts(ids)
        assert counts.records == len(chosen)
        assert counts.screened == len(mine)
        assert counts.included == sum(d == "include" for d, _ in mine)
        assert counts.excluded == sum(d == "exclude" for d, _ in mine) == sum(by_reason.values())
        assert counts.maybe == sum(d == "maybe" for d, _ in mine)
        assert counts.excluded_by_reason == by_reason
        assert counts.undecided == len(chosen) - len(mine)
        assert list(counts.excluded_by_reason.values()) == sorted(counts.excluded_by_reason.values(), reverse=True)


def test_prisma_stages_are_in_prismas_order():
    counts = Prisma(10, 6, 2, 3, 1, {"wrong population": 2, "": 1})
    assert counts.stages() == [("records identified", "", 10), ("records screened", "", 6),
                               ("records excluded", "", 3), ("records excluded", "wrong population", 2),
                               ("records excluded", "(no reason given)", 1), ("maybe (awaiting a decision)", "", 1),
                               ("records included", "", 2), ("not screened yet", "", 4)]


def test_the_no_reason_count_is_labelled_in_the_json_and_the_csv():
    counts = Prisma(10, 6, 2, 3, 1, {"wrong population": 2, "": 1})
    assert counts.to_json()["excluded_by_reason"] == {"wrong population": 2, "(no reason given)": 1}
    rows = list(csv.reader(io.StringIO(counts.to_csv().lstrip("\ufeff"))))
    assert ["records excluded", "(no reason given)", "1"] in rows and ["records excluded", "", "3"] in rows


# ------------------------------------------------------------------------------------------ versions of one work
def test_a_decision_on_one_version_is_every_versions_and_undo_restores_each(library):
    iclr, nips, other = library.ids()[:3]
    library.set_decision(nips, "maybe")
    library.group_versions([iclr, nips])
    assert library.paper(iclr).decision == "maybe"  # grouping gives the versions the first decided one's
    before = library.decisions([iclr, nips])
    assert library.set_decision(iclr, "exclude", "wrong population") == Changes.of([iclr, nips], DECISION)
    assert (library.paper(nips).decision, library.paper(nips).reason) == ("exclude", "wrong population")
    counts = library.prisma_counts([iclr, nips, other])
    assert (counts.screened, counts.excluded, counts.undecided) == (2, 2, 1)  # papers are counted
    assert library.set_decision(nips, None) == Changes.of([iclr, nips], DECISION)
    assert library.decisions([iclr, nips]) == {}
    assert library.restore_decisions(before) == Changes.of([iclr, nips], DECISION)
    assert library.decisions([iclr, nips]) == before
    assert library.paper(other).decision is None


# ------------------------------------------------------------------------------------------ reasons and criteria
def test_a_rename_finds_the_papers_reason_in_any_case_and_refuses_to_merge_unasked(library):
    first, second = library.ids()[:2]
    library.set_decision(first, "exclude", "wrong population")
    assert library.rename_exclusion_reason("WRONG POPULATION", "population mismatch") == Changes.of([first],
                                                                                                    DECISION)
    assert library.paper(first).reason == "population mismatch"
    assert library.exclusion_reasons()[0] == "population mismatch"
    library.set_decision(second, "exclude", "duplicate")
    listed = library.exclusion_reasons()
    with pytest.raises(ValueError, match="already"):
        library.rename_exclusion_reason("duplicate", "Population Mismatch")
    assert library.exclusion_reasons() == listed and library.paper(second).reason == "duplicate"
    assert library.rename_exclusion_reason("duplicate", "Population Mismatch", merge=True) == Changes.of(
        [second], DECISION)
    assert library.paper(second).reason == "population mismatch" and "duplicate" not in library.exclusion_reasons()
    assert library.rename_exclusion_reason("population mismatch", "Population mismatch") == Changes.of(
        [first, second], DECISION)  # a change of case is no merge
    for numeric in ("3", " 12 "):
        with pytest.raises(ValueError, match="number"):
            library.add_exclusion_reason(numeric)


def test_the_reason_list_is_edited_and_a_rename_moves_the_papers_reasons(library):
    assert library.exclusion_reasons() == list(DEFAULT_REASONS)
    first, second = library.ids()[:2]
    library.set_decision(first, "exclude", "duplicate")
    assert library.add_exclusion_reason("  not  a benchmark ") == NOTHING
    library.add_exclusion_reason("NOT A BENCHMARK")  # there already, in another case
    assert library.exclusion_reasons()[-1] == "not a benchmark" and len(library.exclusion_reasons()) == 6
    with pytest.raises(ValueError):
        library.add_exclusion_reason("   ")
    assert library.rename_exclusion_reason("duplicate", "duplicate record") == Changes.of([first], DECISION)
    assert library.paper(first).reason == "duplicate record"
    assert library.exclusion_reasons()[4] == "duplicate record"  # in its place
    library.remove_exclusion_reason("Duplicate Record")
    assert "duplicate record" not in library.exclusion_reasons()
    assert library.paper(first).reason == "duplicate record"  # the paper keeps it
    library.set_exclusion_reasons(["b", "a", "B"])
    assert library.exclusion_reasons() == ["b", "a"]
    assert library.paper(second).decision is None


def test_criteria_are_kept_as_written(library):
    assert library.criteria() == ""
    text = "Include: agents that use tools.\n\tExclude: surveys — 中文 ok\x00"
    assert library.set_criteria(text) == NOTHING
    assert library.criteria() == text.replace("\x00", "")
    with pytest.raises(ValueError):
        library.set_criteria("x" * 20_001)


# ------------------------------------------------------------------------------------------ the migration
def test_a_schema_8_library_gets_the_screening_tables_after_a_backup_copy(library_dir):
    with Library.open(library_dir) as lib:
        paper_id = lib.ids()[0]
        lib.set_rating(paper_id, 4)
    conn = sqlite3.connect(library_dir / "library.db")
    for table in ("decisions", "exclusion_reasons", "screening_settings"):
        conn.execute(f"DROP TABLE {table}")
    before = next(version for version, steps in MIGRATIONS.items() if steps == [*SCHEMA_9])  # 8: before screening
    conn.execute(f"PRAGMA user_version = {before}")
    conn.commit()
    conn.close()
    with Library.open(library_dir) as lib:
        assert lib.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)]
        assert lib.exclusion_reasons() == list(DEFAULT_REASONS) and lib.criteria() == ""
        assert lib.paper(paper_id).rating == 4
        assert lib.set_decision(paper_id, "include") == Changes.of([paper_id], DECISION)
    assert list((library_dir / "backups").glob(f"library-v{before}-*.db"))


# ------------------------------------------------------------------------------------------ backups and exports
def _decide(library: Library) -> dict[str, tuple]:
    ids = library.ids()
    library.set_decision(ids[0], "include")
    library.set_decision(ids[1], "exclude", "wrong population")
    library.set_decision(ids[2], "maybe")
    library.set_decision(ids[3], "exclude")
    library.add_exclusion_reason("not a benchmark")
    library.set_criteria("Agents that use tools")
    return {paper_id: row[:2] for paper_id, row in library.decisions().items()}


def test_decisions_reasons_and_criteria_survive_backup_and_restore(library_dir, tmp_path):
    with Library.open(library_dir) as library:
        before = _decide(library)
        saved = tmp_path / "backup.json"
        shutil.copy(write_backup(library), saved)
    shutil.rmtree(library_dir)
    result = margin("import", *_corpus(), str(saved), library=library_dir)
    assert result.returncode == 0 and "annotations restored on 4 papers" in result.stdout
    with Library.open(library_dir) as library:
        assert {i: row[:2] for i, row in library.decisions().items()} == before
        assert library.exclusion_reasons()[-1] == "not a benchmark"
        assert library.criteria() == "Agents that use tools"
        assert library.prisma_counts().excluded_by_reason == {"wrong population": 1, "": 1}
        assert restore(library, json.loads(saved.read_text())).changed == []  # twice: nothing more


def test_a_changed_criteria_text_alone_makes_a_new_backup(library):
    first = write_backup(library, now=datetime(2026, 12, 1, 10, tzinfo=UTC))
    assert write_backup(library, now=datetime(2026, 12, 1, 11, tzinfo=UTC)) == first  # nothing changed
    library.set_criteria("Only agents")
    second = write_backup(library, now=datetime(2026, 12, 1, 12, tzinfo=UTC))
    assert second != first and json.loads(second.read_text())["screening"]["criteria"] == "Only agents"


def test_decisions_survive_a_json_export_and_import(library_dir, tmp_path):
    with Library.open(library_dir) as library:
        before = _decide(library)
    out = tmp_path / "export.json"
    assert margin("export", "--format", "json", "--output", str(out), library=library_dir).returncode == 0
    target = tmp_path / "other"
    assert margin("import", str(out), library=target).returncode == 0
    with Library.open(target) as library:
        assert {i: row[:2] for i, row in library.decisions().items()} == before


def test_a_newer_decision_in_the_library_is_kept_over_an_older_backups(library):
    paper_id = library.ids()[0]
    library.set_decision(paper_id, "include")
    data = json.loads(write_backup(library).read_text())
    data["created"] = (datetime.now(UTC) - timedelta(days=1)).isoformat(timespec="seconds")
    item = next(item for item in data["papers"] if item["id"] == paper_id)
    item["annotations"]["decision"] = {"decision": "exclude", "reason": "duplicate", "decided_at": data["created"]}
    report = restore(library, data)
    assert report.kept == [paper_id] and library.paper(paper_id).decision == "include"
    data["created"] = (datetime.now(UTC) + timedelta(days=1)).isoformat(timespec="seconds")
    restore(library, data)
    assert (library.paper(paper_id).decision, library.paper(paper_id).reason) == ("exclude", "duplicate")


def test_a_malformed_decision_in_a_document_is_refused_before_any_change(library):
    data = document(library.papers(library.ids()[:2]))
    data["papers"][0]["annotations"]["decision"] = {"decision": "include"}
    data["papers"][1]["annotations"]["decision"] = {"decision": "accept"}
    with pytest.raises(InputError, match="paper 2: \"decision\""):
        restore(library, data)
    assert library.decisions() == {}


def test_the_csv_export_carries_the_decision_columns(library):
    _decide(library)
    text = margin("export", "--format", "csv", library=library.folder).stdout
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    by_id = {row["id"]: row for row in rows}
    second = by_id[library.ids()[1]]
    assert (second["screening_decision"], second["exclusion_reason"]) == ("exclude", "wrong population")
    assert second["decided_at"]


# ------------------------------------------------------------------------------------------ queries
def test_decision_and_reason_queries(library):
    _decide(library)
    ids = library.ids()
    index = ensure_index(library)
    try:
        assert index.search("decision:include") == [ids[0]]
        assert sorted(index.search("decision:exclude")) == sorted([ids[1], ids[3]])
        assert index.search("decision:MAYBE") == [ids[2]]
        assert len(index.search("decision:none")) == len(ids) - 4
        assert index.search('reason:"Wrong  Population"') == [ids[1]]
        assert index.search("reason:wrong*") == [ids[1]]
        assert index.search("reason:none") == [ids[3]]
        assert index.search("decision:exclude -reason:none") == [ids[1]]
        library.rename_exclusion_reason("wrong population", "off population")
        index.sync(library)
        assert index.search('reason:"off population"') == [ids[1]] and not index.search('reason:"wrong population"')
    finally:
        index.close()


def test_another_decision_value_is_left_to_the_venue_decision():
    assert str(parse_query_text("decision:include").query) == "decision:include"
    assert str(parse_query_text("decision:Oral").query) == "venue_decision:oral"  # issue 34's side


# ------------------------------------------------------------------------------------------ recommendations
def test_decisions_are_labels_like_ratings_and_win_over_them():
    judged = labels_of({"a": 5, "b": 1, "c": 3, "d": 5}, {"d": "exclude", "e": "include", "f": "maybe"})
    assert judged.liked == {"a", "e"} and judged.disliked == {"b", "d"} and judged.maybe == {"c", "f"}


def test_an_included_paper_drives_recommendations_as_a_liked_one(library):
    from db.recommend.recommender import NoPositivesError, recommend

    with pytest.raises(NoPositivesError):
        recommend(library)
    ids = library.ids()
    library.set_decision(ids[0], "include")
    library.set_decision(ids[1], "exclude", "duplicate")
    assert labels(library).liked == {ids[0]}
    found = recommend(library, limit=None).ids
    assert found and ids[0] not in found and ids[1] not in found
