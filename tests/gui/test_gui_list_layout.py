"""The paper list at a laptop's width: the title comes first and gets the room (issue 14, item 1).

Each row has two lines: the title (elided at the right only when it does not fit), then stars, authors · venue ·
year and tags. What the first line shows is measured through the delegate that paints it."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyleOptionViewItem

from db.library.library import Library
from db.paper import PaperRecord
from db.text.cleaning import strip_bidi  # the list isolates each field (FSI … PDI)
from desktop.list.paper_model import DETAIL_ROLE, LABEL

# Real titles of typical length (NIPS 2017 / ICLR 2018: median 61 characters, 75 % up to 75, 90 % up to 88).
TYPICAL = [
    "A Disentangled Recognition and Nonlinear Dynamics Model for Unsupervised Learning",  # 81
    "Deep Reinforcement Learning from Human Preferences",
    "Wasserstein Generative Adversarial Networks with Gradient Penalty for Image Synthesis",  # 85
    "Learning Combinatorial Optimization Algorithms over Graphs",
    "Multi-Information Source Optimization with Worst-Case Guarantees",
]
LONG = ("Exploring Generalization in Deep Learning through Sharpness, Norms, Margins and the Complexity of "
        "Overparametrized Networks")


def _library(folder):
    lib = Library.open(folder, seed=False)
    records = [PaperRecord(abstract=f"Abstract number {i} about learning.", title=title,
                           authors=["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"],
                           venue="NIPS 2017", year=2017) for i, title in enumerate([*TYPICAL, LONG])]
    lib.import_records(records)
    lib.close()


def _first_lines(window):
    """{full title: what the row's first line shows} for every row, at the list's current column width."""
    view = window.paper_list
    delegate = view.itemDelegateForColumn(LABEL)
    shown = {}
    for row in range(window.model.rowCount()):
        index = window.model.index(row, LABEL)
        option = QStyleOptionViewItem()
        option.font = view.font()
        option.rect = view.visualRect(index)
        shown[index.data()] = delegate.title_text(option, index)
    return shown


def _at_size(make_window, qtbot, library_dir, width, height):
    _library(library_dir)
    window = make_window()
    window.resize(width, height)
    qtbot.waitUntil(lambda: window.width() == width)
    return window


def test_at_1000_px_a_row_shows_at_least_45_characters_of_title(make_window, qtbot, library_dir):
    window = _at_size(make_window, qtbot, library_dir, 1000, 700)
    shown = _first_lines(window)
    assert len(shown) == 6
    for title, line in shown.items():
        visible = line.removesuffix("…")
        assert title.startswith(visible)
        assert len(visible) >= min(45, len(title)), (title, line)
    assert shown[LONG].endswith("…")  # a title too long for the row is cut, not wrapped over the second line


def test_at_1400_px_typical_titles_are_whole(make_window, qtbot, library_dir):
    window = _at_size(make_window, qtbot, library_dir, 1400, 900)
    shown = _first_lines(window)
    for title in TYPICAL:
        assert shown[title] == title


def test_second_line_has_authors_venue_and_the_other_columns_are_hidden(make_window, qtbot, library_dir):
    window = _at_size(make_window, qtbot, library_dir, 1000, 700)
    index = window.model.index(0, LABEL)
    assert strip_bidi(index.data(DETAIL_ROLE)) == "Ada Lovelace, Alan Turing, Grace Hopper et al. · NIPS 2017"
    assert index.data(Qt.ItemDataRole.UserRole) == window.model.paper_id(0)  # the paperList contract
    header = window.paper_list.horizontalHeader()
    assert [header.isSectionHidden(c) for c in range(6)] == [False, True, True, True, True, True]
    row = window.paper_list.visualRect(index)
    assert row.height() >= 2 * window.paper_list.fontMetrics().height()  # two lines
    assert row.width() >= window.paper_list.viewport().width() - 2  # the title column has the list's width
