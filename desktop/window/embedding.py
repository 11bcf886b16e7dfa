"""The window's background embedding (issue 32): a child process (`python -m db.embed.job LIBRARY`: idle CPU
only, every core under Linux's SCHED_IDLE, else nice 10 and one thread; db.embed.priority) computes the
papers' semantic vectors while the window stays responsive; a permanent status-bar label shows how far it is.
Started shortly after the window opens and again after an import or an edit of a title or abstract (the job
embeds only what is missing or stale); stopped when the window closes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QTimer
from PySide6.QtWidgets import QLabel, QStatusBar

import db
from desktop.common.i18n import number

START_DELAY_MS = 3000  # after the window opened: let the first paint and the index go first
AGAIN_DELAY_MS = 2000  # after a change: one job for a burst of edits
OFF_MS = 10000
ENV = "MARGIN_EMBED_BACKGROUND"  # "0": the window starts no embedding job (the test suite's default)


class BackgroundEmbedding(QObject):
    """Runs the embedding job for `folder`, showing progress in `bar`."""

    def __init__(self, folder: Path, bar: QStatusBar, parent=None):
        super().__init__(parent)
        self.folder = Path(folder)
        self.bar = bar
        self.label = QLabel()
        self.label.setObjectName("embedStatus")
        self.label.setAccessibleName(self.tr("Semantic vectors"))
        self.label.hide()
        bar.addPermanentWidget(self.label)
        self.process: QProcess | None = None
        self._again = False
        self._shown: tuple[str, int, int] | None = None  # the running job's last progress (kind, done, total)
        self._stopped = False
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self._start_now)

    def start(self, delay_ms: int = START_DELAY_MS) -> None:
        """Run the job after `delay_ms` (or once the running one ends)."""
        if self._stopped or os.environ.get(ENV) == "0":
            return
        if self.process is not None:
            self._again = True
            if self._shown is not None:  # the running job's total is not the library's any more: say so
                self._progress(*self._shown)
            return
        self._timer.start(delay_ms)

    def changed(self) -> None:
        """Papers were added, or a title or abstract edited: embed what became stale."""
        self.start(AGAIN_DELAY_MS)

    def running(self) -> bool:
        return self.process is not None

    def _start_now(self) -> None:
        if self._stopped or self.process is not None:
            return
        process = QProcess(self)
        process.setProcessEnvironment(QProcessEnvironment.systemEnvironment())  # the job sets its own threads
        process.setWorkingDirectory(str(Path(db.__file__).resolve().parent.parent))
        process.readyReadStandardOutput.connect(self._read)
        process.finished.connect(self._finished)
        self.process = process
        process.start(sys.executable, ["-m", "db.embed.job", str(self.folder)])

    def _read(self) -> None:
        if self.process is None:
            return
        while self.process.canReadLine():
            words = bytes(self.process.readLine()).decode("utf-8", "replace").split()
            if not words:
                continue
            if words[0] == "off":
                self.bar.showMessage(self.tr("Semantic similarity is off (%1): ranking uses words alone").replace(
                    "%1", " ".join(words[1:])), OFF_MS)
            elif words[0] in ("quick", "full") and len(words) == 3:
                self._progress(words[0], int(words[1]), int(words[2]))

    def _progress(self, kind: str, done: int, total: int) -> None:
        """The running job's progress: `done` of the `total` papers it embeds (`kind` quick: from titles). When
        papers were added or edited since it started, their turn comes after it, and the label says so (its
        total alone read as the library's: "584 of 2,692" in a library of 3,665, a new user's trial)."""
        self._shown = (kind, done, total)
        text = (self.tr("Semantic vectors from titles: %1 of %2") if kind == "quick"
                else self.tr("Semantic vectors: %1 of %2"))
        text = text.replace("%1", number(done)).replace("%2", number(total))
        if self._again:
            text += " · " + self.tr("then the papers added or edited since")
        self.label.setText(text)
        self.label.setVisible(done < total)

    def _finished(self, *_args) -> None:
        if self.process is not None:
            self._read()
            self.process.deleteLater()
        self.process = None
        self._shown = None
        self.label.hide()
        if self._again and not self._stopped:
            self._again = False
            self.start(0)

    def stop(self) -> None:
        """End the job (the window closes): the vectors stored so far stay; the next start goes on from there."""
        self._stopped = True
        self._timer.stop()
        process, self.process = self.process, None
        if process is not None:
            process.finished.disconnect()
            process.kill()
            process.waitForFinished(3000)
        self.label.hide()
