"""The written documentation against the code: docs/rules.md documents exactly the options each
game kind's ``Rules.from_dict`` accepts, and the repository cites nothing outside itself."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

from bot.service import GameKind, default_registry

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"

# An options table opens with ``<!-- options: kind kind ... -->``; its rows start with `name`.
_MARKER = re.compile(r"^<!--\s*options:\s*(?P<kinds>[\w\s]+?)\s*-->\s*$")
_ROW = re.compile(r"^\|\s*`(?P<name>[a-z0-9_]+)`\s*\|")


def documented_rows() -> dict[str, dict[str, tuple[str, str]]]:
    """Each game kind named by a marker in docs/rules.md -> its option rows: name -> (values,
    default), the table's second and third cells."""
    found: dict[str, dict[str, tuple[str, str]]] = {}
    kinds: list[str] | None = None
    rows: dict[str, tuple[str, str]] = {}
    in_table = False
    for line in [*RULES_DOC.read_text(encoding="utf-8").splitlines(), ""]:
        marker = _MARKER.match(line)
        if marker:
            kinds, rows, in_table = marker["kinds"].split(), {}, False
            continue
        if kinds is None:
            continue
        if line.startswith("|"):
            in_table = True
            row = _ROW.match(line)
            if row:
                cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
                rows[row["name"]] = (cells[1], cells[2]) if len(cells) > 2 else ("", "")
        elif in_table or line.startswith("#"):
            for kind in kinds:
                assert kind not in found, f"docs/rules.md has two options tables for {kind}"
                found[kind] = rows
            kinds = None
    return found


def documented_options() -> dict[str, set[str]]:
    """Each game kind named by a marker in docs/rules.md -> the option names of its table."""
    return {kind: set(rows) for kind, rows in documented_rows().items()}


def _as_written(value: object) -> str:
    """How docs/rules.md writes an option value: on/off for booleans, else the plain value."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _mentions(cell: str, value: object) -> bool:
    words = re.findall(r"[\w-]+", cell.replace("`", " "))
    return _as_written(value) in words


def accepted_options(kind: GameKind) -> set[str]:
    """The option names the engine behind ``kind`` accepts, asked of the engine itself."""
    rules = kind.rules(kind.default_players, {})
    names = set(rules.to_dict())
    # Rules.from_dict takes back every one of them, and refuses a name it does not know.
    assert type(rules).from_dict(rules.to_dict()) == rules
    with pytest.raises(ValueError, match="no_such_option"):
        type(rules).from_dict({**rules.to_dict(), "no_such_option": 1})
    return names


KINDS = default_registry().names


def test_every_game_kind_is_registered() -> None:
    assert KINDS, "no game kind registered: nothing to check docs/rules.md against"


@pytest.mark.parametrize("name", KINDS)
def test_documented_options_are_the_engine_options(name: str) -> None:
    kind = default_registry().get(name)
    assert kind is not None
    documented = documented_options()
    assert name in documented, (
        f"docs/rules.md has no options table for the game kind {name!r}: add one after a line"
        f" '<!-- options: {name} -->'"
    )
    accepted = accepted_options(kind)
    assert documented[name] == accepted, (
        f"{name}: only in docs/rules.md {sorted(documented[name] - accepted)}, "
        f"only in the engine {sorted(accepted - documented[name])}"
    )


def test_documented_kinds_are_all_played() -> None:
    """A kind documented before its engine is registered is said, not ignored."""
    documented = set(documented_options())
    assert {"scopa", "scala40"} <= documented
    missing = sorted(documented - set(KINDS))
    if missing:
        pytest.skip(f"documented in docs/rules.md, not registered (yet): {', '.join(missing)}")


def test_the_repository_cites_nothing_outside_itself() -> None:
    """Rule sources are named by title (docs/rules.md "Sources"), never by a path a clone lacks."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk the tree
        listed = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if ".git" not in p.parts]
    # The spec this project was written from (a file named RULES + ".md" and its numbered sources)
    # is not in a clone: docs/rules.md stands in its place.
    pattern = re.compile("shared" + r"/rules|\[00[0-4]\]|RULES" + r"\.md")
    offenders = []
    for name in listed:
        path = ROOT / name
        if not path.is_file() or path.suffix in {".png", ".mo", ".ttf", ".otf", ".sqlite3"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if pattern.search(line):
                offenders.append(f"{name}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_the_license_is_the_one_pyproject_announces() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "The Tavolo authors" in text


def test_pre_commit_runs_the_checks_of_ci() -> None:
    """Every lint and type command of .ci/run is a local pre-commit hook (no network)."""
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert all(repo["repo"] == "local" for repo in config["repos"])
    assert all(hook["language"] == "system" for hook in hooks)
    entries = {hook["entry"] for hook in hooks}
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    checks = {line.strip().removesuffix(" .") for line in ci if line.startswith(("ruff", "mypy"))}
    assert checks == {"ruff check", "ruff format --check", "mypy"}
    assert entries == checks


@pytest.mark.parametrize("name", KINDS)
def test_documented_defaults_and_choices_are_the_engine_ones(name: str) -> None:
    """Each row's default cell names the default of ``Rules.options()``, and its values cell
    every choice of a choice option (the engine's descriptions, checked against
    ``Rules.from_dict`` in tests/engine/test_contract.py)."""
    kind = default_registry().get(name)
    assert kind is not None
    rows = documented_rows().get(name, {})
    wrong = []
    for option in kind.module.Rules.options():
        if option.name not in rows:
            continue  # reported by test_documented_options_are_the_engine_options
        values, default = rows[option.name]
        if not _mentions(default, option.default):
            wrong.append(
                f"{option.name}: default {_as_written(option.default)!r} not in {default!r}"
            )
        if option.kind == "choice":
            missing = [c for c in option.choices if not _mentions(values, c)]
            if missing:
                wrong.append(f"{option.name}: values {missing} not in {values!r}")
    assert not wrong, f"docs/rules.md, {name}: " + "; ".join(wrong)
