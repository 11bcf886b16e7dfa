"""Exporters: the user's papers and notes in formats other tools read.

`markdown`: one file, a heading per paper (its label), then venue and year, stars, tags, link, the note and
the abstract as plain text (LaTeX converted to Unicode).
"""

from __future__ import annotations

from collections.abc import Sequence

from db.abstract_markup import abstract_to_plain
from db.errors import MarginError
from db.paper import Paper
from db.render import stars

FORMATS = ("markdown",)
PLANNED_FORMATS = ("csv", "json", "bibtex", "csl-json")


def export_markdown(papers: Sequence[Paper], title: str = "Margin notes", include_abstract: bool = True) -> str:
    """A Markdown document with one `## label` section per paper, in the order given."""
    lines = [f"# {title}", ""]
    for paper in papers:
        lines += [f"## {_one_line(paper.label)}", ""]
        facts = []
        venue = paper.venue or (str(paper.year) if paper.year else "")
        if venue:
            facts.append(f"**Venue:** {venue}")
        if paper.rating:
            facts.append(f"**Rating:** {stars(paper.rating)} ({paper.rating}/5)")
        if paper.tags:
            facts.append("**Tags:** " + ", ".join(f"`{tag}`" for tag in paper.tags))
        if paper.authors:
            facts.append("**Authors:** " + "; ".join(paper.authors))
        if paper.url:
            facts.append(f"**Link:** <{paper.url}>")
        facts.append(f"**Margin id:** `{paper.id}`")
        lines += [f"- {fact}" for fact in facts]
        lines.append("")
        if paper.note.strip():
            lines += ["### Note", "", paper.note.rstrip(), ""]
        if include_abstract and paper.abstract:
            lines += ["### Abstract", "", "> " + abstract_to_plain(paper.abstract).replace("\n", "\n> "), ""]
    return "\n".join(lines).rstrip() + "\n"


def export(papers: Sequence[Paper], fmt: str) -> str:
    """Export `papers` in format `fmt`. Raises MarginError for a format Margin does not write yet."""
    if fmt == "markdown":
        return export_markdown(papers)
    if fmt in PLANNED_FORMATS:
        raise MarginError(f"export format '{fmt}' is not available yet; use: {', '.join(FORMATS)}")
    raise MarginError(f"unknown export format '{fmt}'; use: {', '.join(FORMATS)}")


def _one_line(text: str) -> str:
    return " ".join(text.split())
