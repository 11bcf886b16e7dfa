"""Marking text that the window translates but that is defined away from a `tr()` call.

`QT_TRANSLATE_NOOP(context, text)` returns `text` unchanged. pyside6-lupdate (scripts/update_translations.sh)
finds it by name, as it finds Qt's macro of that name, and extracts `text` into the catalogue under `context`;
the window then shows it through `QCoreApplication.translate(context, value)` (context "" for
`desktop.common.i18n.tr`). db/ cannot import Qt, so the marker lives here; desktop/ uses it too, for one way of
doing it. Without the mark, a string shown as `tr(VARIABLE)` never reaches the catalogue and stays English.
"""


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 — the name lupdate looks for
    """`text`, marked for extraction under `context`; nothing is translated here."""
    return text
