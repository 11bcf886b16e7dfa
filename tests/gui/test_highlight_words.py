"""Highlight word lists (issue 16, item 4): kept in the library, marked green/red in the reader, counted."""

from __future__ import annotations

import pytest

from db.library.library import Library
from db.text.highlight_words import HighlightLists, clean_entry, count, mark

REASONING = "9342e12f8e8d"  # chain-of-thought lower bounds


def test_mark_wraps_words_and_phrases_outside_tags_and_links():
    lists = HighlightLists(["chain of thought", "reason*", "amp"], ["lower bound"])
    html = ('<h2>Chain  of thought</h2><p class="links"><a href="x">reasoning link</a></p>'
            '<p>Reasoning &amp; a Lower Bound; unreasonable</p>')
    marked = mark(html, lists)
    assert marked.count('class="hw-include"') == 2 and marked.count('class="hw-exclude"') == 1
    assert '<a href="x">reasoning link</a>' in marked  # links are left alone
    assert "&amp;" in marked and "unreasonable" in marked  # entities stay whole; word boundaries hold
    assert mark(html, HighlightLists()) == html
    assert count("Reasoning about reasons, chain of thought; a lower bound", lists) == {"include": 3, "exclude": 1}


def test_entries_are_checked():
    assert clean_entry("  chain   of thought ") == "chain of thought"
    for bad in ("", "   ", "***", "x" * 101):
        with pytest.raises(ValueError):
            clean_entry(bad)


def test_lists_are_kept_in_the_library(library_dir):
    with Library.open(library_dir) as library:
        assert not library.highlight_lists()
        library.set_highlight_lists(["theory", "Theory", "reason*"], ["benchmark"])
        with pytest.raises(ValueError):
            library.set_highlight_lists(["fine", ""], [])
    with Library.open(library_dir) as library:
        lists = library.highlight_lists()
        assert (lists.include, lists.exclude) == (["theory", "reason*"], ["benchmark"])  # the bad call changed nothing


def test_lists_survive_a_restart_and_mark_the_reader(make_window, qtbot):
    from desktop.reader.highlight_view import edit_highlight_words

    window = make_window()
    window.select_paper(REASONING)
    assert "hw-include" not in window.reader.toHtml()
    assert edit_highlight_words(window, ["chain-of-thought", "reasoning"], ["lower bound*"]) is True
    html = window.reader.toHtml()
    assert "#c8f0c8" in html and "#f8c8c8" in html  # green and red backgrounds, as Qt keeps them
    assert "✓ " in window.reader.toPlainText() and "highlight words" in window.reader.toPlainText()
    window.close()
    window.library.close()

    again = make_window()
    assert again.highlight_lists.include == ["chain-of-thought", "reasoning"]
    again.select_paper(REASONING)
    html = again.reader.toHtml()
    assert "#c8f0c8" in html and "#f8c8c8" in html
    text = again.reader.toPlainText()
    counts = count(again.library.paper(REASONING).label + "\n" + again.library.paper(REASONING).abstract,
                   again.highlight_lists)
    assert f"✓ {counts['include']} · ✗ {counts['exclude']} highlight words" in text and counts["include"] == 8
