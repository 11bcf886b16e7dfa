"""Setup messages (issue 21): a Python without Margin's dependencies says in one line what to run instead."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_main_without_dependencies_prints_one_line():
    code = ("import sys; sys.modules['pylatexenc'] = None; sys.modules['bibtexparser'] = None; "
            "sys.path.insert(0, '.'); "
            "import main; sys.exit(main.main(['--help']))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "scripts/run.sh" in done.stderr and ".venv/bin/python" in done.stderr
    assert "Traceback" not in done.stderr
