"""File → Import… and drag-and-drop: import files in a child process (db.import_job), watched from a worker
thread, with progress. The window's thread stays free, and the import's memory goes back to the system when the
child ends. All records of one import go in one transaction (db.library.library), so a failure changes nothing.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal, Slot

from db.errors import MarginError


class ImportWorker(QObject):
    progress = Signal(int, int)  # records done, records in all
    finished = Signal(object, list)  # ImportReport, notes (e.g. assumed encodings)
    failed = Signal(str)

    def __init__(self, folder: Path, files: list[Path], annotations: bool = True):
        super().__init__()
        self._folder = folder
        self._files = files
        self._annotations = annotations  # take the files' tags, ratings, read marks and notes (issue 30)
        self.cancel = threading.Event()  # set from the GUI thread: stop the import unless it is saved already
        self.finished_saving = False  # True once the import has saved its papers (set on the worker thread)

    @Slot()
    def run(self) -> None:
        from db.import_job import run_in_child  # (multiprocessing and the readers: not needed to open the window)

        try:
            report, notes = run_in_child(self._folder, self._files, self.progress.emit, self.cancel,
                                         self._annotations)
            self.finished_saving = True
            self.finished.emit(report, notes)
        except MarginError as error:
            self.failed.emit(str(error))
        except Exception as error:  # noqa: BLE001 - reported in the window; nothing was committed
            self.failed.emit(f"{type(error).__name__}: {error}")


class ImportJob(QObject):
    """Runs one ImportWorker on its own thread; emits `done(report, notes)` or `failed(message)`."""

    done = Signal(object, list)
    failed = Signal(str)
    progress = Signal(int, int)

    def __init__(self, folder: Path, files: list[Path], parent=None, annotations: bool = True):
        super().__init__(parent)
        self.thread = QThread(self)
        self.worker = ImportWorker(folder, files, annotations)
        self.worker.moveToThread(self.thread)
        self.thread.started.connect(self.worker.run)
        self.worker.progress.connect(self.progress)
        self.worker.finished.connect(self._finished)
        self.worker.failed.connect(self._failed)

    def start(self) -> None:
        self.thread.start()

    def cancel_and_wait(self) -> None:
        """Stop the import (nothing of it is saved), or, when it has saved its papers already, let it finish;
        return when its thread has ended (on closing the window: no thread is left running)."""
        self.worker.cancel.set()
        self.thread.quit()
        self.thread.wait()

    def _finished(self, report, notes) -> None:
        self.thread.quit()
        self.thread.wait()
        self.done.emit(report, notes)

    def _failed(self, message: str) -> None:
        self.thread.quit()
        self.thread.wait()
        self.failed.emit(message)
