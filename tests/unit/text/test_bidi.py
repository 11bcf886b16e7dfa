"""Bidirectional overrides (issue 31, item 5): U+202A–202E and U+2066–2069 never reach what Margin shows or
writes — titles, tags, notes, labels, the reader, the note preview, export file names — so "evil" never reads
as "live" (the Trojan Source kind of spoofing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from db.exporters.markdown import safe_file_name
from db.library.library import Library
from db.paper import Paper
from db.text.cleaning import FSI, PDI, clean_note, clean_tag, clean_title, isolate, strip_bidi, strip_bidi_but_isolates
from db.text.labels import display_label
from db.text.render import note_preview, paper_to_html
from tests.helpers.runner import margin

BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
RLO, PDF = "\u202e", "\u202c"


def _has_bidi(text: str) -> bool:
    return any(char in text for char in BIDI)


def _texts(value) -> str:
    """Every string inside a JSON value, joined."""
    if isinstance(value, dict):
        return " ".join(_texts(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_texts(v) for v in value)
    return value if isinstance(value, str) else ""


def test_every_bidi_control_is_removed_and_nothing_else():
    text = "".join(f"a{char}" for char in BIDI) + "\u200f\u200e עברית"  # the marks LRM/RLM stay: no reordering
    assert strip_bidi(text) == "a" * len(BIDI) + "\u200f\u200e עברית"


@pytest.mark.parametrize("clean", [clean_note, clean_tag, clean_title])
def test_what_a_user_types_is_stored_without_overrides(clean):
    assert clean(f"ev{RLO}il{PDF} twin") == "evil twin"


def test_an_imported_file_and_the_cli_store_no_override(tmp_path: Path):
    source = tmp_path / "hostile.json"
    source.write_text(json.dumps([{"title": f"Normal {RLO}evil{PDF} paper", "author": f"Ann {RLO}Lee",
                                   "abstract": f"About {RLO}graphs{PDF} and more."}]), encoding="utf-8")
    library = tmp_path / "lib"
    assert margin("import", str(source), library=library).code == 0
    listed = json.loads(margin("list", "--json", library=library).stdout)
    assert listed[0]["label"] == "Normal evil paper"
    paper_id = listed[0]["id"]
    assert margin("annotate", paper_id, "--tag", f"to{RLO}read", "--note", f"see {RLO}this{PDF} now",
                  "--title", f"My {RLO}title", library=library).code == 0
    shown = json.loads(margin("show", paper_id, "--json", library=library).stdout)
    assert "About graphs" in _texts(shown) and shown["note"] == "see this now" and not _has_bidi(_texts(shown))
    out = tmp_path / "vault"
    assert margin("export", "--format", "markdown-folder", "--all", "--output", str(out), library=library).code == 0
    for written in out.iterdir():
        assert not _has_bidi(written.name) and not _has_bidi(written.read_text(encoding="utf-8"))


def _legacy_paper() -> Paper:
    """A paper as a library written before issue 31 may hold it: overrides everywhere."""
    return Paper(id="0123456789ab", label=f"Normal {RLO}evil{PDF} paper", title=f"Normal {RLO}evil{PDF} paper",
                 abstract=f"An abstract {RLO}reversed{PDF} here.", authors=[f"Ann {RLO}Lee"],
                 venue=f"ICML{RLO} 2026", year=2026, tags=[f"to{RLO}read"], note=f"see {RLO}this")


def test_what_an_older_library_holds_is_shown_without_overrides():
    paper = _legacy_paper()
    assert display_label(paper) == "Normal evil paper"
    shown = paper_to_html(paper)  # its fields isolated (FSI … PDI, balanced): nothing embedded or overridden
    assert not _has_bidi(strip_bidi_but_isolates(shown).replace(FSI, "").replace(PDI, ""))
    assert strip_bidi_but_isolates(shown) == shown and shown.count(FSI) == shown.count(PDI)
    html, _notices = note_preview(f"# Note\n\nsee {RLO}this{PDF} and *that*")
    assert not _has_bidi(html)
    assert not _has_bidi(safe_file_name(paper.label, paper.id))


def test_a_restored_backup_brings_no_override(tmp_path: Path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([])
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps({"format": "margin", "version": 1, "kind": "backup", "papers": [
        {"id": "0123456789ab", "title": f"A {RLO}title", "title_source": "file", "abstract": f"Abstract {RLO}x.",
         "annotations": {"tags": [f"t{RLO}ag"], "note": f"n{RLO}ote", "rating": 4, "title": f"My {RLO}own"}}]}),
        encoding="utf-8")
    assert margin("import", str(backup), library=tmp_path / "lib").code == 0
    listed = json.loads(margin("list", "--json", library=tmp_path / "lib").stdout)
    assert listed and listed[0]["rating"] == 4 and not _has_bidi(_texts(listed))


def test_a_field_is_isolated_with_its_own_controls_removed():
    assert isolate(f"ev{RLO}il") == f"{FSI}evil{PDI}" and isolate("") == ""


def test_only_balanced_isolates_survive_a_composed_line():
    line = f"{isolate('Ann Lee')}, {PDI}x{FSI}y {RLO}z{PDF} \u2066w"
    assert strip_bidi_but_isolates(line) == f"{FSI}Ann Lee{PDI}, xy z w"
