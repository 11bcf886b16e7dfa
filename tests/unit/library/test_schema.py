"""db.library.schema is the one place for schema text (issue 33): a new library made from it is the same on disk
as before the move, and its salvage list names every table and column a rebuild must copy or knowingly drops."""

import hashlib

from db.library.library import SCHEMA_VERSION, Library
from db.library.schema import NOT_SALVAGED, SALVAGE_COLUMNS, SALVAGE_FITS

# sha256 of a new library's sqlite_master (type, name, tbl_name, sql; by type and name) at schema 8, taken from
# the code before the schema moved into db.library.schema: the on-disk format must not change without a migration;
# at schema 12 (issue 26, sync bookkeeping) change_log's `at` column changed it (bf07bf25…a43e before), and at 13
# (issue 29: a check's design and each of its papers' stratum, added by ALTER TABLE as the migration adds them, so
# a new library and a migrated one store the same CREATE text) the check tables' columns
_SCHEMA_8 = "7ce40959064cba9a05687845e15829303b8e85d9d62d08c8453754ab7114bdff"
# the tables later versions added, by table name with their indexes (a new library has them; the hash covers the rest)
_LATER = {"decisions", "exclusion_reasons", "screening_settings",  # 8 → 9 (issue 29)
          "works", "work_splits",  # 9 → 10 (issue 30, versions of one work)
          "saved_searches",  # 10 → 11 (issue 31)
          "sync_state", "sync_fields", "sync_outbox", "sync_conflicts", "tag_renames",  # 11 → 12 (issue 26)
          "projects", "project_papers", "project_decisions", "project_resolutions",  # 13 → 14 (issue 27)
          "project_annotations"}  # 14 → 15 (issue 27: shared tags and notes)


def _master(library: Library) -> list[tuple]:
    return library.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")



def test_a_new_library_is_the_same_on_disk_as_before_the_move(tmp_path):
    with Library.open(tmp_path / "new", seed=False) as library:
        assert library.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)]
        text = "\n".join(repr(row) for row in _master(library) if row[2] not in _LATER)
    assert hashlib.sha256(text.encode()).hexdigest() == _SCHEMA_8


def test_the_salvage_list_covers_every_table_and_every_column_of_a_new_library(tmp_path):
    with Library.open(tmp_path / "new", seed=False) as library:
        tables = {name for kind, name, _table, _sql in _master(library) if kind == "table"}
        assert tables == set(SALVAGE_COLUMNS) | set(NOT_SALVAGED)
        assert not set(SALVAGE_COLUMNS) & set(NOT_SALVAGED)
        for table, columns in SALVAGE_COLUMNS.items():
            stored = [row[1] for row in library.rows(f"PRAGMA table_info({table})")]
            assert set(columns) == set(stored), table
    assert set(SALVAGE_FITS) <= set(SALVAGE_COLUMNS)
