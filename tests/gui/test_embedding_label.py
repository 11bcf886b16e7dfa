"""The status bar's "Semantic vectors: N of M" is the running job's: when papers are added or edited while it runs
(an import), the label says their turn comes next, rather than reading as the library's total (a new user's
trial: "584 / 2,692" in a library of 3,665)."""

from __future__ import annotations

from PySide6.QtWidgets import QStatusBar


def test_the_label_says_the_papers_added_while_a_job_runs_come_next(qtbot, tmp_path, monkeypatch):
    from desktop.common.i18n import number
    from desktop.window import embedding

    monkeypatch.setenv(embedding.ENV, "1")
    bar = QStatusBar()
    qtbot.addWidget(bar)
    job = embedding.BackgroundEmbedding(tmp_path, bar)
    job.process = object()  # a job runs (its output is read by _read; here its progress is given)
    job._progress("full", 584, 2692)
    assert job.label.text() == f"Semantic vectors: 584 of {number(2692)}"
    job.changed()  # an import added papers while it runs
    assert job.label.text() == f"Semantic vectors: 584 of {number(2692)} · then the papers added or edited since"
    job._progress("full", 600, 2692)
    assert job.label.text().endswith("then the papers added or edited since")
    job.process = None
    job._timer.stop()
