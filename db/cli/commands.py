"""The headless commands of `main.py` (ARCHITECTURE.md, "Command line").

Exit codes: 0 ok; 1 bad input or data (one line on stderr, naming the file and line where there is one;
nothing changed); 2 usage (argparse).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from pathlib import Path

from db.cli.library_commands import COMMANDS as LIBRARY_COMMANDS
from db.cli.library_commands import add_parsers as add_library_parsers
from db.errors import InputError, MarginError
from db.exporters.registry import BINARY_FORMATS, DESCRIPTIONS, FOLDER_FORMATS, FORMATS, export, write_export
from db.library.integrity import damaged, is_damage
from db.library.library import DB_NAME, Library
from db.system.paths import resolve_library_dir
from db.text.cleaning import clean_tag, clean_title
from db.text.render import stars


def build_parser() -> argparse.ArgumentParser:
    """The parser for `margin [--library DIR] [COMMAND …]`; no command means: open the window."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--library", metavar="DIR", default=argparse.SUPPRESS, type=_library_option,
                        help="the library folder (default: $MARGIN_LIBRARY or the user data folder)")
    parser = argparse.ArgumentParser(
        prog="margin", parents=[common],
        description="Read, triage and annotate research-paper abstracts. Without a command, opens the window.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = commands.add_parser("import", parents=[common], help="add or update papers from files")
    p.add_argument("files", nargs="+", metavar="FILE")

    p = commands.add_parser(
        "list", parents=[common], help="papers matching a query (all when omitted)",
        epilog="A query starting with '-' (an excluded word) needs '--' before it, or argparse takes it for an "
               "option: margin list -- -reasoning. A query the search cannot use as typed is searched as plain "
               "words, with a hint on standard error.")
    p.add_argument("query", nargs="?", default="", metavar="QUERY",
                   help="the search (README, Searching); '--' before one that starts with '-'")
    p.add_argument("--json", action="store_true", help="print one JSON array")

    p = commands.add_parser("annotate", parents=[common], help="tag, rate, note, title or mark a paper")
    p.add_argument("id", metavar="ID", help="a paper id (or a unique prefix of at least 4 digits)")
    p.add_argument("--tag", action="append", default=[], metavar="T", help="add a tag (repeatable)")
    p.add_argument("--untag", action="append", default=[], metavar="T", help="remove a tag (repeatable)")
    p.add_argument("--rating", type=int, choices=range(0, 6), metavar="N", help="1..5; 0 clears the rating")
    notes = p.add_mutually_exclusive_group()
    notes.add_argument("--note", metavar="TEXT", help="replace the note with TEXT (Markdown)")
    notes.add_argument("--note-file", metavar="F", help="replace the note with the contents of file F")
    p.add_argument("--title", metavar="TEXT", help='set a title, at most 1,000 characters ("" clears it)')
    p.add_argument("--dismiss", action="append", default=[], metavar="T",
                   help="dismiss the paper from the suggestions for tag T (kept; the tag's model learns from it)")
    read = p.add_mutually_exclusive_group()
    read.add_argument("--read", dest="read", action="store_const", const=True)
    read.add_argument("--unread", dest="read", action="store_const", const=False)

    p = commands.add_parser(
        "progress", parents=[common], help="triage progress of a view and the liked papers likely still unseen",
        epilog="A paper is screened when it is read or rated, liked when it is rated 4 or 5. The estimate of "
               "what is left comes from a random check: --check draws 20 random unseen papers to rate "
               "(margin list 'is:check QUERY' lists them).")
    p.add_argument("query", nargs="?", default="", metavar="QUERY",
                   help='the view, e.g. \'venue:"ICLR 2018"\' (default: the whole library)')
    p.add_argument("--check", nargs="?", type=int, const=20, default=None, metavar="N",
                   help="draw N (default 20) random unseen papers into the view's check, then report")
    p.add_argument("--interest", metavar="TAG", help="progress of one interest: liked = carrying the tag")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = commands.add_parser("interest", parents=[common], help="list the interests, or make tags interests",
                            epilog="Each interest is a tag; margin list is:interests serves the papers of all "
                                   "interests in one queue.")
    p.add_argument("tags", nargs="*", metavar="TAG", help="tags to make interests (none: list the interests)")
    p.add_argument("--off", action="store_true", help="make the tags interests no longer")

    p = commands.add_parser("like", parents=[common], help='mark a venue or imported file as "papers I like"',
                            epilog="Their papers count as liked for is:recommended from the first screen on "
                                   "(your own papers, a Zotero export, last year's favourites), and are never "
                                   "recommended themselves. Without options: list the marks.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--venue", metavar="V", help='a venue, e.g. "ICLR 2017"')
    which.add_argument("--source", metavar="FILE", help="an imported file, by its name (e.g. my-papers.bib)")
    p.add_argument("--off", action="store_true", help="take the mark back")

    p = commands.add_parser("highlight", parents=[common], help="show or change the highlight word lists",
                            epilog="Include words are marked green in the reader, exclude words red. An entry is "
                                   "a word or phrase; a trailing * matches any ending (reinforc*).")
    p.add_argument("--include", action="append", default=[], metavar="W", help="add an include word (repeatable)")
    p.add_argument("--exclude", action="append", default=[], metavar="W", help="add an exclude word (repeatable)")
    p.add_argument("--remove", action="append", default=[], metavar="W", help="remove a word from both lists")
    p.add_argument("--clear", action="store_true", help="empty both lists first")

    p = commands.add_parser("export", parents=[common], help="write papers and notes in another format")
    p.add_argument("--format", required=True, choices=FORMATS, metavar="FORMAT",
                   help="; ".join(f"{name}: {text}" for name, text in DESCRIPTIONS.items()))
    which = p.add_mutually_exclusive_group()
    which.add_argument("--query", default=None, metavar="QUERY",
                       help="export the papers matching QUERY (default: every annotated paper); a QUERY "
                            "starting with '-' is given as --query=-word")
    which.add_argument("--all", action="store_true", help="export every paper (default: every annotated paper)")
    p.add_argument("--output", metavar="FILE",
                   help="write to FILE (default: standard output); for markdown-folder, the folder DIR (required)")
    p.add_argument("--no-abstract", dest="abstract", action="store_false",
                   help="leave the abstracts out of markdown and markdown-folder")

    p = commands.add_parser("map", parents=[common], help="draw the conference map as a PNG image",
                            epilog="One dot per paper, placed by text similarity, regions named by their terms; "
                                   "with QUERY its papers (the set margin list QUERY prints) are lit, the "
                                   "others faint. The map is cached in the library folder (map/).")
    p.add_argument("query", nargs="?", default="", metavar="QUERY", help="the papers to light up (default: all)")
    p.add_argument("--output", required=True, metavar="FILE", help="the PNG file to write")
    p.add_argument("--colour", default="rating", metavar="BY",
                   help="colour by rating (default), read, or tag:NAME")
    p.add_argument("--json", action="store_true", help="print the lit papers and the regions as one JSON object")

    p = commands.add_parser("check", parents=[common],
                            help="check the library database page by page (SQLite's integrity check)")

    p = commands.add_parser(
        "restore", parents=[common], help="rebuild a damaged library, or put a backup's annotations back",
        epilog="On a damaged library: reads what is still readable of library.db, moves the damaged file to "
               "backups/, and restores the backup into a new library.db. On a sound library: restores the "
               "backup's annotations (newer edits in the library win), as importing it does.")
    p.add_argument("backup", nargs="?", metavar="BACKUP",
                   help="a Margin JSON backup or export (default: the newest file in the library's backups/)")
    add_library_parsers(commands, common)  # delete, install-desktop (db.cli.library_commands)
    from db.cli.show import add_parsers

    add_parsers(commands, common)  # show ID, tags
    return parser


def _library_option(value: str) -> str:
    """--library DIR: an empty DIR (`--library ""`, an unset shell variable) is a usage error, not the default."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty folder name; give the library folder, or leave --library out "
                                         "for the default")
    return value


def library_dir(args: argparse.Namespace) -> Path:
    return resolve_library_dir(getattr(args, "library", None))


def run_command(args: argparse.Namespace) -> int:
    """Run a parsed headless command. Returns the exit code; prints errors as one line on stderr."""
    for stream in (sys.stdout, sys.stderr):  # a console that cannot show a title's characters (LANG=C)
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return _COMMANDS[args.command](args)
    except MarginError as error:
        print(f"margin: {error}", file=sys.stderr)
        return 1
    except sqlite3.DatabaseError as error:  # damage found past the checks on opening (a page read later)
        if not is_damage(error):
            raise
        print(f"margin: {damaged(library_dir(args), error)}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `margin list | head`: the reader went away; not an error
        sys.stdout = open(os.devnull, "w")
        return 0
    except KeyboardInterrupt:
        print("margin: interrupted; nothing was changed by the unfinished step", file=sys.stderr)
        return 1


def _open(args: argparse.Namespace, seed: bool = True) -> Library:
    return _told_when_waiting(Library.open(library_dir(args), seed=seed))


def _told_when_waiting(library: Library) -> Library:
    library.waiting = lambda: print("margin: waiting for another Margin process to finish writing to the library",
                                    file=sys.stderr, flush=True)
    return library


# `is:recommended`, `similar:ID` and `similar-tag:"NAME"` (db/recommend/recommender.py); the rest of the query,
# if any, filters
def _search(library: Library, text: str, why: dict[str, list[str]] | None = None,
            interest: dict[str, str] | None = None) -> list[str]:
    """Ids of the papers matching `text`, best first (db.query). For a recommendation query, `why` (when
    given) gets each paper's shared terms. The search's hint, when the query could not be used as typed
    ("unclosed quote: searched its words"), goes to stderr as one `margin: …` line; it is not an error."""
    from db.query import run_query

    if not text.strip():
        return library.ids()
    result = run_query(library, text, _index(library))
    if result.hint:
        print(f"margin: {' '.join(result.hint.split())}", file=sys.stderr)
    if why is not None:
        why.update(result.why)
    if interest is not None:
        interest.update(result.interest)
    return result.ids


def _after_write(library: Library) -> None:
    """Bring the search index up to date after a command changed the library. The change is saved whatever
    happens here: an index that cannot be written now (another process holds its lock, the wrong whoosh) is
    said on stderr and catches up the next time Margin searches (exit code 0)."""
    try:
        _index(library, searching=False)
    except MarginError as error:
        print(f"margin: the change was saved; the search index will catch up later ({error})", file=sys.stderr)


def _index(library: Library, searching: bool = True):
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
            print(f"margin: rebuilding the search index ({total:,} papers)", file=sys.stderr, flush=True)
        told[0] = True

    try:
        index.open(library, progress)
    except IndexBusy as error:
        if not searching or index.needs_rebuild():
            raise
        print(f"margin: searched the index as it stands ({error})", file=sys.stderr)
    return index


def cmd_import(args: argparse.Namespace) -> int:
    from db.import_job import import_paths, read_inputs

    folder = library_dir(args)
    inputs = read_inputs(args.files)  # raises InputError before anything changes (or a new library is made)
    for note in inputs.notes:
        print(note, file=sys.stderr)
    existed = (folder / DB_NAME).exists()
    with _told_when_waiting(Library.open(folder, seed=existed)) as library:
        report = import_paths(library, inputs, progress=_progress_printer(), index=_after_write)
    print(report.summary())
    for line, reason in report.skipped:
        print(f"  skipped: {_where(reason, line)}", file=sys.stderr)
    return 0


def _where(reason: str, line: int | None) -> str:
    """`file:line: reason` from a reason that starts `file: …` (as cmd_import builds them)."""
    path, sep, rest = reason.partition(": ")
    return f"{path}:{line}: {rest}" if line and sep else reason


def _progress_printer():
    if not sys.stderr.isatty():
        return None

    def progress(done: int, total: int) -> None:
        print(f"\rimporting {done:,} of {total:,} papers", end="\n" if done == total else "", file=sys.stderr)

    return progress


def cmd_list(args: argparse.Namespace) -> int:
    why: dict[str, list[str]] = {}
    interest: dict[str, str] = {}
    with _open(args) as library:
        papers = library.papers(_search(library, args.query, why, interest))
    if args.json:
        _write_stdout(json.dumps([paper.to_json() | ({"why": why[paper.id]} if paper.id in why else {})
                                  | ({"interest": interest[paper.id]} if paper.id in interest else {})
                                  for paper in papers], ensure_ascii=False, indent=1) + "\n")  # UTF-8 always
    else:
        for paper in papers:
            flags = stars(paper.rating) or "     "
            tags = f"  [{', '.join(paper.tags)}]" if paper.tags else ""
            came_for = f"  (for {interest[paper.id]})" if paper.id in interest else ""
            print(f"{paper.id}  {flags}  {paper.label}{tags}{came_for}")
    return 0


def cmd_annotate(args: argparse.Namespace) -> int:
    note = args.note
    if args.note_file is not None:
        try:
            note = Path(args.note_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(args.note_file, f"cannot read the note ({error})") from None
    try:  # every value is checked before the first change, so a bad one changes nothing
        for tag in args.tag + args.dismiss:
            clean_tag(tag)
        clean_title(args.title)
    except ValueError as error:
        raise MarginError(str(error)) from None
    with _open(args) as library:
        try:
            paper_id = library.find_id(args.id)
        except KeyError:
            raise MarginError(f"no single paper has the id '{args.id}' (see: margin list)") from None
        with library.transaction():  # all of the change or none of it (a full disk saves nothing)
            if args.tag:
                library.add_tags(paper_id, args.tag)
            if args.untag:
                library.remove_tags(paper_id, args.untag)
            for tag in args.dismiss:
                library.set_dismissed(paper_id, tag)
            if args.rating is not None:
                library.set_rating(paper_id, args.rating)
            if note is not None:
                library.set_note(paper_id, note)
            if args.title is not None:
                library.set_title(paper_id, args.title)
            if args.read is not None:
                library.set_read(paper_id, args.read)
            elif args.tag or args.rating:  # rating or tagging a paper counts as reading it, as in the window
                library.set_read(paper_id, True)
        _backup_if_due(library)
        _after_write(library)
        paper = library.paper(paper_id)
    print(f"{paper.id}  {stars(paper.rating) or 'unrated'}  {paper.label}")
    return 0


def _backup_if_due(library: Library) -> None:
    """The daily annotation backup the window also writes (db.library.backup), so a library used from the command
    line alone has one to restore; a backup that cannot be written is said on stderr, the change stays."""
    from db.library.backup import backup_if_due

    try:
        backup_if_due(library)
    except MarginError as error:
        print(f"margin: the change was saved, but no backup could be written ({error})", file=sys.stderr)


def cmd_check(args: argparse.Namespace) -> int:
    from db.library.integrity import check

    folder = library_dir(args)
    problems = check(folder)
    if not problems:
        print(f"{folder / DB_NAME}: ok (every page checked)")
        return 0
    for problem in problems[1:10]:  # SQLite's further findings, as data; the one-line error is the first
        print(problem)
    print(f"margin: {damaged(folder, problems[0])}", file=sys.stderr)
    return 1


def cmd_restore(args: argparse.Namespace) -> int:
    from db.library.backup import latest_backup, read_backup, restore
    from db.library.integrity import check, rebuild

    folder = library_dir(args)
    backup = Path(args.backup) if args.backup else None
    if backup is not None:
        read_backup(backup)  # a file that is not a Margin JSON document stops here, nothing changed
    if (folder / DB_NAME).exists() and check(folder):
        report = rebuild(folder, backup)
        print(report.summary())
        with _open(args, seed=False) as library:
            _after_write(library)
        return 0
    with _open(args) as library:
        backup = backup or latest_backup(library)
        if backup is None:
            raise MarginError(f"{folder}: the library is sound and has no backup to restore; name a backup or "
                              f"a Margin JSON export")
        print(f"{backup.name}: {restore(library, read_backup(backup), path=backup).summary()}")
        _after_write(library)
    return 0


def cmd_progress(args: argparse.Namespace) -> int:
    from db.triage.progress import draw_check, progress, scope_of

    scope = scope_of(args.query)
    if args.check is not None and args.check < 1:
        raise MarginError("--check N: N is the number of papers to draw, at least 1")
    with _open(args) as library:
        ids = _search(library, scope)
        if args.check:
            draw_check(library, scope, ids, args.check)
        result = progress(library, ids, scope, args.interest)
    if args.json:
        json.dump(result.to_json(), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return 0
    for line in progress_lines(result, args.interest):
        print(line)
    return 0


def cmd_map(args: argparse.Namespace) -> int:
    from db.map.conference_map import COARSE, MapCache, colours, render_png

    by, _sep, tag = args.colour.partition(":")
    if by not in ("rating", "read", "tag") or (by == "tag") != bool(tag.strip()):
        raise MarginError(f"--colour {args.colour}: rating, read or tag:NAME")
    output = Path(args.output)
    if output.is_dir():
        raise MarginError(f"{output}: is a folder; give the PNG file to write")
    with _open(args) as library:
        lit = _search(library, args.query) if args.query.strip() else None
        conference_map, _report = MapCache(library.folder).refresh(
            library, progress=lambda text: print(f"margin: {text}", file=sys.stderr, flush=True))
        rgb = colours(library, conference_map.ids, by, tag.strip() or None)
    title = f"{len(conference_map.ids):,} papers" + (f" · {len(lit):,} matching {args.query}" if lit is not None
                                                      else "")
    try:
        render_png(conference_map, rgb, output, lit, title=title)
    except OSError as error:
        raise MarginError(f"{output}: cannot write the image ({error.strerror or error})") from None
    regions = conference_map.regions_at(COARSE)
    if args.json:
        _write_stdout(json.dumps({"output": str(output), "papers": len(conference_map.ids),
                                  "lit": lit if lit is not None else conference_map.ids,
                                  "regions": [{"terms": r.terms, "papers": r.papers} for r in regions]},
                                 ensure_ascii=False, indent=1) + "\n")
    else:
        lit_text = f", {len(lit):,} lit" if lit is not None else ""
        print(f"{output}: {len(conference_map.ids):,} papers{lit_text}, {len(regions)} regions")
    return 0


def progress_lines(result, interest: str | None = None) -> list[str]:
    """The figures of a db.triage.progress.Progress as the `progress` command prints them."""
    share = f" ({result.screened / result.total:.0%})" if result.total else ""
    liked = f"in '{interest}'" if interest else "(4–5 stars)"
    lines = [f"view: {result.scope or 'all papers'}",
             f"screened {result.screened:,} of {result.total:,} papers{share}; liked {liked} {result.found:,}"]
    estimate = result.estimate
    if estimate is not None:
        lines.append(f"liked papers still unseen: about {estimate.remaining:,} ({estimate.low:,}–{estimate.high:,}, "
                     f"{estimate.level:.0%} interval), from a random check of {estimate.rated} rated papers "
                     f"({estimate.liked} liked) of {estimate.population:,} unseen when it was drawn")
        if estimate.not_covered:
            lines.append(f"not covered: {estimate.not_covered:,} unseen papers added to the view after the check")
    if result.check_to_rate:
        query = f"is:check {result.scope}".strip()
        lines.append(f"random check: {len(result.check_to_rate)} papers to rate (margin list '{query}')")
    if result.screened and result.unseen:
        lines.append(f"the next {result.next_size} recommended are likely to hold at most {result.next_high} liked "
                     f"papers (from the rate of the last {min(result.screened, 100)} screened)")
    lines.append(f"knee method: {'stop' if result.knee_stop else 'go on'}")
    lines.append(result.suggestion)
    return lines


def cmd_interest(args: argparse.Namespace) -> int:
    try:
        for tag in args.tags:
            clean_tag(tag)
    except ValueError as error:
        raise MarginError(str(error)) from None
    with _open(args) as library:
        for tag in args.tags:
            library.set_interest(tag, not args.off)
        names = library.interests()
        counts = dict(library.tags())
    for name in names:
        print(f"{name}  ({counts.get(name, 0)} papers)")
    return 0


def cmd_like(args: argparse.Namespace) -> int:
    with _open(args) as library:
        if args.venue is not None or args.source is not None:
            kind, value = ("venue", args.venue) if args.venue is not None else ("source", Path(args.source).name)
            try:
                library.set_liked_source(kind, value, not args.off)
            except KeyError:
                raise MarginError(f"no paper has the {kind} '{value}' (see: margin list --json)") from None
        marks = library.liked_sources()
        counts = {(kind, value): library.rows(f"SELECT COUNT(*) FROM papers WHERE {kind} = ?", (value,))[0][0]
                  for kind, value in marks}
    for kind, value in marks:
        print(f"{kind}: {value}  ({counts[(kind, value)]} papers)")
    return 0


def cmd_highlight(args: argparse.Namespace) -> int:
    with _open(args) as library:
        lists = library.highlight_lists()
        include = [] if args.clear else list(lists.include)
        exclude = [] if args.clear else list(lists.exclude)
        removed = {" ".join(word.split()).casefold() for word in args.remove}
        include = [word for word in include + args.include if word.casefold() not in removed]
        exclude = [word for word in exclude + args.exclude if word.casefold() not in removed]
        if args.include or args.exclude or args.remove or args.clear:
            try:
                library.set_highlight_lists(include, exclude)
            except ValueError as error:
                raise MarginError(str(error)) from None
        lists = library.highlight_lists()
    print("include: " + ", ".join(lists.include))
    print("exclude: " + ", ".join(lists.exclude))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    folder_format = args.format in FOLDER_FORMATS
    if folder_format and not args.output:
        raise MarginError(f"export --format {args.format} writes one file per paper: give the folder with --output DIR")
    if args.format in BINARY_FORMATS and not args.output:
        raise MarginError(f"export --format {args.format} writes a binary file: give it with --output FILE")
    if not folder_format and args.output and Path(args.output).is_dir():
        raise MarginError(f"{args.output}: is a folder; give a file name (or use --format markdown-folder)")
    with _open(args) as library:
        if args.all:
            ids = library.ids()
        elif args.query is None:
            ids = library.annotated_ids()
        else:
            ids = _search(library, args.query)
        papers = library.papers(ids)
        text = None
        if not folder_format and args.format not in BINARY_FORMATS:
            text = export(papers, args.format, history=library.note_history, include_abstract=args.abstract)
    if not args.output:
        _write_stdout(text)
        return 0
    count = write_export(papers, args.format, Path(args.output), history=library.note_history,
                         include_abstract=args.abstract, text=text)
    print(f"exported {count:,} {'paper' if count == 1 else 'papers'} to {args.output}", file=sys.stderr)
    return 0


def _write_stdout(text: str) -> None:
    """Write UTF-8 bytes whatever the console's encoding, and no newline translation (CSV keeps CRLF)."""
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    stream.write(text.encode("utf-8"))
    stream.flush()


_COMMANDS = {"import": cmd_import, "list": cmd_list, "annotate": cmd_annotate, "export": cmd_export,
             "check": cmd_check, "restore": cmd_restore, "progress": cmd_progress, "interest": cmd_interest,
             "highlight": cmd_highlight, "like": cmd_like, "show": lambda args: _with_library(args, "cmd_show"),
             "tags": lambda args: _with_library(args, "cmd_tags"), "map": cmd_map, **LIBRARY_COMMANDS}


def _with_library(args: argparse.Namespace, name: str) -> int:
    import db.cli.show

    with _open(args) as library:
        return getattr(db.cli.show, name)(args, library, _write_stdout)
