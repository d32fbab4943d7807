"""What the benches share: a fresh database, migrated to head, on a server."""

from __future__ import annotations

import atexit
import shutil
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path

import psycopg

from store import migrate
from store.database import with_database


def fresh_database(
    admin_url: str,
    prefix: str = "matchlog_bench",
    upgrade: Callable[[str], None] = migrate.upgrade,
) -> str:
    """Create a database on ``admin_url``'s server and migrate it; return its name.

    ``upgrade`` migrates the new database's URL to head (another tree's code may).
    """
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    upgrade(with_database(admin_url, name))
    return name


def scratch_dir(prefix: str = "matchlog-bench-") -> Path:
    """Return a new temporary directory, removed when the bench exits.

    An embedded server started in it stops at exit too: the removal is registered
    before the server starts, and exit handlers run last-in first-out, so the
    server is stopped before its files are removed (a ``TemporaryDirectory``
    removed them under the running server).
    """
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
