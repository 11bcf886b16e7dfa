"""QSettings keys kept per library: the last search, the current paper, the map dock, the splitters, columns and
sort (issue 31: a library never opens on another's query, nor computes a map because another library showed one)."""

from __future__ import annotations

from pathlib import Path


def library_key(folder: Path | str, name: str) -> str:
    """The QSettings key of `name` (e.g. "search/lastQuery") for the library in `folder`."""
    return "libraries/" + str(Path(folder).resolve()).replace("/", "|") + "/" + name
