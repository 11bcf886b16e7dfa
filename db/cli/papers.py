"""The commands about papers: `import`, `list`, `show`, `annotate` and `delete` (README, "Command line")."""

from __future__ import annotations

import argparse
import json
import sys

from db.cli.common import (
    after_write,
    find_paper,
    library_dir,
    open_library,
    read_text_file,
    search,
    told_when_waiting,
    write_stdout,
)
from db.errors import MarginError
from db.library.library import DB_NAME, Library
from db.text.abstract_markup import abstract_to_plain
from db.text.cleaning import clean_tag, clean_title, tags_text
from db.text.counts import counted
from db.text.labels import shorten
from db.text.render import stars

CONFIRM_EXIT = 2  # a delete without --yes: a usage error (the command is not complete), nothing changed


def cmd_import(args: argparse.Namespace) -> int:
    """Import `args.files` (db.import_job): one summary line on stdout, each skipped record as `file:line: reason`
    on stderr. Exit 1 (nothing changed) when a file cannot be read at all."""
    from db.import_job import import_paths, read_inputs

    folder = library_dir(args)
    # raises InputError before anything changes (or a new library is made)
    inputs = read_inputs(args.files, getattr(args, "annotations", True))
    for note in inputs.notes:
        print(note, file=sys.stderr)
    existed = (folder / DB_NAME).exists()
    with told_when_waiting(Library.open(folder, seed=existed)) as library:
        report = import_paths(library, inputs, progress=_progress_printer(), index=after_write)
    print(report.summary())
    for line, reason in report.skipped:
        print(f"  skipped: {_where(reason, line)}", file=sys.stderr)
    for line in report.details():  # duplicates merged field by field, shared ids kept apart
        print(f"  {line}", file=sys.stderr)
    return 0


def _where(reason: str, line: int | None) -> str:
    """`file:line: reason` from a reason that starts `file: …` (as cmd_import builds them)."""
    path, sep, rest = reason.partition(": ")
    return f"{path}:{line}: {rest}" if line and sep else reason


def _progress_printer():
    if not sys.stderr.isatty():
        return None

    def progress(done: int, total: int) -> None:
        print(f"\rimporting {done:,} of {counted(total, 'paper')}", end="\n" if done == total else "", file=sys.stderr)

    return progress


def cmd_list(args: argparse.Namespace) -> int:
    """Print the papers matching `args.query` (all when empty), best first: one line each, or one JSON array
    with `--json` (list --json's fields, plus `why`/`interest` for recommendations)."""
    why: dict[str, list[str]] = {}
    interest: dict[str, str] = {}
    query = " ".join(args.query) if isinstance(args.query, list) else args.query  # `list graph neural`: one query
    with open_library(args) as library:
        papers = library.papers(search(library, query, why, interest))
    if args.json:
        write_stdout(json.dumps([paper.to_json() | ({"why": why[paper.id]} if paper.id in why else {})
                                  | ({"interest": interest[paper.id]} if paper.id in interest else {})
                                  for paper in papers], ensure_ascii=False, indent=1) + "\n")  # UTF-8 always
    else:
        for paper in papers:
            flags = stars(paper.rating) or "     "
            tags = f"  [{tags_text(paper.tags)}]" if paper.tags else ""
            came_for = f"  (for {interest[paper.id]})" if paper.id in interest else ""
            print(f"{paper.id}  {flags}  {paper.label}{tags}{came_for}")
    return 0


def cmd_annotate(args: argparse.Namespace) -> int:
    """Apply every option of `annotate` to one paper in one transaction (all or nothing), then print its
    id, stars and label. Exit 1 for an unknown id or a bad tag, title or note file, before anything changes."""
    note = args.note
    if args.note_file is not None:
        note = read_text_file(args.note_file, "note")
    try:  # every value is checked before the first change, so a bad one changes nothing
        for tag in args.tag + args.dismiss:
            clean_tag(tag)
        clean_title(args.title)
    except ValueError as error:
        raise MarginError(str(error)) from None
    with open_library(args) as library:
        paper_id = find_paper(library, args.id)
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
        after_write(library)
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


def cmd_show(args: argparse.Namespace) -> int:
    """Print the paper `args.id`: label, then one `field: value` line per field that has a value, the note and
    the abstract (as plain text) below. Exit code 1 (one line) when no single paper has that id."""
    with open_library(args) as library:
        return _show(args, library)


def _show(args: argparse.Namespace, library: Library) -> int:
    paper = library.paper(find_paper(library, args.id))
    if args.json:
        write_stdout(json.dumps(paper.to_json(), ensure_ascii=False, indent=1) + "\n")
        return 0
    fields = [("id", paper.id), ("title", paper.title or ""), ("authors", "; ".join(paper.authors)),
              ("venue", paper.venue or ""), ("year", str(paper.year or "")),
              ("rating", f"{stars(paper.rating)} ({paper.rating}/5)" if paper.rating else "unrated"),
              ("tags", tags_text(paper.tags)), ("read", "yes" if paper.read else "no"),
              ("screening", f"{paper.decision} ({paper.reason})" if paper.reason else paper.decision or ""),
              ("keywords", ", ".join(paper.keywords)), ("url", paper.url or ""), ("doi", paper.doi or ""),
              ("arxiv", paper.arxiv_id or ""), ("openreview", paper.openreview_id or ""),
              ("added", paper.added_at or "")]
    lines = [paper.label, ""] + [f"{name + ':':<12}{value}" for name, value in fields if value]
    if paper.note.strip():
        lines += ["", "note:", paper.note.rstrip()]
    if paper.abstract:
        lines += ["", "abstract:", abstract_to_plain(paper.abstract)]
    write_stdout("\n".join(lines) + "\n")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    """Delete the papers `args.ids` (their annotations go to a backup first); without `--yes` only say what
    would be deleted (exit CONFIRM_EXIT). Exit 1 for an id no single paper has, nothing deleted."""
    from db.library.backup import write_backup

    with open_library(args) as library:
        ids = [find_paper(library, given, "; nothing was deleted") for given in args.ids]
        ids = list(dict.fromkeys(ids))
        papers = library.papers(ids)
        listing = "; ".join(f"{paper.id} {shorten(paper.label, 60)}" for paper in papers)
        if not args.yes:
            print(f"margin: would delete {counted(len(papers), 'paper')}: {listing}; add --yes to delete them",
                  file=sys.stderr)
            return CONFIRM_EXIT
        library.delete_papers(ids)
        try:
            backup = write_backup(library, reason="delete")
            kept = f"; their annotations are in {backup}"
        except MarginError as error:
            kept = f"; no backup could be written ({error})"
        after_write(library)
    print(f"deleted {counted(len(papers), 'paper')}: {listing}{kept}")
    return 0


COMMANDS = {"import": cmd_import, "list": cmd_list, "show": cmd_show, "annotate": cmd_annotate, "delete": cmd_delete}
