"""Importing paper records into the library: matching them against the stored papers (db.library.matching), then
writing the new and changed ones in one short transaction of the store; keeping the labels derived from
abstracts current when db.text.labels' rule changes (`keep_labels_current`); and putting the rows salvaged from
a damaged library into a new one (`put_salvaged_rows`, db.library.integrity)."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from db.changes import ADDED, BIBLIOGRAPHIC, NOTHING, TITLE, Changes
from db.errors import LibraryError, MarginError
from db.library.import_plan import PlannedPapers, label_for, larger_page_cache, record_values
from db.library.imported_annotations import AnnotationCounts, apply_annotations
from db.library.match_keys import frequent_keys, keys_missing, match_row, store_match_keys, write_match_rows
from db.library.matching import Matcher, fresh_id
from db.library.merging import merge
from db.library.schema import DB_NAME, SALVAGE_COLUMNS, SALVAGE_FITS
from db.library.shingles import AHEAD, remember_shingles
from db.library.store import BIBLIOGRAPHIC_COLUMNS as _BIBLIOGRAPHIC
from db.library.store import Store, log_change, now, prune_change_log
from db.library.works import group_new_versions
from db.paper import PaperRecord, normalize_text
from db.text.cleaning import fit_record
from db.text.counts import counted
from db.text.labels import LABEL_RULE, derive_label


@dataclass
class ImportReport:
    """What one import did. `skipped` holds (line, reason) of records that could not be taken."""

    new: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    duplicates: int = 0
    skipped: list[tuple[int | None, str]] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)  # what merging duplicates added or kept apart, per paper
    conflicts: list[str] = field(default_factory=list)  # shared DOIs/arXiv ids on clearly different papers
    versions: list[str] = field(default_factory=list)  # groups of versions of one work formed or grown
    version_changes: Changes = NOTHING  # what grouping them changed (db.library.works)
    annotations: AnnotationCounts = field(default_factory=AnnotationCounts)  # set from the files (issue 30)

    def summary(self) -> str:
        """One line: `1,683 new, 0 updated, 38 unchanged, 0 duplicates in the file, 0 skipped` (thousands
        separated: the command line's summary; the window formats its own with the locale)."""
        text = (f"{len(self.new):,} new, {len(self.updated):,} updated, {len(self.unchanged):,} unchanged, "
                f"{counted(self.duplicates, 'duplicate')} in the file, {len(self.skipped):,} skipped"
                + (f", {len(self.merged):,} merged field by field" if self.merged else "")
                + (f", {counted(len(self.conflicts), 'shared id')} on different papers kept apart"
                   if self.conflicts else "")
                + (f", {len(self.versions):,} grouped with their other versions" if self.versions else ""))
        return text + (f"; {self.annotations.summary()}" if self.annotations else "")

    def details(self) -> list[str]:
        """What the summary counts, one line each: `merged: "Title" (line 9): authors, year added; year 2001
        kept, 2015 noted` and `kept apart: DOI 10.1/x is on "A" (line 3) and "B" (line 9): kept as two papers`."""
        return ([f"merged: {text}" for text in self.merged] + [f"kept apart: {text}" for text in self.conflicts]
                + [f"versions: {text}" for text in self.versions])

    @property
    def changes(self) -> Changes:
        """What the import changed in the library: papers added, papers whose bibliographic fields changed."""
        return (Changes.of(self.new, ADDED) | Changes.of(self.updated, BIBLIOGRAPHIC) | self.version_changes
                | self.annotations.changes)

    def merge(self, other: ImportReport) -> None:
        self.new += other.new
        self.updated += other.updated
        self.unchanged += other.unchanged
        self.duplicates += other.duplicates
        self.skipped += other.skipped
        self.merged += other.merged
        self.conflicts += other.conflicts
        self.versions += other.versions
        self.version_changes |= other.version_changes
        self.annotations.merge(other.annotations)


@dataclass
class _ImportPlan:
    """What an import will write: the planned papers (on disk: db.library.import_plan), the time they are
    stamped with, the position before the first new one, the annotations of the records, and the report."""

    report: ImportReport
    planned: PlannedPapers = field(default_factory=PlannedPapers)
    stamp: str = field(default_factory=now)
    first_position: int = 0
    annotated: list[tuple] = field(default_factory=list)  # (paper id, db.paper.Annotations) of the records
    frequent: frozenset[int] = frozenset()  # the library's frequent keys the match_keys rows were made with
    settled: bool = False  # a cold import: `frequent` is what the library's will be once written (nothing to check)


LABEL_RULE_FILE = "labels.json"  # in the library folder: {"rule": N}, the db.text.labels.LABEL_RULE the labels follow


def label_rule(store: Store) -> int | None:
    """The db.text.labels.LABEL_RULE this library's derived labels were made with (None: not recorded, i.e. made
    before rules were numbered, or the note of it was lost)."""
    try:
        rule = json.loads((store.folder / LABEL_RULE_FILE).read_text(encoding="utf-8")).get("rule")
    except (OSError, ValueError, AttributeError):
        return None
    return rule if isinstance(rule, int) else None


def keep_labels_current(store: Store) -> Changes:
    """Relabel the untitled papers when their labels were made under another rule than db.text.labels.LABEL_RULE
    (called when the library is opened), then note the rule in LABEL_RULE_FILE. The label is derived data
    kept in `papers.label`, so this is no schema change: a lost note only costs one relabel that finds
    nothing to change. A library that cannot be written now keeps its labels until a later open."""
    if label_rule(store) == LABEL_RULE:
        return NOTHING
    try:
        changes = relabel(store) if store.read("SELECT 1 FROM papers LIMIT 1") else NOTHING
        path = store.folder / LABEL_RULE_FILE
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps({"rule": LABEL_RULE}) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except (MarginError, sqlite3.Error, OSError):  # read-only, busy or full: labels stay until a later open
        return NOTHING
    return changes


def relabel(store: Store) -> Changes:
    """Derive the label of every paper without a title again (db.text.labels.derive_label). Papers whose label
    changed are updated in one transaction and logged as a change of kind `title` (what the list row, the
    search index's title field and the reader heading show), so the index and the views follow. Returns
    what changed. The labels are derived before the write lock is taken; a paper that another process
    changed meanwhile is left to that process's own label."""
    rows = store.read("SELECT id, title, abstract, label FROM papers WHERE title IS NULL OR trim(title) = ''")
    planned = [(label, paper_id, abstract, old) for paper_id, title, abstract, old in rows
               if not (title and title.strip()) and (label := derive_label(abstract)) != old]
    changed = []
    if planned:
        with store.transaction() as conn:
            for label, paper_id, abstract, old in planned:
                cursor = conn.execute("UPDATE papers SET label = ? WHERE id = ? AND abstract = ? AND label = ?",
                                      (label, paper_id, abstract, old))
                if cursor.rowcount:
                    changed.append(paper_id)
            log_change(conn, store.writer, [TITLE], changed)
            prune_change_log(conn)
    return Changes.of(changed, TITLE)


def import_records(store: Store, records: Sequence[PaperRecord],
                   progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Add new papers and update matching ones in place, all in one transaction.

    Identity (db.library.matching): DOI, arXiv id or OpenReview id; else normalized title with the same year; else
    an identical or near-identical abstract. A match keeps its id and every annotation; its bibliographic
    fields take the record's non-empty values (an empty field in the file never erases a stored one).
    A record matching a paper already taken from this import counts as a duplicate in the file.
    `progress(done, total)` is called every 500 records and at the end.

    The matching runs before the write transaction, so the library's write lock is held only while the
    planned rows are written (the window's own edits never wait seconds behind an import); when another
    import changed the papers meanwhile, the plan is made again under the lock.
    """
    from db.system.memory import release_memory

    if not getattr(records, "fitted", False):  # (a RecordSpool's records were fitted as they were read)
        for record in records:  # sizes and bidi controls, also for restores and the seed (import_job reports cuts)
            fit_record(record)
    with store.lock:
        missing = keys_missing(store.conn)
    if missing:  # a paper written without its match keys (none of the Library's own paths does that)
        with store.transaction() as conn:
            store_match_keys(conn)
    plans: list[_ImportPlan] = []
    try:
        for _attempt in range(2):
            with store.lock:
                marker = _papers_marker(store.conn)
                plans.append(_plan_import(store.conn, records, progress))
            with store.transaction() as conn, larger_page_cache(conn, len(records)):
                if _papers_marker(conn) != marker:  # papers changed since: plan again, inside the lock
                    continue
                write_import(store, conn, plans[-1])
                break
        else:
            with store.transaction() as conn, larger_page_cache(conn, len(records)):
                plans.append(_plan_import(conn, records, progress))
                write_import(store, conn, plans[-1])
    finally:
        for plan in plans:
            plan.planned.close()
    report = plans[-1].report
    del plans
    release_memory()
    return report


def _papers_marker(conn: sqlite3.Connection) -> tuple:
    """What changes whenever papers are added or updated (not on annotation edits)."""
    return conn.execute("SELECT COUNT(*), MAX(position), MAX(updated_at) FROM papers").fetchone()


def _plan_import(conn: sqlite3.Connection, records: Sequence[PaperRecord],
                 progress: Callable[[int, int], None] | None) -> _ImportPlan:
    """Match every record against the stored papers (reads only: db.library.matching asks the library for the few
    candidates of each record) and decide what to insert and update."""
    plan = _ImportPlan(ImportReport())
    matcher = Matcher(conn, records)
    plan.frequent = matcher.stored_frequent
    try:
        _match_records(conn, records, progress, plan, matcher)
        matcher.matched()
        if matcher.cold:  # (the rows are then written once, with no check for new ones)
            plan.frequent, plan.settled = plan.planned.settle_frequent(matcher.ascending), True
    finally:
        matcher.close()
    return plan


def _match_records(conn: sqlite3.Connection, records: Sequence[PaperRecord],
                   progress: Callable[[int, int], None] | None, plan: _ImportPlan, matcher) -> None:
    """Fill `plan` with what each record is: new (a row to insert) or a stored paper's (an update, or unchanged:
    decided when written). A record of a paper met before in this import is merged into it field by field
    (db.library.merging), as is a record of a stored paper; the report names each merge that added or kept apart
    a value, and each shared DOI or arXiv id that two clearly different titles carry (both papers kept). The
    planned papers are kept on disk (db.library.import_plan), not in memory."""
    report = plan.report
    planned = plan.planned  # id → the paper as it will be written (new) or as merged (stored), its stored row…
    total = len(records)
    position = plan.first_position = conn.execute("SELECT COALESCE(MAX(position), 0) FROM papers").fetchone()[0]
    for done, record in enumerate(_shingled_ahead(records), start=1):
        if progress and (done % 500 == 0 or done == total):
            progress(done, total)
        try:
            record_id = record.id
        except ValueError:
            report.skipped.append((record.line, "a record with neither title nor abstract"))
            continue
        existing = matcher.match(record, record_id)
        for kind, value, other in matcher.clashes:
            if other != existing:
                report.conflicts.append(_clash(conn, planned, record, kind, value, other))
        if record.annotations is not None and existing is not None:
            plan.annotated.append((existing, record.annotations))
        if existing is None:
            new_id = fresh_id(record, matcher.__contains__, record_id)
            position += 1
            planned.add_new(new_id, position, record, _findable(matcher, new_id, record))
            report.new.append(new_id)
            if record.annotations is not None:
                plan.annotated.append((new_id, record.annotations))
            continue
        from_file = None
        if planned.is_new(existing):  # met before in this file: the fuller record is the better source
            report.duplicates += 1
            before = planned.record(existing)
            done_merge = merge(before, record)
            said = done_merge.describe()
        else:  # a stored paper: the file's values update it, but a title or year only from the fuller source;
            # its records in this file are merged with each other first, as for a new paper, so a re-import of
            # the file leaves the paper as the first import made it (issue 30 trial)
            if existing in planned:
                report.duplicates += 1
                record = merge(planned.from_file(existing), record).record
            else:
                planned.add_stored(existing, conn.execute(
                    f"SELECT {', '.join(_BIBLIOGRAPHIC)} FROM papers WHERE id = ?", (existing,)).fetchone())
            from_file = record
            before = _stored_record(planned.stored(existing))
            done_merge = merge(record, before, update=True)
            said = "; ".join(done_merge.noted)
        if said:
            report.merged.append(f'"{_shown_title(done_merge.record)}" (line {record.line}): {said}')
        keys = None
        if _key_fields(done_merge.record) != _key_fields(before):  # findable under its new values
            keys = _findable(matcher, existing, done_merge.record)
        planned.set(existing, done_merge.record, keys, from_file)


def _shingled_ahead(records: Iterable[PaperRecord]) -> Iterator[PaperRecord]:
    """The records in order, the shingles of each AHEAD of them made at once before they are matched
    (db.library.shingles.remember_shingles: the same sets, their word lookups in one pass)."""
    records = iter(records)
    while batch := list(islice(records, AHEAD)):
        remember_shingles([record.abstract for record in batch])
        yield from batch


def _plan_rows(plan: _ImportPlan, chunk: list[tuple], frequent: frozenset[int]) -> tuple[list, list, list]:
    """(rows to insert, updates, new match_keys rows) of a chunk of planned papers (PlannedPapers.ordered);
    adds the stored papers that did not change to report.unchanged and those that did to report.updated. A
    match_keys row whose prefix holds a key that became frequent since it was planned (an earlier chunk's
    write made it so) is made again in the library's order now (db.library.match_keys)."""
    report, stamp = plan.report, plan.stamp
    since = frequent - plan.frequent
    inserts, updates, keys = [], [], []
    for paper_id, position, stored, record, key_row in chunk:
        values = record_values(record)
        if stored is None:
            inserts.append((paper_id, position, values[0], values[1], label_for(record), *values[2:], stamp, stamp))
        elif values[:-1] == tuple(stored)[:-1]:  # the file's name alone is no change
            report.unchanged.append(paper_id)
            continue
        else:
            updates.append((*values, label_for(record), stamp, paper_id))
            report.updated.append(paper_id)
        if key_row is not None:  # (a paper whose match keys did not change keeps its stored row)
            if since and not since.isdisjoint(json.loads(key_row[7])):
                key_row = match_row(paper_id, record.title, record.year, record.abstract, record.doi,
                                    record.arxiv_id, record.openreview_id, frequent)
            keys.append(key_row)
    return inserts, updates, keys


def _key_fields(record: PaperRecord) -> tuple:
    """What the matcher finds a paper by."""
    return (record.title, record.year, record.abstract, record.doi, record.arxiv_id, record.openreview_id,
            record.authors, record.venue)


def _findable(matcher: Matcher, paper_id: str, record: PaperRecord) -> tuple:
    """Make the paper findable by the matcher under the record's values; returns its match_keys row."""
    return matcher.add(paper_id, record.title, record.year, record.abstract, record.doi, record.arxiv_id,
                       record.openreview_id, record.authors, record.venue)


def _stored_record(row: tuple) -> PaperRecord:
    values = dict(zip(_BIBLIOGRAPHIC, row, strict=True))
    for name in ("authors", "keywords", "extra"):
        values[name] = json.loads(values[name])
    return PaperRecord(**values)


def _shown_title(record: PaperRecord) -> str:
    title = normalize_text(record.title or "") or derive_label(record.abstract)
    return title if len(title) <= 70 else title[:69] + "…"


def _clash(conn: sqlite3.Connection, planned: PlannedPapers, record: PaperRecord, kind: str, value: str,
           other: str) -> str:
    """'DOI 10.1/x is on "A" (line 3) and "B" (line 9, kept as another paper)' for a shared key."""
    if other in planned:
        theirs = planned.record(other)
        theirs = f'"{_shown_title(theirs)}" (line {theirs.line})'
    else:
        title = conn.execute("SELECT label FROM papers WHERE id = ?", (other,)).fetchone()
        theirs = f'"{title[0] if title else other}" (in the library, {other})'
    return f'{kind} {value} is on {theirs} and "{_shown_title(record)}" (line {record.line}): kept as two papers'


def write_import(store: Store, conn: sqlite3.Connection, plan: _ImportPlan) -> None:
    """Write a planned import inside the caller's write transaction, `CHUNK` planned papers at a time (memory
    bounded by the chunk), and log the papers it changed; the match keys of the papers written are replaced in
    the same transaction."""
    assignments = ", ".join(f"{column} = ?" for column in _BIBLIOGRAPHIC)
    updated: list[str] = []
    if plan.settled:
        conn.executemany("INSERT OR IGNORE INTO frequent_keys VALUES (?)", [(key,) for key in sorted(plan.frequent)])
    for chunk in plan.planned.ordered():
        inserts, updates, keys = _plan_rows(plan, chunk, plan.frequent if plan.settled else frequent_keys(conn))
        conn.executemany(
            "INSERT INTO papers (id, position, title, abstract, label, authors, venue, year, url, doi,"
            " arxiv_id, openreview_id, keywords, extra, source, added_at, updated_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", inserts)
        conn.executemany(f"UPDATE papers SET {assignments}, label = ?, updated_at = ? WHERE id = ?", updates)
        updated += [update[-1] for update in updates]
        write_match_rows(conn, keys, settled=plan.settled)
    if plan.report.new:
        log_change(conn, store.writer, [ADDED], select="SELECT id FROM papers WHERE position > ?",
                   params=(plan.first_position,))
    log_change(conn, store.writer, [BIBLIOGRAPHIC], updated)
    plan.report.annotations = apply_annotations(store, conn, plan.annotated)
    # versions of one work (db.library.works) among the papers written and the library's
    plan.report.version_changes, plan.report.versions = group_new_versions(
        store, conn, [*plan.report.new, *plan.report.updated])
    prune_change_log(conn)


def put_salvaged_rows(store: Store, rows: dict[str, list[tuple]]) -> Changes:
    """Fill a new, empty library with the rows read from a damaged one (db.library.integrity.rebuild): per table
    of db.library.schema.SALVAGE_COLUMNS, tuples in its column order. Rows that do not fit (a tag of a paper
    that could not be read) are left out. One transaction; logged as added. Raises LibraryError when the
    library already holds papers."""
    with store.transaction() as conn:
        if conn.execute("SELECT 1 FROM papers LIMIT 1").fetchone():
            raise LibraryError(f"{store.folder / DB_NAME}: salvaged rows go into a new library only")
        for table, columns in SALVAGE_COLUMNS.items():
            values = ", ".join({"extra": "COALESCE(?, '{}')", "resolvers": "COALESCE(?, '[]')"}.get(column, "?")
                               for column in columns)  # columns a damaged older library lacks
            conn.executemany(f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) SELECT {values}"
                             + SALVAGE_FITS.get(table, ""), rows.get(table, []))
        ids = [row[0] for row in conn.execute("SELECT id FROM papers ORDER BY position")]
        store_match_keys(conn)  # what re-import matching looks up (db.library.match_keys)
        return store.log(conn, ids, ADDED) if ids else NOTHING
