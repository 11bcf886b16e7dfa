"""Cheaper recommendation steps (issue 16, item 5): the SVM without scikit-learn, a refresh that reads only
what the change log says changed, no scikit-learn import to answer `is:recommended`, no boilerplate reasons."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.corpus import ROOT


@pytest.mark.slow
def test_recommended_list_does_not_import_scikit_learn(library_dir):
    def margin(*args):
        return subprocess.run([sys.executable, str(ROOT / "main.py"), "--library", str(library_dir), *args],
                              capture_output=True, text=True, timeout=120, cwd=ROOT)

    assert margin("annotate", "9342e12f", "--rating", "5").returncode == 0
    assert margin("list", "is:recommended").returncode == 0  # fits the vectorizer once, writes the cache
    probe = ("import sys, runpy; sys.argv = ['main.py', '--library', sys.argv[1], 'list', 'is:recommended'];"
             "code = 0\ntry:\n    runpy.run_path('main.py', run_name='__main__')\nexcept SystemExit as e:\n"
             "    code = e.code\nprint('SKLEARN' if 'sklearn' in sys.modules else 'NO-SKLEARN', code)")
    result = subprocess.run([sys.executable, "-c", probe, str(library_dir)], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "NO-SKLEARN 0"
