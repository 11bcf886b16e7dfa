"""The commands that get papers from the web: `fetch SOURCE TARGET` (a venue, a volume, an arXiv category or
search) and `add --doi/--arxiv/--openreview/--title` (one paper) (README, "Getting papers").

Everything is fetched before the library is opened: offline, a refused request or a malformed answer is one line
on stderr naming the source and the reason, exit 1, and the library is unchanged. The records then go through
the one import pipeline (db.fetch.job.import_fetched), which prints the import's summary line
("5 new, 0 updated, …"), so fetching a venue again says "0 new, 0 updated" and a changed decision "1 updated".
"""

from __future__ import annotations

import argparse
import sys
from datetime import date

from db.cli.common import after_write, library_dir, told_when_waiting
from db.errors import MarginError
from db.library.library import DB_NAME, Library


def _date(value: str | None) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise MarginError(f"{value!r} is not a date (YYYY-MM-DD)") from None


def cmd_fetch(args: argparse.Namespace) -> int:
    """`margin fetch SOURCE TARGET [options]`: every paper of a venue into the library; one summary line."""
    from db.fetch.job import FetchRequest, fetch_records

    request = FetchRequest(args.source, args.target or "", rejected=args.rejected, withdrawn=args.withdrawn,
                           start=_date(args.start), end=_date(args.end), query=args.query,
                           page_size=args.page_size, limit=args.limit)
    progress = _progress()
    try:
        records = fetch_records(request, progress=progress)
    finally:
        if progress is not None:
            print(file=sys.stderr)  # end the "fetched N of M papers" line
    return _import(args, records)


def cmd_add(args: argparse.Namespace) -> int:
    """`margin add --doi D | --arxiv ID | --openreview ID | --title T [--authors A --venue V --year Y
    --abstract X]`: one paper into the library; prints the summary line and the paper's id."""
    from db.fetch.job import FetchRequest, fetch_records, hand_record

    if args.doi:
        records = fetch_records(FetchRequest("doi", args.doi))
    elif args.arxiv:
        records = fetch_records(FetchRequest("arxiv-id", args.arxiv))
    elif args.openreview:
        records = fetch_records(FetchRequest("openreview-id", args.openreview))
    else:
        records = [hand_record(args.title or "", args.authors or "", args.venue or "", args.year,
                               args.abstract or "", args.url or "")]
    return _import(args, records)


def _import(args: argparse.Namespace, records) -> int:
    from db.fetch.job import import_fetched

    folder = library_dir(args)
    existed = (folder / DB_NAME).exists()
    with told_when_waiting(Library.open(folder, seed=existed)) as library:
        result = import_fetched(library, records, index=after_write)
    print(result.summary())
    if len(records) == 1:  # `margin add`: the paper's id, for `margin annotate ID` next
        for paper_id in (result.new + result.updated + result.unchanged)[:1]:
            print(paper_id)
    for line, reason in result.skipped:
        print(f"  skipped: {reason}" + (f" (record {line})" if line else ""), file=sys.stderr)
    return 0


def _progress():
    if not sys.stderr.isatty():
        return None

    def progress(done: int, total: int | None) -> None:
        of = f" of {total:,}" if total else ""
        noun = "paper" if (total or done) == 1 else "papers"
        print(f"\rfetched {done:,}{of} {noun}", end="", file=sys.stderr, flush=True)

    return progress


def add_parsers(commands, common: argparse.ArgumentParser) -> None:
    """The `fetch` and `add` subcommands (called by db.cli.parser)."""
    from db.fetch import VENUE_SOURCES

    p = commands.add_parser(
        "fetch", parents=[common], help="get a venue's papers from OpenReview, arXiv, DBLP, PMLR or the ACL Anthology",
        epilog="Examples: margin fetch openreview ICLR.cc/2025/Conference; margin fetch arxiv cs.LG --from "
               "2025-01-01 --to 2025-01-07; margin fetch arxiv --query 'ti:diffusion AND cat:cs.CV'; margin fetch "
               "dblp conf/iclr/2024; margin fetch pmlr 229; margin fetch acl 2024.acl-long. Fetching again "
               "updates decisions and adds late papers; answers are cached for a day.")
    p.add_argument("source", choices=VENUE_SOURCES, metavar="SOURCE", help=", ".join(VENUE_SOURCES))
    p.add_argument("target", nargs="?", default="", metavar="TARGET",
                   help="venue id, arXiv category, DBLP key, PMLR volume or Anthology volume")
    p.add_argument("--rejected", action="store_true", help="OpenReview: the rejected submissions too")
    p.add_argument("--withdrawn", action="store_true", help="OpenReview: the withdrawn submissions too")
    p.add_argument("--from", dest="start", metavar="YYYY-MM-DD", help="arXiv: submitted on or after")
    p.add_argument("--to", dest="end", metavar="YYYY-MM-DD", help="arXiv: submitted on or before")
    p.add_argument("--query", metavar="Q", help="arXiv: a search query instead of a category")
    p.add_argument("--limit", type=int, metavar="N", help="arXiv: at most N papers")
    p.add_argument("--page-size", type=int, metavar="N", help=argparse.SUPPRESS)

    p = commands.add_parser("add", parents=[common], help="add one paper by DOI, arXiv id, OpenReview id or by hand")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--doi", metavar="DOI", help="look the paper up at Crossref")
    which.add_argument("--arxiv", metavar="ID", help="look the paper up at arXiv (1706.03762, arXiv:…, a URL)")
    which.add_argument("--openreview", metavar="ID", help="look the paper up at OpenReview (a forum id or URL)")
    which.add_argument("--title", metavar="TEXT", help="a paper typed by hand (with the options below)")
    p.add_argument("--authors", metavar="A", help='by hand: "Ada Lovelace; Alan Turing"')
    p.add_argument("--venue", metavar="V", help="by hand: the venue")
    p.add_argument("--year", metavar="Y", help="by hand: the year")
    p.add_argument("--abstract", metavar="TEXT", help="by hand: the abstract")
    p.add_argument("--url", metavar="URL", help="by hand: a link")


COMMANDS = {"fetch": cmd_fetch, "add": cmd_add}
