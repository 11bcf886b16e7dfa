"""What closing the window asks and says: an import still running (cancel it and close, or keep the window open),
and the edits still waiting to be saved (saved with the command line's long wait; the ones the library refused
the whole time are named)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox, QStatusBar, QWidget

from desktop.common.i18n import tr
from desktop.common.plain_text import as_plain
from desktop.edits.pending_edits import PendingEdits
from desktop.window.importing import ImportJob


def ask_close_during_import(parent: QWidget, job: ImportJob | None = None) -> bool:
    """Closing while an import runs: True to cancel the import and close, False to keep the window open. When
    `job` ends while the question is up, the question goes and the window closes (what the user asked for;
    nothing is left to cancel): `parent`'s property "askingToClose" tells the import's end to show no summary box
    over it (a new user's trial: the summary opened over the question, which stayed after it)."""
    box = QMessageBox(QMessageBox.Icon.Question, tr("An import is running"), as_plain(tr(
        "An import is still running. Cancel it and close Margin? Nothing of the import will be saved "
        "(unless it has just saved its papers: then Margin closes when it has finished).")), parent=parent)
    cancel = box.addButton(tr("Cancel the import and close"), QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(box.addButton(tr("Keep Margin open"), QMessageBox.ButtonRole.RejectRole))
    ended: list[bool] = []

    def job_ended(*_args) -> None:
        ended.append(True)
        box.done(0)

    if job is not None:
        job.done.connect(job_ended)
        job.failed.connect(job_ended)
    parent.setProperty("askingToClose", True)
    try:
        box.exec()
    finally:
        parent.setProperty("askingToClose", False)
        if job is not None:
            job.done.disconnect(job_ended)
            job.failed.disconnect(job_ended)
    return bool(ended) or box.clickedButton() is cancel


def stop_import(job: ImportJob | None, ask: Callable[[], bool]) -> bool:
    """Before closing: when `job` runs, `ask()` whether to cancel it; cancel it and wait for it (nothing of it
    saved, or, when it had saved already, finished). False when the user keeps the window open."""
    if job is None:
        return True
    if not ask():
        return False
    job.cancel_and_wait()
    print("margin: the window was closed during an import: "
          + ("it had saved its papers and finished" if job.worker.finished_saving else
             "the import was cancelled; nothing was imported"), file=sys.stderr)
    return True


def save_pending_edits(edits: PendingEdits, bar: QStatusBar, parent: QWidget) -> None:
    """On close: save the edits still waiting, waiting for the library as long as the command line does;
    say which could not be saved (they are lost: the library refused them for the whole time) on stderr, and in
    a dialog over `parent` when it is visible."""
    if not len(edits):
        return
    bar.showMessage(tr("Saving changes that are still waiting…"))
    lost = edits.flush()
    if lost:
        text = tr("These changes could not be saved (%1):\n%2").replace("%1", edits.reason).replace(
            "%2", "\n".join(lost))
        print(f"margin: {' '.join(text.split())}", file=sys.stderr)
        if parent.isVisible():
            QMessageBox.warning(parent, tr("Changes not saved"), as_plain(text))
