from db.text.abstract_markup import abstract_to_html, abstract_to_plain


def test_math_becomes_unicode():
    assert abstract_to_plain(r"each requires $\Omega(n)$ tokens") == "each requires Ω(n) tokens"
    assert abstract_to_plain(r"a $3\times$ speedup") == "a 3× speedup"
    assert "ℳ=SE(n)" in abstract_to_plain(r"$\mathcal{M}=\mathrm{SE}(n)^N$")


def test_tex_markup_quotes_and_dashes():
    html = abstract_to_html(r"\emph{x} and ``quoted'' a--b c---d")
    assert "<i>x</i>" in html
    assert "\u201cquoted\u201d" in html
    assert "a\u2013b" in html and "c\u2014d" in html


def test_nested_style_macros_and_markdown_bold():
    html = abstract_to_html(r"\textit{\textbf{Spatio}-vision} and **GLEAN** and *how many*")
    assert "<i><b>Spatio</b>-vision</i>" in html
    assert "<b>GLEAN</b>" in html
    assert "<i>how many</i>" in html


def test_percent_is_text_not_a_comment():
    assert abstract_to_plain("improves by 20% over the baseline") == "improves by 20% over the baseline"


def test_lone_stars_stay_stars():
    assert abstract_to_plain("A* search and 2*3") == "A* search and 2*3"


def test_urls_become_links_without_trailing_period():
    html = abstract_to_html("Code: https://github.com/jjwang8/PolyNeXt.")
    assert '<a href="https://github.com/jjwang8/PolyNeXt">https://github.com/jjwang8/PolyNeXt</a>.' in html


def test_html_in_abstract_is_escaped():
    html = abstract_to_html('<script>alert(1)</script><img src="http://x/y.png"> javascript:alert(1)')
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html
    assert "href=\"javascript" not in html and "<img" not in html


def test_highlight_wraps_matches():
    import re

    html = abstract_to_html("Reasoning tokens matter", re.compile(r"\breason\w*", re.I))
    assert '<span class="hit">Reasoning</span>' in html
