"""The window's sync status (desktop.window.sync) when the server cannot be reached — no server needed: a socket
folder that does not exist fails at once. The bar keeps the count of changed fields waiting (the unit the command
line counts in), is short enough to be shown whole at 1,366 px, and is Chinese in Chinese; libpq's own reason goes
in the tooltip."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication

from db.library import Library

NOWHERE = "host=/nonexistent/margin-sync port=5999 user=margin dbname=postgres"


@pytest.fixture
def unreachable_library(library_dir):
    with Library.open(library_dir) as library:
        library.sync_book.set_sync_state({"server": NOWHERE, "interval": 0})
        paper_id = library.ids()[0]
        library.set_rating(paper_id, 4)
        library.add_tags(paper_id, ["graphs"])
    return library_dir


def _unreachable(make_window, qtbot):
    window = make_window()
    window.resize(1366, 768)
    window.sync.sync_now()
    label = window.sync.label
    qtbot.waitUntil(lambda: not window.sync.running and window.sync.error is not None, timeout=20000)
    qtbot.waitUntil(lambda: "40" in label.text(), timeout=5000)
    return window, label


def test_unreachable_keeps_the_waiting_count_and_is_shown_whole_at_1366_px(unreachable_library, make_window, qtbot):
    window, label = _unreachable(make_window, qtbot)
    assert label.text() == "Sync: server unreachable · 40 changed fields waiting"
    assert "No such file or directory" in label.toolTip() or "nonexistent" in label.toolTip()
    qtbot.waitUntil(lambda: label.width() >= label.sizeHint().width(), timeout=3000)  # laid out whole


def test_unreachable_is_said_in_chinese(unreachable_library, make_window, qtbot):
    from desktop.common.i18n import apply_language

    app = QApplication.instance()
    try:
        assert apply_language(app, QLocale("zh_CN"))
        window, label = _unreachable(make_window, qtbot)
        assert not re.search(r"[A-Za-z]", label.text()), label.text()
        assert "40" in label.text()
        tip = label.toolTip()  # Margin's words in Chinese around libpq's own
        assert "无法连接同步服务器：connection" in tip and "本机的更改已保留" in tip, tip
    finally:
        apply_language(app, QLocale("en"))
