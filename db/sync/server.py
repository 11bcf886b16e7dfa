"""The sync server: a PostgreSQL database (through psycopg 3) that keeps every change each device sent.

Its schema is versioned like the library's: `margin_schema` holds the version, MIGRATIONS[v] turns version v into
v + 1 (run in one transaction under an advisory lock, by the first client that finds the server older). A
client finding the server newer than SERVER_SCHEMA_VERSION stops before writing anything (SyncSchemaError).

`margin_changes` holds one row per change: the device, the device's number for it (unique together: a batch
sent twice is kept once), the PostgreSQL user who sent it, the entity and field, the hybrid logical clock's
stamp (db.sync.clock) and the value as JSON text. Batches are written one transaction each, under an advisory
lock, so the serial ids become visible in order and a reader's "after id N" never skips a row.

Connection strings are libpq's (`postgresql://user@host/db?sslmode=require`, `host=… dbname=…`) or a service
name (`~/.pg_service.conf`); the password comes from `~/.pgpass` or PGPASSWORD. `public_conninfo` drops any
password before a string is stored or printed.
"""

from __future__ import annotations

import os
import re
import socket
import time

from db.errors import MarginError
from db.sync.project_schema import PROJECT_MIGRATION, PROJECT_MIGRATION_3, PROJECT_MIGRATION_4, PROJECT_MIGRATION_5

SERVER_SCHEMA_VERSION = 5
_LOCK = 0x6D617267  # advisory lock key of schema changes and of every batch written ("marg")
CONNECT_TIMEOUT_S = 5

MIGRATIONS: dict[int, list[str]] = {
    # 0 → 1: devices and their changes
    0: ["CREATE TABLE margin_devices (device text PRIMARY KEY, name text NOT NULL,"
        " user_name text NOT NULL DEFAULT current_user, first_seen timestamptz NOT NULL DEFAULT now(),"
        " last_seen timestamptz NOT NULL DEFAULT now())",
        "CREATE TABLE margin_changes (id bigserial PRIMARY KEY, device text NOT NULL, seq bigint NOT NULL,"
        " user_name text NOT NULL DEFAULT current_user, entity text NOT NULL, field text NOT NULL,"
        " hlc text NOT NULL, value text NOT NULL, parent text NOT NULL DEFAULT '',"
        " received_at timestamptz NOT NULL DEFAULT now(),"
        " UNIQUE (device, seq))"],
    # 1 → 2: shared screening projects, blind enforced by row-level security (db.sync.project_schema)
    1: PROJECT_MIGRATION,
    # 2 → 3: a project paper's record, the crowd model's switch (db.sync.project_schema)
    2: PROJECT_MIGRATION_3,
    # 3 → 4: the project tables owned by a NOLOGIN role, blind only lifted, decisions read and written through
    # functions that keep a member's plans blind (db.sync.project_schema); the administrator's to run
    3: PROJECT_MIGRATION_4,
    # 4 → 5: the tags and notes members share where the owner turned it on, blind enforced as for decisions
    # (db.sync.project_schema); the administrator's to run
    4: PROJECT_MIGRATION_5,
}


class SyncError(MarginError):
    """A sync could not run; the message is one line (never with a password). `reason`: the server's or libpq's
    own words where they are the cause (its language, not Margin's), else None. `sqlstate`: PostgreSQL's code of
    a refusal (None otherwise)."""

    sqlstate: str | None = None

    def __init__(self, message: str, reason: str | None = None):
        super().__init__(message)
        self.reason = reason


class SyncUnreachable(SyncError):
    """The server could not be reached or stopped answering."""


class SyncSchemaError(SyncError):
    """The server's schema is newer than this Margin knows; nothing was written."""


class DeviceCopied(SyncError):
    """The server holds other changes under this device's numbers: another library uses the same device id (its
    folder was copied). Nothing of the batch was kept."""


def _psycopg():
    try:
        import psycopg
    except ImportError:
        raise SyncError('sync needs psycopg 3: pip install "psycopg[binary]"') from None
    return psycopg


def full_conninfo(server: str) -> str:
    """A libpq connection string for `server`: a URL or key=value string as given, else a service name."""
    server = server.strip()
    return server if ("://" in server or "=" in server) else f"service={server}"


def public_conninfo(server: str) -> str:
    """`server` without its password (what is stored and printed). Raises SyncError for a string libpq cannot
    read."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    _psycopg()
    try:
        parts = conninfo_to_dict(full_conninfo(server))
    except Exception as error:  # psycopg.ProgrammingError: say what libpq said, without the string
        raise SyncError(f"not a PostgreSQL connection string or service name ({_first_line(error)})") from None
    parts.pop("password", None)
    return make_conninfo(**{key: value for key, value in parts.items() if value is not None})


_REFUSED_LOGIN = re.compile(r"password authentication failed|role \"[^\"]*\" does not exist|database \"[^\"]*\" does"
                            r" not exist|no pg_hba\.conf entry|no password supplied|permission denied for database")


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


class Server:
    """One connection to the sync server. Raises SyncUnreachable (connecting, or any call when the server goes
    away) with libpq's reason; the connection is closed by `close()` or a `with` block."""

    def __init__(self, server: str, connect_timeout: int = CONNECT_TIMEOUT_S):
        psycopg = _psycopg()
        self.public = public_conninfo(server)
        try:
            self.conn = psycopg.connect(full_conninfo(server), connect_timeout=connect_timeout,
                                        application_name="margin-sync")
        except psycopg.Error as error:
            said = "the server refused the login (role, password or database)" if _REFUSED_LOGIN.search(str(error)) \
                else "server unreachable"  # issue 27: a wrong password is not a server down
            raise SyncUnreachable(f"{said} ({_first_line(error)})", _first_line(error)) from None
        self._errors = psycopg.Error

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.conn.close()
        except self._errors:
            pass

    def _run(self, work):
        try:
            return work()
        except self._errors as error:
            if self.conn.closed or getattr(error, "sqlstate", None) in (None, "57P01", "57P02", "57P03"):
                raise SyncUnreachable(f"server unreachable ({_first_line(error)})", _first_line(error)) from None
            refusal = SyncError(f"the server refused the sync ({_first_line(error)})", _first_line(error))
            refusal.sqlstate = error.sqlstate  # what db.sync.projects words for a person
            raise refusal from None

    # ----------------------------------------------------------------- schema
    def version(self) -> int:
        """The server's schema version (0: no Margin schema yet)."""
        def read():
            with self.conn.transaction(), self.conn.cursor() as cursor:
                cursor.execute("SELECT to_regclass('margin_schema') IS NOT NULL")
                if not cursor.fetchone()[0]:
                    return 0
                cursor.execute("SELECT version FROM margin_schema")
                return cursor.fetchone()[0]
        return self._run(read)

    def prepare(self) -> None:
        """Bring an older server to SERVER_SCHEMA_VERSION. Raises SyncSchemaError, writing nothing, when the
        server is newer than this Margin."""
        version = self.version()
        if version > SERVER_SCHEMA_VERSION:
            raise SyncSchemaError(f"the sync server has schema {version}, newer than this Margin's "
                                  f"{SERVER_SCHEMA_VERSION}: update Margin to sync with it; nothing was changed")
        if version < SERVER_SCHEMA_VERSION:
            self._run(self._migrate)

    def _migrate(self) -> None:
        with self.conn.transaction(), self.conn.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            cursor.execute("SELECT to_regclass('margin_schema') IS NOT NULL")
            if not cursor.fetchone()[0]:
                cursor.execute("CREATE TABLE margin_schema (version integer NOT NULL)")
                cursor.execute("INSERT INTO margin_schema VALUES (0)")
            cursor.execute("SELECT version FROM margin_schema")
            version = cursor.fetchone()[0]
            while version < SERVER_SCHEMA_VERSION:
                for statement in MIGRATIONS[version]:
                    cursor.execute(statement)
                version += 1
            cursor.execute("UPDATE margin_schema SET version = %s", (version,))

    # ----------------------------------------------------------------- changes
    def register(self, device: str) -> None:
        """Note the device (and this machine's name) as seen now."""
        def write():
            with self.conn.transaction(), self.conn.cursor() as cursor:
                cursor.execute("INSERT INTO margin_devices (device, name) VALUES (%s, %s) ON CONFLICT (device)"
                               " DO UPDATE SET last_seen = now(), name = excluded.name", (device, socket.gethostname()))
        self._run(write)

    def push(self, device: str, rows: list[tuple[int, str, str, str, str, str]]) -> None:
        """Keep a batch of a device's changes (number, entity, field, stamp, value JSON, stamp of the value it
        replaced there; numbers ascending) in one transaction; a change already kept (same device and number) is
        not kept again. Raises DeviceCopied, keeping nothing, when the server holds another change (another stamp)
        under one of the numbers."""
        pause = float(os.environ.get("MARGIN_SYNC_TEST_PAUSE", "0") or 0)  # tests: a batch held open, to cut it

        def write():
            with self.conn.transaction(), self.conn.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
                # the outbox forgets a batch once this commit returns: it must survive a server crash even on a
                # server set to synchronous_commit = off
                cursor.execute("SET LOCAL synchronous_commit TO on")
                cursor.executemany("INSERT INTO margin_changes (device, seq, entity, field, hlc, value, parent)"
                                   " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (device, seq) DO NOTHING",
                                   [(device, *row) for row in rows])
                # a number kept before is this batch's own (sent again after a cut) only with the same stamp
                cursor.execute("SELECT seq, hlc FROM margin_changes WHERE device = %s AND seq BETWEEN %s AND %s",
                               (device, rows[0][0], rows[-1][0]))
                held = dict(cursor.fetchall())
                if any(held.get(row[0]) != row[3] for row in rows):
                    raise DeviceCopied(f"another library syncs as device {device} (a copy of this one's folder)")
                if pause:
                    time.sleep(pause)
        self._run(write)

    def last_number(self, device: str) -> int:
        """The highest change number the server holds of `device` (0: none)."""
        def read():
            with self.conn.transaction(), self.conn.cursor() as cursor:
                cursor.execute("SELECT COALESCE(MAX(seq), 0) FROM margin_changes WHERE device = %s", (device,))
                return cursor.fetchone()[0]
        return self._run(read)

    def pull(self, device: str, after: int, limit: int) -> list[tuple[int, str, str, str, str, str, str]]:
        """Other devices' changes after server id `after`, oldest first, at most `limit`: (id, device, entity,
        field, stamp, value JSON, stamp of the value it replaced there)."""
        def read():
            with self.conn.transaction(), self.conn.cursor() as cursor:
                cursor.execute("SELECT id, device, entity, field, hlc, value, parent FROM margin_changes"
                               " WHERE id > %s AND device <> %s ORDER BY id LIMIT %s", (after, device, limit))
                return cursor.fetchall()
        return self._run(read)

    def waiting(self, device: str, after: int) -> int:
        """How many changes of other devices after server id `after` this device has not received."""
        def read():
            with self.conn.transaction(), self.conn.cursor() as cursor:
                cursor.execute("SELECT COUNT(*) FROM margin_changes WHERE id > %s AND device <> %s", (after, device))
                return cursor.fetchone()[0]
        return self._run(read)
