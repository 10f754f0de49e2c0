"""Online backup and restore of the SQLite database (``tavolo db backup`` / ``tavolo db restore``).

The backup uses SQLite's online backup API (``sqlite3.Connection.backup``): it copies a
consistent snapshot page by page while the bot keeps playing (WAL readers never block the
writer), so no downtime is needed. A restore copies a backup over the live database with the
same API, so it must run while the bot is stopped (the restored pages replace what a running
bot would have cached).

PostgreSQL deployments use ``pg_dump``/``pg_restore``; these functions are SQLite only.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

logger = logging.getLogger(__name__)

# Pages copied per step: small steps let the bot's writes interleave with a long backup.
_PAGES_PER_STEP = 256


class BackupError(RuntimeError):
    """A backup or restore could not be made; the message says why (the target is untouched)."""


def _check_integrity(conn: sqlite3.Connection, what: Path) -> None:
    rows = conn.execute("PRAGMA integrity_check").fetchall()
    if rows != [("ok",)]:
        raise BackupError(f"{what} is damaged: {'; '.join(str(r[0]) for r in rows[:5])}")


def backup_sqlite(db_path: str | os.PathLike[str], dest_path: str | os.PathLike[str]) -> Path:
    """Copy the live database ``db_path`` to ``dest_path`` while it may be in use.

    The copy is written to a temporary file next to ``dest_path``, checked with
    ``PRAGMA integrity_check``, switched out of WAL mode (one self-contained file) and then
    renamed over ``dest_path``, so a failed backup never leaves a half-written file under the
    final name. Returns the destination path. Raises :class:`BackupError` when ``db_path`` is
    not a SQLite database or the copy fails.
    """
    source_path = Path(db_path)
    dest = Path(dest_path)
    if not source_path.is_file():
        raise BackupError(f"no database at {source_path}")
    if dest.resolve() == source_path.resolve():
        raise BackupError("the backup must go to another file than the database")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        # Read-only URI: a backup never creates or changes the source.
        source = sqlite3.connect(f"{source_path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        try:
            target = sqlite3.connect(partial)
            try:
                source.backup(target, pages=_PAGES_PER_STEP)
                target.execute("PRAGMA journal_mode=DELETE")
                _check_integrity(target, partial)
            finally:
                target.close()
        finally:
            source.close()
        os.replace(partial, dest)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot back up {source_path}: {exc}") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    logger.info("backed up %s to %s", source_path, dest)
    return dest


def restore_sqlite(backup_path: str | os.PathLike[str], db_path: str | os.PathLike[str]) -> Path:
    """Replace the database ``db_path`` with the backup ``backup_path``. Stop the bot first.

    The backup is checked (``PRAGMA integrity_check``) before anything is touched; the current
    database is then overwritten page by page through the backup API, which also resets its WAL,
    so no stale ``-wal`` file can replay over the restored data. ``db_path`` is created when it
    does not exist. Returns ``db_path``. Raises :class:`BackupError` when the backup is missing
    or damaged (the database is then left as it was).
    """
    source_path = Path(backup_path)
    dest = Path(db_path)
    if not source_path.is_file():
        raise BackupError(f"no backup at {source_path}")
    if dest.exists() and dest.resolve() == source_path.resolve():
        raise BackupError("the backup and the database are the same file")
    try:
        source = sqlite3.connect(f"{source_path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        try:
            try:
                _check_integrity(source, source_path)
            except sqlite3.DatabaseError as exc:
                raise BackupError(f"{source_path} is not a SQLite database: {exc}") from exc
            dest.parent.mkdir(parents=True, exist_ok=True)
            target = sqlite3.connect(dest, timeout=30)
            try:
                source.backup(target)
                # The bot runs in WAL mode; checkpointing empties the -wal file of the old data.
                target.execute("PRAGMA journal_mode=WAL")
                target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                _check_integrity(target, dest)
            finally:
                target.close()
        finally:
            source.close()
    except sqlite3.Error as exc:
        raise BackupError(f"cannot restore {source_path} to {dest}: {exc}") from exc
    logger.info("restored %s from %s", dest, source_path)
    return dest
