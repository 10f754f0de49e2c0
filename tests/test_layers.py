"""The layers keep their imports (docs/architecture.md): the service speaks to the store through
its ports and knows no database library; the service and the store share the domain
(``bot.domain``) and never import each other (the composition root, ``bot.cli``, joins them);
adapters and the renderer get the store's services injected (``bot.app.App``) and import nothing
from ``bot.store``; no module imports another package's private names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[1] / "bot"


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def offenders(package: str, forbidden: str) -> list[str]:
    return sorted(
        f"{path.relative_to(BOT.parent)}: {name}"
        for path in (BOT / package).rglob("*.py")
        for name in imported(path)
        if name == forbidden or name.startswith(forbidden + ".")
    )


def test_the_service_imports_no_database_library() -> None:
    assert offenders("service", "sqlalchemy") == []


@pytest.mark.parametrize("package", ["telegram", "discord", "render", "terminal", "web"])
def test_adapters_and_the_renderer_import_nothing_from_the_store(package: str) -> None:
    assert offenders(package, "bot.store") == []


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("service", "bot.store"),
        ("store", "bot.service"),
        ("domain", "bot.service"),
        ("domain", "bot.store"),
        ("domain", "sqlalchemy"),
    ],
)
def test_the_service_and_the_store_meet_only_in_the_domain(package: str, forbidden: str) -> None:
    assert offenders(package, forbidden) == []


def package_of(path: Path) -> str:
    """``bot.service`` for ``bot/service/turns.py``; ``bot`` for ``bot/app.py``."""
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    return ".".join(parts[:2]) if len(parts) > 2 else "bot"


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(path: Path) -> list[str]:
    """The private names (or modules) of another package of ``bot`` that ``path`` imports."""
    home = package_of(path)
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules, names = [node.module], [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            modules, names = [alias.name for alias in node.names], []
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if parts[0] != "bot" or ".".join(parts[:2]) == home or module == home:
                continue
            found += [f"{module}.{name}" for name in names if is_private(name)]
            if any(is_private(part) for part in parts):
                found.append(module)
    return found


def test_no_module_imports_another_packages_private_names() -> None:
    found = [
        f"{path.relative_to(BOT.parent)}: {name}"
        for path in sorted(BOT.rglob("*.py"))
        for name in private_imports(path)
    ]
    assert found == []
