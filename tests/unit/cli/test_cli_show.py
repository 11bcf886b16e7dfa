"""`margin show ID` and `margin tags` (issue 21)."""

import json

from db.cli.commands import build_parser, run_command

AGENTS = "6ac65bf33b7e"


def run(capsys, *argv):
    code = run_command(build_parser().parse_args(list(argv)))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_prints_one_paper_with_its_fields(seeded_copy, library_dir, capsys):
    lib = ["--library", str(library_dir)]
    assert run(capsys, "annotate", AGENTS, "--tag", "agents", "--rating", "4", "--note", "check §3", *lib)[0] == 0
    code, out, err = run(capsys, "show", AGENTS[:6], *lib)
    assert code == 0 and err == ""
    assert f"id:         {AGENTS}" in out and "rating:     ★★★★☆ (4/5)" in out and "tags:       agents" in out
    assert "note:\ncheck §3" in out and "abstract:\n" in out and "GLEAN" in out
    code, out, _err = run(capsys, "show", AGENTS, "--json", *lib)
    assert code == 0 and json.loads(out)["id"] == AGENTS and json.loads(out)["tags"] == ["agents"]
    code, out, err = run(capsys, "show", "ffffffff", *lib)
    assert code == 1 and out == "" and err.count("\n") == 1 and "no single paper has the id 'ffffffff'" in err


def test_tags_lists_tags_with_counts(seeded_copy, library_dir, capsys):
    lib = ["--library", str(library_dir)]
    run(capsys, "annotate", AGENTS, "--tag", "agents", "--tag", "theory", *lib)
    code, out, _err = run(capsys, "tags", *lib)
    assert code == 0 and out == "      1  agents\n      1  theory\n"
    code, out, _err = run(capsys, "tags", "--json", *lib)
    assert json.loads(out) == [{"tag": "agents", "papers": 1}, {"tag": "theory", "papers": 1}]
