"""Build step beyond pyproject.toml: compile the translations (resources/translations/*.ts) into Qt's .qm
files with pyside6-lrelease, into the wheel's `margin_resources/translations/`.

The build needs PySide6 (pyproject's build-system requires it) for lrelease; without it the build stops
with one line saying so, rather than making a wheel that silently has no translations.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def find_lrelease() -> str | None:
    """pyside6-lrelease beside this Python, on PATH, or the lrelease inside the importable PySide6."""
    beside = Path(sys.executable).parent / "pyside6-lrelease"
    if beside.exists():
        return str(beside)
    if found := shutil.which("pyside6-lrelease"):
        return found
    try:
        import PySide6
    except ImportError:
        return None
    inside = Path(PySide6.__file__).parent / "lrelease"
    return str(inside) if inside.exists() else None


def compile_translations(source: Path, target: Path) -> list[Path]:
    """Compile every `source`/*.ts into `target`/*.qm. Returns the .qm files. Raises SystemExit without lrelease."""
    sources = sorted(source.glob("*.ts"))
    if not sources:
        return []
    lrelease = find_lrelease()
    if lrelease is None:
        raise SystemExit("margin build: pyside6-lrelease not found (install PySide6-Essentials in the build "
                         "environment) to compile resources/translations/*.ts")
    target.mkdir(parents=True, exist_ok=True)
    made = []
    for ts in sources:
        qm = target / (ts.stem + ".qm")
        subprocess.run([lrelease, "-silent", str(ts), "-qm", str(qm)], check=True)
        made.append(qm)
    return made


class BuildWithTranslations(build_py):
    def run(self):
        super().run()
        if not self.dry_run:
            compile_translations(ROOT / "resources" / "translations",
                                 Path(self.build_lib) / "margin_resources" / "translations")


setup(cmdclass={"build_py": BuildWithTranslations})
