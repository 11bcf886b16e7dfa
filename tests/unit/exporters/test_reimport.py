"""Re-importing Margin's own exports into the same library changes nothing (issue 13, item 7): the file's title
and the user's title are two things, and the user's tags do not replace the source's keywords."""

from __future__ import annotations

import pytest

from db.exporters.registry import EXTENSIONS, export
from db.import_job import import_paths
from db.library.library import Library
from tests.helpers.interop_tools import hostile_library


def state(library: Library) -> list[tuple]:
    return [(p.id, p.title, p.file_title, p.user_title, p.label, tuple(p.authors), p.venue, p.year, p.url, p.doi,
             p.arxiv_id, p.openreview_id, tuple(p.keywords), tuple(p.tags), p.note, p.rating, sorted(p.extra.items(),
                                                                                                   key=str))
            for p in library.papers()]


@pytest.mark.parametrize("fmt", ["bibtex", "csl-json", "csv", "json"])
def test_re_importing_an_export_changes_nothing(tmp_path, fmt):
    with hostile_library(tmp_path / "lib") as library:
        for paper_id in library.ids()[:2]:
            library.set_rating(paper_id, 4)
        before = state(library)
        path = tmp_path / f"export{EXTENSIONS[fmt]}"
        path.write_text(export(library.papers(), fmt), encoding="utf-8")
        result = import_paths(library, [path], index=lambda _library: None)
        assert (len(result.new), len(result.updated)) == (0, 0), result.summary()
        assert state(library) == before


@pytest.mark.parametrize("fmt", ["bibtex", "csl-json", "csv"])
def test_clearing_a_user_title_after_a_re_import_brings_the_files_title_back(tmp_path, fmt):
    with hostile_library(tmp_path / "lib") as library:
        paper_id = library.ids()[0]
        original = library.paper(paper_id).title
        library.set_title(paper_id, "The user's own title")
        library.add_tags(paper_id, ["mine"])
        path = tmp_path / f"export{EXTENSIONS[fmt]}"
        path.write_text(export(library.papers(), fmt), encoding="utf-8")
        import_paths(library, [path], index=lambda _library: None)
        paper = library.paper(paper_id)
        assert paper.title == "The user's own title" and paper.file_title == original
        assert paper.keywords == ["source, keyword", "second"] and "mine" in paper.tags
        library.set_title(paper_id, None)
        assert library.paper(paper_id).title == original


def test_a_seeded_library_re_imports_its_csv_unchanged(tmp_path):
    with Library.open(tmp_path / "lib") as library:  # the bundled corpus: untitled papers, derived headlines
        before = state(library)
        path = tmp_path / "all.csv"
        path.write_text(export(library.papers(), "csv"), encoding="utf-8")
        result = import_paths(library, [path], index=lambda _library: None)
        assert (len(result.new), len(result.updated)) == (0, 0)
        assert state(library) == before
