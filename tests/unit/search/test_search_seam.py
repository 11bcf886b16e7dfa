"""The search engine behind one seam: whoosh is used only inside db/search/, at the one version it was written
against, and text of any length is searchable."""

import ast
import re
from pathlib import Path

import pytest

from db.errors import MarginError

ROOT = Path(__file__).resolve().parents[3]


def test_the_installed_whoosh_is_the_pinned_version_with_every_internal_name_we_use():
    from db.search.engine import WHOOSH_VERSION, installed_version, missing_internals

    assert installed_version() == WHOOSH_VERSION, (
        f"whoosh-reloaded {installed_version()} is installed, but db/search/ was written against {WHOOSH_VERSION}: "
        f"its internals (db/search/engine.py INTERNALS) must be checked against the new version before the pin "
        f"in pyproject.toml and WHOOSH_VERSION are moved")
    assert missing_internals() == [], f"whoosh internals db/search/ uses are gone: {missing_internals()}"


def test_pyproject_pins_exactly_the_version_the_code_names():
    from db.search.engine import WHOOSH_VERSION

    pins = re.findall(r'"whoosh-reloaded([^"]*)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pins == [f"=={WHOOSH_VERSION}"]


def test_another_whoosh_version_is_refused_with_a_message_that_says_what_to_do(monkeypatch, tmp_path):
    import db.search.engine as engine
    from db.search import SearchIndex

    monkeypatch.setattr(engine, "_CHECKED", [])
    monkeypatch.setattr(engine, "installed_version", lambda: "3.0.0")
    with pytest.raises(MarginError) as raised:
        SearchIndex(tmp_path / "index")
    assert str(raised.value) == (
        "Margin's search index needs whoosh-reloaded 2.7.5 exactly, but 3.0.0 is installed: run "
        "`pip install whoosh-reloaded==2.7.5` (db/search/ uses its internals; see db/search/engine.py)")
    assert not (tmp_path / "index").exists()


def test_a_missing_internal_name_is_named(monkeypatch):
    import db.search.engine as engine

    monkeypatch.setattr(engine, "_CHECKED", [])
    monkeypatch.setattr(engine, "INTERNALS", (*engine.INTERNALS, ("whoosh.writing", "SegmentWriter._gone")))
    with pytest.raises(MarginError, match=r"index uses: whoosh.writing:SegmentWriter._gone$"):
        engine.check_whoosh()


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_nothing_outside_db_search_imports_whoosh_or_the_package_s_modules():
    outside = [path for folder in ("db", "desktop") for path in (ROOT / folder).rglob("*.py")
               if "search" not in path.relative_to(ROOT).parts[1:2]] + [ROOT / "main.py"]
    offenders = {}
    for path in outside:
        wrong = {name for name in _imports(path) if name.split(".")[0] == "whoosh"
                 or (name.startswith("db.search.") and name != "db.search.filters")}
        if wrong:
            offenders[str(path.relative_to(ROOT))] = sorted(wrong)
    assert offenders == {}, "use the interface of db/search/__init__.py instead"
    assert len(outside) > 50  # the scan saw the code


def test_a_note_of_20000_words_is_found_by_its_last_word(library):
    from db.search import ensure_index

    paper_id = library.ids()[3]
    words = [f"filler{n % 997}" for n in range(19_998)] + ["zyzzyvaterminal", "quokkaend"]
    library.set_note(paper_id, " ".join(words))
    index = ensure_index(library)
    assert index.search("quokkaend") == [paper_id]
    assert index.search("note:quokkaend") == [paper_id]
    assert index.search('"zyzzyvaterminal quokkaend"') == [paper_id]
    assert index.search('note:"zyzzyvaterminal quokkaend"') == [paper_id]
    assert index.search('abstract:quokkaend') == []  # still in the note's part of the positions, not the next
