"""Note history names each saved version by its time in the user's time zone and locale (new-user trial, issue 5),
not by the stored UTC stamp (`2026-12-02T09:43:18+00:00`)."""

from __future__ import annotations

import re

from PySide6.QtCore import QDateTime, QLocale, Qt

from db.library.library import Library
from tests.helpers.records import paper_record


def test_note_versions_show_local_time_in_the_locale(library_dir, make_window, monkeypatch):
    from desktop.window.dialogs import NoteHistoryDialog

    monkeypatch.setenv("TZ", "Europe/Berlin")  # an hour east of UTC in December
    with Library.open(library_dir, seed=False) as library:
        library.import_records([paper_record(title="One")])
        paper_id = library.ids()[0]
        for text in ("v1", "v2"):
            library.set_note(paper_id, text)
        stamps = [when for when, _text in library.note_history(paper_id)]
    window = make_window()
    dialog = NoteHistoryDialog(window.library, paper_id, "v2", window)
    shown = [dialog.versions.item(i).text() for i in range(dialog.versions.count())]
    assert not any(re.search(r"\d{4}-\d\d-\d\dT\d\d:", line) for line in shown), shown
    expected = QLocale().toString(QDateTime.fromString(stamps[-1], Qt.DateFormat.ISODate).toLocalTime(),
                                  QLocale.FormatType.ShortFormat)
    assert shown[1].startswith(expected), shown
    stamp = QDateTime.fromString(stamps[-1], Qt.DateFormat.ISODate)
    assert stamp.isValid() and stamp.toLocalTime().offsetFromUtc() in (3600, 7200)
