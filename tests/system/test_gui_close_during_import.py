"""Closing the window while an import runs (issue 18, item 7): asked, then the import is cancelled cleanly
(nothing of it saved, said on stderr) and the process exits normally, not with SIGABRT; or kept open."""

from __future__ import annotations

import pytest

from tests.helpers.faults import paper_count, start_python, write_big_json

CLOSE_DURING_IMPORT = r"""
import sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from desktop.app import create_window

if __name__ == "__main__":
    app = QApplication(sys.argv[:1])
    window = create_window(Path(sys.argv[1]))
    window.setProperty("quietImport", True)
    window.ask_close_during_import = lambda: sys.argv[3] == "cancel"
    window.show()
    window.actions_.start_import([Path(sys.argv[2])])
    started = []

    def progress(done, total):
        if not started:
            started.append(True)
            print("importing", flush=True)
            QTimer.singleShot(0, window.close)
            QTimer.singleShot(500, close_again)

    def close_again():  # the user said "keep open" (or the window is gone): now cancel it and close
        print("open" if window.isVisible() else "closed", flush=True)
        window.ask_close_during_import = lambda: True
        window.close()
        app.quit()

    window.actions_.import_job.progress.connect(progress)
    sys.exit(app.exec())
"""


@pytest.mark.slow
@pytest.mark.parametrize("answer", ["cancel", "keep"])
def test_closing_during_an_import_cancels_it_cleanly_or_keeps_the_window(tmp_path, answer):
    from db.library.library import Library

    folder = tmp_path / "lib"
    Library.open(folder).close()
    big = tmp_path / "big.json"
    write_big_json(big, 20000)
    process = start_python(CLOSE_DURING_IMPORT, str(folder),
                           str(big), answer)
    try:
        out, err = process.communicate(timeout=180)
    finally:
        process.kill()
    assert process.returncode == 0, (process.returncode, err)  # SIGABRT was -6 / 134
    assert "importing" in out
    if answer == "keep":
        assert "open" in out  # still open half a second after the close was declined
    if answer == "cancel":
        assert "the import was cancelled; nothing was imported" in err
    assert "Traceback" not in err and "Destroyed while thread" not in err, err
    assert paper_count(folder) == 38  # nothing of the import was saved
