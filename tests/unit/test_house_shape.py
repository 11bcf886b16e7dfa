"""The shape of db/ as a whole (README "For developers"): its wings (a folder or a module directly under db/)
import each other without a circle, and so do its modules — function-level imports and those under
TYPE_CHECKING included, since an arrow of either kind ties two concepts as much as a module-level one."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DB = ROOT / "db"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, modules: set[str]) -> set[str]:
    """The db modules `path` imports anywhere in it (a `from db.x import name` of a module counts that module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        found |= {name for name in names if name in modules}
    return found


def _graph() -> dict[str, set[str]]:
    files = {_module_name(path): path for path in DB.rglob("*.py")}
    modules = set(files)
    return {name: _imported(path, modules) - {name} for name, path in files.items()}


def _wing(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def _circle(edges: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        for other in sorted(edges.get(name, ())):
            if (found := visit(other, path + [name])) is not None:
                return found
        done.add(name)
        return None

    for name in sorted(edges):
        if (found := visit(name, [])) is not None:
            return found
    return None


def test_no_import_circle_between_the_modules_of_db():
    edges = {name: {other for other in imported if not name.startswith(other + ".")}  # a package's own face
             for name, imported in _graph().items()}
    assert _circle(edges) is None, " -> ".join(_circle(edges))


def test_no_import_circle_between_the_wings_of_db():
    """A wing that imports another never is imported back by it (e.g. the exporters never reach up into the
    library, which exports through them)."""
    wings: dict[str, set[str]] = {}
    for name, imported in _graph().items():
        if name != "db":
            wings.setdefault(_wing(name), set()).update(_wing(other) for other in imported if other != "db")
    edges = {wing: others - {wing} for wing, others in wings.items()}
    assert _circle(edges) is None, " -> ".join(_circle(edges))
