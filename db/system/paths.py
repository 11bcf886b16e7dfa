"""Where the library folder is: `--library DIR`, else $MARGIN_LIBRARY, else the platform's user data folder."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def default_library_dir() -> Path:
    """Return $MARGIN_LIBRARY when set, else platformdirs.user_data_dir("Margin")/library."""
    env = os.environ.get("MARGIN_LIBRARY")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("Margin", appauthor=False)) / "library"


def resolve_library_dir(option: str | os.PathLike | None) -> Path:
    """The library folder for a `--library` option value (None when not given)."""
    return Path(option).expanduser() if option else default_library_dir()
