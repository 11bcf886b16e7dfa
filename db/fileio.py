"""Writing files safely: through a temporary file in the same folder and a rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from db.errors import MarginError


def write_atomically(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` through a temporary file and a rename, so a crash leaves the old file.

    Raises MarginError naming the path when the folder does not exist or cannot be written.
    """
    if not path.parent.exists():
        raise MarginError(f"{path}: the folder {path.parent} does not exist")
    temp = None
    try:
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(temp, path)
    except OSError as error:
        if temp is not None:  # a full disk or a target that cannot be replaced: leave no temporary file
            with contextlib.suppress(OSError):
                os.unlink(temp)
        raise MarginError(f"{path}: cannot write ({error.strerror})") from None
