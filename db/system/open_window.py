"""Whether a Margin window has a library open, without Qt: the window listens on a local socket named after
the library folder (desktop.window.single_instance, QLocalServer; a second window asks it to come forward), and
a command that would replace library.db wholesale (`margin restore` of a damaged library) asks the same socket.

On Linux and macOS Qt's local socket is the Unix socket `<QDir::tempPath()>/<name>` ($TMPDIR, else /tmp);
elsewhere (Windows' named pipes) `window_open` cannot tell and answers False.
"""

from __future__ import annotations

import hashlib
import os
import socket
from pathlib import Path

_CONNECT_S = 0.5


def server_name(library: Path) -> str:
    """A local-socket name unique to the library folder (resolved): `margin-<16 hex digits>`."""
    digest = hashlib.sha256(str(Path(library).resolve()).encode("utf-8")).hexdigest()[:16]
    return f"margin-{digest}"


def socket_path(library: Path) -> Path:
    """Where Qt puts the window's socket for `library`: QDir::tempPath() ($TMPDIR, else /tmp) / server_name."""
    return Path(os.environ.get("TMPDIR") or "/tmp") / server_name(library)


def window_open(library: Path) -> bool:
    """True when a Margin window is listening on `library`'s socket (it connects and says nothing, so the window
    is not brought forward); False when none is (no socket file, or one left by a window that died), or where
    Unix sockets are not Qt's (Windows)."""
    path = socket_path(library)
    if not hasattr(socket, "AF_UNIX") or not path.exists():
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(_CONNECT_S)
        try:
            connection.connect(str(path))
        except OSError:
            return False
    return True
