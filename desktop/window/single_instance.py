"""One window per library: a second `python main.py` on the same library brings the first window forward
instead of opening another (two windows would each keep their own view of the same notes)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from db.system.open_window import server_name  # the name `margin restore` asks too (db.system.open_window)

_CONNECT_MS = 500


def ask_running_instance(library: Path) -> bool:
    """True when a Margin window is already open on `library`; it was asked to come forward."""
    socket = QLocalSocket()
    socket.connectToServer(server_name(library))
    if not socket.waitForConnected(_CONNECT_MS):
        return False
    socket.write(b"raise\n")
    socket.waitForBytesWritten(_CONNECT_MS)
    socket.disconnectFromServer()
    return True


class InstanceServer(QObject):
    """Listens for later instances on the same library; emits `raiseRequested` when one starts."""

    raiseRequested = Signal()

    def __init__(self, library: Path, parent=None):
        super().__init__(parent)
        self.server = QLocalServer(self)
        name = server_name(library)
        QLocalServer.removeServer(name)  # a socket file left by a process that died
        self.listening = self.server.listen(name)
        self.server.newConnection.connect(self._connection)

    def _connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            socket.readyRead.connect(self._read)

    def _read(self) -> None:
        socket = self.sender()
        if isinstance(socket, QLocalSocket) and bytes(socket.readAll()).strip() == b"raise":
            self.raiseRequested.emit()

    def close(self) -> None:
        self.server.close()
