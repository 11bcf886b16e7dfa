"""Inline math rendered in full (issue 14, item 3): the HTML of the reader and the note preview, the plain text of
list labels, for each construct the issue names."""

import pytest

from db.paper import Paper
from db.text.abstract_markup import abstract_to_html, abstract_to_plain
from db.text.labels import display_label
from db.text.math_markup import math_to_html, math_to_plain
from db.text.render import note_to_html, paper_to_html

# TeX → (HTML inside <span class="math">, plain Unicode)
CASES = {
    r"\mathcal{M}=\mathrm{SE}(n)^N": ('ℳ=<span class="upright">SE</span>(<i>n</i>)<sup><i>N</i></sup>', "ℳ=SE(n)ᴺ"),
    r"K^{-1}": ("<i>K</i><sup>−1</sup>", "K⁻¹"),
    r"\sum_{i=1}^n x_i^2": ("∑<sub><i>i</i>=1</sub><sup><i>n</i></sup> <i>x</i><sub><i>i</i></sub><sup>2</sup>",
                            "∑ᵢ₌₁ⁿ xᵢ²"),
    r"\chi": ("<i>χ</i>", "χ"),
    r"\frac{a+b}{2}": ("(<i>a</i>+<i>b</i>)/2", "(a+b)/2"),
    r"\frac12": ("1/2", "1/2"),
    r"\text{if } x \le y": ('<span class="upright">if\u00a0</span><i>x</i>≤<i>y</i>', "if\u00a0x≤y"),
    r"\Omega(\log n)": ('Ω(<span class="upright">log </span><i>n</i>)', "Ω(log n)"),
    r"x \in \mathbb{R}^{n \times d}": ("<i>x</i>∈ℝ<sup><i>n</i>×<i>d</i></sup>", "x∈ℝ^(n×d)"),
    r"\alpha_t \to \infty": ("<i>α</i><sub><i>t</i></sub>→∞", "αₜ→∞"),
    r"\|x\|_2^2": ("‖<i>x</i>‖<sub>2</sub><sup>2</sup>", "‖x‖₂²"),
    r"\tilde{O}(\sqrt{n})": ("<i>Õ</i>(√<i>n</i>)", "Õ(√n)"),
    r"\ell_{1,2}": ("ℓ<sub>1,2</sub>", "ℓ₁,₂"),
    r"\max_{i} a_i": ('<span class="upright">max</span><sub><i>i</i></sub> <i>a</i><sub><i>i</i></sub>', "maxᵢ aᵢ"),
}


@pytest.mark.parametrize("tex", CASES)
def test_each_construct_as_html_and_plain(tex):
    html, plain = CASES[tex]
    assert math_to_html(tex) == html
    assert math_to_plain(tex) == plain


def test_mathrm_is_one_upright_run_and_never_italic():
    html = math_to_html(r"\mathrm{SE}(3)")
    assert '<span class="upright">SE</span>' in html and "<i>S" not in html and "<i>E" not in html


def test_reader_renders_the_abstracts_math():
    paper = Paper(id="abc", label="x", title=None, authors=[], venue=None, year=None,
                  abstract=r"Training directly on $\mathcal{M}=\mathrm{SE}(n)^N$ with $K^{-1}$ can be ill-posed.")
    html = paper_to_html(paper)
    assert '<span class="math">ℳ=<span class="upright">SE</span>(<i>n</i>)<sup><i>N</i></sup></span>' in html
    assert '<span class="math"><i>K</i><sup>−1</sup></span>' in html
    assert "^" not in html and "\\" not in html and "$" not in html


def test_reader_marks_search_words_inside_math_too():
    import re

    html = abstract_to_html(r"bound $\log n + \mathrm{cost}$", re.compile(r"\bcost\w*"))
    assert '<span class="upright"><span class="hit">cost</span></span>' in html


def test_note_preview_renders_sums_and_scripts():
    html = note_to_html(r"Energy: $\sum_{i=1}^n x_i^2$ and $K^{-1}$; budget: $50")
    assert ('<span class="math">∑<sub><i>i</i>=1</sub><sup><i>n</i></sup> <i>x</i><sub><i>i</i></sub>'
            "<sup>2</sup></span>") in html
    assert '<span class="math"><i>K</i><sup>−1</sup></span>' in html
    assert "budget: $50" in html and "^" not in html and "_" not in html


def test_note_preview_display_math_gets_its_own_paragraph():
    html = note_to_html("$$\\frac{a+b}{2}$$")
    assert '<p class="math">(<i>a</i>+<i>b</i>)/2</p>' in html


def test_plain_text_of_an_abstract():
    assert abstract_to_plain(r"on $\mathcal{M}=\mathrm{SE}(n)^N$, $K^{-1}$") == "on ℳ=SE(n)ᴺ, K⁻¹"


def test_list_label_of_a_title_with_math_is_plain_unicode():
    def titled(title):
        return Paper(id="abc", label=title, title=title, abstract="", authors=[], venue=None, year=None)

    assert display_label(titled(r"Variational Inference via $\chi$ Upper Bound Minimization")) == \
        "Variational Inference via χ Upper Bound Minimization"
    assert display_label(titled(r"Regularizing in $L^2$ function space")) == "Regularizing in L² function space"
    assert display_label(titled(r"Lower Complexity than $\mathcal{O}(1/\varepsilon)$")) == \
        "Lower Complexity than 𝒪(1/ε)"
    assert display_label(titled(r"Error Bounds under H\"{o}lderian Conditions")) == \
        "Error Bounds under Hölderian Conditions"


def test_reader_heading_renders_a_titles_math():
    paper = Paper(id="abc", label=r"Inference via $\chi$ and $K^{-1}$", title=r"Inference via $\chi$ and $K^{-1}$",
                  abstract="a", authors=[], venue=None, year=None)
    assert '<h2>Inference via <span class="math"><i>χ</i></span> and <span class="math"><i>K</i><sup>−1</sup>' \
        '</span></h2>' in paper_to_html(paper)


def test_malformed_math_falls_back_to_text_and_stays_escaped():
    assert math_to_plain(r"\frac{a") is None or "a" in math_to_plain(r"\frac{a")
    html = abstract_to_html(r"odd $x^{<script>$ here")
    assert "<script" not in html and "&lt;" in html and "&gt;" in html


def test_superscripts_without_a_unicode_form_fall_back_to_a_caret():
    assert math_to_plain(r"x^{\alpha}") == "x^α"
    assert math_to_plain(r"e^{i\pi q}") == "e^(iπq)"
