"""The layers keep their imports (docs/architecture.md): the service speaks to the store through
its ports and knows no database library; adapters and the renderer get the store's services
injected (``bot.app.App``) and import nothing from ``bot.store``."""

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
