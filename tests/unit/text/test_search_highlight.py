"""The reader marks a search's words where the search found them (new-user trial, issue 4): Chinese words (the
index matches a CJK run as its bigrams, in place, with no word boundary around it) and a phrase as a phrase."""

from __future__ import annotations

import re

from db.paper import Paper
from db.search import highlight_prefixes, highlight_terms
from db.text.render import paper_to_html

HIT = re.compile(r'<span class="hit">(.*?)</span>')


def _hits(query: str, abstract: str, title: str | None = None) -> list[str]:
    paper = Paper(id="abc", label=title or "x", title=title, abstract=abstract, authors=[], venue=None, year=None)
    return HIT.findall(paper_to_html(paper, highlight_prefixes(highlight_terms(query))))


def test_a_chinese_word_is_marked_inside_the_run_it_stands_in():
    assert _hits("中文文本", "本文提出了一种基于图神经网络的中文文本分类方法。") == ["中文文本"]


def test_a_chinese_word_is_marked_in_the_title_too():
    assert _hits("中文文本", "无关。", title="基于图神经网络的中文文本分类方法研究") == ["中文文本"]


def test_a_phrase_is_marked_as_a_phrase_not_word_by_word():
    abstract = ("We compare policy gradient methods with other policies; the gradient of a value function "
                "differs from a policy. Policy   gradients converge.")
    assert _hits('"policy gradient"', abstract) == ["policy gradient", "Policy   gradients"]


def test_a_phrase_and_a_word_each_keep_their_own_way():
    assert _hits('"policy gradient" value', "A policy gradient of the value; values and policy.") == [
        "policy gradient", "value", "values"]


def test_english_words_are_still_marked_in_every_form():
    assert _hits("reasoning", "Reasons for reasoning.") == ["Reasons", "reasoning"]


def test_a_chinese_highlight_word_is_marked_inside_a_run():
    from db.text.highlight_words import HighlightLists, count, mark

    lists = HighlightLists(include=["中文"], exclude=["graph"])
    html = mark("<p>基于图神经网络的中文文本分类; graphs and a graph.</p>", lists)
    assert '">中文</span>' in html and '">graph</span>' in html and '">graphs</span>' not in html
    assert count("中文文本 中文", lists) == {"include": 2, "exclude": 0}
