"""What every command group needs: the library folder and opening it, searching it, bringing its index up to date
after a write, and writing to standard output. No command lives here; db.cli.commands dispatches to the groups
(papers, export, triage, library_commands), which import from here and never from each other.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from db.errors import InputError, MarginError
from db.library.library import DB_NAME, Library
from db.system.paths import resolve_library_dir
from db.text.counts import counted


def library_dir(args: argparse.Namespace) -> Path:
    """The library folder of a parsed command line: `--library DIR`, else $MARGIN_LIBRARY, else the default."""
    return resolve_library_dir(getattr(args, "library", None))


def no_library_here(args: argparse.Namespace) -> str | None:
    """Why the command line's library folder may not be used, or None when it may: a folder named by `--library`
    or $MARGIN_LIBRARY that holds no library.db is a typo until shown otherwise, so every command but `import`
    (and the window's File → New library) refuses it, creating nothing. Only the default folder
    (platformdirs) is made, and seeded, on first use."""
    folder = library_dir(args)
    if (folder / DB_NAME).exists() or folder == resolve_library_dir(None) and not _chosen(args):
        return None
    return (f"{folder}: no Margin library here (no {DB_NAME}); to make one, import papers into it "
            f"(`margin import FILE... --library {folder}`) or use File → New library… in the window")


def _chosen(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "library", None) or os.environ.get("MARGIN_LIBRARY"))


def open_library(args: argparse.Namespace, seed: bool = True) -> Library:
    """The command's library, opened (created and, with `seed`, seeded when it is the default folder and new);
    says on stderr while it waits for another Margin process that is writing. Raises MarginError (exit 1) for
    a folder chosen with --library or $MARGIN_LIBRARY that holds no library (no_library_here)."""
    refusal = no_library_here(args)
    if refusal:
        raise MarginError(refusal)
    return told_when_waiting(Library.open(library_dir(args), seed=seed))


def read_text_file(path: str, what: str) -> str:
    """The UTF-8 text of the file `path` given on the command line. Raises InputError naming the file ("cannot
    read the `what` (reason)") when it cannot be read or is not UTF-8."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(path, f"cannot read the {what} ({error})") from None


def find_paper(library: Library, given: str, nothing_done: str = "") -> str:
    """The id of the one paper whose id is `given` or starts with it (db.library.reading.find_id). Raises
    MarginError (one line, `nothing_done` appended, e.g. "; nothing was changed") when no single paper has it."""
    try:
        return library.find_id(given)
    except KeyError:
        raise MarginError(f"no single paper has the id '{given}' (see: margin list){nothing_done}") from None


def told_when_waiting(library: Library) -> Library:
    """`library`, set to say on stderr (one line) when it waits for another process's write to finish."""
    library.waiting = lambda: print("margin: waiting for another Margin process to finish writing to the library",
                                    file=sys.stderr, flush=True)
    return library


# `is:recommended`, `similar:ID` and `similar-tag:"NAME"` (db/recommend/recommender.py); the rest of the query,
# if any, filters
def search(library: Library, text: str, why: dict[str, list[str]] | None = None,
           interest: dict[str, str] | None = None) -> list[str]:
    """Ids of the papers matching `text`, best first (db.query). For a recommendation query, `why` (when
    given) gets each paper's shared terms. The search's hint, when the query could not be used as typed
    ("unclosed quote: searched its words"), goes to stderr as one `margin: …` line; it is not an error."""
    from db.query import run_query

    if not text.strip():
        return library.ids()
    result = run_query(library, text, index(library))
    if result.hint:
        print(f"margin: {' '.join(result.hint.split())}", file=sys.stderr)
    if why is not None:
        why.update(result.why)
    if interest is not None:
        interest.update(result.interest)
    return result.ids


def after_write(library: Library) -> None:
    """Bring the search index up to date after a command changed the library. The change is saved whatever
    happens here: an index that cannot be written now (another process holds its lock, the wrong whoosh) is
    said on stderr and catches up the next time Margin searches (exit code 0)."""
    try:
        index(library, searching=False)
    except MarginError as error:
        print(f"margin: the change was saved; the search index will catch up later ({error})", file=sys.stderr)


def index(library: Library, searching: bool = True):
    """The library's search index, current (db.search.index); says on stderr when it has to be rebuilt or
    must wait for another Margin process that is writing it. When that process keeps the index's lock past
    the wait, a search reads the index as it stands (said on stderr); else (or when it cannot be read) raises
    IndexBusy."""
    from db.errors import IndexBusy
    from db.search import SearchIndex

    index = SearchIndex.for_library(library)
    index.waiting = lambda: print("margin: waiting for another Margin process to finish updating the search "
                                  "index", file=sys.stderr, flush=True)
    # a library whose index was never built (a new one) is indexed without a word
    told = [not index.ever_built()]

    def progress(done: int, total: int) -> None:
        if not told[0]:
            print(f"margin: rebuilding the search index ({counted(total, 'paper')})", file=sys.stderr, flush=True)
        told[0] = True

    try:
        index.open(library, progress)
    except IndexBusy as error:
        if not searching or index.needs_rebuild():
            raise
        print(f"margin: searched the index as it stands ({error})", file=sys.stderr)
    return index


def write_stdout(text: str) -> None:
    """Write UTF-8 bytes whatever the console's encoding, and no newline translation (CSV keeps CRLF)."""
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    stream.write(text.encode("utf-8"))
    stream.flush()
