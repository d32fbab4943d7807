"""Run the alembic migrations in ``migrations/`` against a database URL.

alembic (and SQLAlchemy under it) is imported only when a migration really runs:
every CLI command checks the schema first, and a database already at head needs
nothing but one query (``ensure_head``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import migrations
from domain.errors import DomainError
from store.database import canonical_url, sqlalchemy_url

if TYPE_CHECKING:
    from alembic.config import Config

_VERSIONS = Path(migrations.__file__).parent / "versions"
_REVISION = re.compile(r'^(down_revision|revision) = (None|"([^"]+)")$', re.MULTILINE)


class MigrationRefusedError(DomainError):
    """The role migrations ran as may not change the schema."""

    default_code = "MIGRATION_REFUSED"


@contextmanager
def _as_owner() -> Iterator[None]:
    """Turn a permission error of a migration into one line that says who may migrate."""
    import psycopg

    try:
        yield
    except psycopg.errors.InsufficientPrivilege as e:
        raise _refused(e) from None
    except Exception as e:
        # SQLAlchemy wraps the driver's error; importing it here would cost every command.
        orig = getattr(e, "orig", None)
        if isinstance(orig, psycopg.errors.InsufficientPrivilege):
            raise _refused(orig) from None
        raise


def _refused(error: Exception) -> MigrationRefusedError:
    reason = (str(error).strip().splitlines() or ["permission denied"])[0]
    return MigrationRefusedError(
        f"the schema cannot be migrated as this role ({reason}): run `matchlog db upgrade` "
        "(or downgrade) with MATCHLOG_MIGRATION_DATABASE_URL set to the URL of the role that "
        "owns it",
        details={"reason": reason},
    )


def alembic_config(url: str) -> Config:
    """Build an alembic config for ``url`` without an ini file."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.set_main_option("sqlalchemy.url", sqlalchemy_url(url).replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database up to ``revision``."""
    from alembic import command

    with _as_owner():
        command.upgrade(alembic_config(url), revision)


def ensure_head(url: str) -> None:
    """Migrate the database to head unless it is there already (one query if it is).

    ``url`` is the schema owner's: the service's own role may not migrate.
    """
    if current(url) != head():
        upgrade(url)


@cache
def head() -> str:
    """Return the newest revision in ``migrations/versions``, read from the files.

    The chain is linear: the head is the one revision no other names as its
    ``down_revision``.
    """
    revisions: set[str] = set()
    downs: set[str] = set()
    for path in _VERSIONS.glob("*.py"):
        for key, _, value in _REVISION.findall(path.read_text()):
            if value:
                (revisions if key == "revision" else downs).add(value)
    (newest,) = revisions - downs
    return newest


def downgrade(url: str, revision: str = "base") -> None:
    """Migrate the database down to ``revision``."""
    from alembic import command

    with _as_owner():
        command.downgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    """Return the database's current revision, or ``None`` if it was never migrated."""
    import psycopg

    with _as_owner(), psycopg.connect(canonical_url(url)) as conn:
        has_table = conn.execute("SELECT to_regclass('alembic_version')").fetchone()
        if has_table is None or has_table[0] is None:
            return None
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])
