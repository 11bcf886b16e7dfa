"""Translation for code outside QObject subclasses.

`tr(text)` looks `text` up in the empty context, which is where pyside6-lupdate files the strings of a
module-level `tr("…")` call; QObject subclasses use their own `self.tr`, filed under their class name.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """`text` translated; with `n` >= 0, `%n` in it becomes n (and the translation's plural form for n)."""
    return QCoreApplication.translate("", text, disambiguation, n)


def plural(text: str, n: int) -> str:
    """English plural forms for a `%n`/`%Ln` string Qt has translated (`tr("%Ln paper(s)", "", n)`): without a
    translation Qt leaves "(s)" in the text; it becomes "" for 1 and "s" otherwise. A translation's own numerus
    forms have no "(s)" and pass unchanged."""
    return text.replace("(s)", "" if n == 1 else "s")


def use_number_locale() -> None:
    """English digit grouping when the system names no locale (C/POSIX, common in terminals and CI), so the
    window's numbers (`%Ln`, `number`) read 1,683 like the command line's; a real locale is kept as it is."""
    from PySide6.QtCore import QLocale

    if QLocale().language() == QLocale.Language.C:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))


def number(n: int) -> str:
    """`n` with the locale's digit grouping (1,683 in English, 1.683 in German)."""
    from PySide6.QtCore import QLocale

    return QLocale().toString(n)
