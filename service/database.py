"""The database's schema: migrate it up or down, read its revision (``matchlog db``).

Migrations run as the schema's owner: ``url`` is the owner's (``service.wiring``'s
``configured_database(...).owner``). Every call refuses, in one line, a database a
newer matchlog migrated (``DATABASE_TOO_NEW``) and a revision that does not exist
(``UNKNOWN_REVISION``); a downgrade is checked whole before anything is undone
(``DOWNGRADE_REFUSED``).
"""

from __future__ import annotations

from store import migrate
from store.migrate import DowngradePlan, Step

__all__ = [
    "DowngradePlan",
    "Step",
    "current",
    "describe",
    "downgrade",
    "ensure_head",
    "plan_downgrade",
    "upgrade",
]


def upgrade(url: str, revision: str = "head") -> str | None:
    """Migrate the database up to ``revision``; return the revision it is at."""
    migrate.upgrade(url, revision)
    return migrate.current(url)


def plan_downgrade(url: str, revision: str = "-1") -> DowngradePlan:
    """Return what a downgrade to ``revision`` would undo; refuse it before undoing anything.

    Raises:
        DowngradeRefusedError (DOWNGRADE_REFUSED): undoing a revision would lose or
            break recorded data (chain v2 events exist, below 0011_chain_v2).
        MigrationRefusedError (MIGRATION_REFUSED): the role is not the schema's owner.
        SchemaTooNewError (DATABASE_TOO_NEW), UnknownRevisionError (UNKNOWN_REVISION).
    """
    return migrate.plan_downgrade(url, revision)


def downgrade(url: str, revision: str = "-1") -> str | None:
    """Migrate the database down to ``revision``; return the revision it is at (``None``: base).

    Raises what ``plan_downgrade`` raises, before anything is undone.
    """
    migrate.downgrade(url, revision)
    return migrate.current(url)


def current(url: str) -> str | None:
    """Return the database's current revision, or ``None`` if it was never migrated."""
    return migrate.current(url)


def describe(url: str, revision: str) -> str:
    """Return ``revision`` as ``db current`` prints it: with who made it when it is not ours."""
    if revision in migrate.revisions():
        return revision
    maker = migrate.made_by(url)
    made = f"matchlog {maker}" if maker else "a newer matchlog"
    return f"{revision} (made by {made}; unknown to matchlog {migrate.matchlog_version()})"


def ensure_head(url: str) -> None:
    """Migrate the database to the newest revision unless it is there already."""
    migrate.ensure_head(url)
