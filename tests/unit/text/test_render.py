from db.paper import Paper
from db.text.render import note_to_html, paper_to_html, stars


def test_note_keeps_dollars_and_math():
    assert "Budget: $50 for data and $60 for compute" in note_to_html("Budget: $50 for data and $60 for compute")
    assert '<span class="math">Ω(<i>n</i>)</span>' in note_to_html(r"bound $\Omega(n)$")


def test_note_is_sanitized():
    html = note_to_html('<script>alert(1)</script> [x](javascript:alert(1)) ![i](http://e.com/a.png) '
                        '<img src="file:///etc/passwd"> <a href="https://ok.org" onclick="x()">ok</a>')
    assert "<script" not in html and "alert(1)" not in html
    assert "javascript:" not in html and "<img" not in html and "onclick" not in html
    assert 'href="https://ok.org"' in html


def test_paper_html_has_label_tags_and_escaped_fields():
    paper = Paper(id="abc", label="<b>X</b>", title=None, abstract=r"$\Omega(n)$", authors=["A <B>"],
                  venue="ICML 2026", year=2026, rating=3, tags=["my tag"], url="javascript:alert(1)")
    html = paper_to_html(paper)
    assert "&lt;b&gt;X&lt;/b&gt;" in html and "A &lt;B&gt;" in html
    assert "Ω(<i>n</i>)" in html and "my tag" in html and "★★★☆☆" in html
    assert "javascript:" not in html


def test_stars():
    assert stars(None) == "" and stars(5) == "★★★★★" and stars(1) == "★☆☆☆☆"


def test_highlight_ignores_case_and_accents():
    paper = Paper(id="abc", label="x", title=None, abstract="Work by Képes on Graphs and graph theory", authors=[],
                  venue=None, year=None)
    html = paper_to_html(paper, ["kepes", "GRAPH"])
    assert '<span class="hit">Képes</span>' in html
    assert '<span class="hit">Graphs</span>' in html and '<span class="hit">graph</span>' in html
