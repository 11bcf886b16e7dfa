"""Automatic annotation backups in `<library>/backups/`, and restoring a backup or a JSON export.

A backup is a Margin JSON document (db/exporters/margin_json.py, "kind": "backup") holding every paper that
carries anything of the user's: rating, tags, note, note history, user title or read state, with the
paper's bibliographic fields, so a backup alone can rebuild those papers in an empty library. Annotated
papers deleted since the previous backup are in it too (Library.delete_papers keeps them), their ids listed
under "deleted", so restoring it by name brings a paper deleted by mistake back with its annotations, and the
default restore (`without_deleted`: the newest backup, db.library.backup_files.restore_default) leaves them out.

For the window (no Qt here; every function is safe to call from a worker thread, one call at a time per
library, like every Library call):

    write_backup(library)          on close: writes a backup now (unless nothing changed since the last)
    backup_if_due(library)         every few minutes: writes one when the newest is a day old or more
    backup_folder(library)         Help → Open backups folder
    restore(library, data)         what an import (db.import_job) does with a Margin JSON file; newer
                                   edits in the library win over older ones in the file

Backup files are `margin-backup-YYYYMMDD-HHMMSSZ.json` (UTC; `-N` appended on a clash within a second); the
newest KEEP (10) are kept and older ones deleted. Other files in the folder are never touched. Writing a
backup of a few thousand annotated papers takes well under a second.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from db.errors import InputError, MarginError
from db.exporters.margin_json import document, read_margin_json, validate
from db.formats.common import year_of
from db.library.backup_files import BACKUP_FOLDER, DELETED, WRITTEN_FOR, backups_in
from db.library.library import ImportReport, Library
from db.library.restore_matching import PaperFinder
from db.paper import Paper, PaperRecord
from db.system.fileio import write_atomically
from db.text.cleaning import clean_note, clean_tag, clean_title, tag_key
from db.text.counts import counted

KEEP = 10
DEFAULT_MAX_AGE = timedelta(days=1)

__all__ = ["BACKUP_FOLDER", "DEFAULT_MAX_AGE", "KEEP", "RestoreReport", "backup_folder", "backup_if_due",
           "backup_papers", "backups", "backups_in", "check", "latest_backup", "read_backup", "read_margin_json",
           "restore", "write_backup"]


def backup_folder(library: Library) -> Path:
    """`<library>/backups/` (not created by this call)."""
    return library.folder / BACKUP_FOLDER


def backups(library: Library) -> list[Path]:
    """The backup files of this library, oldest first (by the time in their names). [] when there are none."""
    return backups_in(library.folder)


def latest_backup(library: Library) -> Path | None:
    """The newest backup file, or None."""
    found = backups(library)
    return found[-1] if found else None


def read_backup(path: Path) -> dict:
    """The Margin JSON document in `path` (a backup or an export). Raises InputError naming the file when it
    cannot be read or is not one."""
    data = read_margin_json(path)
    if data is None:
        if not Path(path).is_file():
            raise InputError(path, "no such backup file")
        raise InputError(path, "not a Margin JSON backup or export")
    return data


def backup_papers(library: Library) -> list[Paper]:
    """Every paper that carries something of the user's (rating, tags, note, note history, title, read), in
    library order."""
    return [paper for paper in library.papers()
            if paper.is_annotated or paper.read or library.note_history(paper.id)]


def write_backup(library: Library, keep: int = KEEP, now: datetime | None = None, reason: str | None = None) -> Path:
    """Write a backup of all annotations into `<library>/backups/` and delete all but the newest `keep`.

    When the annotations are the same as in the newest backup, no new file is written (so repeated closing
    cannot push older, different backups out); the newest backup's modification time is set to now instead,
    and its path returned. Returns the path of the backup that holds the current state.
    `reason` "delete" marks the backup `margin delete` writes (its "written_for"; db.library.backup_files).
    Raises MarginError naming the folder when it cannot be created or written.
    """
    now = now or datetime.now(UTC)
    papers = backup_papers(library)
    data = document(papers, library.note_history, kind="backup", state=library.user_state())
    if reason:  # among the first keys: read from a file's first bytes
        data = {"format": data["format"], "version": data["version"], WRITTEN_FOR: reason, **data}
    data["created"] = now.astimezone(UTC).isoformat(timespec="seconds")
    data["screening"] = library.screening_state()  # the inclusion criteria and exclusion reasons (issue 29)
    folder = backup_folder(library)
    latest = latest_backup(library)
    deleted = _deleted_since(library, latest)
    data["papers"] += deleted
    data[DELETED] = [item["id"] for item in deleted]  # left out by the default restore (restore_default)
    if latest is not None and _same_papers(latest, data["papers"], data["screening"], data["state"], data[DELETED]):
        try:
            stamp = now.timestamp()
            os.utime(latest, (stamp, stamp))
        except OSError:
            pass
        return latest
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise MarginError(f"{folder}: cannot write a backup ({error.strerror})") from None
    path = _free_name(folder, now)
    write_atomically(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")  # no .tmp left on a full disk
    with contextlib.suppress(OSError):
        stamp = now.timestamp()
        os.utime(path, (stamp, stamp))
    for old in backups(library)[:-keep] if keep > 0 else []:
        try:
            old.unlink()
        except OSError:
            pass  # a backup we cannot delete does no harm; try again next time
    return path


def _deleted_since(library: Library, latest: Path | None) -> list[dict]:
    """The items of annotated papers deleted since the backup `latest` was written (all kept ones when there is
    none), so the next backup still holds their annotations (db.library.deleting)."""
    since = None
    if latest is not None:
        with contextlib.suppress(OSError):
            since = datetime.fromtimestamp(latest.stat().st_mtime, UTC).isoformat(timespec="seconds")
    return library.deleted_items(since)


def backup_if_due(library: Library, max_age: timedelta = DEFAULT_MAX_AGE, keep: int = KEEP,
                  now: datetime | None = None) -> Path | None:
    """Write a backup when there is none or the newest is `max_age` old or older (by its modification time,
    which `write_backup` refreshes when nothing changed). Returns the path written, or None when not due.
    Raises MarginError like write_backup."""
    now = now or datetime.now(UTC)
    latest = latest_backup(library)
    if latest is not None:
        try:
            written = datetime.fromtimestamp(latest.stat().st_mtime, UTC)
        except OSError:
            written = None
        if written is not None and now - written < max_age:
            return None
    return write_backup(library, keep=keep, now=now)


def backup_folder_if_due(folder: str, now: bool = False) -> str | None:
    """`backup_if_due` (with `now`: `write_backup`) on the library in `folder`, opened here: for a child process
    (the window runs its backups in one, so that reading every paper does not hold the interpreter lock the window
    needs)."""
    with Library.open(Path(folder), seed=False) as library:
        path = write_backup(library) if now else backup_if_due(library)
    return str(path) if path is not None else None


def _free_name(folder: Path, now: datetime) -> Path:
    stem = f"margin-backup-{now.astimezone(UTC):%Y%m%d-%H%M%S}Z"
    path, counter = folder / f"{stem}.json", 1
    while path.exists():
        path, counter = folder / f"{stem}-{counter}.json", counter + 1
    return path


def _same_papers(path: Path, papers: list[dict], screening: dict | None, state: dict | None, deleted: list) -> bool:
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
        return (old.get("papers") == papers and old.get("screening") == screening and old.get("state") == state
                and old.get(DELETED, []) == deleted)
    except (OSError, ValueError, AttributeError):
        return False


# ----------------------------------------------------------------------------------------------- restoring
@dataclass
class RestoreReport:
    """What a restore did: `changed` ids got at least one annotation back, `unchanged` already had them all,
    `kept` (some also in `changed`) kept a newer rating, title or note of the library's instead of the file's,
    `added` papers were missing and created from the file, `unmatched` items could not be placed."""

    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    added: ImportReport = field(default_factory=ImportReport)
    unmatched: int = 0
    kept: list[str] = field(default_factory=list)
    state: int = 0  # items of the user state added (db.library.user_state.restore_state)
    left_out: int = 0  # papers of the file left out because they were deleted (restore's `without_deleted`)

    def summary(self) -> str:
        """`annotations restored on 12 papers (3 already up to date)`, `, newer edits kept on 2`, `, 1 not found`."""
        text = (f"annotations restored on {counted(len(self.changed), 'paper')}"
                f" ({len(self.unchanged):,} already up to date)")
        text += f", newer edits kept on {len(self.kept):,}" if self.kept else ""
        text += f", lists, interests, saved searches and checks put back: {self.state:,}" if self.state else ""
        text += f", {counted(self.left_out, 'deleted paper')} left out" if self.left_out else ""
        return text + (f", {self.unmatched:,} not found" if self.unmatched else "")


def _record(item: dict) -> PaperRecord:
    return PaperRecord(
        abstract=item.get("abstract") or "",
        title=item["file_title"] if "file_title" in item else item.get("title") if item.get("title_source") == "file"
        else None, extra=dict(item.get("extra") or {}),
        authors=list(item.get("authors") or []), venue=item.get("venue"), year=year_of(item.get("year")),
        url=item.get("url"),
        doi=item.get("doi"), arxiv_id=item.get("arxiv_id"), openreview_id=item.get("openreview_id"),
        keywords=list(item.get("keywords") or []), source="margin-json")


def paper_records(data: dict) -> list[PaperRecord]:
    """The papers of a checked Margin JSON document as plain records (bibliographic fields only, matched by
    their Margin id first): what `margin import --no-annotations` takes from it, leaving its annotations, note
    history, screening state and saved state out."""
    return [replace(_record(item), margin_id=str(item["id"]) if item.get("id") else None)
            for item in data["papers"] if item.get("abstract") or item.get("title")]


def check(data: dict, path: Path | str = "<data>") -> None:
    """Check a Margin JSON document as `restore` will use it (its shape, every tag and user title), so an
    import can refuse a malformed one before it changes anything. Raises InputError(path) naming the paper."""
    validate(data, path)
    for number, item in enumerate(data["papers"], start=1):
        try:
            for tag in item.get("annotations", {}).get("tags", []):
                clean_tag(tag)
            clean_title(item.get("annotations", {}).get("title"))
        except ValueError as error:
            raise InputError(path, f"paper {number}: {error}") from None


def restore(library: Library, data: dict, add_missing: bool = True, path: Path | str = "<data>",
            without_deleted: bool = False) -> RestoreReport:
    """Put the annotations of a Margin JSON export or backup (`data`, already parsed) onto the same papers.

    Papers are matched by id, else DOI, arXiv id, OpenReview id, or title with year (as import matches);
    a paper not in the library is added from the file's bibliographic fields when `add_missing`, so no paper
    is ever duplicated. Restoring adds and never takes away: the file's tags are added to the current ones, a
    paper read in the file is marked read, and the file's note history entries that the library lacks are
    added. Values the file does not have (no rating, empty note, no title) leave the current ones alone.

    A rating, user title or note in the file replaces the current one (a replaced note goes to the note
    history, as on every edit), except where that would put older work over newer: when the library holds a
    different rating, title or non-empty note and the paper's annotations were changed at or after the time
    the document was made (its "created"; a document without a readable one counts as older than any change),
    the library's value stays, and a kept note gets the file's note added to its note history instead (unless
    the history already holds that text); such papers are listed in `kept`. Restoring the same file twice
    changes nothing the second time. `without_deleted` (the backup `margin restore` takes when none is named)
    leaves out the papers the file lists as deleted (its "deleted" ids) and those the library records as
    deleted at or after the file's "created" (counted in `left_out`), so no paper the user deleted comes back.
    Raises InputError(path) for a malformed document, before anything is changed.
    """
    check(data, path)
    items = data["papers"]
    created = _created(data)
    report = RestoreReport()
    if without_deleted:
        gone = set(data.get(DELETED) or []) | ({item["id"] for item in library.deleted_items(_stamp(created))}
                                                if created else set())
        items = [item for item in items if item["id"] not in gone]
        report.left_out = len(data["papers"]) - len(items)
    matcher = PaperFinder(library.papers())
    placed = [(item, matcher.find(item)) for item in items]
    missing = [item for item, paper_id in placed if paper_id is None and (item.get("abstract") or item.get("title"))]
    if add_missing and missing:
        report.added = library.import_records([_record(item) for item in missing])
        matcher = PaperFinder(library.papers())
        placed = [(item, paper_id or matcher.find(item)) for item, paper_id in placed]
    library.merge_screening_state(data.get("screening"))  # criteria and reasons the library lacks (issue 29)
    seen: set[str] = set()
    for item, paper_id in placed:
        if paper_id is None:
            report.unmatched += 1
        elif paper_id not in seen:
            seen.add(paper_id)
            changed, kept = _apply(library, paper_id, item.get("annotations", {}), created)
            (report.changed if changed else report.unchanged).append(paper_id)
            if kept:
                report.kept.append(paper_id)
    report.state = library.restore_user_state(data.get("state"))  # highlight lists, interests, saved searches…
    return report


def _created(data: dict) -> datetime | None:
    """The document's "created" time (UTC), or None when it has none that reads as an ISO time."""
    return _utc(data.get("created"))


def _utc(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _changed_since(library: Library, paper_id: str, created: datetime | None) -> bool:
    """True when the paper's annotations row was updated at or after `created` (always, when `created` is
    unknown; never, when the paper has no annotations). Seconds are all either time has, so a change within
    the same second as the backup counts as the newer one."""
    rows = library.store.read("SELECT updated_at FROM annotations WHERE paper_id = ?", (paper_id,))
    if not rows:
        return False
    if created is None:
        return True
    updated = _utc(rows[0][0])
    return updated is None or updated >= created


def _apply(library: Library, paper_id: str, annotations: dict, created: datetime | None) -> tuple[bool, bool]:
    """Apply one item's annotations to a paper. Returns (anything changed, a newer value of the library's was
    kept instead of the file's)."""
    paper = library.paper(paper_id)
    newer = _changed_since(library, paper_id, created)  # read before this restore changes the row
    changed, kept = library.restore_decision(paper, annotations.get("decision"), created)  # issue 29
    rating = annotations.get("rating") or None
    if rating is not None and rating != paper.rating:
        if paper.rating is not None and newer:
            kept = True
        else:
            library.set_rating(paper_id, rating)
            changed = True
    have = {tag_key(tag) for tag in paper.tags}
    new_tags = [tag for tag in annotations.get("tags", []) if tag_key(tag) not in have]
    if new_tags:
        library.add_tags(paper_id, new_tags)
        changed = True
    if annotations.get("read") and not paper.read:
        library.set_read(paper_id, True)
        changed = True
    title = clean_title(annotations.get("title"))  # compared as stored, so restoring twice changes nothing
    if title and title != paper.user_title:
        if paper.user_title and newer:
            kept = True
        else:
            library.set_title(paper_id, title)
            changed = True
    history = [(entry["saved_at"], entry["note"]) for entry in annotations.get("note_history", [])]
    note = clean_note(annotations.get("note") or "")
    if note.strip() and note != paper.note:
        if paper.note.strip() and newer:
            kept = True
            if note not in {text for _, text in library.note_history(paper_id)} | {t for _, t in history}:
                history.append((_stamp(created), note))  # the file's note, as an earlier version
        else:
            changed |= _add_history(library, paper_id, history)
            library.set_note(paper_id, note)
            return True, kept
    changed |= _add_history(library, paper_id, history)
    return changed, kept


def _stamp(created: datetime | None) -> str:
    """The time a note from the file is filed under in the note history: the document's, else now."""
    return (created or datetime.now(UTC)).isoformat(timespec="seconds")


def _add_history(library: Library, paper_id: str, entries: list[tuple[str, str]]) -> bool:
    """Add the note history entries (saved_at, note) the library lacks (same time and text as stored), in the
    order given, before the current note is set. True when any was added."""
    have = set(library.note_history(paper_id))
    new = [(saved_at, note) for saved_at, note in entries if (saved_at, clean_note(note)) not in have]
    if not new:
        return False
    library.add_note_history(paper_id, new)
    return True


def annotated_export_ids(library: Library, fmt: str) -> list[str]:
    """The ids an export of "the annotated papers" writes in format `fmt`, in library order: the rated, tagged,
    noted or titled papers, and for Margin JSON (the format that restores) also those only read or with a note
    history (backup_papers). The window and `margin export` both choose by this."""
    if fmt != "json":
        return library.annotated_ids()
    return [paper.id for paper in backup_papers(library)]
