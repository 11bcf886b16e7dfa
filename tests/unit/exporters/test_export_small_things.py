"""Export details from issue 21: a note's own headings nest under the paper's; citation keys unique without a
hash (more in test_export.py)."""

from db.exporters.common import citation_keys
from db.exporters.markdown import export_markdown, nest_headings
from db.exporters.markdown_safety import outside_fences
from db.paper import Paper


def paper(pid: str, note: str = "", authors=("Edouard Grave",), year=2017) -> Paper:
    return Paper(id=pid, label=f"Paper {pid}", title=f"Paper {pid}", abstract=f"Abstract {pid}.",
                 authors=list(authors), venue=None, year=year, note=note)


def test_note_headings_are_nested_under_the_papers_heading():
    text = export_markdown([paper("aaaaaaaaaaaa", "## Method\n\nsee\n\n### Detail\n\n```\n## not a heading\n```")])
    lines = text.splitlines()
    assert "## Paper aaaaaaaaaaaa" in lines and "### Note" in lines
    assert "#### Method" in lines and "##### Detail" in lines and "## Method" not in lines
    assert "## not a heading" in lines  # code is left as written
    assert lines.index("### Note") < lines.index("#### Method")
    assert nest_headings("no headings\n#hashtag", 4) == "no headings\n#hashtag"


def test_citation_keys_get_a_letter_only_on_a_clash():
    one, two, three = paper("111111111111"), paper("222222222222"), paper("333333333333", authors=("Ann Lee",))
    assert citation_keys([one, three]) == {one.id: "grave2017", three.id: "lee2017"}
    assert citation_keys([two, one, three]) == {one.id: "grave2017", two.id: "grave2017a", three.id: "lee2017"}
    many = [paper(f"{n:012x}") for n in range(30)]
    keys = citation_keys(many)
    assert len(set(keys.values())) == 30 and keys[many[27].id] == "grave2017aa"


def test_sort_by_first_authors_family_name(library_dir):
    from db.library import facets
    from db.library.library import Library
    from db.paper import PaperRecord

    lib = Library.open(library_dir, seed=False)
    try:
        lib.import_records([PaperRecord(title=t, abstract=f"An abstract about {t}.", authors=a, year=y)
                            for t, a, y in (("Zed", ["Ashish Vaswani", "B. Other"], 2017), ("None", [], 2016),
                                            ("Ada", ["Edouard Grave"], 2018), ("Bee", ["Anna van Aalst"], 2019))])
        labels = {p.id: p.label for p in lib.papers()}
        order = [labels[i] for i in facets.order_ids(lib, None, "authors")]
        assert order == ["Bee", "Ada", "Zed", "None"]  # Aalst, Grave, Vaswani; no authors last
        assert [labels[i] for i in facets.order_ids(lib, None, "authors", descending=True)] == [
            "Zed", "Ada", "Bee", "None"]
        assert [labels[i] for i in facets.order_ids(lib, None, "year", descending=True)] == [
            "Bee", "Ada", "Zed", "None"]
    finally:
        lib.close()


def test_fenced_code_ends_only_at_a_fence_of_its_kind_and_length():
    """CommonMark: a block opened by four backticks is not closed by three, nor a tilde block by backticks; a
    longer fence of the same kind closes it. Headings inside stay as written; after it they nest."""
    note = "````\n```\n# inside four\n````\n~~~\n```\n# inside tilde\n~~~~~\n# after"
    lines = nest_headings(note, 3).split("\n")
    assert lines[2] == "# inside four" and lines[6] == "# inside tilde" and lines[8] == "### after"
    assert [index for index, _line, _opened in outside_fences(note.split("\n"))] == [0, 4, 8]
    assert [bool(opened) for _index, _line, opened in outside_fences(note.split("\n"))] == [True, True, False]
