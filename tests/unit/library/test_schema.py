"""db.library.schema is the one place for schema text (issue 33): a new library made from it is the same on disk
as before the move, and its salvage list names every table and column a rebuild must copy or knowingly drops."""

import hashlib

from db.library.library import SCHEMA_VERSION, Library
from db.library.schema import NOT_SALVAGED, SALVAGE_COLUMNS, SALVAGE_FITS

# sha256 of a new library's sqlite_master (type, name, tbl_name, sql; by type and name) at schema 8, taken from
# the code before the schema moved into db.library.schema: the on-disk format must not change without a migration
_SCHEMA_8 = "bf07bf2586ee957a29340726258b2c0adcc771eceaa4d059f35dbcb98300a43e"
# … and at schema 9 (issue 29: a check's design and each of its papers' stratum, added by ALTER TABLE as the
# migration adds them, so a new library and a migrated one store the same CREATE text)
_SCHEMA_9 = "98dbbe5fbe0e5c528fc7c30eb57a1ccc8b75b161a986acf8e52d645c58cb3f26"


def _master(library: Library) -> list[tuple]:
    return library.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")


def test_a_new_library_is_the_same_on_disk_as_before_the_move(tmp_path):
    with Library.open(tmp_path / "new", seed=False) as library:
        assert library.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)]
        text = "\n".join(repr(row) for row in _master(library))
    assert hashlib.sha256(text.encode()).hexdigest() == _SCHEMA_9


def test_the_salvage_list_covers_every_table_and_every_column_of_a_new_library(tmp_path):
    with Library.open(tmp_path / "new", seed=False) as library:
        tables = {name for kind, name, _table, _sql in _master(library) if kind == "table"}
        assert tables == set(SALVAGE_COLUMNS) | set(NOT_SALVAGED)
        assert not set(SALVAGE_COLUMNS) & set(NOT_SALVAGED)
        for table, columns in SALVAGE_COLUMNS.items():
            stored = [row[1] for row in library.rows(f"PRAGMA table_info({table})")]
            assert set(columns) == set(stored), table
    assert set(SALVAGE_FITS) <= set(SALVAGE_COLUMNS)
