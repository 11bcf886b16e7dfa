"""Writing files safely: through a temporary file in the same folder and a rename.

The temporary file gets the mode the written file should have (`file_mode`): a file that is replaced keeps
its permissions, a new one gets what `open()` would give it (0o666 less the umask, e.g. -rw-r--r--), not
the owner-only -rw------- of `tempfile.mkstemp`.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from db.errors import MarginError


def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux /proc, kernel 4.7+);
    elsewhere set and restored at once (os.umask has no read-only form)."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode(path: Path) -> int:
    """The permission bits for writing `path`: the existing file's, else 0o666 less the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~current_umask()


def temporary_file(path: Path, prefix: str) -> tuple[int, str]:
    """(descriptor, name) of a new temporary file beside `path`, with `file_mode(path)`. Raises OSError."""
    mode = file_mode(path)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        else:  # Windows: only the read-only flag exists
            os.chmod(temp, mode)
    except OSError:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return fd, temp


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write `text` (UTF-8; bytes as they are) to `path` through a temporary file and a rename, so a crash
    leaves the old file.

    A replaced file keeps its permissions; a new one gets 0o666 less the umask (module docstring).
    Raises MarginError naming the path when the folder does not exist or cannot be written.
    """
    if not path.parent.exists():
        raise MarginError(f"{path}: the folder {path.parent} does not exist")
    temp = None
    try:
        fd, temp = temporary_file(path, f".{path.name}.")
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as handle:
                handle.write(text)
        else:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
        os.replace(temp, path)
    except OSError as error:
        if temp is not None:  # a full disk or a target that cannot be replaced: leave no temporary file
            with contextlib.suppress(OSError):
                os.unlink(temp)
        raise MarginError(f"{path}: cannot write ({error.strerror})") from None
