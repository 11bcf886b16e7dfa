"""Automatic annotation backups in `<library>/backups/`, and restoring a backup or a JSON export.

A backup is a Margin JSON document (db/exporters/margin_json.py, "kind": "backup") holding every paper that
carries anything of the user's: rating, tags, note, note history, user title or read state, with the
paper's bibliographic fields, so a backup alone can rebuild those papers in an empty library.

For the window (no Qt here; every function is safe to call from a worker thread, one call at a time per
library, like every Library call):

    write_backup(library)          on close: writes a backup now (unless nothing changed since the last)
    backup_if_due(library)         every few minutes: writes one when the newest is a day old or more
    backup_folder(library)         Help → Open backups folder
    restore(library, data)         what `import` does with a Margin JSON file

Backup files are `margin-backup-YYYYMMDD-HHMMSSZ.json` (UTC; `-N` appended on a clash within a second); the
newest KEEP (10) are kept and older ones deleted. Other files in the folder are never touched. Writing a
backup of a few thousand annotated papers takes well under a second.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from db.errors import InputError, MarginError
from db.exporters.margin_json import document, read_margin_json, validate
from db.library import ImportReport, Library, clean_note, clean_tag, clean_title, tag_key
from db.paper import Paper, PaperRecord, normalize_text

BACKUP_FOLDER = "backups"
KEEP = 10
DEFAULT_MAX_AGE = timedelta(days=1)
_NAME = re.compile(r"^margin-backup-(\d{8}-\d{6})Z(?:-(\d+))?\.json$")

__all__ = ["BACKUP_FOLDER", "DEFAULT_MAX_AGE", "KEEP", "RestoreReport", "backup_folder", "backup_if_due",
           "backup_papers", "backups", "latest_backup", "read_margin_json", "restore", "write_backup"]


def backup_folder(library: Library) -> Path:
    """`<library>/backups/` (not created by this call)."""
    return library.folder / BACKUP_FOLDER


def backups(library: Library) -> list[Path]:
    """The backup files of this library, oldest first (by the time in their names). [] when there are none."""
    folder = backup_folder(library)
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        match = _NAME.match(path.name)
        if match and path.is_file():
            found.append(((match.group(1), int(match.group(2) or 0)), path))
    return [path for _, path in sorted(found)]


def latest_backup(library: Library) -> Path | None:
    """The newest backup file, or None."""
    found = backups(library)
    return found[-1] if found else None


def backup_papers(library: Library) -> list[Paper]:
    """Every paper that carries something of the user's (rating, tags, note, note history, title, read), in
    library order."""
    return [paper for paper in library.papers()
            if paper.is_annotated or paper.read or library.note_history(paper.id)]


def write_backup(library: Library, keep: int = KEEP, now: datetime | None = None) -> Path:
    """Write a backup of all annotations into `<library>/backups/` and delete all but the newest `keep`.

    When the annotations are the same as in the newest backup, no new file is written (so repeated closing
    cannot push older, different backups out); the newest backup's modification time is set to now instead,
    and its path returned. Returns the path of the backup that holds the current state.
    Raises MarginError naming the folder when it cannot be created or written.
    """
    now = now or datetime.now(UTC)
    papers = backup_papers(library)
    data = document(papers, library.note_history, kind="backup")
    data["created"] = now.astimezone(UTC).isoformat(timespec="seconds")
    folder = backup_folder(library)
    latest = latest_backup(library)
    if latest is not None and _same_papers(latest, data["papers"]):
        try:
            stamp = now.timestamp()
            os.utime(latest, (stamp, stamp))
        except OSError:
            pass
        return latest
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = _free_name(folder, now)
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".margin-backup-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1)
            handle.write("\n")
        os.replace(temp, path)
        stamp = now.timestamp()
        os.utime(path, (stamp, stamp))
    except OSError as error:
        raise MarginError(f"{folder}: cannot write a backup ({error.strerror})") from None
    for old in backups(library)[:-keep] if keep > 0 else []:
        try:
            old.unlink()
        except OSError:
            pass  # a backup we cannot delete does no harm; try again next time
    return path


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


def _free_name(folder: Path, now: datetime) -> Path:
    stem = f"margin-backup-{now.astimezone(UTC):%Y%m%d-%H%M%S}Z"
    path, counter = folder / f"{stem}.json", 1
    while path.exists():
        path, counter = folder / f"{stem}-{counter}.json", counter + 1
    return path


def _same_papers(path: Path, papers: list[dict]) -> bool:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("papers") == papers
    except (OSError, ValueError, AttributeError):
        return False


# ----------------------------------------------------------------------------------------------- restoring
@dataclass
class RestoreReport:
    """What a restore did: `changed` ids got at least one annotation back, `unchanged` already had them all,
    `added` papers were missing and created from the file, `unmatched` items could not be placed."""

    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    added: ImportReport = field(default_factory=ImportReport)
    unmatched: int = 0

    def summary(self) -> str:
        """`annotations restored on 12 papers (3 already up to date)`."""
        text = f"annotations restored on {len(self.changed)} papers ({len(self.unchanged)} already up to date)"
        return text + (f", {self.unmatched} not found" if self.unmatched else "")


class _Matcher:
    """Finds a library paper for a JSON item: by Margin id, DOI, arXiv id, OpenReview id, the same title
    (case-insensitive, NFC) with the same year, then the same abstract (whitespace-normalized). Read-only, so a
    restore never rewrites a paper's bibliographic fields with the file's."""

    def __init__(self, papers: list[Paper]):
        self.by_key: dict[tuple, str] = {}
        for paper in reversed(papers):  # the earliest paper wins a clash
            for key in self._keys(paper.id, paper.doi, paper.arxiv_id, paper.openreview_id, paper.title, paper.year):
                self.by_key[key] = paper.id
            abstract = self._abstract_key(paper.abstract)
            if abstract:
                self.by_key[abstract] = paper.id

    @staticmethod
    def _keys(paper_id, doi, arxiv_id, openreview_id, title, year) -> list[tuple]:
        keys = [("id", paper_id)]
        keys += [(name, value.lower()) for name, value in (("doi", doi), ("arxiv", arxiv_id),
                                                           ("openreview", openreview_id)) if value]
        if title and title.strip():
            keys.append(("title", tag_key(title), year))
        return keys

    @staticmethod
    def _abstract_key(abstract: str | None) -> tuple | None:
        text = normalize_text(abstract or "")
        return ("abstract", text) if len(text) >= 80 else None  # short texts ("withdrawn") are no identity

    def find(self, item: dict) -> str | None:
        titles = [item.get("title")] + ([item.get("label")] if item.get("title_source") == "derived" else [])
        for title in titles:
            for key in self._keys(item["id"], item.get("doi"), item.get("arxiv_id"), item.get("openreview_id"),
                                  title, item.get("year")):
                if key in self.by_key:
                    return self.by_key[key]
        return self.by_key.get(self._abstract_key(item.get("abstract")))


def _record(item: dict) -> PaperRecord:
    return PaperRecord(
        abstract=item.get("abstract") or "", title=item.get("title") if item.get("title_source") == "file" else None,
        authors=list(item.get("authors") or []), venue=item.get("venue"), year=item.get("year"), url=item.get("url"),
        doi=item.get("doi"), arxiv_id=item.get("arxiv_id"), openreview_id=item.get("openreview_id"),
        keywords=list(item.get("keywords") or []), source="margin-json")


def restore(library: Library, data: dict, add_missing: bool = True, path: Path | str = "<data>") -> RestoreReport:
    """Put the annotations of a Margin JSON export or backup (`data`, already parsed) onto the same papers.

    Papers are matched by id, else DOI, arXiv id, OpenReview id, or title with year (as import matches);
    a paper not in the library is added from the file's bibliographic fields when `add_missing`, so no paper
    is ever duplicated. Restoring adds and never takes away: a rating, user title or note in the file replaces
    the current one (a replaced note goes to the note history, as on every edit), the file's tags are added
    to the current ones, a paper read in the file is marked read, and the file's note history entries that
    the library lacks are added. Values the file does not have (no rating, empty note) leave the current
    ones alone. Restoring the same file twice changes nothing the second time.
    Raises InputError(path) for a malformed document, before anything is changed.
    """
    validate(data, path)
    items = data["papers"]
    for number, item in enumerate(items, start=1):
        try:
            for tag in item.get("annotations", {}).get("tags", []):
                clean_tag(tag)
            clean_title(item.get("annotations", {}).get("title"))
        except ValueError as error:
            raise InputError(path, f"paper {number}: {error}") from None
    report = RestoreReport()
    matcher = _Matcher(library.papers())
    placed = [(item, matcher.find(item)) for item in items]
    missing = [item for item, paper_id in placed if paper_id is None and (item.get("abstract") or item.get("title"))]
    if add_missing and missing:
        report.added = library.import_records([_record(item) for item in missing])
        matcher = _Matcher(library.papers())
        placed = [(item, paper_id or matcher.find(item)) for item, paper_id in placed]
    seen: set[str] = set()
    for item, paper_id in placed:
        if paper_id is None:
            report.unmatched += 1
        elif paper_id not in seen:
            seen.add(paper_id)
            changed = _apply(library, paper_id, item.get("annotations", {}))
            (report.changed if changed else report.unchanged).append(paper_id)
    return report


def _apply(library: Library, paper_id: str, notes: dict) -> bool:
    """Apply one item's annotations to a paper; True when anything changed."""
    paper = library.paper(paper_id)
    changed = False
    rating = notes.get("rating") or None
    if rating is not None and rating != paper.rating:
        library.set_rating(paper_id, rating)
        changed = True
    have = {tag_key(tag) for tag in paper.tags}
    new_tags = [tag for tag in notes.get("tags", []) if tag_key(tag) not in have]
    if new_tags:
        library.add_tags(paper_id, new_tags)
        changed = True
    if notes.get("read") and not paper.read:
        library.set_read(paper_id, True)
        changed = True
    title = clean_title(notes.get("title"))  # compared as stored, so restoring twice changes nothing
    if title and title != paper.user_title:
        library.set_title(paper_id, title)
        changed = True
    changed |= _add_history(library, paper_id, notes.get("note_history", []))
    note = clean_note(notes.get("note") or "")
    if note.strip() and note != paper.note:
        library.set_note(paper_id, note)
        changed = True
    return changed


def _add_history(library: Library, paper_id: str, entries: list[dict]) -> bool:
    """Add the note history entries the library lacks (same time and text), oldest first, before the current
    note is set. Library has no call for this, so it is one INSERT into its `note_history` table."""
    have = set(library.note_history(paper_id))
    new = [(paper_id, entry["note"], entry["saved_at"]) for entry in entries
           if (entry["saved_at"], entry["note"]) not in have]
    if not new:
        return False
    with library.transaction() as conn:
        conn.executemany("INSERT INTO note_history (paper_id, note, saved_at) VALUES (?, ?, ?)", new)
    return True
