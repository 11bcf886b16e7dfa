"""HTML for the reader pane and the note preview. Pure functions; no Qt.

The abstract goes through abstract_markup (which escapes every character of the source). Notes are
Markdown rendered by python-markdown, with `$…$` math kept intact by pymdown-extensions' arithmatex, then
sanitized by nh3: no scripts, no event handlers, no images, only http/https/mailto links.
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote

import nh3

from db.paper import Paper, linked_files, published
from db.text.abstract_markup import abstract_to_html, fold_for_matching, math_html
from db.text.cleaning import MAX_TITLE, isolate, strip_bidi, strip_bidi_but_isolates
from db.text.highlight_words import NO_SPACES  # scripts written without spaces between words

_ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "del", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i",
    "li", "ol", "p", "pre", "span", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}
_ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "span": {"class"}, "div": {"class"}, "code": {"class"}, "th": {"align"},
                       "td": {"align"}}
_URL_SCHEMES = {"http", "https", "mailto"}


def note_to_html(note: str) -> str:
    """Render a Markdown note to sanitized HTML. `$…$` math and a lone `$50` come out as written."""
    import markdown  # (when a note is first rendered: ~60 ms of imports the window's start need not pay)

    rendered = markdown.markdown(
        note,
        extensions=["pymdownx.arithmatex", "pymdownx.tilde", "tables", "fenced_code", "sane_lists"],
        extension_configs={"pymdownx.arithmatex": {"generic": True, "smart_dollar": True}},
        output_format="html",
    )
    return _ARITHMATEX.sub(_math_span, sanitize_html(rendered))


PREVIEW_MAX_CHARS = 200_000  # a longer note is previewed up to here (the note itself is kept whole)
LINK_BRACKETS_MAX = 500  # with more `[` than this and few of them links, brackets are shown as written
# what note_preview left out or could not do (the window says it in its own words)
CUT = "cut"
NO_LINKS = "no-links"
AS_TEXT = "as-text"


def note_preview(note: str) -> tuple[str, list[str]]:
    """`note_to_html` within limits, for the window's preview: (HTML, notices). Rendering time stays under
    about a second for any note (measured: 10,000 `[` took 13.7 s unguarded, a 10 MB note 16.5 s).

    Notices: CUT (only the first PREVIEW_MAX_CHARS characters are shown); NO_LINKS (over LINK_BRACKETS_MAX `[`
    of which most open no link: Python-Markdown's link parser is quadratic in unmatched brackets, so brackets
    are shown as written and no link is made); AS_TEXT (the structure is nested too deeply for the Markdown
    parser, which raised RecursionError: the note is shown as plain text)."""
    notices = []
    if len(note) > PREVIEW_MAX_CHARS:
        note = note[:PREVIEW_MAX_CHARS]
        notices.append(CUT)
    opening = note.count("[")
    if opening > LINK_BRACKETS_MAX and opening > 2 * note.count("]("):
        note = note.replace("[", "&#91;")
        notices.append(NO_LINKS)
    note = strip_bidi(note)  # a note from an older Margin may hold overrides: never reorder what follows
    try:
        return note_to_html(note), notices
    except RecursionError:
        return f"<pre>{html.escape(note.replace('&#91;', '['))}</pre>", [*notices, AS_TEXT]


_ARITHMATEX = re.compile(r'<(span|div) class="arithmatex">(?:\\\(|\\\[)?(.*?)(?:\\\)|\\\])?</\1>', re.DOTALL)


def _math_span(match: re.Match[str]) -> str:
    """Math from arithmatex as HTML (superscripts, subscripts, upright runs: db.text.math_markup): inline in a span,
    display math in its own paragraph."""
    latex = html.unescape(match.group(2))
    text = math_html(latex)
    return f'<p class="math">{text}</p>' if match.group(1) == "div" else f'<span class="math">{text}</span>'


def sanitize_html(fragment: str) -> str:
    """Keep only harmless tags and attributes; links only with http, https or mailto."""
    return nh3.clean(fragment, tags=_ALLOWED_TAGS, attributes=_ALLOWED_ATTRIBUTES, url_schemes=_URL_SCHEMES,
                     link_rel="noopener noreferrer")


def stars(rating: int | None) -> str:
    """`★★★☆☆` for 3, "" for no rating."""
    return "★" * rating + "☆" * (5 - rating) if rating else ""




def highlight_pattern(prefixes: list[str]) -> re.Pattern[str] | None:
    """A pattern over accent-folded, lower-cased text (abstract_markup.fold_for_matching) matching the words that
    start with any of `prefixes` (folded here too; those under 2 characters are left out). The caller chooses the
    prefixes: the search gives a query's words cut to their stems (db.search.highlight_prefixes), so that
    "reasoning" also marks "reasons"; None when there is nothing to mark. A prefix in a script written without
    spaces (Chinese, Japanese, Korean) is marked exactly where it stands, inside a longer run, as the search
    finds it; a prefix with spaces is a phrase: its words (each a prefix) one after another, only there."""
    prefixes = {fold_for_matching(w) for w in prefixes if len(w) >= 2}
    if not prefixes:
        return None
    alternatives = "|".join(_phrase(p.split()) for p in sorted(prefixes, key=len, reverse=True))
    return re.compile(f"(?:{alternatives})")


def _phrase(words: list[str]) -> str:
    """The pattern of a phrase's words in a row (one word: the word), separated by anything but letters."""
    pattern = ""
    for number, word in enumerate(words):
        spaced = not NO_SPACES.search(word)
        if number:
            pattern += r"\W+" if spaced and not NO_SPACES.search(words[number - 1]) else r"\W*"
        pattern += rf"\b{re.escape(word)}\w*" if spaced else re.escape(word)
    return pattern


READER_LABELS = {"similar": "Similar papers", "why": "Recommended for: ", "versions": "Versions:",
                 "cut": "(%1 more characters of this abstract are not shown)",
                 "submitted": "Submitted to %1", "decision": "Venue decision: %1", "volume": "vol. %1",
                 "issue": "no. %1", "pages": "pp. %1", "editors": "ed. %1", "isbn": "ISBN %1", "issn": "ISSN %1",
                 "article": "Journal article", "book": "Book", "incollection": "Chapter", "inbook": "Chapter",
                 "phdthesis": "PhD thesis", "mastersthesis": "Master's thesis", "thesis": "Thesis",
                 "techreport": "Report", "report": "Report", "unpublished": "Unpublished", "online": "Web page",
                 "more tags": "and %1 more tags", "presentation": "Presentation: %1", "session": "Session: %1",
                 "tldr": "TL;DR: %1", "file": "%1 file"}
# the extra fields (db.paper.EXTRA_KEYS) the reader shows, in this order; `%1` labels from READER_LABELS
_SHOWN_EXTRA = ("type", "editors", "volume", "issue", "pages", "publisher", "address", "edition", "series", "month",
                "isbn", "issn", "language", "decision", "presentation", "session", "note")
_COMPOSED = re.compile(r'<p class="(authors|meta[^"]*|versions|tags|why)">')  # lines composed of several fields
READER_MAX_CHARS = 10_000  # longer abstracts are shown cut (the longest real one: 2,393): layout is ~3.5 ms per 1,000
READER_MAX_TAGS = 200  # a paper with more tags (an import gave it 10,000) shows these and how many are left


def paper_to_html(paper: Paper, highlight: list[str] | None = None, why: list[str] | None = None,
                  labels: dict[str, str] | None = None, versions: list[Paper] | None = None,
                  direction: str = "ltr") -> str:
    """The reader pane's HTML for a paper: label, authors, venue and year, links, tags, the abstract.

    `highlight` are the starts of the words to mark in the abstract (see highlight_pattern). `why` (a
    recommendation's shared terms) adds a "Recommended for" line. `labels` overrides the
    READER_LABELS texts (the window passes translated ones). Internal actions are links with
    the `margin:` scheme (`margin:similar/ID`, `margin:tag/NAME`), which the reader handles itself. `versions`
    (the papers of its work, db.library.works, itself included) adds a line with each version's venue and links.
    The lines composed of several fields (authors, venue, details, versions, tags) hold each field as a
    bidirectional isolate and are laid out in `direction` ("ltr" or "rtl": the window's), so a right-to-left name
    never reorders them; title and abstract take the direction of their own text.
    """
    pattern = highlight_pattern(highlight or [])
    texts = {**READER_LABELS, **(labels or {})}
    label = paper.label[:MAX_TITLE]  # a label stored by an older Margin may be longer than a title can be
    heading = abstract_to_html(label, pattern) if paper.title else html.escape(label)  # its TeX rendered, marked
    parts = [f"<h2>{heading}</h2>"]
    if paper.authors:
        authors = ", ".join(isolate(author) for author in paper.authors)
        parts.append(f'<p class="authors">{html.escape(authors)}</p>')
    venue = isolate(paper.venue or "")
    if venue and not published(paper.extra):  # a rejected or withdrawn submission is no paper of its venue
        venue = texts["submitted"].replace("%1", venue)
    meta = " · ".join(x for x in (venue, stars(paper.rating)) if x)
    if meta:
        parts.append(f'<p class="meta">{html.escape(meta)}</p>')
    details = bibliographic_details(paper, texts, isolated=True)
    if details:
        parts.append(f'<p class="meta bib">{html.escape(details)}</p>')
    links = _links(paper) + _file_links(paper, texts) + [
        f'<a href="margin:similar/{html.escape(paper.id)}">{html.escape(texts["similar"])}</a>']
    parts.append('<p class="links">' + " · ".join(links) + "</p>")
    if versions and len(versions) > 1:
        parts.append('<p class="versions">' + html.escape(texts["versions"]) + " " + "; ".join(
            _version(version, version.id == paper.id) for version in versions) + "</p>")
    if paper.tags:
        more = len(paper.tags) - READER_MAX_TAGS
        # Qt's rich text has no padding or margin on inline elements: no-break spaces inside the chip pad it,
        # and a wider gap between chips keeps "chain of thought" and "theory" two tags
        parts.append('<p class="tags">' + "&nbsp;&nbsp; ".join(
            f'<a class="tag" href="margin:tag/{quote(tag, safe="")}"><span class="tag">'
            f'&nbsp;{html.escape(isolate(tag))}'
            '&nbsp;</span></a>' for tag in paper.tags[:READER_MAX_TAGS]) + (
            " " + html.escape(texts["more tags"].replace("%1", f"{more:,}")) if more > 0 else "") + "</p>")
    if paper.extra.get("tldr"):  # a source's one-line summary (OpenReview's TL;DR), before the abstract
        tldr = texts["tldr"].replace("%1", isolate(str(paper.extra["tldr"])))
        parts.append('<p class="meta tldr">' + html.escape(tldr)
                     + "</p>")
    if why:
        parts.append('<p class="why">' + html.escape(texts["why"] + ", ".join(map(isolate, why))) + "</p>")
    abstract = paper.abstract
    if len(abstract) > READER_MAX_CHARS:  # a runaway record: show its start, say how much is left out
        cut = abstract.rfind(" ", 0, READER_MAX_CHARS)
        abstract = abstract[: cut if cut > 0 else READER_MAX_CHARS]
        parts.append(f'<p class="abstract">{abstract_to_html(abstract, pattern)} …</p>')
        parts.append('<p class="meta">' + html.escape(texts["cut"].replace(
            "%1", f"{len(paper.abstract) - len(abstract):,}")) + "</p>")
    else:
        parts.append(f'<p class="abstract">{abstract_to_html(abstract, pattern)}</p>')
    # nothing a file or user wrote reorders the text after it: its controls removed, each field an isolate, and
    # the lines composed of fields laid out in the window's direction, whatever the first field's script
    body = _COMPOSED.sub(rf'<p class="\1" dir="{direction}">', "\n".join(parts))
    return strip_bidi_but_isolates(body)


def bibliographic_details(paper: Paper, labels: dict[str, str] | None = None, isolated: bool = False) -> str:
    """One line of the fields the file gave beyond venue and year ("Journal article · vol. 7 · no. 3 ·
    pp. 1–10 · AAAS · Decision: Reject"), plain text; "" when there are none. The common types (a conference
    paper, misc) are not named. `isolated`: each value a bidirectional isolate (cleaning.isolate; the reader)."""
    field = isolate if isolated else str
    texts = {**READER_LABELS, **(labels or {})}
    shown = []
    for key in _SHOWN_EXTRA:
        value = paper.extra.get(key)
        if not value:
            continue
        if key == "type":
            if value in texts and value not in ("similar", "why", "cut"):
                shown.append(texts[value])
            continue
        if key == "decision" and isinstance(value, str) and f"decision:{value.casefold()}" in texts:
            value = texts[f"decision:{value.casefold()}"]  # a venue's usual decision in the reader's language
        text = ", ".join(map(field, value)) if isinstance(value, list) else field(str(value))
        shown.append(texts[key].replace("%1", text) if key in texts else text)
    return " · ".join(shown)


def _version(paper: Paper, shown: bool) -> str:
    """One version in the versions line: its venue and year (bold for the version shown) and its links."""
    venue = paper.venue or ("arXiv" if paper.arxiv_id else "")  # a preprint as reference managers export it
    year = str(paper.year) if paper.year and str(paper.year) not in venue else ""
    name = html.escape(" ".join(x for x in (isolate(venue), year) if x) or "?")
    links = _links(paper)
    return (f"<b>{name}</b>" if shown else name) + (f" ({', '.join(links)})" if links else "")


def _file_links(paper: Paper, texts: dict[str, str]) -> list[str]:
    """`PDF` links to the files the imported file linked (db.paper.linked_files, issue 30), as
    `margin:file/PATH` (percent-encoded): the reader opens them with the system's viewer."""
    links = []
    for path in linked_files(paper.extra.get("file"))[:5]:
        suffix = path.rsplit(".", 1)[-1].upper() if "." in path.rsplit("/", 1)[-1] else ""
        label = "PDF" if suffix == "PDF" else texts["file"].replace("%1", suffix or "?")
        links.append(f'<a href="margin:file/{quote(path, safe="")}" title="{html.escape(path, quote=True)}">'
                     f'{html.escape(label)}</a>')
    return links


def _links(paper: Paper) -> list[str]:
    links = []
    # a URL that is one of the named links (OpenReview's forum, a fetched paper's url) is shown once, by its name
    seen = {url for url in (paper.doi and f"https://doi.org/{paper.doi}",
                            paper.arxiv_id and f"https://arxiv.org/abs/{paper.arxiv_id}",
                            paper.openreview_id and f"https://openreview.net/forum?id={paper.openreview_id}") if url}
    for label, url in (("URL", paper.url if paper.url not in seen else None),
                       ("DOI", paper.doi and f"https://doi.org/{paper.doi}"),
                       ("arXiv", paper.arxiv_id and f"https://arxiv.org/abs/{paper.arxiv_id}"),
                       ("OpenReview", paper.openreview_id and
                        f"https://openreview.net/forum?id={paper.openreview_id}"),
                       ("PDF", paper.extra.get("pdf") if isinstance(paper.extra.get("pdf"), str) else None)):
        if url and re.match(r"https?://", url):
            links.append(f'<a href="{html.escape(url, quote=True)}">{label}</a>')
    return links
