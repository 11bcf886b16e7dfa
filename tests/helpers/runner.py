"""One way for tests to run Margin's command line: `margin(*args, library=…)`.

In-process by default (the way sqlite-utils' tests use click's CliRunner): `main.main(args)` runs with
stdin, stdout and stderr swapped for in-memory streams, `SystemExit` (argparse's usage errors) turned into the
exit code, and $MARGIN_LIBRARY unset unless `env` sets it. `subprocess=True` runs `python main.py` in a real
process instead, for tests about processes: signals, locks held by another process, kill -9, start-up messages.
Both return the same `Result`; the output text is what the program wrote, with no newline translation (a CSV
export to stdout keeps its CRLF in both modes).
"""

from __future__ import annotations

import io
import os
import subprocess as _subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.corpus import ROOT


@dataclass(frozen=True)
class Result:
    """What one run of Margin's command line did: its exit code and everything it wrote."""

    code: int
    stdout: str
    stderr: str

    @property
    def returncode(self) -> int:
        """The exit code by subprocess.CompletedProcess's name (assert_one_line_error takes either)."""
        return self.code

    def __iter__(self):
        """`code, stdout, stderr = margin(…)`."""
        return iter((self.code, self.stdout, self.stderr))


def margin_env(extra: dict | None = None) -> dict:
    """The environment of a Margin subprocess: no $MARGIN_LIBRARY, offscreen Qt, this checkout importable."""
    env = {k: v for k, v in os.environ.items() if k != "MARGIN_LIBRARY"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra or {})
    return {k: v for k, v in env.items() if v is not None}


def margin(*args: str, library: Path | str | None = None, input: str | None = None, subprocess: bool = False,
           env: dict | None = None, timeout: float = 120) -> Result:
    """Run `margin ARGS [--library LIBRARY]` to the end and return its Result.

    `input` is the text on stdin; `env` sets environment variables for the run only (None removes one); `timeout`
    (seconds) bounds a subprocess. A run with no command would open the window: that is never in-process.
    """
    command = [str(arg) for arg in args]
    if library is not None:
        command += ["--library", str(library)]
    if subprocess:
        done = _subprocess.run([sys.executable, str(ROOT / "main.py"), *command], capture_output=True,
                               env=margin_env(env), cwd=ROOT, timeout=timeout,
                               input=None if input is None else input.encode("utf-8"))
        return Result(done.returncode, _text(done.stdout), _text(done.stderr))
    return _in_process(command, input, env or {})


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="backslashreplace")


def _in_process(command: list[str], input: str | None, env: dict) -> Result:
    import main

    stdin, stdout, stderr = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="", write_through=True)
                             for _ in range(3))
    stdin.buffer.write((input or "").encode("utf-8"))
    stdin.buffer.seek(0)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    try:
        with _environment(env):
            _refuse_the_window(command, stdout, stderr)
            try:
                code = main.main(command)
            except SystemExit as error:  # argparse: --help (0) and usage errors (2)
                code = error.code if isinstance(error.code, int) else (0 if error.code is None else 1)
                if error.code is not None and not isinstance(error.code, int):
                    print(error.code, file=sys.stderr)
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        sys.stdin, sys.stdout, sys.stderr = saved
    return Result(code, _text(stdout.buffer.getvalue()), _text(stderr.buffer.getvalue()))


def _refuse_the_window(command: list[str], *streams: io.TextIOWrapper) -> None:
    """Raise ValueError when `command` names no command (it would open the window in this process)."""
    from db.cli.commands import build_parser

    try:
        window = build_parser().parse_args(command).command is None
    except SystemExit:  # a usage error: main() says it again
        window = False
    for stream in streams:  # what the trial parse printed
        stream.buffer.seek(0)
        stream.buffer.truncate()
    if window:
        raise ValueError(f"margin{tuple(command)} would open the window: pass subprocess=True")


@contextmanager
def _environment(extra: dict):
    """os.environ without $MARGIN_LIBRARY and with `extra` (None removes a variable), restored afterwards."""
    saved = dict(os.environ)
    os.environ.pop("MARGIN_LIBRARY", None)
    for key, value in extra.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
