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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _db_imports(path: Path) -> set[str]:
    """The db modules `path` imports, at the top or inside functions (`from db.x import name` counts as db.x)."""
    return {name for name in _imports(path) if name == "db" or name.startswith("db.")}


def test_the_search_wing_has_no_circle_and_no_arrow_back_up():
    """Issue 33: db/search ↔ db/triage/progress and db/search/index ↔ writer were circles behind function-level
    imports, and db/text/render imported the search stemmer. The query's kind is a ground-floor module; answering
    a query (db/query.py) stands above search/, recommend/ and triage/."""
    modules = {_module_name(path): _db_imports(path) for path in (ROOT / "db").rglob("*.py")}
    above_search = {"db.query", "db.triage", "db.recommend", "db.map", "db.cli"}  # db.query_kind is below
    for name, imported in modules.items():
        if name.startswith("db.search"):
            assert not {i for i in imported if ".".join(i.split(".")[:2]) in above_search}, name
        if name.startswith("db.text"):
            assert not {i for i in imported if i.startswith("db.search")}, name
    assert modules["db.query_kind"] == set()
    assert not {i for i in modules["db.triage.progress"] if i.startswith("db.search")}
    wing = {name for name in modules if name.startswith(("db.search", "db.query", "db.triage"))}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            for nxt in modules.get(todo.pop(), ()):
                if nxt == goal:
                    return True
                if nxt in wing and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    circles = sorted(name for name in wing if reaches(name, name))
    assert circles == [], f"import circles through {circles}"
