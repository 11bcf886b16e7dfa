"""Translation for code outside QObject subclasses, and the interface language.

`tr(text)` looks `text` up in the empty context, which is where pyside6-lupdate files the strings of a
module-level `tr("…")` call; QObject subclasses use their own `self.tr`, filed under their class name.
The language (View → Language) is kept in QSettings under LANGUAGE_KEY ("system", "en", "zh_CN");
`apply_language` installs its translators (the app at start, the language menu on a switch).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import PySide6
from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QStandardPaths, QTranslator

from db.system.resources import TRANSLATIONS_DIR
from db.text.translatable import QT_TRANSLATE_NOOP

LANGUAGE_KEY = "view/language"
LANGUAGES = ("system", "en", "zh_CN")
# Qt's own strings its shipped translation lacks: Qt 6's file dialog asks for these, qtbase_zh_CN.qm has only Qt 5's
# "Look in:" and "Files of type:". pyside6-lupdate files them under Qt's context in Margin's .ts; Qt asks Margin's
# translator when its own has no translation (translators are asked newest first, an empty answer passes on).
QT_GAPS = (QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"), QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"))


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
    if QLocale().language() == QLocale.Language.C:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))


def number(n: int) -> str:
    """`n` with the locale's digit grouping (1,683 in English, 1.683 in German)."""
    return QLocale().toString(n)


def language_locale(code: str | None = None) -> QLocale:
    """The QLocale for a language setting (the saved one when None); "system" is the system's UI language."""
    code = code if code is not None else QSettings().value(LANGUAGE_KEY, "system", type=str)
    return QLocale(code) if code in LANGUAGES and code != "system" else QLocale.system()


def apply_language(app: QCoreApplication, locale: QLocale, folder: Path = TRANSLATIONS_DIR) -> bool:
    """Replace the translators this function installed with Margin's (`folder`/margin_<locale>.qm) and Qt's own
    (qtbase: the standard buttons) for `locale`. Returns True when a Margin translation was installed."""
    for old in app.findChildren(QTranslator, "marginTranslator"):
        QCoreApplication.removeTranslator(old)
        old.deleteLater()
    found = False
    qt_translations = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    for name, where in (("margin", str(compiled(folder))), ("qtbase", qt_translations)):
        translator = QTranslator(app)
        translator.setObjectName("marginTranslator")
        if translator.load(locale, name, "_", where):
            app.installTranslator(translator)
            found = found or name == "margin"
        else:
            translator.deleteLater()
    return found


def compiled(folder: Path) -> Path:
    """`folder` when it holds a compiled .qm for each of its .ts files (an installed wheel, a checkout after
    scripts/setup.sh); else a folder in the user's cache with each .ts compiled by PySide6's lrelease (a fresh
    clone run as `python main.py`), so the chosen language is never silently English. `folder` when lrelease
    cannot run (then the window stays in English, as before)."""
    sources = sorted(folder.glob("*.ts"))
    if all(source.with_suffix(".qm").is_file() for source in sources):
        return folder
    cache = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation)) / "translations"
    lrelease = Path(PySide6.__file__).parent / "lrelease"
    try:
        cache.mkdir(parents=True, exist_ok=True)
        for source in sources:
            target = cache / source.with_suffix(".qm").name
            if not target.is_file() or target.stat().st_mtime < source.stat().st_mtime:
                subprocess.run([str(lrelease), "-silent", str(source), "-qm", str(target)], check=True,
                               capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return folder
    return cache
