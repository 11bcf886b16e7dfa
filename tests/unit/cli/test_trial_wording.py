"""Counts and cuts in the command line's English (new-user trial): "1 paper", not "1 papers"; a title cut at a
word with "…", never mid-word."""

from __future__ import annotations

import json
from pathlib import Path

from db.library.backup import RestoreReport
from db.library.importing import ImportReport
from tests.helpers.runner import margin

LONG = "Denoising Diffusion Probabilistic Models Are Surprisingly Strong Baselines for Generative Audio Modelling"


def test_delete_cuts_a_long_title_at_a_word(tmp_path: Path):
    source = tmp_path / "one.json"
    source.write_text(json.dumps([{"title": LONG, "abstract": "An abstract."}]), encoding="utf-8")
    assert margin("import", str(source), library=tmp_path / "lib").code == 0
    (listed,) = json.loads(margin("list", "--json", library=tmp_path / "lib").stdout)
    result = margin("delete", listed["id"], library=tmp_path / "lib")
    assert "would delete 1 paper: " in result.stderr
    shown = result.stderr.split(f"{listed['id']} ", 1)[1].split("; add --yes")[0]
    assert shown.endswith("…") and LONG.startswith(shown[:-1]) and LONG[len(shown) - 1] == " "  # cut at a word
    result = margin("delete", listed["id"], "--yes", library=tmp_path / "lib")
    assert result.stdout.startswith(f"deleted 1 paper: {listed['id']} ") and "Generative A" not in result.stdout


def test_summaries_say_one_in_the_singular():
    one = ImportReport(new=["a"], updated=[], unchanged=[], duplicates=1)
    assert "1 duplicate in the file" in one.summary()
    assert "0 duplicates in the file" in ImportReport().summary()
    assert ", 1 shared id on different papers kept apart" in ImportReport(conflicts=["x"]).summary()
    restored = RestoreReport(changed=["a"], unchanged=[], state=1).summary()
    assert restored == ("annotations restored on 1 paper (0 already up to date), lists, interests, saved searches "
                        "and checks put back: 1")
    assert RestoreReport(changed=["a", "b"]).summary().startswith("annotations restored on 2 papers")


def test_install_desktop_remove_counts_the_files_in_english(tmp_path: Path):
    """`removed 1 file(s)` read like a form: the count says `file` or `files`."""
    home = {"XDG_DATA_HOME": str(tmp_path / "share")}
    assert margin("install-desktop", env=home).code == 0
    removed = margin("install-desktop", "--remove", env=home)
    assert removed.code == 0 and removed.stdout.startswith("removed 3 files\n") and "(s)" not in removed.stdout
    assert margin("install-desktop", "--remove", env=home).stdout == "removed 0 files\n"
