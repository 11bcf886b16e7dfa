"""The window's strings go through Qt's translation system, ready for the Simplified Chinese translation."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from desktop.app import create_window, install_translation

ROOT = Path(__file__).resolve().parents[2]
TOOLS = Path(sys.executable).parent


def test_strings_are_extracted_and_a_translation_is_shown(qtbot, tmp_path, library_dir):
    lupdate, lrelease = TOOLS / "pyside6-lupdate", TOOLS / "pyside6-lrelease"
    if not (lupdate.exists() and lrelease.exists()):
        pytest.skip("pyside6-lupdate/lrelease are not installed beside this Python")
    ts = tmp_path / "margin_zh_CN.ts"
    sources = [str(p) for p in sorted((ROOT / "desktop").rglob("*.py"))]
    subprocess.run([str(lupdate), *sources, "-ts", str(ts)], check=True, capture_output=True, timeout=120)
    text = ts.read_text(encoding="utf-8")
    assert text.count("<message>") > 100  # the window's strings are all marked for translation
    text = text.replace("<source>&amp;File</source>\n        <translation type=\"unfinished\"></translation>",
                        "<source>&amp;File</source>\n        <translation>文件(&amp;F)</translation>")
    assert "文件" in text
    ts.write_text(text, encoding="utf-8")
    qm = tmp_path / "margin_zh_CN.qm"
    subprocess.run([str(lrelease), str(ts), "-qm", str(qm)], check=True, capture_output=True, timeout=120)
    app = QApplication.instance()
    assert install_translation(app, tmp_path, QLocale("zh_CN")) is True
    try:
        window = create_window(library_dir)
        qtbot.addWidget(window)
        titles = [action.text() for action in window.menuBar().actions()]
        assert titles[0] == "文件(&F)"
        window.close()
        window.library.close()
    finally:
        for translator in app.findChildren(QTranslator):
            QCoreApplication.removeTranslator(translator)
            translator.deleteLater()
    shutil.rmtree(tmp_path, ignore_errors=True)
