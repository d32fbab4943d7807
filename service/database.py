"""The database's schema: migrate it up or down, read its revision (``matchlog db``).

Migrations run as the schema's owner: ``url`` is the owner's (``service.wiring``'s
``configured_database(...).owner``).
"""

from __future__ import annotations

from store import migrate


def upgrade(url: str, revision: str = "head") -> str | None:
    """Migrate the database up to ``revision``; return the revision it is at."""
    migrate.upgrade(url, revision)
    return migrate.current(url)


def downgrade(url: str, revision: str = "-1") -> str | None:
    """Migrate the database down to ``revision``; return the revision it is at (``None``: base)."""
    migrate.downgrade(url, revision)
    return migrate.current(url)


def current(url: str) -> str | None:
    """Return the database's current revision, or ``None`` if it was never migrated."""
    return migrate.current(url)


def ensure_head(url: str) -> None:
    """Migrate the database to the newest revision unless it is there already."""
    migrate.ensure_head(url)


__all__ = ["current", "downgrade", "ensure_head", "upgrade"]
