"""The import's summary and details in the window's language, built from the numbers of a
db.library.importing.ImportReport (db's own `summary()` is the command line's English sentence; db stays Qt-free).
What db says about a record or a file (a skipped record's reason, a merge, ids kept apart) is text it made in
English; it is shown as it is, inside a translated frame ("line 4: …", "merged: …")."""

from __future__ import annotations

from db.library.importing import ImportReport
from desktop.common.i18n import number, plural, tr

MAX_LISTED = 500  # papers named per kind in the details; the rest are counted


def import_summary(report: ImportReport) -> str:
    """One line: `11 new, 0 updated, 38 unchanged, 0 duplicates in the file, 0 skipped[, …]` (as db's summary, in
    English) or its translation: `新增 11 篇，更新 0 篇，…`; numbers grouped the locale's way."""
    # each tr() literal, with its number: pyside6-lupdate files it as a numerus string only so
    new, updated, unchanged = len(report.new), len(report.updated), len(report.unchanged)
    skipped, merged, conflicts, versions = (len(report.skipped), len(report.merged), len(report.conflicts),
                                            len(report.versions))
    parts = [tr("%Ln new", "", new), tr("%Ln updated", "", updated), tr("%Ln unchanged", "", unchanged),
             plural(tr("%Ln duplicate(s) in the file", "", report.duplicates), report.duplicates),
             tr("%Ln skipped", "", skipped)]
    if merged:
        parts.append(tr("%Ln merged field by field", "", merged))
    if conflicts:
        parts.append(plural(tr("%Ln shared id(s) on different papers kept apart", "", conflicts), conflicts))
    if versions:
        parts.append(tr("%Ln grouped with their other versions", "", versions))
    text = tr(", ").join(parts)
    marks = report.annotations
    if not marks:
        return text
    counts = {name: len(ids) for name, ids in (("rating", marks.rating), ("read", marks.read), ("note", marks.note),
                                              ("title", marks.title), ("decision", marks.decision),
                                              ("tags", marks.tags), ("kept", set(marks.kept)))}
    found = [plural(text, counts[name]) for name, text in (
        ("rating", tr("%Ln rating(s)", "", counts["rating"])), ("read", tr("%Ln read mark(s)", "", counts["read"])),
        ("note", tr("%Ln note(s)", "", counts["note"])), ("title", tr("%Ln title(s)", "", counts["title"])),
        ("decision", tr("%Ln screening decision(s)", "", counts["decision"])),
        ("tags", tr("tags on %Ln paper(s)", "", counts["tags"])),
        ("kept", tr("%Ln paper kept its own", "", 1) if counts["kept"] == 1
         else tr("%Ln papers kept their own", "", counts["kept"]))) if counts[name]]
    return tr("%1; annotations from the files: %2").replace("%1", text).replace("%2", tr(", ").join(found))


def import_details(report: ImportReport, labels: dict[str, str], notes: list[str]) -> list[str]:
    """The lines of the import dialog's details: the papers added, updated and keeping their own annotations (by
    `labels`, paper id → label; at most MAX_LISTED each), the records skipped with db's reason, what merging
    did, and `notes` (the child process's remarks, e.g. an assumed encoding)."""
    details = []
    marks = report.annotations
    kept = list(dict.fromkeys(marks.kept)) if marks else []
    for title, ids in ((tr("New:"), report.new), (tr("Updated:"), report.updated),
                       (tr("Kept their own tags, rating or note (the file's differed):"), kept)):
        if ids:
            details.append(title)  # the colon is the translation's (Chinese: a full-width one)
            details += [f"  {labels.get(i, i)}" for i in ids[:MAX_LISTED]]
            if len(ids) > MAX_LISTED:
                details.append("  " + tr("… %1 more").replace("%1", number(len(ids) - MAX_LISTED)))
    if report.skipped:
        details.append(tr("Skipped:"))
        details += ["  " + (tr("line %1: %2").replace("%1", str(line)).replace("%2", reason) if line
                            else reason) for line, reason in report.skipped]
    details += [tr("merged: %1").replace("%1", text) for text in report.merged]  # file text: plain, as written
    details += [tr("kept apart: %1").replace("%1", text) for text in report.conflicts]
    details += [tr("versions: %1").replace("%1", text) for text in report.versions]
    return details + notes
