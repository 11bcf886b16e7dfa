"""Closing the window while an import runs asks whether to cancel it; when the import ends while that question is
up, the question goes by itself and the window closes (a new user's trial: the import's summary box opened over
the question, and after its OK the stale question was still there; "Cancel the import and close" then cancelled
nothing)."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from db.library.library import Library
from tests.helpers.faults import write_big_json


def _boxes() -> list[QMessageBox]:
    return [widget for widget in QApplication.topLevelWidgets()
            if isinstance(widget, QMessageBox) and widget.isVisible()]


def test_the_close_question_goes_when_the_import_ends_and_no_summary_opens_over_it(make_window, library_dir, qtbot,
                                                                                   tmp_path):
    Library.open(library_dir).close()
    papers = tmp_path / "papers.json"
    write_big_json(papers, 300)
    window = make_window()
    window.show()
    seen: list[str] = []

    def look() -> None:  # while the question is up: what is shown
        seen.extend(box.text() for box in _boxes())

    def rescue() -> None:  # with the bug, the question would wait for a click for ever
        for box in _boxes():
            box.reject()

    watch = QTimer(window, interval=50)
    watch.timeout.connect(look)
    watch.start()
    QTimer.singleShot(20000, rescue)
    assert window.actions_.start_import([papers])
    window.close()  # asks (the import runs), and returns when the question has gone
    watch.stop()
    assert any("An import is still running" in text for text in seen)  # it was asked
    assert window.property("closing") and window.actions_.import_job is None  # closed, the import ended
    assert all("An import is still running" in text for text in seen)  # no summary box opened over it
    assert not _boxes()  # no question left, no summary box over it
    with Library.open(library_dir) as library:
        assert library.count() == 38 + 300  # the import was not cancelled: it had ended
