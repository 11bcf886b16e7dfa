"""Bad input in the window: an import worker reports deeply nested JSON as one line naming the file."""

from __future__ import annotations


def test_window_import_reports_deep_json_as_one_line(tmp_path, qtbot):
    from desktop.window.importing import ImportWorker

    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    worker = ImportWorker(tmp_path / "lib", [path])
    messages = []
    worker.failed.connect(messages.append)
    worker.run()
    assert messages == [f"{path}:1: JSON nested too deeply to read"]
