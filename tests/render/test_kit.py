"""The families write with the public kit (``bot.render.kit``): none imports the renderer, the
modules of ``bot.render`` import one another without a circle, and none reaches into another's
private names (docs/architecture.md)."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

RENDER = Path(__file__).resolve().parents[2] / "bot" / "render"
FAMILIES = ("scopa", "scala40", "briscola", "generic")


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_imports_the_kit_not_the_renderer(family: str) -> None:
    modules = {
        node.module
        for node in ast.walk(tree(RENDER / f"{family}.py"))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "bot.render.renderer" not in modules
    assert "bot.render.kit" in modules


def private_uses(path: Path) -> list[str]:
    """Private names ``path`` imports from another module, or reads off a name that is not
    ``self``/``cls`` (``renderer._title``)."""
    found: list[str] = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot"):
            found += [f"{node.module}.{a.name}" for a in node.names if is_private(a.name)]
        elif (
            isinstance(node, ast.Attribute)
            and is_private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id not in ("self", "cls")
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_no_module_of_the_renderer_uses_anothers_private_names() -> None:
    found = [
        f"{path.relative_to(RENDER.parent)}: {name}"
        for path in sorted(RENDER.rglob("*.py"))
        for name in private_uses(path)
    ]
    assert found == []


def module_name(path: Path) -> str:
    parts = path.relative_to(RENDER.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_modules_of_the_renderer_import_one_another_without_a_circle() -> None:
    """Every import counts, at the top, in a function or for the type checker only."""
    modules = {module_name(path): path for path in RENDER.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        imports = graph.setdefault(name, set())
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    if f"{node.module}.{alias.name}" in modules:
                        imports.add(f"{node.module}.{alias.name}")
                    elif node.module in modules:
                        imports.add(node.module)
            elif isinstance(node, ast.Import):
                imports.update(alias.name for alias in node.names if alias.name in modules)
    graphlib.TopologicalSorter(graph).prepare()  # CycleError names the circle
