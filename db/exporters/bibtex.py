"""BibTeX for JabRef, Zotero, biber/biblatex and BibTeX 0.99d: one entry per paper with a stable citation key.

Entry type: the file's (`@article` with `journal`, `@inproceedings`/`@incollection` with `booktitle`, `@book`,
`@phdthesis` with `school`, `@techreport` with `institution`, `@misc`, …), else `@inproceedings` with a venue and
`@misc` without (db.exporters.common.entry_type); a submission its venue rejected is `@unpublished` with a
`note` saying so. Fields: title, author and editor (db.text.names: "von Last, Jr, First", organisations in braces),
year, month (a macro: `nov`), the venue field of the type, pages, volume, number, publisher, isbn, issn,
language, address, edition, series, note (the file's), url, doi, eprint + archiveprefix (arXiv), abstract,
keywords (the file's keywords and the user's tags; one with a comma in braces), annote (the user's note),
JabRef's `ranking = {rank1..rank5}` (the rating) and `readstatus = {read}`, `file` (the linked files as the file
that was imported wrote them), and Margin's own fields, which other tools ignore: `x-margin-id` (so a later
import matches), `x-margin-keywords`
(the file's keywords alone, so re-import does not take tags for keywords), `x-margin-tags` (the tags, only
when a tag is also a keyword), `x-margin-title-source` (`derived`:
the title is Margin's headline for an untitled paper; `user`: the title is the user's, `x-margin-file-title`
the file's) and `x-margin-decision`.

Every value is balanced in BibTeX's eyes (which counts every brace, escaped or not), so biber, BibTeX 0.99d,
pybtex and bibtexparser read every entry whole: braces that pair up become `\\{ \\}`, a brace without a partner
`{\\textbraceleft}` or `{\\textbraceright}` (LaTeX's names; Margin's reader knows them),
`\\ $ & % # _ ~ ^` become `{\\textbackslash} \\$ \\& \\% \\# \\_ {\\textasciitilde} {\\string^}`, a backquote
{`}, and doubled `- ' < > ! ? ,` are split by `{}` so TeX does not make dashes or quotes of them. Inline math
(`$x^2$`, by pandoc's rule: no space inside the dollars, no digit after the closing one, balanced braces, no
`% # &`) is written as math, so it typesets. Non-ASCII text is written as UTF-8. Verbatim fields (url, doi,
eprint) are written as they are, `%` too (biblatex reads them verbatim); `{ } \\` there become `%7B %7D %5C`
(the same URL). The title is wrapped in a second pair of braces so bibliography styles keep its capitalization.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from db.exporters.common import citation_keys, entry_type, export_title, export_venue, submission_note, title_source
from db.paper import Paper
from db.text.names import bibtex_name

_TEXT_ESCAPES = {"\\": r"{\textbackslash}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%",
                 "#": r"\#", "_": r"\_", "~": r"{\textasciitilde}", "^": r"{\string^}", "`": "{`}"}
_UNMATCHED = {"{": r"{\textbraceleft}", "}": r"{\textbraceright}"}
_LIGATURE_STARTS = "-'<>!?,"
_VERBATIM_ESCAPES = {"\\": "%5C", "{": "%7B", "}": "%7D"}
_MATH = re.compile(r"\$(?=\S)([^$\n]*?\S)\$(?!\d)")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# the field that names the venue, per entry type (biblatex's `journaltitle` is `journal` in BibTeX)
_VENUE_FIELD = {"article": "journal", "inproceedings": "booktitle", "incollection": "booktitle",
                "inbook": "booktitle", "conference": "booktitle", "misc": "howpublished", "online": "howpublished",
                "unpublished": None, "phdthesis": "school", "mastersthesis": "school", "thesis": "school",
                "techreport": "institution", "report": "institution", "book": "series"}
_PUBLISHER_FIELD = {"phdthesis": "school", "mastersthesis": "school", "thesis": "school",
                    "techreport": "institution", "report": "institution"}
_EXTRA_FIELDS = (("pages", "pages"), ("volume", "volume"), ("issue", "number"), ("isbn", "isbn"), ("issn", "issn"),
                 ("language", "language"), ("address", "address"), ("edition", "edition"), ("series", "series"))


def _unmatched_braces(text: str) -> set[int]:
    """Offsets of the braces in `text` that have no partner (a `}` before any `{`, a `{` never closed)."""
    opened, unmatched = [], set()
    for index, char in enumerate(text):
        if char == "{":
            opened.append(index)
        elif char == "}":
            if opened:
                opened.pop()
            else:
                unmatched.add(index)
    return unmatched | set(opened)


def _escape_plain(text: str) -> str:
    out = []
    unmatched = _unmatched_braces(text)
    for index, char in enumerate(text):
        if index in unmatched:
            out.append(_UNMATCHED[char])
        elif char in _TEXT_ESCAPES:
            out.append(_TEXT_ESCAPES[char])
        elif char in _LIGATURE_STARTS and text[index + 1 : index + 2] == char:
            out.append(char + "{}")
        else:
            out.append(char)
    return "".join(out)


def _math_ok(body: str) -> bool:
    depth = 0
    for char in body:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0 and not any(char in body for char in "%#&")


def escape_text(text: str, math: bool = False) -> str:
    """Escape `text` for a BibTeX text field (see the module docstring). Line breaks are kept. With `math`,
    inline `$…$` math is written as math (title, abstract)."""
    if not math:
        return _escape_plain(text)
    out, last = [], 0
    for match in _MATH.finditer(text):
        if _math_ok(match.group(1)):
            out.append(_escape_plain(text[last : match.start()]))
            out.append(match.group(0))
            last = match.end()
    out.append(_escape_plain(text[last:]))
    return "".join(out)


def escape_verbatim(text: str) -> str:
    """Escape `text` for a verbatim field (url, doi, eprint)."""
    return "".join(_VERBATIM_ESCAPES.get(char, char) for char in text)


def _keyword(word: str) -> str:
    escaped = escape_text(word)
    return f"{{{escaped}}}" if "," in word or ";" in word else escaped


def _names(names: Sequence[str]) -> str:
    return " and ".join(bibtex_name(name, escape_text) for name in names if name.strip())


class Macro(str):
    """A field value written without braces: an @string name (`month = nov`)."""


def entry_fields(paper: Paper) -> list[tuple[str, str]]:
    """The (field, BibTeX-escaped value) pairs of a paper's entry, in the order they are written. A Macro
    value is written without braces (`month = nov`)."""
    kind = entry_type(paper)
    extra = paper.extra
    fields = [("title", "{" + escape_text(export_title(paper), math=True) + "}")]
    if paper.authors:
        fields.append(("author", _names(paper.authors)))
    if extra.get("editors"):
        fields.append(("editor", _names(extra["editors"])))
    if paper.year:
        fields.append(("year", str(paper.year)))
    month = str(extra.get("month") or "")
    if month:
        short = month[:3].lower()
        number = int(month) if month.isdigit() and 1 <= int(month) <= 12 else None
        fields.append(("month", Macro(_MONTHS[number - 1]) if number else Macro(short) if short in _MONTHS
                       and month.lower() in ("may", short, _full(short)) else escape_text(month)))
    venue = export_venue(paper)
    venue_field = _VENUE_FIELD.get(kind, "booktitle")
    if venue and venue_field:
        fields.append((venue_field, escape_text(venue)))
    publisher = extra.get("publisher")
    if publisher:
        field = _PUBLISHER_FIELD.get(kind, "publisher")
        if field != venue_field or not venue:
            fields.append((field, escape_text(publisher)))
    for key, name in _EXTRA_FIELDS:
        if extra.get(key) and not (name == venue_field and venue):
            value = escape_text(str(extra[key]))
            if key == "pages":  # a page range's dash is TeX's `--`
                value = re.sub(r"\s*(?:–|—|-\{\}-|-)+\s*", "--", value)
            fields.append((name, value))
    note = "; ".join(part for part in (submission_note(paper), extra.get("note")) if part)
    if note:
        fields.append(("note", escape_text(note)))
    for name, value in (("url", paper.url), ("doi", paper.doi), ("eprint", paper.arxiv_id)):
        if value:
            fields.append((name, escape_verbatim(value)))
    if paper.arxiv_id:
        fields.append(("archiveprefix", "arXiv"))
    if paper.abstract:
        fields.append(("abstract", escape_text(paper.abstract, math=True)))
    words = list(dict.fromkeys([*paper.keywords, *paper.tags]))
    if words:
        fields.append(("keywords", ", ".join(_keyword(word) for word in words)))
    if paper.note:
        fields.append(("annote", escape_text(paper.note)))
    if paper.rating:  # JabRef's special fields (issue 30); Margin's reader and JabRef read them back
        fields.append(("ranking", f"rank{paper.rating}"))
    if paper.read:
        fields.append(("readstatus", "read"))
    if extra.get("file"):
        linked = str(extra["file"])  # a BibTeX file's own value: written back as it was, braces permitting
        fields.append(("file", escape_verbatim(linked) if _unmatched_braces(linked) else linked))
    fields.append(("x-margin-id", paper.id))
    if words != paper.keywords:  # tags added, or the file repeated a keyword
        fields.append(("x-margin-keywords", ", ".join(_keyword(word) for word in paper.keywords)))
    if [word for word in words if word not in set(paper.keywords)] != paper.tags:  # a tag that is also a keyword
        fields.append(("x-margin-tags", ", ".join(_keyword(word) for word in paper.tags)))
    source = title_source(paper)
    if source != "file":
        fields.append(("x-margin-title-source", source))
    if source == "user" and paper.file_title:
        fields.append(("x-margin-file-title", escape_text(paper.file_title)))
    if extra.get("decision"):
        fields.append(("x-margin-decision", escape_text(str(extra["decision"]))))
        if paper.venue and not venue:  # an unpublished submission: cited without it, kept for re-import
            fields.append(("x-margin-venue", escape_text(paper.venue)))
    return fields


def _full(short: str) -> str:
    return {"jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
            "aug": "august", "sep": "september", "oct": "october", "nov": "november", "dec": "december"}.get(short, "")


def export_bibtex(papers: Sequence[Paper]) -> str:
    """The BibTeX text: one entry per paper in the order given, separated by blank lines."""
    entries = []
    keys = citation_keys(papers)
    for paper in papers:
        body = ",\n".join(f"  {name} = {value}" if isinstance(value, Macro) else f"  {name} = {{{value}}}"
                          for name, value in entry_fields(paper))
        entries.append(f"@{entry_type(paper)}{{{keys[paper.id]},\n{body}\n}}\n")
    return "\n".join(entries)
