"""The query language on its own (db/search/language.py): parsing, hostile input, folding, highlighting."""

import pytest
from whoosh import query as q

from db.search.language import SEARCH_SYNTAX_HELP, InPart, fold, highlight_terms, parse, query_analyzers, tag_value


def parsed(text):
    return parse(text, query_analyzers())


def test_free_words_are_anded_over_the_text_field_and_stemmed():
    result = parsed("Reasoning networks")
    assert result.query == q.And([q.Term("text", "reason"), q.Term("text", "network")])
    assert result.hint == ""


def test_phrase_keeps_stop_words():
    assert parsed('"chain of thought"').query == q.Phrase("text", ["chain", "of", "thought"])


def test_text_fields_are_parts_of_the_one_text_field():
    assert parsed('title:"graph nets"').query == InPart(q.Phrase("text", ["graph", "net"]), 0)
    assert parsed("author:Bengio").query == InPart(q.Term("text", "bengio"), 1)
    assert parsed("abstract:graph").query == InPart(q.Term("text", "graph"), 2)
    assert parsed("note:todo*").query == InPart(q.Prefix("text", "todo"), 3)
    assert parsed("title:(graph OR tree)").query == q.Or(
        [InPart(q.Term("text", "graph"), 0), InPart(q.Term("text", "tree"), 0)])


@pytest.mark.parametrize("text, expected", [
    ("rating:>=4", q.TermRange("rating", "4", "9")),
    ("rating:4", q.Term("rating", "4")),
    ("rating:<3", q.TermRange("rating", "1", "2")),
    ("rating:none", q.Term("rating", "0")),
    ("year:2017..2019", q.TermRange("year", "2017", "2019")),
    ("year:2019..2017", q.TermRange("year", "2017", "2019")),
    ("year:>2018", q.TermRange("year", "2019", "9999")),
    ("year:<=2000", q.TermRange("year", "0001", "2000")),
    ("read:yes", q.Term("read", "yes")),
    ("read:no", q.Term("read", "no")),
    ("tag:\"Graph  Neural Nets\"", q.Term("tag", "graph neural nets")),
    ("TAG:ml", q.Term("tag", "ml")),
    ("venue:ICML", q.Term("venue", "icml")),
])
def test_field_forms(text, expected):
    result = parsed(text)
    assert result.query == expected
    assert result.hint == ""


def test_boolean_operators_and_parentheses():
    assert parsed("graph OR tree").query == q.Or([q.Term("text", "graph"), q.Term("text", "tree")])
    assert parsed("graph AND tree").query == q.And([q.Term("text", "graph"), q.Term("text", "tree")])
    assert parsed("graph -tree").query == q.And([q.Term("text", "graph"), q.Not(q.Term("text", "tree"))])
    assert parsed("graph NOT tree").query == parsed("graph -tree").query
    assert parsed("(graph OR tree) rating:5").query == q.And(
        [q.Or([q.Term("text", "graph"), q.Term("text", "tree")]), q.Term("rating", "5")])


def test_lower_case_or_is_a_word():
    assert parsed("graph or tree").query == q.And(
        [q.Term("text", "graph"), q.Term("text", "or"), q.Term("text", "tree")])


def test_wildcards_look_for_stems():
    assert parsed("reinforc*").query == q.Prefix("text", "reinforc")
    assert parsed("learning*").query == q.Prefix("text", "learn")
    assert parsed("gr?ph").query == q.Wildcard("text", "gr?ph")
    assert parsed("tag:graph*").query == q.Prefix("tag", "graph")


@pytest.mark.parametrize("text, expected", [
    ("NOT OR graph", q.Term("text", "graph")),
    ("graph OR", q.Term("text", "graph")),
    ("AND graph AND", q.Term("text", "graph")),
    ("graph NOT", q.Term("text", "graph")),
    ("(graph", q.Term("text", "graph")),
    ("graph))", q.Term("text", "graph")),
    ('"graph nets', q.And([q.Term("text", "graph"), q.Term("text", "net")])),
    ("graph : *", q.Term("text", "graph")),
    ("graph 🎉", q.Term("text", "graph")),
    ("-" * 900 + "graph", q.Not(q.Term("text", "graph"))),
    ("(" * 900 + "graph", q.Term("text", "graph")),
    ("graph - --", q.Term("text", "graph")),
    ("http://example.org/graph", q.Phrase("text", ["http", "exampl", "org", "graph"])),
])
def test_hostile_input_falls_back_to_the_plain_terms(text, expected):
    assert parsed(text).query == expected


@pytest.mark.parametrize("text, hint", [
    (":", "nothing to search for"),
    ("*", "a lone *"),
    ("🎉", "nothing to search for"),
    ("(((", "nothing to search for"),
    ("tag:", "tag: needs a value"),
    ("year:abc", "year: takes a number"),
    ("rating:>=x", "rating: takes a number"),
    ("read:maybe", "read: takes yes or no"),
    ("a*", "at least 2 letters"),
])
def test_unusable_queries_say_why(text, hint):
    result = parsed(text)
    assert result.query is None
    assert hint in result.hint


def test_unclosed_quote_and_long_input_give_a_hint_but_still_search():
    assert "unclosed quote" in parsed('"graph').hint
    long = parsed("graph " * 300)
    assert "first 1000 characters" in long.hint
    assert isinstance(long.query, q.And)
    assert set(long.query.subqueries) == {q.Term("text", "graph"), q.Term("text", "grap")}


def test_empty_query_has_no_query_and_no_hint():
    assert parsed("   ").query is None
    assert parsed("").hint == ""


def test_folding_ignores_case_unicode_form_and_accents():
    assert fold("Ke\u0301pes") == fold("Képes") == fold("KEPES") == "kepes"
    assert fold("Straße") == "strasse"
    assert fold("Ørsted") == "orsted"
    assert parsed("Ke\u0301pes").query == parsed("kepes").query == q.Term("text", "kepe")


def test_cjk_is_searched_by_bigrams():
    assert parsed("神经网络").query == q.Phrase("text", ["神经", "经网", "网络"])
    assert parsed("网").query == q.Term("text", "网")


def test_a_tag_with_a_comma_is_one_tag():
    assert tag_value("Theory, Proofs") == "theory, proofs"
    assert parsed('tag:"theory, proofs"').query == q.Term("tag", "theory, proofs")


def test_a_doubled_quote_inside_quotes_is_one_quote():
    assert parsed('tag:"say ""hi"""').query == q.Term("tag", 'say "hi"')
    assert parsed('tag:"a""b" x').query == q.And([q.Term("tag", 'a"b'), q.Term("text", "x")])
    assert parsed('"a" "b"').query == parsed("a b").query  # two phrases of one word each, as before


def test_highlight_terms_are_the_words_typed_without_fields_operators_or_negated_words():
    assert highlight_terms('graph "chain of thought" title:Képes -noise NOT tree rating:>=4 tag:ml year:2019') == [
        "graph", "chain of thought", "Képes"]  # a phrase: one term
    assert highlight_terms("reinforc* OR (policy AND author:Sutton)") == ["reinforc", "policy", "Sutton"]
    assert highlight_terms("NOT OR") == []


def test_help_text_names_every_field():
    for name in ("title:", "abstract:", "author:", "note:", "tag:", "venue:", "year:", "rating:", "read:"):
        assert name in SEARCH_SYNTAX_HELP


def test_the_renderer_marks_every_form_of_a_query_word_from_the_prefixes_the_search_gives_it():
    """db.text.render no longer stems: the search cuts a query's words to their stems (highlight_prefixes) and
    the caller hands those to paper_to_html, which marks every word starting with one."""
    from db.paper import Paper
    from db.search import highlight_prefixes
    from db.text.render import paper_to_html

    assert highlight_prefixes(["reasoning", "Képes", "GRAPHS", "of", "a", "reasoning"]) == [
        "reason", "kepe", "graph", "of"]
    paper = Paper(id="abc", label="x", title=None, abstract="Reasons for reasoning: Képes on a graph of graphs.",
                  authors=[], venue=None, year=None)
    html = paper_to_html(paper, highlight_prefixes(["reasoning", "Kepes", "graphs"]))
    for word in ("Reasons", "reasoning", "Képes", "graph", "graphs"):
        assert f'<span class="hit">{word}</span>' in html


@pytest.mark.parametrize("text", ["rating:>=9", "rating:9", "rating:6..9", "rating:>5", "rating:<1", "rating:<=0"])
def test_a_rating_no_paper_can_have_says_ratings_are_1_to_5(text):
    """A new user's trial: `rating:>=9` found nothing without a word."""
    assert "ratings are 1 to 5" in parsed(text).hint


@pytest.mark.parametrize("text", ["rating:5", "rating:>=4", "rating:3..9", "rating:<2", "rating:none", "year:>=3000"])
def test_a_rating_some_paper_can_have_gives_no_such_hint(text):
    assert "ratings are 1 to 5" not in parsed(text).hint


def test_a_lone_tilde_says_it_needs_a_question(seeded_copy):
    """A new user's trial: the query `~` alone found nothing without a word (CLI stderr, window status bar)."""
    from tests.helpers.runner import margin

    for text in ("~", " ~  "):
        done = margin("list", text, library=seeded_copy)
        assert done.code == 0 and done.stdout == ""
        assert done.stderr.startswith("margin: ~ needs a question after it"), done.stderr
