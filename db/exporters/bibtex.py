"""BibTeX for JabRef, Zotero and LaTeX: one entry per paper with a stable citation key.

Entry type: `@inproceedings` (venue in `booktitle`) when the paper has a venue, else `@misc`. Fields: title,
author (" and "-joined), year, booktitle, url, doi, eprint + archiveprefix (arXiv), abstract, keywords
(the tags, ", "-joined), annote (the note), `x-margin-id` (the Margin id, so a later import can match), and
`x-margin-title-source = {derived}` when the paper has no title and `title` holds Margin's derived label
(Margin's reader then takes the title as absent, so re-importing the export changes nothing).

Text fields are escaped so that BibTeX and bibtexparser (with its LaTeX-decoding middleware, pylatexenc)
read every character back exactly: `\\ { } $ & % # _ ~ ^` become `{\\textbackslash} \\{ \\} \\$ \\& \\% \\#
\\_ {\\textasciitilde} {\\string^}`, a backquote becomes {`}, and doubled `- ' < > ! ? ,` are split by `{}`
so TeX does not turn them into dashes or quotes. Non-ASCII text (CJK, accents, emoji) is written as
UTF-8, which biber, JabRef and Zotero read. Verbatim fields (url, doi, eprint) escape only
`\\ { } %` with a backslash, the `url` package's convention. The title is wrapped in a second pair of braces
so bibliography styles keep its capitalization.
"""

from __future__ import annotations

from collections.abc import Sequence

from db.exporters.common import citation_key, export_title, title_source
from db.paper import Paper

_TEXT_ESCAPES = {"\\": r"{\textbackslash}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%",
                 "#": r"\#", "_": r"\_", "~": r"{\textasciitilde}", "^": r"{\string^}", "`": "{`}"}
_LIGATURE_STARTS = "-'<>!?,"
_VERBATIM_ESCAPES = {"\\": "\\\\", "{": r"\{", "}": r"\}", "%": r"\%"}


def escape_text(text: str) -> str:
    """Escape `text` for a BibTeX text field (see the module docstring). Line breaks are kept."""
    out = []
    for index, char in enumerate(text):
        if char in _TEXT_ESCAPES:
            out.append(_TEXT_ESCAPES[char])
        elif char in _LIGATURE_STARTS and text[index + 1 : index + 2] == char:
            out.append(char + "{}")
        else:
            out.append(char)
    return "".join(out)


def escape_verbatim(text: str) -> str:
    """Escape `text` for a verbatim field (url, doi, eprint)."""
    return "".join(_VERBATIM_ESCAPES.get(char, char) for char in text)


def _author(name: str) -> str:
    name = " ".join(name.split())
    escaped = escape_text(name)
    # " and " inside one name would split it into two authors; a brace group keeps it whole
    return f"{{{escaped}}}" if " and " in f" {name.lower()} " else escaped


def entry_fields(paper: Paper) -> list[tuple[str, str]]:
    """The (field, BibTeX-escaped value) pairs of a paper's entry, in the order they are written."""
    fields = [("title", "{" + escape_text(export_title(paper)) + "}")]
    if paper.authors:
        fields.append(("author", " and ".join(_author(name) for name in paper.authors)))
    if paper.year:
        fields.append(("year", str(paper.year)))
    if paper.venue:
        fields.append(("booktitle", escape_text(paper.venue)))
    for name, value in (("url", paper.url), ("doi", paper.doi), ("eprint", paper.arxiv_id)):
        if value:
            fields.append((name, escape_verbatim(value)))
    if paper.arxiv_id:
        fields.append(("archiveprefix", "arXiv"))
    if paper.abstract:
        fields.append(("abstract", escape_text(paper.abstract)))
    if paper.tags:
        fields.append(("keywords", escape_text(", ".join(paper.tags))))
    if paper.note:
        fields.append(("annote", escape_text(paper.note)))
    fields.append(("x-margin-id", paper.id))
    if title_source(paper) == "derived":
        fields.append(("x-margin-title-source", "derived"))
    return fields


def export_bibtex(papers: Sequence[Paper]) -> str:
    """The BibTeX text: one entry per paper in the order given, separated by blank lines."""
    entries = []
    for paper in papers:
        kind = "inproceedings" if paper.venue else "misc"
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in entry_fields(paper))
        entries.append(f"@{kind}{{{citation_key(paper)},\n{body}\n}}\n")
    return "\n".join(entries)
