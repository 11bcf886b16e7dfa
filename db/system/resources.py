"""Where Margin's bundled files are: the bundled corpus, the compiled translations and the icons.

In a source checkout (and an editable install) they are `resources/` beside `db/`; a wheel installs the same
folder as the data-only package `margin_resources` beside `db/` in site-packages (pyproject.toml maps it).
"""

from __future__ import annotations

from pathlib import Path

_BESIDE = Path(__file__).resolve().parents[2]


def resources_dir() -> Path:
    """The folder holding corpus/, translations/ and icons/: `resources/` of a checkout, else the installed
    `margin_resources` package."""
    checkout = _BESIDE / "resources"
    if (checkout / "corpus").is_dir():
        return checkout
    return _BESIDE / "margin_resources"


RESOURCES = resources_dir()
CORPUS_DIR = RESOURCES / "corpus"
TRANSLATIONS_DIR = RESOURCES / "translations"
ICONS_DIR = RESOURCES / "icons"
