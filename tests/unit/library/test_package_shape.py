"""The shape of db/library (issue 33): no import circle between its modules (function-level imports included),
no raw SQL handed out of it (`Library.rows` is for tests), files of at most 400 lines and a thin facade."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "db" / "library"


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The db.library modules `path` imports anywhere (module level, in functions, under TYPE_CHECKING)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "db.library":
            found |= {alias.name for alias in node.names if alias.name in modules}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("db.library."):
            found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[2] for alias in node.names if alias.name.startswith("db.library.")}
    return found - {path.stem}


def test_no_import_circle_between_the_library_modules():
    modules = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    edges = {name: _imports(PACKAGE / f"{name}.py", modules) for name in modules}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, "import circle: " + " -> ".join(path[path.index(name):] + [name])
        if name not in done:
            for imported in sorted(edges[name]):
                visit(imported, path + [name])
            done.add(name)

    for name in sorted(modules):
        visit(name, [])


def test_no_module_outside_the_library_runs_sql_on_its_connection():
    calls = re.compile(r"\.rows\(|library\.(_conn|store)\b")
    offenders = [f"{path.relative_to(ROOT)}:{number}" for folder in ("db", "desktop")
                 for path in sorted((ROOT / folder).rglob("*.py")) if PACKAGE not in path.parents
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if calls.search(line)]
    assert offenders == []


def test_library_files_stay_small_and_the_facade_thin():
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in PACKAGE.glob("*.py")}
    assert {name: size for name, size in sizes.items() if size > 400} == {}
    assert sizes["library.py"] <= 250
