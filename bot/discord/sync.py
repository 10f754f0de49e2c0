"""Syncing the command tree only when it changed.

Discord limits how many commands an application may create per day, so a bot must not sync on
every start. The fingerprint is a hash of exactly the payload ``CommandTree.sync`` would upload
(translations included); it is stored after a successful sync and compared on the next start.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Protocol

import discord
from discord import app_commands

from bot.domain import JSONObject

logger = logging.getLogger(__name__)


class SyncState(Protocol):
    """Where the fingerprint of the last synced command tree is kept."""

    async def load(self) -> str | None: ...

    async def save(self, fingerprint: str) -> None: ...


class FileSyncState:
    """The fingerprint in a small text file (written atomically)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    async def load(self) -> str | None:
        try:
            return self.path.read_text(encoding="utf-8").strip() or None
        except FileNotFoundError:
            return None

    async def save(self, fingerprint: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(self.path.suffix + ".tmp")
        temporary.write_text(fingerprint + "\n", encoding="utf-8")
        os.replace(temporary, self.path)


class MemorySyncState:
    """The fingerprint in memory (tests, or a bot that should sync once per process)."""

    def __init__(self, fingerprint: str | None = None) -> None:
        self.fingerprint = fingerprint

    async def load(self) -> str | None:
        return self.fingerprint

    async def save(self, fingerprint: str) -> None:
        self.fingerprint = fingerprint


async def tree_payload(tree: app_commands.CommandTree[discord.Client]) -> list[JSONObject]:
    """The global commands as ``CommandTree.sync`` uploads them."""
    commands = tree.get_commands()
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def tree_fingerprint(tree: app_commands.CommandTree[discord.Client]) -> str:
    payload = await tree_payload(tree)
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


async def sync_commands(
    tree: app_commands.CommandTree[discord.Client], state: SyncState, *, force: bool = False
) -> bool:
    """Upload the global commands if they changed since the last sync (or ``force``).
    Returns whether a sync happened."""
    fingerprint = await tree_fingerprint(tree)
    if not force and await state.load() == fingerprint:
        logger.info("command tree unchanged (%s): not syncing", fingerprint[:12])
        return False
    synced = await tree.sync()
    await state.save(fingerprint)
    logger.info("synced %s commands (%s)", len(synced), fingerprint[:12])
    return True
