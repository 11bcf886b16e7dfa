"""`margin highlight`: the include and exclude lists of words to mark, from the command line."""

from __future__ import annotations

from tests.helpers.runner import margin


def test_cli_highlight(seeded_copy, library_dir):
    def highlight(*args):
        return margin("highlight", *args, library=library_dir)

    result = highlight("--include", "reasoning", "--include", "chain of thought", "--exclude", "robot*")
    assert result.returncode == 0 and result.stdout == "include: reasoning, chain of thought\nexclude: robot*\n"
    assert highlight("--remove", "Reasoning").stdout == "include: chain of thought\nexclude: robot*\n"
    bad = highlight("--include", "   ")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert highlight().stdout == "include: chain of thought\nexclude: robot*\n"
