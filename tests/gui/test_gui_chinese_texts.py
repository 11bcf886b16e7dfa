"""The Chinese window says in Chinese what it composes itself (new-user trial, issue 2): the import summary (dialog
and status bar) is built from the report's numbers, not db's English sentence; Qt's own dialogs (the file dialog's
"Look in:") come with Qt's translation."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication

from db.library.imported_annotations import AnnotationCounts
from db.library.importing import ImportReport


@pytest.fixture
def chinese():
    from desktop.common.i18n import apply_language

    assert apply_language(QApplication.instance(), QLocale("zh_CN"))
    yield
    apply_language(QApplication.instance(), QLocale("en"))


def _report() -> ImportReport:
    return ImportReport(new=[f"n{i}" for i in range(11)], unchanged=["u"], duplicates=2,
                        skipped=[(4, "JSON that does not parse")], merged=['"A": authors added'],
                        conflicts=['DOI 10.1/x is on "A" and "B"'], versions=["v1", "v2", "v3", "v4", "v5", "v6"],
                        annotations=AnnotationCounts(rating=["a"], tags=[f"t{i}" for i in range(7)], kept=["k"]))


ENGLISH_WORD = re.compile(r"\b(new|updated|unchanged|duplicates?|skipped|merged|grouped|versions|annotations|tags|"
                          r"papers?|ratings?|kept|line|more)\b")


def test_the_import_summary_is_chinese_in_the_chinese_window(qtbot, chinese):
    from desktop.window.dialogs import import_report_box

    box = import_report_box(None, _report(), {}, [])
    assert not ENGLISH_WORD.search(box.text()), box.text()
    assert "11" in box.text() and "7" in box.text() and "6" in box.text()
    details = box.detailedText()
    assert "JSON that does not parse" in details  # the file's problem, as db said it, in a Chinese frame
    assert not ENGLISH_WORD.search(details.replace("JSON that does not parse", "").replace(
        'authors added', "")), details


def test_the_import_summary_reads_as_before_in_english(qtbot):
    from desktop.window.import_summary import import_summary

    assert import_summary(_report()) == _report().summary()


def test_qt_dialogs_are_translated_with_the_interface(qtbot, chinese):
    """Qt's own file dialog in Chinese: qtbase_zh_CN.qm translates Qt 5's "Look in:" and "Files of type:" only;
    Qt 6 asks for "&Look in:" and "Files of &type:", which Margin's translation supplies."""
    from PySide6.QtWidgets import QFileDialog, QLabel

    dialog = QFileDialog(None, "x")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(dialog)
    labels = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert "查找范围" in labels and "文件类型" in labels and "文件名称" in labels, labels
    assert not re.search(r"Look|Files|File", labels), labels


def test_a_chinese_venue_count_gets_the_height_its_line_needs(qtbot, chinese, make_window, library_dir):
    """A new user's trial: `已读 2/1,009` read `2/1.009` in the sidebar — the row had the height of the short form
    ("2/1,009", shown while the column was narrow) and the taller Chinese line lost the bottom of its comma."""
    from PySide6.QtGui import QTextLayout

    from db.library.library import Library

    with Library.open(library_dir) as library:
        library.set_read(library.ids()[0], True)
    window = make_window()
    window.resize(1024, 700)
    sidebar = window.sidebar
    qtbot.waitUntil(lambda: any("已读" in sidebar.topLevelItem(1).child(i).text(1)
                                for i in range(sidebar.topLevelItem(1).childCount())), timeout=10000)
    venue = sidebar.topLevelItem(1).child(0)
    layout = QTextLayout(venue.text(1), sidebar.font())
    layout.beginLayout()
    line = layout.createLine()
    layout.endLayout()
    assert sidebar.visualItemRect(venue).height() >= line.height()
