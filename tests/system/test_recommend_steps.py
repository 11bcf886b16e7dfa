"""Cheaper recommendation steps (issue 16, item 5), in a fresh process: no scikit-learn import to answer
`is:recommended` (the other steps are in tests/unit/recommend/test_recommend_steps.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.corpus import ROOT
from tests.helpers.runner import margin


@pytest.mark.slow
def test_recommended_list_does_not_import_scikit_learn(seeded_copy):
    library_dir = seeded_copy
    assert margin("annotate", "9342e12f", "--rating", "5", library=library_dir).code == 0
    # fits the vectorizer once and writes the cache (in-process: only the probe's own process is looked at)
    assert margin("list", "is:recommended", library=library_dir).code == 0
    probe = ("import sys, runpy; sys.argv = ['main.py', '--library', sys.argv[1], 'list', 'is:recommended'];"
             "code = 0\ntry:\n    runpy.run_path('main.py', run_name='__main__')\nexcept SystemExit as e:\n"
             "    code = e.code\nprint('SKLEARN' if 'sklearn' in sys.modules else 'NO-SKLEARN', code)")
    result = subprocess.run([sys.executable, "-c", probe, str(library_dir)], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "NO-SKLEARN 0"
