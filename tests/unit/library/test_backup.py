"""Backups (db/library/backup.py) and restoring a JSON export or backup through `import` (issue 6)."""

from __future__ import annotations

import json
import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from db.errors import InputError
from db.formats.corpus import bundled_corpus_files
from db.library.backup import (
    KEEP,
    backup_folder,
    backup_if_due,
    backups,
    latest_backup,
    read_margin_json,
    restore,
    write_backup,
)
from db.library.library import Library
from db.paper import PaperRecord
from tests.helpers.corpus import ABSTRACTS
from tests.helpers.runner import margin

NOTE = "Budget: $50 for data and $60 for compute\n50% done # v2 {braces} 中文 😀\n\nline two"
T0 = datetime(2026, 11, 30, 10, 0, 0, tzinfo=UTC)


def annotate(library: Library) -> list[str]:
    """Annotate five seed papers in every way; the fifth is only marked read. Returns their ids."""
    ids = library.ids()[:5]
    library.set_rating(ids[0], 4)
    library.add_tags(ids[0], ["theory", "中文"])
    library.set_note(ids[0], "draft")
    library.set_note(ids[0], NOTE)
    library.set_read(ids[0], True)
    library.set_title(ids[1], "My {own} title — 50%")
    library.add_tags(ids[2], ["to-read"])
    library.set_note(ids[3], "only a note 👩‍🔬")
    library.set_read(ids[4], True)
    return ids


def state(library: Library, ids: list[str]) -> dict[str, tuple]:
    """Everything the user made of these papers: rating, tags, note, read, title and the note history."""
    return {paper.id: (paper.rating, paper.tags, paper.note, paper.read, paper.user_title,
                       library.note_history(paper.id)) for paper in library.papers(ids)}


# ------------------------------------------------------------------------------------------ writing backups
def test_write_backup_holds_every_annotation_and_read_state(library):
    ids = annotate(library)
    path = write_backup(library, now=T0)
    assert path.parent == library.folder / "backups" == backup_folder(library)
    assert path.name == "margin-backup-20261130-100000Z.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["version"], data["kind"]) == ("margin", 1, "backup")
    assert [item["id"] for item in data["papers"]] == ids
    first = data["papers"][0]["annotations"]
    assert (first["rating"], first["tags"], first["note"], first["read"]) == (4, ["theory", "中文"], NOTE, True)
    assert [entry["note"] for entry in first["note_history"]] == ["draft"]
    assert data["papers"][1]["annotations"]["title"] == "My {own} title — 50%"
    assert data["papers"][4]["annotations"]["read"] is True


def test_unchanged_annotations_write_no_new_file_and_changes_do(library):
    ids = annotate(library)
    first = write_backup(library, now=T0)
    assert write_backup(library, now=T0 + timedelta(hours=1)) == first
    assert backups(library) == [first]
    assert os.stat(first).st_mtime == (T0 + timedelta(hours=1)).timestamp()
    library.set_rating(ids[2], 1)
    second = write_backup(library, now=T0 + timedelta(hours=2))
    assert second != first and backups(library) == [first, second] and latest_backup(library) == second


def test_two_backups_in_one_second_get_distinct_names(library):
    ids = annotate(library)
    first = write_backup(library, now=T0)
    library.set_rating(ids[2], 2)
    second = write_backup(library, now=T0)
    assert second.name == "margin-backup-20261130-100000Z-1.json"
    assert backups(library) == [first, second]


def test_only_the_newest_ten_are_kept_and_other_files_are_left_alone(library):
    ids = annotate(library)
    (backup_folder(library)).mkdir()
    mine = backup_folder(library) / "my notes.json"
    mine.write_text("{}", encoding="utf-8")
    written = []
    for hour in range(KEEP + 3):
        library.set_rating(ids[2], hour % 5 + 1)
        library.set_note(ids[2], f"version {hour}")
        written.append(write_backup(library, now=T0 + timedelta(hours=hour)))
    assert backups(library) == written[-KEEP:]
    assert len(list(backup_folder(library).glob("margin-backup-*.json"))) == KEEP
    assert mine.read_text(encoding="utf-8") == "{}"  # not a backup of ours: left as it was


def test_backup_if_due_writes_at_most_once_per_max_age(library):
    ids = annotate(library)
    first = backup_if_due(library, now=T0)
    assert first is not None and backups(library) == [first]
    assert backup_if_due(library, now=T0 + timedelta(hours=23)) is None
    library.set_rating(ids[2], 3)
    assert backup_if_due(library, now=T0 + timedelta(hours=23, minutes=59)) is None
    second = backup_if_due(library, now=T0 + timedelta(days=1))
    assert second is not None and second != first
    assert backup_if_due(library, max_age=timedelta(minutes=5), now=T0 + timedelta(days=1, minutes=4)) is None
    assert backups(library) == [first, second]


# ------------------------------------------------------------------------------------------ restoring
def test_restore_brings_annotations_back_onto_a_fresh_library(library, tmp_path):
    ids = annotate(library)
    before = state(library, ids)
    data = json.loads(write_backup(library, now=T0).read_text(encoding="utf-8"))
    with Library.open(tmp_path / "fresh") as fresh:
        report = restore(fresh, data)
        assert sorted(report.changed) == sorted(ids) and report.added.new == [] and report.unmatched == 0
        assert state(fresh, ids) == before
        assert fresh.count() == 38
        again = restore(fresh, data)
        assert again.changed == [] and sorted(again.unchanged) == sorted(ids)
        assert state(fresh, ids) == before


def test_restore_adds_and_never_takes_away(library):
    ids = annotate(library)
    data = json.loads(write_backup(library, now=datetime.now(UTC) - timedelta(hours=1)).read_text(encoding="utf-8"))
    library.add_tags(ids[0], ["newer"])
    library.set_rating(ids[3], 2)
    library.remove_tags(ids[2], ["to-read"])
    restore(library, data)
    assert library.paper(ids[0]).tags == ["newer", "theory", "中文"]
    assert library.paper(ids[2]).tags == ["to-read"]  # tags are only ever added
    assert library.paper(ids[3]).rating == 2  # the backup had no rating: the current one stays


def _backup_of(library: Library, created: datetime) -> dict:
    """A backup of `library` as a document, with its "created" time set to `created`."""
    data = json.loads(write_backup(library, now=created).read_text(encoding="utf-8"))
    assert data["created"] == created.isoformat(timespec="seconds")
    return data


def test_restore_does_not_erase_a_note_written_after_the_backup(library):
    ids = annotate(library)
    data = _backup_of(library, datetime.now(UTC) - timedelta(hours=1))
    library.set_note(ids[0], "rewritten after the backup")
    library.set_note(ids[3], "")  # an emptied note is no newer work: the backup's comes back
    report = restore(library, data)
    assert library.paper(ids[0]).note == "rewritten after the backup"
    assert [note for _, note in library.note_history(ids[0])] == ["draft", NOTE]  # NOTE was there already
    assert library.paper(ids[3]).note == "only a note 👩‍🔬"
    assert report.kept == [ids[0]] and ids[3] in report.changed
    assert report.summary().endswith(", newer edits kept on 1")


def test_the_older_note_of_a_backup_goes_into_the_note_history(library, tmp_path):
    with Library.open(tmp_path / "elsewhere") as elsewhere:  # the same corpus, annotated on another machine
        ids = annotate(elsewhere)
        data = _backup_of(elsewhere, datetime.now(UTC) - timedelta(minutes=5))
    library.set_note(ids[0], "mine, written after that backup")
    library.set_rating(ids[0], 2)
    library.set_title(ids[1], "My newer title")
    before = library.note_history(ids[0])
    report = restore(library, data)
    paper = library.paper(ids[0])
    assert (paper.note, paper.rating) == ("mine, written after that backup", 2)
    assert library.paper(ids[1]).user_title == "My newer title"
    assert paper.tags == ["theory", "中文"] and paper.read  # what adds nothing over newer work is restored
    assert before == [] and library.note_history(ids[0]) == [(e["saved_at"], e["note"]) for e in [
        *data["papers"][0]["annotations"]["note_history"], {"saved_at": data["created"], "note": NOTE}]]
    assert [note for _, note in library.note_history(ids[0])] == ["draft", NOTE]
    assert report.kept == ids[:2]
    after = state(library, library.ids())
    again = restore(library, data)
    assert again.changed == [] and state(library, library.ids()) == after


def test_an_older_library_note_is_replaced_by_a_newer_backups_note(library, tmp_path):
    ids = library.ids()[:2]
    library.set_note(ids[0], "my first thoughts")
    library.set_rating(ids[0], 2)
    library.set_title(ids[1], "An old title")
    with Library.open(tmp_path / "elsewhere") as elsewhere:
        elsewhere.set_note(ids[0], "thoughts revised later")
        elsewhere.set_rating(ids[0], 5)
        elsewhere.set_title(ids[1], "A better title")
        data = _backup_of(elsewhere, datetime.now(UTC) + timedelta(minutes=5))  # taken after the library's edits
    report = restore(library, data)
    paper = library.paper(ids[0])
    assert (paper.note, paper.rating) == ("thoughts revised later", 5)
    assert [note for _, note in library.note_history(ids[0])] == ["my first thoughts"]
    assert library.paper(ids[1]).user_title == "A better title"
    assert sorted(report.changed) == sorted(ids) and report.kept == []
    assert report.summary() == "annotations restored on 2 papers (0 already up to date)"
    after = state(library, ids)
    again = restore(library, data)
    assert again.changed == [] and state(library, ids) == after


def test_a_document_without_a_created_time_counts_as_older(library):
    ids = annotate(library)
    data = _backup_of(library, datetime.now(UTC) + timedelta(minutes=5))
    del data["created"]
    library.set_note(ids[3], "newer")
    restore(library, data)
    assert library.paper(ids[3]).note == "newer"
    assert [note for _, note in library.note_history(ids[3])] == ["only a note 👩‍🔬"]


def test_restore_matches_by_doi_when_the_id_differs(library, tmp_path):
    report = library.import_records([PaperRecord(abstract="Old abstract text about exporting. " * 4,
                                                 title="Exporting notes", year=2024, doi="10.1/ABC")])
    paper_id = report.new[0]
    library.set_rating(paper_id, 5)
    data = json.loads(write_backup(library, now=T0).read_text(encoding="utf-8"))
    with Library.open(tmp_path / "other", seed=False) as other:
        other.import_records([PaperRecord(abstract="A revised abstract. " * 4, title="Exporting Notes (v2)",
                                          year=2025, doi="10.1/abc")])
        result = restore(other, data)
        assert result.added.new == [] and len(result.changed) == 1
        assert other.paper(result.changed[0]).rating == 5 and other.count() == 1


def test_restore_without_add_missing_counts_the_unmatched(library, tmp_path):
    annotate(library)
    data = json.loads(write_backup(library, now=T0).read_text(encoding="utf-8"))
    with Library.open(tmp_path / "empty", seed=False) as empty:
        report = restore(empty, data, add_missing=False)
        assert report.unmatched == 5 and empty.count() == 0
        assert report.summary() == "annotations restored on 0 papers (0 already up to date), 5 not found"


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(version=99), "written by a newer Margin"),
    (lambda d: d["papers"][0]["annotations"].update(rating="five"), "paper 1: \"rating\""),
    (lambda d: d["papers"][1]["annotations"].update(tags=["  "]), "paper 2: a tag cannot be empty"),
    (lambda d: d.pop("papers"), "without a \"papers\" list"),
])
def test_a_malformed_document_changes_nothing(library, change, message):
    annotate(library)
    data = json.loads(write_backup(library, now=T0).read_text(encoding="utf-8"))
    data["papers"][0]["annotations"]["note"] = "would change"  # a valid change ahead of the broken part
    before = state(library, library.ids())
    change(data)
    with pytest.raises(InputError, match=re.escape(message)):
        restore(library, data, path="backup.json")
    assert state(library, library.ids()) == before


def test_read_margin_json_recognizes_only_margin_documents(tmp_path):
    other = tmp_path / "list.json"
    other.write_text('[{"title": "x", "abstract": "y"}]', encoding="utf-8")
    assert read_margin_json(other) is None
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "margin", "version": 1,\n "papers": [', encoding="utf-8")
    with pytest.raises(InputError, match=r"broken.json:2: broken Margin JSON"):
        read_margin_json(broken)
    good = tmp_path / "good.json"
    good.write_text('\ufeff{"format": "margin", "version": 1, "kind": "export", "papers": []}', encoding="utf-8")
    assert read_margin_json(good)["papers"] == []


# ------------------------------------------------------------------------------------------ through `import`
def _corpus() -> list[str]:
    return [str(path) for path in bundled_corpus_files()]


def test_json_export_survives_losing_the_library(library_dir, tmp_path):
    with Library.open(library_dir) as library:
        ids = annotate(library)
        exported = ids  # the fifth paper is only read: JSON, the format that restores, keeps it too (issue 31)
        before = state(library, exported)
    out = tmp_path / "notes.json"
    code, _, err = margin("export", "--format", "json", "--output", str(out), "--library", str(library_dir))
    assert code == 0 and err.strip() == f"exported 5 papers to {out}"
    shutil.rmtree(library_dir)
    code, stdout, _ = margin("import", *_corpus(), str(out), "--library", str(library_dir))
    assert code == 0
    assert stdout.strip() == ("38 new, 0 updated, 0 unchanged, 0 duplicates in the file, 0 skipped; "
                              "annotations restored on 5 papers (0 already up to date)")
    with Library.open(library_dir) as library:
        assert library.count() == 38
        assert state(library, exported) == before
    code, stdout, _ = margin("import", str(out), "--library", str(library_dir))
    assert stdout.strip().endswith("annotations restored on 0 papers (5 already up to date)")
    with Library.open(library_dir) as library:
        assert library.count() == 38 and state(library, exported) == before


def test_backup_survives_losing_the_library_including_read_state(library_dir, tmp_path):
    with Library.open(library_dir) as library:
        ids = annotate(library)
        before = state(library, ids)
        saved = tmp_path / "kept-backup.json"
        shutil.copy(write_backup(library), saved)
    shutil.rmtree(library_dir)
    code, stdout, _ = margin("import", *_corpus(), str(saved), "--library", str(library_dir))
    assert code == 0 and stdout.strip().endswith("annotations restored on 5 papers (0 already up to date)")
    with Library.open(library_dir) as library:
        assert state(library, ids) == before and library.count() == 38


def test_importing_a_json_export_alone_rebuilds_its_papers(library_dir, tmp_path):
    with Library.open(library_dir) as library:
        ids = annotate(library)
        before = state(library, ids)
        labels = [paper.label for paper in library.papers(ids)]
    out = tmp_path / "notes.json"
    margin("export", "--format", "json", "--output", str(out), "--library", str(library_dir))
    target = tmp_path / "new-library"
    code, stdout, _ = margin("import", str(out), "--library", str(target))
    assert code == 0 and stdout.startswith("5 new, 0 updated")
    with Library.open(target) as library:
        assert library.count() == 5
        assert state(library, ids) == before
        assert [paper.label for paper in library.papers(ids)] == labels


def test_import_of_a_broken_export_exits_1_and_changes_nothing(library_dir, tmp_path):
    with Library.open(library_dir) as library:
        annotate(library)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "margin", "version": 7, "papers": []}', encoding="utf-8")
    size = (library_dir / "library.db").stat().st_size
    code, stdout, err = margin("import", *_corpus(), str(bad), "--library", str(library_dir))
    assert code == 1 and stdout == ""
    assert err.strip() == (f"margin: {bad}: written by a newer Margin (format version 7; this Margin reads up "
                           "to 1); update Margin to import it")
    assert (library_dir / "library.db").stat().st_size == size
    assert Path(bad).read_text(encoding="utf-8") == '{"format": "margin", "version": 7, "papers": []}'


def test_a_bad_tag_in_a_backup_stops_the_whole_import_before_any_change(library_dir, tmp_path):
    with Library.open(library_dir) as library:
        annotate(library)
        data = json.loads(write_backup(library, now=T0).read_text(encoding="utf-8"))
    data["papers"][1]["annotations"]["tags"] = ["fine", "  "]
    bad = tmp_path / "bad-tag.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    other = tmp_path / "more.txt"
    other.write_text("NeurIPS 2025 Papers\n\nAn abstract about something not yet in the library at all.\n",
                     encoding="utf-8")
    code, stdout, err = margin("import", str(other), str(bad), "--library", str(library_dir))
    assert code == 1 and stdout == ""
    assert err.strip() == f"margin: {bad}: paper 2: a tag cannot be empty or only spaces"
    with Library.open(library_dir) as library:
        assert library.count() == 38


# ------------------------------------------- restoring control characters and too long titles
def test_restoring_a_backup_with_controls_twice_changes_nothing_the_second_time(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
        paper = library.paper(paper_id)
        item = {"id": paper_id, "abstract": paper.abstract, "year": 2024, "title": None, "title_source": "derived",
                "annotations": {"note": "n\x00ote", "title": "T\x00itle", "tags": ["x\x01"]}}
        data = {"format": "margin", "version": 1, "papers": [item]}
        assert restore(library, data).changed == [paper_id]
        assert (library.paper(paper_id).note, library.paper(paper_id).user_title) == ("note", "Title")
        again = restore(library, data)
        assert again.changed == [] and again.unchanged == [paper_id]
        assert library.note_history(paper_id) == []


def test_restore_with_a_too_long_title_is_an_input_error_before_any_change(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (paper_id,) = library.import_records([PaperRecord(abstract=ABSTRACTS[0], year=2024)]).new
        items = [{"id": paper_id, "annotations": {"rating": 5}},
                 {"id": "0123456789ab", "abstract": "x", "annotations": {"title": "t" * 1001}}]
        with pytest.raises(InputError, match="paper 2: a title can have at most 1,000 characters"):
            restore(library, {"format": "margin", "version": 1, "papers": items}, path="b.json")
        assert library.paper(paper_id).rating is None and library.count() == 1
