"""Run the alembic migrations in ``migrations/`` against a database URL."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

import migrations
from store.database import sqlalchemy_url


def alembic_config(url: str) -> Config:
    """Build an alembic config for ``url`` without an ini file."""
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.set_main_option("sqlalchemy.url", sqlalchemy_url(url).replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database up to ``revision``."""
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    """Migrate the database down to ``revision``."""
    command.downgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    """Return the database's current revision, or ``None`` if it was never migrated."""
    import psycopg

    from store.database import canonical_url

    with psycopg.connect(canonical_url(url)) as conn:
        has_table = conn.execute("SELECT to_regclass('alembic_version')").fetchone()
        if has_table is None or has_table[0] is None:
            return None
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])
