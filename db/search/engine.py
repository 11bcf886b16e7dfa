"""The whoosh-reloaded this package was written against, and the internal names it relies on.

db/search/writer.py writes segments through whoosh's segment writer internals, db/search/postings.py reads
posting blocks and memory-maps segment files, db/search/folder.py uses its file lock: none of that is public
API, so the dependency is pinned exactly (pyproject.toml) and `check_whoosh()` refuses any other version with
a message that says what to do, rather than writing an index another version cannot read.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

from db.errors import MarginError

WHOOSH_VERSION = "2.7.5"  # whoosh-reloaded, as pinned in pyproject.toml

# (module, attribute path) of every non-public whoosh name this package uses
INTERNALS = (
    ("whoosh.codec.whoosh3", "W3Codec"),
    ("whoosh.codec.whoosh3", "length_to_byte"),
    ("whoosh.codec.whoosh3", "W3LeafMatcher._read_data"),
    ("whoosh.codec.whoosh3", "W3LeafMatcher._read_weights"),
    ("whoosh.codec.whoosh3", "W3LeafMatcher._read_values"),
    ("whoosh.codec.whoosh3", "W3LeafMatcher._next_block"),
    ("whoosh.codec.whoosh3", "W3LeafMatcher._goto"),
    ("whoosh.codec.whoosh3", "W3PostingsWriter._write_block"),
    ("whoosh.writing", "SegmentWriter._merge_segments"),
    ("whoosh.writing", "SegmentWriter._close_segment"),
    ("whoosh.writing", "SegmentWriter._commit_toc"),
    ("whoosh.writing", "SegmentWriter._finish"),
    ("whoosh.writing", "SegmentWriter._assemble_segment"),
    ("whoosh.writing", "NO_MERGE"),
    ("whoosh.filedb.filestore", "FileStorage._fpath"),
    ("whoosh.filedb.structfile", "StructFile"),
    ("whoosh.formats", "Positions"),
    ("whoosh.query", "Wildcard._btexts"),
    ("whoosh.system", "pack_uint"),
    ("whoosh.util.filelock", "FileLock"),
    ("whoosh.util.numeric", "byte_to_length"),
)


def installed_version() -> str | None:
    try:
        return version("whoosh-reloaded")
    except PackageNotFoundError:
        return None


def missing_internals() -> list[str]:
    """The names of INTERNALS that the installed whoosh does not have ("module:Class.attr")."""
    missing = []
    for module_name, path in INTERNALS:
        try:
            target = import_module(module_name)
            for name in path.split("."):
                target = getattr(target, name)
        except (ImportError, AttributeError):
            missing.append(f"{module_name}:{path}")
    return missing


_CHECKED: list[bool] = []


def check_whoosh() -> None:
    """Raise MarginError unless the installed whoosh-reloaded is WHOOSH_VERSION with every name of INTERNALS
    (checked once per process)."""
    if _CHECKED:
        return
    found = installed_version()
    if found != WHOOSH_VERSION:
        raise MarginError(f"Margin's search index needs whoosh-reloaded {WHOOSH_VERSION} exactly, but "
                          f"{found or 'none'} is installed: run `pip install whoosh-reloaded=={WHOOSH_VERSION}` "
                          f"(db/search/ uses its internals; see db/search/engine.py)")
    missing = missing_internals()
    if missing:
        raise MarginError(f"whoosh-reloaded {found} lacks what Margin's search index uses: {', '.join(missing)}")
    _CHECKED.append(True)
