"""A real, throwaway PostgreSQL server for sync tests: `initdb` + `pg_ctl` into a temporary folder, listening on
a unix socket in that folder only (no TCP port), trust authentication for a `margin` user.

PostgreSQL refuses to run as root, so when the tests run as root (CI) the server runs as the `postgres` user
(the Debian package makes it) and the folder is given to it. Tests that need a server skip, naming the install
line, when PostgreSQL is missing. `kill9()` and `start()` stand for a server crash and its restart.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

INSTALL = "apt-get install -y postgresql"


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresServer:
    """A server in its own folder. `conninfo` is the libpq string tests and Margin connect with."""

    def __init__(self, folder: Path, bin_dir: Path, port: int = 5432, template: Path | None = None):
        self.folder = folder
        self.data = folder / "data"
        self.bin = bin_dir
        self.port = port
        self.user = None
        if os.geteuid() == 0:
            try:
                self.user = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip(f"PostgreSQL refuses to run as root and there is no postgres user: {INSTALL}")
        self._as_owner(self.folder)
        if template is None:
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "margin", "--no-sync", "-E", "UTF8")
        else:  # a copy of a cluster made once per test run: a second of start-up instead of four
            self._run("cp", "-a", str(template), str(self.data))

    @property
    def conninfo(self) -> str:
        return f"host={self.folder} port={self.port} user=margin dbname=postgres"

    def conninfo_as(self, role: str, dbname: str | None = None) -> str:
        """The libpq string of this server for another role (its password, if any, from the environment or
        ~/.pgpass) and, given `dbname`, another database."""
        info = self.conninfo.replace("user=margin", f"user={role}")
        return info.replace("dbname=postgres", f"dbname={dbname}") if dbname else info

    def _as_owner(self, path: Path) -> None:
        if self.user is not None:
            os.chown(path, self.user.pw_uid, self.user.pw_gid)

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(self.bin / tool) if tool != "cp" else "cp", *args]
        if self.user is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120)

    def start(self) -> None:
        options = (f"-c listen_addresses='' -c unix_socket_directories={self.folder} -p {self.port}"
                   " -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        # synchronous_commit=off on purpose: Margin must make its own batches durable (db.sync.server.push)
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def kill9(self) -> None:
        """Kill the server (postmaster and every backend) with SIGKILL, as a crash or a power cut would."""
        postmaster = self.pid()
        children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
        for pid in [postmaster, *map(int, children)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for _ in range(200):  # the backends go with it; wait until the port's lock is free
            alive = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True).returncode == 0
            try:
                os.kill(postmaster, 0)
            except ProcessLookupError:
                if not alive:
                    break
            import time

            time.sleep(0.05)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop", check=False)

    def sql(self, statement: str, params=()) -> list[tuple]:
        """Run one statement as the `margin` superuser; returns its rows (none for a statement without)."""
        import psycopg

        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            cursor = conn.execute(statement, params)
            return cursor.fetchall() if cursor.description else []


_template: list[Path] = []  # the cluster initdb made first in this process (copied for every later server)


def start_postgres(tmp_root: Path | None = None) -> PostgresServer:
    """Start a new server in a new folder (skips the test when PostgreSQL or psycopg is missing)."""
    pytest.importorskip("psycopg", reason='sync needs psycopg 3: pip install "psycopg[binary]"')
    bin_dir = _bin_dir()
    if bin_dir is None:
        pytest.skip(f"PostgreSQL is not installed: {INSTALL}")
    if not _template:
        folder = Path(tempfile.mkdtemp(prefix="margin-pg-template-"))
        os.chmod(folder, 0o755)
        _template.append(PostgresServer(folder, bin_dir).data)
        atexit.register(shutil.rmtree, folder, True)
    folder = Path(tempfile.mkdtemp(prefix="margin-pg-", dir=tmp_root))
    os.chmod(folder, 0o755)
    server = PostgresServer(folder, bin_dir, template=_template[0])
    server.start()
    return server


@pytest.fixture
def postgres():
    """A running PostgreSQL server for one test, stopped and removed after it."""
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)
