"""Export defects a new-user trial found: imported HTML and `javascript:` links became live in the Markdown
exports, a paper without a venue was written `Venue: 2019`, and RIS began with a byte-order mark."""

from __future__ import annotations

from db.exporters.markdown import export_markdown, markdown_files
from db.exporters.markdown_safety import safe_link, safe_note
from db.exporters.ris import export_ris
from db.paper import Paper


def paper(**fields) -> Paper:
    values = {"id": "aaaaaaaaaaaa", "label": "A paper", "title": "A paper", "abstract": "An abstract.",
              "authors": ["Ann Lee"], "venue": None, "year": 2019}
    return Paper(**{**values, **fields})


def test_an_abstracts_html_and_block_markup_are_escaped_like_the_title():
    text = export_markdown([paper(abstract="Cells <img src=x onerror=alert(1)> &lt;tag&gt; [x](javascript:y)\n\n"
                                           "# no heading\n1. no list\n- no item\n===\n$x$ stays")])
    quoted = text.split("### Abstract\n\n", 1)[1]
    assert "<img" not in quoted and "&lt;img src=x onerror=alert(1)\\>" in quoted
    assert "&amp;lt;tag&amp;gt;" in quoted and "\\[x\\](javascript:y)" in quoted
    assert "> \\# no heading" in quoted and "> 1\\. no list" in quoted and "> \\- no item" in quoted
    assert "> \\===" in quoted and "> x stays" in quoted


def test_links_only_for_web_addresses_others_plain_text():
    assert safe_link("javascript:alert(1)") is None and safe_link(" JavaScript:alert(1)") is None
    assert safe_link("data:text/html,x") is None and safe_link("file:///etc/passwd") is None
    assert safe_link("HTTPS://example.org/a b<c>") == "HTTPS://example.org/a%20b%3Cc%3E"
    text = export_markdown([paper(url="javascript:alert(1)", doi="10.1002/(SICI)1097-4571(199806)49:8<693::AID>3")])
    assert "<javascript:" not in text and "- **Link:** javascript:alert(1)" in text
    assert "- **DOI:** <https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID%3E3>" in text
    assert "- **Link:** <https://example.org/x>" in export_markdown([paper(url="https://example.org/x")])
    (page,) = markdown_files([paper(url="javascript:alert(1)")]).values()
    assert 'url: null' in page and "<javascript:" not in page


def test_a_paper_without_venue_gets_its_year_as_the_year():
    text = export_markdown([paper(venue=None, year=2019)])
    assert "- **Year:** 2019" in text and "Venue" not in text
    assert "- **Venue:** NeurIPS 2019" in export_markdown([paper(venue="NeurIPS", year=2019)])
    assert "- **Venue:** NeurIPS 2019" in export_markdown([paper(venue="NeurIPS 2019", year=2019)])
    assert "Venue" not in export_markdown([paper(venue=None, year=None)])


def test_a_notes_markdown_is_kept_and_its_html_and_script_links_are_not():
    note = ("**mine** [site](https://example.org) <https://example.org/a> <b>bold?</b> <!-- c -->\n"
            "[bad](javascript:alert(1)) ![img](JAVASCRIPT:x) [e](&#106;avascript:x) <javascript:x>\n"
            "[ref]: javascript:alert(1)\n`<code>` stays\n```\n<pre>kept</pre>\n```\n")
    safe = safe_note(note)
    assert "**mine** [site](https://example.org) <https://example.org/a>" in safe
    assert "&lt;b>bold?&lt;/b> &lt;!-- c -->" in safe
    assert "[bad]\\(javascript:alert(1))" in safe and "![img]\\(JAVASCRIPT:x)" in safe
    assert "[e]\\(&#106;avascript:x)" in safe and "&lt;javascript:x>" in safe
    assert "[ref]\\: javascript:alert(1)" in safe
    assert "`<code>` stays" in safe and "```\n<pre>kept</pre>\n```" in safe
    assert safe_note("plain $50 & 100% # note") == "plain $50 & 100% # note"
    math = "$$\n\\frac{a}{b}\n$$\nand $\\{x\\}$ but [s]{onclick=x}\n```{=html}\n<b>{c}</b>\n```"
    assert safe_note(math) == ("$$\n\\frac{a}{b}\n$$\nand $\\{x\\}$ but [s]\\{onclick=x}\n```\\{=html}\n"
                               "<b>{c}</b>\n```")


def test_ris_has_no_byte_order_mark():
    assert export_ris([paper()]).startswith("TY  - ")


def test_the_csv_export_with_a_long_note_reads_with_python_csv_as_the_readme_says(tmp_path):
    """A new user's trial: the README said Python reads the CSV export as it is, but a note over 131,072
    characters stops csv.DictReader with "field larger than field limit"; the README's line lifts the limit."""
    import csv
    import sys

    import pytest

    from db.exporters.table import export_csv

    path = tmp_path / "papers.csv"
    path.write_bytes(export_csv([paper(note="x" * 200_000)]).encode("utf-8-sig"))
    before = csv.field_size_limit(131_072)  # a fresh interpreter's (Margin's CSV reader raises it for itself)
    try:
        with pytest.raises(csv.Error, match="field larger than field limit"), \
                open(path, encoding="utf-8-sig", newline="") as file:
            list(csv.DictReader(file))
        csv.field_size_limit(sys.maxsize)  # as the README says
        with open(path, encoding="utf-8-sig", newline="") as file:
            (row,) = csv.DictReader(file)
        assert len(row["note"]) == 200_000
    finally:
        csv.field_size_limit(before)
