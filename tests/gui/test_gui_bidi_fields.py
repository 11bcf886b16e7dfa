"""Text from files is never reordered where the window composes a line from several fields (new-user trial,
issue 3): a right-to-left author keeps the year after the authors in the list's second line."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextLayout, QTextOption

from db.library.library import Library
from db.paper import Annotations
from desktop.list.paper_model import DETAIL_ROLE, TAGS
from tests.helpers.records import paper_record

HEBREW = "דוד כהן"


def _visual_x(text: str) -> list[float]:
    """The x position of each cursor position of `text` laid out left to right, as the list paints it (read
    inside a run: at a run's edge the position is ambiguous)."""
    layout = QTextLayout(text, QFont())
    option = QTextOption()
    option.setTextDirection(Qt.LayoutDirection.LeftToRight)
    layout.setTextOption(option)
    layout.beginLayout()
    line = layout.createLine()
    line.setLineWidth(100000)
    layout.endLayout()
    return [line.cursorToX(i)[0] for i in range(len(text))]


def test_a_right_to_left_author_does_not_pull_the_year_into_the_authors(library_dir, make_window):
    with Library.open(library_dir, seed=False) as library:
        library.import_records([paper_record(title="Attack of the clones", authors=["Ann Lee", HEBREW], year=2019,
                                             annotations=Annotations(tags=["machine learning", "לימוד"]))])
    window = make_window()
    index = window.model.index(0, 0)
    detail = index.data(DETAIL_ROLE)
    assert "Ann Lee" in detail and HEBREW in detail and "2019" in detail
    x = _visual_x(detail)
    year, hebrew, ann = (detail.index(part) + 1 for part in ("2019", HEBREW, "Ann Lee"))
    assert x[ann] < x[hebrew] < x[year], detail  # Ann Lee, דוד כהן · 2019 — in this order
    tags = index.siblingAtColumn(TAGS).data()
    assert tags.replace("\u2068", "").replace("\u2069", "") == "machine learning, לימוד"
    x = _visual_x(tags)
    assert x[tags.index("machine") + 1] < x[tags.index("לימוד") + 1]


def test_the_reader_keeps_the_order_of_authors_when_the_first_is_right_to_left(library_dir, make_window, qtbot):
    with Library.open(library_dir, seed=False) as library:
        library.import_records([paper_record(title="Attack of the clones", authors=[HEBREW, "Ann Lee"], year=2019,
                                             venue="ICLR 2018")])
    window = make_window()
    qtbot.waitUntil(lambda: "Ann Lee" in window.reader.toPlainText())
    document = window.reader.document()
    block = document.find("Ann Lee").block()
    layout, text = block.layout(), block.text()
    line = layout.lineAt(0)
    hebrew, ann = text.index(HEBREW) + 1, text.index("Ann Lee") + 1
    assert line.cursorToX(hebrew)[0] < line.cursorToX(ann)[0], text  # דוד כהן, Ann Lee — as the file lists them


def test_the_empty_list_message_keeps_a_right_to_left_query_apart_from_its_frame(library_dir, make_window, qtbot):
    window = make_window()
    window.set_query(f"{HEBREW} 2019")
    qtbot.waitUntil(lambda: window.empty_label.isVisible())
    text = window.empty_label.text()
    assert f"\u2068{HEBREW} 2019\u2069" in text  # the query, as typed, one isolate inside “…”
