"""The triage commands: `progress` (screened, liked, the estimate of liked papers still unseen), `interest`,
`like` (papers I like), `highlight` (the reader's word lists) and `map` (the conference map as a PNG)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from db.cli.common import open_library, search, write_stdout
from db.cli.screening import prisma_line, write_prisma_csv
from db.errors import MarginError
from db.text.cleaning import clean_tag
from db.text.counts import counted


def cmd_progress(args: argparse.Namespace) -> int:
    """Print the triage progress of the view `args.query` (lines, or one JSON object with `--json`); with
    `--check N`, draw N unseen papers into the view's check first (at random; `--ranked`: by the recommender's
    ranking, at random when nothing is liked yet). `--target R`: the stopping rule's share in percent. Exit 1
    for N < 1 or R outside 1–100."""
    from db.triage.check import ranking_for
    from db.triage.progress import draw_check, progress, scope_of

    scope = scope_of(args.query)
    if args.check is not None and args.check < 1:
        raise MarginError("--check N: N is the number of papers to draw, at least 1")
    if not 0 < args.target <= 100:
        raise MarginError("--target R: R is a percentage of the liked papers, more than 0 and at most 100")
    with open_library(args) as library:
        ids = search(library, scope)
        if args.check:
            ranking = ranking_for(library, ids) if args.ranked else None
            draw_check(library, scope, ids, args.check, ranking=ranking)
        result = progress(library, ids, scope, args.interest, args.target / 100)
        prisma = library.prisma_counts(ids)  # the screening decisions of the view (issue 29)
    if args.prisma_csv:
        write_prisma_csv(prisma, args.prisma_csv)
    if args.json:
        json.dump({**result.to_json(), "prisma": prisma.to_json()}, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return 0
    for line in progress_lines(result, args.interest):
        print(line)
    if prisma.screened:
        print(prisma_line(prisma))
    return 0


def progress_lines(result, interest: str | None = None) -> list[str]:
    """The figures of a db.triage.progress.Progress as the `progress` command prints them."""
    share = f" ({result.screened / result.total:.0%})" if result.total else ""
    liked = f"in '{interest}'" if interest else "(4–5 stars)"
    lines = [f"view: {result.scope or 'all papers'}",
             f"screened {result.screened:,} of {counted(result.total, 'paper')}{share}; liked {liked} {result.found:,}"]
    estimate = result.estimate
    if estimate is not None:
        how = "drawn by rank" if estimate.design == "ranked" else "drawn at random"
        lines.append(f"liked papers still unseen: about {estimate.remaining:,} ({estimate.low:,}–{estimate.high:,}, "
                     f"{estimate.level:.0%} interval), from a check {how} of {counted(estimate.rated, 'rated paper')} "
                     f"({estimate.liked} liked) of {estimate.population:,} unseen when it was drawn")
        lines.append(f"what the interval means: {estimate.level:.0%} of checks drawn this way hold the true number "
                     "of liked papers still unseen inside their interval (exact for a random check; for a ranked one "
                     "shown by simulation)")
        if estimate.none_floor is not None:
            lines.append(f"the check found no liked paper: up to {estimate.none_floor:,} could still be unseen (spread "
                         f"evenly, that many escape a check of {estimate.rated} more than 5% of the time, however it "
                         "is drawn); only more check ratings, or screening, narrow this")
        if estimate.halve is not None:
            lines.append(f"about {counted(estimate.halve, 'more check rating')} would roughly halve it "
                         f"(margin progress QUERY --check {estimate.halve}"
                         f"{' --ranked' if estimate.design == 'ranked' else ''})")
        if estimate.not_covered:
            lines.append(f"not covered: {counted(estimate.not_covered, 'unseen paper')} added to the view after the "
                         "check")
    if result.check_to_rate:
        query = f"is:check {result.scope}".strip()
        lines.append(f"check: {counted(len(result.check_to_rate), 'paper')} to rate (margin list '{query}')")
    stop = result.stop
    if stop is not None and stop.recall_low is not None:
        lines.append(f"stopping rule ({stop.target:.0%}): {'stop' if stop.stop else 'go on'}; with 95% confidence "
                     f"at least {stop.recall_low:.0%} of the liked papers are found")
    lines.append(f"knee method: {'stop' if result.knee_stop else 'go on'}")
    lines.append(result.suggestion)
    return lines


def cmd_interest(args: argparse.Namespace) -> int:
    """Make `args.tags` interests (or, with `--off`, no longer), then print every interest with its papers."""
    try:
        for tag in args.tags:
            clean_tag(tag)
    except ValueError as error:
        raise MarginError(str(error)) from None
    with open_library(args) as library:
        for tag in args.tags:
            library.set_interest(tag, not args.off)
        names = library.interests()
        counts = dict(library.tags())
    for name in names:
        print(f"{name}  ({counted(counts.get(name, 0), 'paper')})")
    if not names and not args.tags:  # asked for the list, and there is none
        print("no interests yet: make a tag one with `margin interest TAG` (in the window: right-click the tag → "
              "Use as an interest)")
    return 0


def cmd_like(args: argparse.Namespace) -> int:
    """Mark (or with `--off` unmark) a venue or imported file as papers I like, then print the marks with
    their papers. Exit 1 when no paper has that venue or source."""
    with open_library(args) as library:
        if args.venue is not None or args.source is not None:
            kind, value = ("venue", args.venue) if args.venue is not None else ("source", Path(args.source).name)
            try:
                library.set_liked_source(kind, value, not args.off)
            except KeyError:
                raise MarginError(f"no paper has the {kind} '{value}' (see: margin list --json)") from None
        marks = library.liked_sources()
        counts = {(kind, value): library.count_by(kind, value)
                  for kind, value in marks}
    for kind, value in marks:
        print(f"{kind}: {value}  ({counted(counts[(kind, value)], 'paper')})")
    return 0


def cmd_highlight(args: argparse.Namespace) -> int:
    """Change the highlight word lists as the options say, then print both lists."""
    with open_library(args) as library:
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


def cmd_map(args: argparse.Namespace) -> int:
    """Draw the conference map (lit: the papers matching `args.query`) as a PNG at `--output`; print one
    summary line, or one JSON object with `--json`. Exit 1 for a bad `--colour` or an output that cannot be
    written."""
    from db.map.conference_map import COARSE, MapCache, colours, render_png

    by, _sep, tag = args.colour.partition(":")
    if by not in ("rating", "read", "tag") or (by == "tag") != bool(tag.strip()):
        raise MarginError(f"--colour {args.colour}: rating, read or tag:NAME")
    output = Path(args.output)
    if output.is_dir():
        raise MarginError(f"{output}: is a folder; give the PNG file to write")
    with open_library(args) as library:
        lit = search(library, args.query) if args.query.strip() else None
        conference_map, _report = MapCache(library.derived_folder).refresh(
            library, progress=lambda text: print(f"margin: {text}", file=sys.stderr, flush=True))
        rgb = colours(library, conference_map.ids, by, tag.strip() or None)
    title = counted(len(conference_map.ids), "paper") + (f" · {len(lit):,} matching {args.query}" if lit is not None
                                                      else "")
    try:
        render_png(conference_map, rgb, output, lit, title=title)
    except OSError as error:
        raise MarginError(f"{output}: cannot write the image ({error.strerror or error})") from None
    regions = conference_map.regions_at(COARSE)
    if args.json:
        write_stdout(json.dumps({"output": str(output), "papers": len(conference_map.ids),
                                  "lit": lit if lit is not None else conference_map.ids,
                                  "regions": [{"terms": r.terms, "papers": r.papers} for r in regions]},
                                 ensure_ascii=False, indent=1) + "\n")
    else:
        lit_text = f", {len(lit):,} lit" if lit is not None else ""
        print(f"{output}: {counted(len(conference_map.ids), 'paper')}{lit_text}, {counted(len(regions), 'region')}")
    return 0


COMMANDS = {"progress": cmd_progress, "interest": cmd_interest, "like": cmd_like, "highlight": cmd_highlight,
            "map": cmd_map}
