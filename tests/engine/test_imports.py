"""The engine's imports, read from its source: standard library and ``engine`` only (so it never
reaches up into ``bot``), and no circle between its modules (a module that imports another
must not be imported back by it, not even for type checking: the seams stay seams)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _modules() -> dict[str, Path]:
    found = {}
    for path in ENGINE.rglob("*.py"):
        parts = path.relative_to(ENGINE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports (absolute names; ``from x import y`` gives x and x.y)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return out


def test_the_engine_imports_the_standard_library_and_itself_only() -> None:
    foreign = {
        f"{name}: {imported}"
        for name, path in _modules().items()
        for imported in _imports(name, path)
        if imported.split(".")[0] not in {*sys.stdlib_module_names, "engine"}
    }
    assert not foreign, sorted(foreign)


def test_no_module_of_the_engine_is_imported_back() -> None:
    modules = _modules()
    graph = {
        name: {
            other
            for other in _imports(name, path)
            # A package's __init__ re-exports its modules: that edge is not a circle.
            if other in modules and other != name and not name.startswith(other + ".")
        }
        for name, path in modules.items()
    }
    circles: list[str] = []
    done: set[str] = set()

    def walk(path: list[str]) -> None:  # depth first; each module explored once
        for nxt in sorted(graph[path[-1]]):
            if nxt in path:
                circles.append(" -> ".join([*path[path.index(nxt) :], nxt]))
            elif nxt not in done:
                walk([*path, nxt])
        done.add(path[-1])

    for start in sorted(graph):
        if start not in done:
            walk([start])
    assert not circles, sorted(set(circles))
