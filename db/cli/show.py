"""The headless commands that show one paper (`show ID`) and the tag list (`tags`); db.cli.commands registers them."""

from __future__ import annotations

import argparse
import json

from db.errors import MarginError
from db.text.abstract_markup import abstract_to_plain
from db.text.render import stars


def add_parsers(commands, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser("show", parents=[common], help="one paper with all its fields")
    p.add_argument("id", metavar="ID", help="the paper's id (at least its first 4 digits)")
    p.add_argument("--json", action="store_true", help="print the paper as JSON (the fields of list --json)")
    p = commands.add_parser("tags", parents=[common], help="the tags with how many papers carry each")
    p.add_argument("--json", action="store_true", help='print [{"tag": …, "papers": N}, …]')


def cmd_show(args: argparse.Namespace, library, write) -> int:
    """Print the paper `args.id`: label, then one `field: value` line per field that has a value, the note and
    the abstract (as plain text) below. Exit code 1 (one line) when no single paper has that id."""
    try:
        paper = library.paper(library.find_id(args.id))
    except KeyError:
        raise MarginError(f"no single paper has the id '{args.id}' (see: margin list)") from None
    if args.json:
        write(json.dumps(paper.to_json(), ensure_ascii=False, indent=1) + "\n")
        return 0
    fields = [("id", paper.id), ("title", paper.title or ""), ("authors", "; ".join(paper.authors)),
              ("venue", paper.venue or ""), ("year", str(paper.year or "")),
              ("rating", f"{stars(paper.rating)} ({paper.rating}/5)" if paper.rating else "unrated"),
              ("tags", ", ".join(paper.tags)), ("read", "yes" if paper.read else "no"),
              ("keywords", ", ".join(paper.keywords)), ("url", paper.url or ""), ("doi", paper.doi or ""),
              ("arxiv", paper.arxiv_id or ""), ("openreview", paper.openreview_id or ""),
              ("added", paper.added_at or "")]
    lines = [paper.label, ""] + [f"{name + ':':<12}{value}" for name, value in fields if value]
    if paper.note.strip():
        lines += ["", "note:", paper.note.rstrip()]
    if paper.abstract:
        lines += ["", "abstract:", abstract_to_plain(paper.abstract)]
    write("\n".join(lines) + "\n")
    return 0


def cmd_tags(args: argparse.Namespace, library, write) -> int:
    """Print every tag with its number of papers, by name (`library.tags()` order)."""
    tags = library.tags()
    if args.json:
        write(json.dumps([{"tag": name, "papers": count} for name, count in tags], ensure_ascii=False) + "\n")
    else:
        write("".join(f"{count:>7,}  {name}\n" for name, count in tags))
    return 0
