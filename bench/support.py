"""What the benches share: a fresh database, migrated to head, on a server."""

from __future__ import annotations

import uuid

import psycopg

from store import migrate
from store.database import with_database


def fresh_database(admin_url: str, prefix: str = "matchlog_bench") -> str:
    """Create a database on ``admin_url``'s server and migrate it; return its name."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    migrate.upgrade(with_database(admin_url, name))
    return name
