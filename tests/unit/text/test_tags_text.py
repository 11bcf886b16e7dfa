"""A paper's tags as one line (db.text.cleaning.tags_text): a tag holding a comma never reads as several — in the
list's tags column, `margin list` and `margin show` (a new user's trial: `deep learning, theory` looked like two
tags)."""

from __future__ import annotations

from db.library.library import Library
from db.text.cleaning import tags_text
from tests.helpers.records import paper_record
from tests.helpers.runner import margin


def test_a_tag_with_a_comma_or_quote_is_quoted_as_the_query_language_reads_it():
    assert tags_text(["gan", "deep learning, theory", 'the "best" one']) == \
        'gan, "deep learning, theory", "the ""best"" one"'
    assert tags_text([]) == ""
    assert tags_text(["a"], lambda tag: f"<{tag}>") == "<a>"


def test_margin_list_shows_a_comma_tag_as_one_and_its_text_finds_it(tmp_path):
    folder = tmp_path / "lib"
    with Library.open(folder, seed=False) as library:
        paper_id = library.import_records([paper_record(title="One paper")]).new[0]
        library.add_tags(paper_id, ["deep learning, theory", "gan"])
    out = margin("list", library=folder).stdout
    assert '[deep learning, theory' not in out and '"deep learning, theory"' in out
    written = out.split("[", 1)[1].split("]", 1)[0].split(", gan")[0]  # the tag as the list wrote it
    assert margin("list", f"tag:{written}", library=folder).stdout.split()[0] == paper_id  # typed back: found
    assert '"deep learning, theory", gan' in margin("show", paper_id, library=folder).stdout
