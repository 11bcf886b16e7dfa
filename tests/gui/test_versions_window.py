"""Issue 30 item 6 in the window: a work with two versions is one row saying so; the reader shows each version's
venue and link; a rating given in the window rates the work; Edit → Split from other versions makes two rows
and Ctrl+Z (undo) groups them again."""

from __future__ import annotations

from PySide6.QtCore import Qt

from db.library.library import Library
from db.paper import PaperRecord
from db.text.cleaning import strip_bidi  # the list isolates each field (FSI … PDI)
from desktop.list.paper_model import DETAIL_ROLE

ICLR = PaperRecord(title="Loss Functions for Multiset Prediction", abstract="We study multiset prediction with a"
                   " loss whose minimizer is the oracle policy, and compare against several alternatives.",
                   authors=["Sean Welleck", "Kyunghyun Cho"], venue="ICLR 2018", year=2018, openreview_id="BJyRtb-Cb",
                   extra={"decision": "Reject"})
NIPS = PaperRecord(title="Loss functions for multiset prediction", abstract="We study the problem of multiset"
                   " prediction, proposing a loss whose minimizer is the oracle policy, on several benchmarks.",
                   authors=["Sean Welleck", "Zixin Yao", "Kyunghyun Cho"], venue="NIPS 2018", year=2018,
                   url="https://papers.nips.cc/paper/7820")
OTHER = PaperRecord(title="Another Paper", abstract="Nothing to do with sets at all, a different topic entirely.",
                    venue="NIPS 2018", year=2018)


def test_one_row_per_work_the_versions_in_the_reader_and_split_with_undo(make_window, library_dir, qtbot):
    with Library.open(library_dir, seed=False) as library:
        first, second, other = library.import_records([ICLR, NIPS, OTHER]).new
        assert library.versions(first) == [first, second]
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    qtbot.waitUntil(lambda: window.model.rowCount() == 2, timeout=5000)
    assert window.model.ids() == [first, other]
    detail = strip_bidi(window.model.index(0, 0).data(DETAIL_ROLE))  # without the isolates around each field
    assert detail == "Sean Welleck, Kyunghyun Cho · 2 versions · ICLR 2018"

    window.select_row(0, by_user=True)
    text = window.reader.toPlainText()
    assert "Versions:" in text and "ICLR 2018" in text and "NIPS 2018" in text
    assert "https://papers.nips.cc/paper/7820" in window.reader.toHtml()  # the other version's link

    qtbot.keyClick(window.paper_list, Qt.Key.Key_4)  # rate the work from the list
    qtbot.waitUntil(lambda: window.library.paper(second).rating == 4, timeout=5000)

    window.actions_.split_action.trigger()  # Edit → Split from other versions
    qtbot.waitUntil(lambda: window.model.rowCount() == 3, timeout=5000)
    assert window.library.versions(first) == [first]
    window.actions_.undo_action.trigger()
    qtbot.waitUntil(lambda: window.model.rowCount() == 2, timeout=5000)
    assert window.library.versions(first) == [first, second]
    assert window.current_paper_id() == first


def test_exporting_the_current_search_exports_every_version_as_the_command_does(make_window, library_dir, qtbot,
                                                                                 tmp_path):
    """The list shows a work once, but "Papers matching the current search" exports each version, as `margin
    export --query` does (the README: exports count every version); it once wrote 148 where the command wrote
    150."""
    import json

    with Library.open(library_dir, seed=False) as library:
        first, second, _ = library.import_records([ICLR, NIPS, OTHER]).new
    window = make_window()
    window.set_query("multiset")
    qtbot.waitUntil(lambda: window.search.query == "multiset" and window.model.rowCount() == 1, timeout=10000)
    assert window.actions_.ids_for_scope("search") == [first, second]
    window.actions_.start_export(window.actions_.ids_for_scope("search"), "csl-json", tmp_path / "found.json")
    qtbot.waitUntil(lambda: window.actions_.last_export is not None, timeout=30000)
    assert window.actions_.last_export[0] == 2
    assert len(json.loads((tmp_path / "found.json").read_text(encoding="utf-8"))) == 2


def test_the_annotated_papers_in_json_keep_a_paper_only_read_as_the_command_does(make_window, library_dir, qtbot,
                                                                                  tmp_path):
    """Margin JSON (the format that restores) keeps a paper that is only read, in the window's export of "the
    annotated papers" as in `margin export --format json`; BibTeX does not (it would carry nothing of it)."""
    import json

    from db.library.backup import annotated_export_ids

    with Library.open(library_dir, seed=False) as library:
        first, second, other = library.import_records([ICLR, NIPS, OTHER]).new
        library.set_read(other, True)
        library.set_rating(first, 4)
    window = make_window()
    assert window.actions_.ids_for_scope("annotated") is None  # chosen on the export's thread, by format
    for fmt, name in (("json", "backup.json"), ("bibtex", "papers.bib")):
        window.actions_.last_export = None
        window.actions_.start_export(None, fmt, tmp_path / name)
        qtbot.waitUntil(lambda: window.actions_.last_export is not None, timeout=30000)
        assert window.actions_.last_export[0] == len(annotated_export_ids(window.library, fmt))
    papers = json.loads((tmp_path / "backup.json").read_text(encoding="utf-8"))["papers"]
    assert {item["id"] for item in papers} == {first, second, other}  # a work's rating is every version's
    assert "Another Paper" not in (tmp_path / "papers.bib").read_text(encoding="utf-8")
