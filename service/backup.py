"""Backing up and restoring the embedded database (``matchlog backup`` and ``restore``).

A physical copy made by the bundled ``pg_basebackup`` while the service runs
(``store.backup``); an external server is backed up with PostgreSQL's own tools
(docs/operations.md, "Backups").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import psycopg

from domain.errors import DomainError
from service.data_dir import require_data
from service.settings import Settings
from store import backup as physical
from store import migrate
from store.backup import Backup, Progress

__all__ = ["Backup", "Progress", "Restored", "backup", "restore"]


@dataclass(frozen=True, slots=True)
class Restored:
    """What a restore brought back: the data dir, its schema revision and what it holds."""

    data_dir: Path
    revision: str | None
    matches: int
    events: int


def _embedded_only(settings: Settings, command: str) -> None:
    if settings.database_url:
        raise DomainError(
            f"`matchlog {command}` copies the embedded server; MATCHLOG_DATABASE_URL names an "
            "external one: use PostgreSQL's own tools (pg_basebackup or pg_dump, see "
            "docs/operations.md)",
            code="EXTERNAL_DATABASE",
        )


def backup(settings: Settings, target: Path, progress: Progress) -> Backup:
    """Copy the embedded database into the new folder ``target`` while the service runs.

    Raises:
        DomainError (EXTERNAL_DATABASE): ``MATCHLOG_DATABASE_URL`` is set.
        NotFoundError (NO_DATA): the data dir holds no database.
        BackupError (BACKUP_EXISTS, BACKUP_FAILED).
    """
    _embedded_only(settings, "backup")
    require_data(settings)
    return physical.backup(settings.data_dir, target, progress)


def restore(settings: Settings, source: Path, progress: Progress) -> Restored:
    """Restore the backup in ``source`` into the data dir, which must be new or empty.

    Raises:
        DomainError (EXTERNAL_DATABASE): ``MATCHLOG_DATABASE_URL`` is set.
        BackupError (DATA_DIR_NOT_EMPTY, NOT_A_BACKUP).
        EmbeddedStartError (EMBEDDED_DATABASE_DOWN): the restored server did not start.
    """
    _embedded_only(settings, "restore")
    server = physical.restore(source, settings.data_dir, progress)
    revision = migrate.current(server.url)
    with psycopg.connect(server.url) as conn:
        counted = conn.execute(
            "SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM events)"
            if revision is not None
            else "SELECT 0, 0"
        ).fetchone()
    matches, events = counted or (0, 0)
    return Restored(
        data_dir=settings.data_dir.expanduser().resolve(),
        revision=revision,
        matches=int(matches),
        events=int(events),
    )
