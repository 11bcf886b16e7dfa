"""The library: one folder holding `library.db` (SQLite, the source of truth), `index/` and `backups/`.

`Library` is the one API the window and the command line use to read and change papers and annotations: a thin
facade (Calibre's db/cache.py is the model) over the store (db.library.store: the connection, write
transactions with their busy waits, the change log) and the modules by concept, each a set of functions taking
the store — reading (papers), annotations, tags, triage (bookkeeping), importing, deleting. Every mutation is
one write transaction of the store, returns what it changed (db.changes.Changes) and records it in the
`change_log` table in that transaction: the search index (derived data) catches up from that log, and a window
reads there what another process changed. Schema text is db.library.schema.
"""

from __future__ import annotations

import functools
import inspect
import sqlite3
from collections.abc import Callable
from pathlib import Path

from db.errors import LibraryError
from db.library import annotations, deleting, importing, reading, shared_projects, syncing, tag_undo, triage, works
from db.library import decisions as screening  # (Library.decisions is a method)
from db.library import tags as tagging  # (Library.tags is a method)
from db.library import user_state as states
from db.library.importing import ImportReport
from db.library.schema import DB_NAME, SCHEMA_VERSION
from db.library.store import BUSY_TIMEOUT_MS, Store
from db.paper import PaperRecord

__all__ = ["BUSY_TIMEOUT_MS", "DB_NAME", "SCHEMA_VERSION", "ImportReport", "Library"]


def _on_store(function: Callable) -> Callable:
    """A Library method that calls `function(store, …)`: with its name, docstring and signature (less the
    store), so `help(Library)` reads as the concept module does."""

    @functools.wraps(function)
    def method(self, *args, **kwargs):
        return function(self.store, *args, **kwargs)

    signature = inspect.signature(function)
    self_parameter = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    method.__signature__ = signature.replace(parameters=[self_parameter, *list(signature.parameters.values())[1:]])
    return method


class Library:
    """A library folder. Open with `Library.open(folder)`; close with `close()` (or use as a context manager).

    The connection may be used from any thread, one call at a time (the store's lock serializes calls).
    Raises LibraryError when the database is from a newer Margin or is not a Margin library. `folder` is the
    library folder, `created` is true when this open created the library (a first start), `writer` names this
    connection's changes in the change log.
    """

    def __init__(self, folder: Path, store: Store):
        self.folder = folder
        self.store = store
        self.writer = store.writer
        self.created = False

    # ----------------------------------------------------------------- opening
    @classmethod
    def open(cls, folder: Path | str, seed: bool = True, read_pages: bool = True) -> Library:
        """Open the library in `folder`, creating it when missing.

        A new library is seeded with the bundled corpus when `seed` is true. Labels made under an older
        db.text.labels rule are derived again. Raises LibraryError when the folder or database cannot be used
        (LibraryDamaged for a damage found at the tables' ends, or with `read_pages` on any of their pages;
        False leaves that read to the caller, db.library.damage.scan, as the window does after its first paint)."""
        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise LibraryError(f"{folder}: cannot create the library folder ({error.strerror})") from None
        store, version = Store.open(folder, read_pages)
        library = cls(folder, store)
        library.created = version == 0
        if library.created:
            store.create()
            if seed:
                from db.formats.corpus import bundled_corpus_files
                from db.formats.importer import read_file

                records: list[PaperRecord] = []
                for corpus_file in bundled_corpus_files():
                    records += read_file(corpus_file).records
                library.import_records(records)
        if not store.unwritable:  # a read-only library shows the labels it has
            library.keep_labels_current()
        return library

    @property
    def unwritable(self) -> str | None:
        """Why the library was opened read-only: "read-only" (a read-only medium, folder or file) or "disk full"
        (db.library.unwritable); None when it can be written. Every mutation then raises LibraryError with
        `refusal`, the one line to say ("…/library.db: read-only: changes can't be saved")."""
        return self.store.unwritable

    @property
    def refusal(self) -> str | None:
        return self.store.refusal

    @property
    def derived_folder(self) -> Path:
        """Where derived data (search index, recommendation and map caches) lives: the library folder, or for an
        unwritable library a folder of the user's cache (db.library.unwritable.derived_folder)."""
        if self.store.unwritable:
            from db.library.unwritable import derived_folder

            return derived_folder(self.folder)
        return self.folder

    def close(self) -> None:
        """Close the connection; the Library cannot be used afterwards (`closed` says so)."""
        self.store.close()

    @property
    def closed(self) -> bool:
        return self.store.closed

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ----------------------------------------------------------------- the store's settings
    @property
    def db(self):
        """The library as a `sqlite_utils.Database` on the same connection (hold no lock across calls)."""
        return self.store.db

    @property
    def _conn(self) -> sqlite3.Connection:
        return self.store.conn  # for tests that make the connection fail

    @property
    def write_wait_ms(self) -> int:
        """How long (ms) a write waits for another process's write before it fails as LibraryBusy."""
        return self.store.write_wait_ms

    @write_wait_ms.setter
    def write_wait_ms(self, milliseconds: int) -> None:
        self.store.write_wait_ms = milliseconds

    @property
    def waiting(self) -> Callable[[], None] | None:
        """Called (no arguments) when a write must wait for another process's write."""
        return self.store.waiting

    @waiting.setter
    def waiting(self, callback: Callable[[], None] | None) -> None:
        self.store.waiting = callback

    waiting_at_most = _on_store(Store.waiting_at_most)
    transaction = _on_store(Store.transaction)

    # ----------------------------------------------------------------- the change log
    last_change = _on_store(Store.last_change)
    changes_since = _on_store(Store.changes_since)
    data_version = _on_store(Store.data_version)

    # ----------------------------------------------------------------- papers
    count = _on_store(reading.count)
    ids = _on_store(reading.ids)
    paper = _on_store(reading.paper)
    find_id = _on_store(reading.find_id)
    papers = _on_store(reading.papers)
    annotated_ids = _on_store(reading.annotated_ids)
    read_counts = _on_store(reading.read_counts)
    read_total = _on_store(reading.read_total)
    count_by = _on_store(reading.count_by)
    paper_texts = _on_store(reading.paper_texts)

    # ----------------------------------------------------------------- annotations
    set_rating = _on_store(annotations.set_rating)
    set_read = _on_store(annotations.set_read)
    set_title = _on_store(annotations.set_title)
    set_note = _on_store(annotations.set_note)
    add_note_history = _on_store(annotations.add_note_history)
    note_history = _on_store(annotations.note_history)

    # ----------------------------------------------------------------- tags
    tags = _on_store(tagging.tag_counts)
    tagged_ids = _on_store(tagging.tagged_ids)
    add_tags = _on_store(tagging.add_tags)
    remove_tags = _on_store(tagging.remove_tags)
    set_tags = _on_store(tagging.set_tags)
    rename_tag = _on_store(tagging.rename_tag)
    delete_tag = _on_store(tagging.delete_tag)
    tag_state, restore_tags = _on_store(tag_undo.tag_state), _on_store(tag_undo.restore_tags)  # undoing the two

    # ----------------------------------------------------------------- triage bookkeeping
    add_check_sample, latest_check = _on_store(triage.add_check_sample), _on_store(triage.latest_check)
    check_papers, screened = _on_store(triage.check_papers), _on_store(triage.screened)
    check_strata, check_design = _on_store(triage.check_strata), _on_store(triage.check_design)
    first_screened, ratings = _on_store(triage.first_screened), _on_store(triage.ratings)
    read_ids, set_interest = _on_store(triage.read_ids), _on_store(triage.set_interest)
    interests, set_dismissed = _on_store(triage.interests), _on_store(triage.set_dismissed)
    dismissed, set_liked_source = _on_store(triage.dismissed), _on_store(triage.set_liked_source)
    liked_sources, liked_source_ids = _on_store(triage.liked_sources), _on_store(triage.liked_source_ids)
    highlight_lists, set_highlight_lists = _on_store(triage.highlight_lists), _on_store(triage.set_highlight_lists)
    saved_searches, save_search = _on_store(states.saved_searches), _on_store(states.save_search)
    remove_saved_search, user_state = _on_store(states.remove_saved_search), _on_store(states.state)
    restore_user_state = _on_store(states.restore_state)

    # ----------------------------------------------------------------- screening decisions
    set_decision, decision = _on_store(screening.set_decision), _on_store(screening.decision)
    restore_decisions = _on_store(screening.restore_decisions)
    decisions, prisma_counts = _on_store(screening.decisions), _on_store(screening.prisma_counts)
    exclusion_reasons = _on_store(screening.exclusion_reasons)
    set_exclusion_reasons = _on_store(screening.set_exclusion_reasons)
    add_exclusion_reason = _on_store(screening.add_exclusion_reason)
    remove_exclusion_reason = _on_store(screening.remove_exclusion_reason)
    rename_exclusion_reason, criteria = _on_store(screening.rename_exclusion_reason), _on_store(screening.criteria)
    set_criteria, screening_state = _on_store(screening.set_criteria), _on_store(screening.screening_state)
    merge_screening_state = _on_store(screening.merge_screening_state)
    restore_decision = _on_store(screening.restore_decision)

    # ----------------------------------------------------------------- importing and deleting
    import_records, relabel = _on_store(importing.import_records), _on_store(importing.relabel)
    keep_labels_current, label_rule = _on_store(importing.keep_labels_current), _on_store(importing.label_rule)
    put_salvaged_rows, delete_papers = _on_store(importing.put_salvaged_rows), _on_store(deleting.delete_papers)

    # ----------------------------------------------------------------- versions of one work
    versions, works_of = _on_store(works.versions), _on_store(works.works_of)
    work_reason, group_versions = _on_store(works.work_reasons), _on_store(works.group)
    split_version, undelete_papers = _on_store(works.split), _on_store(deleting.undelete_papers)
    deleted_items = _on_store(deleting.deleted_items)

    # ----------------------------------------------------------------- sync bookkeeping (db.sync)
    def write_as(self, writer: str) -> None:
        """Name this connection's changes `writer` in the change log (a sync's connection: syncing.SYNC_WRITER)."""
        self.store.writer = self.writer = writer

    @functools.cached_property
    def sync_book(self) -> syncing.SyncBook:
        """This library's sync bookkeeping (db.library.syncing.SyncBook: device, clocks, outbox, conflicts)."""
        return syncing.SyncBook(self.store)

    @functools.cached_property
    def project_book(self) -> shared_projects.ProjectBook:
        """The shared projects joined here (db.library.shared_projects.ProjectBook: decisions, conflicts, crowd)."""
        return shared_projects.ProjectBook(self.store)

    def rows(self, sql: str, params=()) -> list[tuple]:
        """Run a read-only SQL query and return its rows as tuples: for tests and benchmarks only (product code
        outside db.library uses the named reads above; inside it, the store's)."""
        return self.store.read(sql, params)
