"""Run the alembic migrations in ``migrations/`` against a database URL.

alembic (and SQLAlchemy under it) is imported only when a migration really runs:
every CLI command checks the schema first, and a database already at head needs
nothing but one query (``ensure_head``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

import migrations
from domain.errors import DomainError
from store.database import canonical_url, sqlalchemy_url

if TYPE_CHECKING:
    import psycopg
    from alembic.config import Config
    from alembic.script import ScriptDirectory

_VERSIONS = Path(migrations.__file__).parent / "versions"
_REVISION = re.compile(r'^(down_revision|revision) = (None|"([^"]+)")$', re.MULTILINE)


class MigrationRefusedError(DomainError):
    """The role migrations ran as may not change the schema."""

    default_code = "MIGRATION_REFUSED"


class MigrationFailedError(DomainError):
    """A migration step failed (alembic refused the target, or the database its SQL)."""

    default_code = "MIGRATION_FAILED"


class SchemaTooNewError(DomainError):
    """The database is at a revision this matchlog does not know: a newer one made it."""

    default_code = "DATABASE_TOO_NEW"


class UnknownRevisionError(DomainError):
    """A revision asked for is not one of ``migrations/versions``."""

    default_code = "UNKNOWN_REVISION"


class DowngradeRefusedError(DomainError):
    """A downgrade would lose or break recorded data; nothing was undone."""

    default_code = "DOWNGRADE_REFUSED"


@dataclass(frozen=True, slots=True)
class Step:
    """One revision a downgrade undoes: its id and the first line of its docstring."""

    revision: str
    title: str


@dataclass(frozen=True, slots=True)
class DowngradePlan:
    """What ``downgrade`` to ``target`` would undo, newest first (``target`` ``None``: base)."""

    current: str | None
    target: str | None
    steps: tuple[Step, ...]


@contextmanager
def _as_owner() -> Iterator[None]:
    """Turn a permission error of a migration into one line that says who may migrate,
    and any other error of a migration into one line that says what failed."""
    import psycopg

    try:
        yield
    except psycopg.errors.InsufficientPrivilege as e:
        raise _refused(e) from None
    except (DomainError, psycopg.OperationalError):
        raise
    except Exception as e:
        # SQLAlchemy wraps the driver's error; importing it here would cost every command.
        orig = getattr(e, "orig", None)
        if isinstance(orig, psycopg.errors.InsufficientPrivilege):
            raise _refused(orig) from None
        if isinstance(orig, psycopg.OperationalError):
            raise orig from None
        if isinstance(orig, psycopg.Error) or type(e).__name__ == "CommandError":
            reason = (str(orig or e).strip().splitlines() or [type(e).__name__])[0]
            raise MigrationFailedError(
                f"the migration failed, and its step was rolled back: {reason}",
                details={"reason": reason},
            ) from None
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
    """Migrate the database up to ``revision``.

    Raises:
        SchemaTooNewError (DATABASE_TOO_NEW): a newer matchlog migrated the database.
        UnknownRevisionError (UNKNOWN_REVISION): ``revision`` names no revision.
    """
    from alembic import command

    with _as_owner():
        _require_known(url)
        _resolve(revision)
        command.upgrade(alembic_config(url), revision)
        _stamp(url)


def ensure_head(url: str) -> None:
    """Migrate the database to head unless it is there already (one query if it is).

    ``url`` is the schema owner's: the service's own role may not migrate.

    Raises:
        SchemaTooNewError (DATABASE_TOO_NEW): a newer matchlog migrated the database.
    """
    at = current(url)
    if at == head():
        return
    if at is not None and at not in revisions():
        raise _too_new(url, at)
    upgrade(url)


@cache
def _chain() -> tuple[tuple[str, str | None], ...]:
    """Return every ``(revision, down_revision)`` of ``migrations/versions``, from the files."""
    pairs: list[tuple[str, str | None]] = []
    for path in _VERSIONS.glob("*.py"):
        found = {key: value or None for key, _, value in _REVISION.findall(path.read_text())}
        if found.get("revision"):
            pairs.append((str(found["revision"]), found.get("down_revision")))
    return tuple(pairs)


@cache
def head() -> str:
    """Return the newest revision in ``migrations/versions``, read from the files.

    The chain is linear: the head is the one revision no other names as its
    ``down_revision``.
    """
    (newest,) = revisions() - {down for _, down in _chain() if down}
    return newest


@cache
def revisions() -> frozenset[str]:
    """Return every revision this matchlog knows (``migrations/versions``)."""
    return frozenset(revision for revision, _ in _chain())


def matchlog_version() -> str:
    """Return the version of the matchlog installed here."""
    try:
        return version("matchlog")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def made_by(url: str) -> str | None:
    """Return the matchlog version that last migrated the database, when it said so.

    Every migration this code runs leaves ``matchlog X.Y.Z`` as the comment of the
    ``alembic_version`` table (no migration needed: the owner may comment on its table).
    """
    import psycopg

    with psycopg.connect(canonical_url(url)) as conn:
        row = conn.execute("SELECT obj_description(to_regclass('alembic_version'), 'pg_class')")
        comment = (row.fetchone() or (None,))[0]
    if not isinstance(comment, str) or not comment.startswith("matchlog "):
        return None
    return comment.removeprefix("matchlog ").strip() or None


def _stamp(url: str) -> None:
    """Leave the version of matchlog that migrated the database in its ``alembic_version``."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(canonical_url(url), autocommit=True) as conn:
        if conn.execute("SELECT to_regclass('alembic_version')").fetchone() in (None, (None,)):
            return
        conn.execute(
            sql.SQL("COMMENT ON TABLE alembic_version IS {}").format(
                sql.Literal(f"matchlog {matchlog_version()}")
            )
        )


def _too_new(url: str, revision: str) -> SchemaTooNewError:
    ours = matchlog_version()
    maker = made_by(url)
    if maker is not None:
        what = f"matchlog {maker} made it (schema {revision}); install matchlog {maker} or newer"
    else:
        what = (
            f"a newer matchlog made it (schema {revision}); install the matchlog that made it "
            "or a newer one"
        )
    return SchemaTooNewError(
        f"this database is newer than matchlog {ours}: {what} (pip install -U matchlog)",
        details={"revision": revision, "made_by": maker, "installed": ours},
    )


def _require_known(url: str) -> str | None:
    """Return the database's revision, or refuse one this matchlog does not know."""
    at = current(url)
    if at is not None and at not in revisions():
        raise _too_new(url, at)
    return at


def _script() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("postgresql://unused/x"))


def _resolve(revision: str) -> None:
    """Refuse a revision argument alembic would not find (relative ones pass: +1, -2)."""
    from alembic.util import CommandError

    if revision in ("head", "heads", "base") or re.fullmatch(r"[+-]\d+", revision):
        return
    try:
        found = _script().get_revision(revision)
    except CommandError:
        found = None
    if found is None:
        raise UnknownRevisionError(
            f"no revision {revision!r}: this matchlog ({matchlog_version()}) knows "
            f"{_first_and_last()}; `matchlog db current` says where the database is",
            details={"revision": revision},
        )


def _first_and_last() -> str:
    chain = dict(_chain())
    newest = head()
    oldest = next(rev for rev, down in chain.items() if down is None)
    return f"{oldest} to {newest}, and base"


def plan_downgrade(url: str, revision: str = "-1") -> DowngradePlan:
    """Return what downgrading to ``revision`` would undo, refusing before anything is undone.

    Every revision on the way may say, in a module-level ``refuse_downgrade`` query,
    why it must not be undone on this database (a row of text; no row: it may).

    Raises:
        SchemaTooNewError (DATABASE_TOO_NEW): a newer matchlog migrated the database.
        UnknownRevisionError (UNKNOWN_REVISION): ``revision`` names no revision, or one
            the database is not above.
        DowngradeRefusedError (DOWNGRADE_REFUSED): a revision to undo says it must not be.
    """
    import psycopg
    from alembic.util import CommandError

    with _as_owner():
        at = _require_known(url)
        _resolve(revision)
        script = _script()
        if at is None:
            return DowngradePlan(current=None, target=None, steps=())
        try:
            if re.fullmatch(r"-\d+", revision):
                chain = list(script.iterate_revisions(at, "base"))
                target = None if int(revision[1:]) >= len(chain) else chain[int(revision[1:])]
                target_id = None if target is None else target.revision
            else:
                resolved = None if revision == "base" else script.get_revision(revision)
                target_id = None if resolved is None else resolved.revision
            undone = [
                s
                for s in script.iterate_revisions(at, target_id or "base")
                if s.revision != target_id
            ]
        except CommandError as e:
            raise UnknownRevisionError(
                f"cannot go down from {at} to {revision!r}: {str(e).splitlines()[0]}",
                details={"revision": revision, "current": at},
            ) from None
        steps = tuple(Step(s.revision, (s.doc or "").strip().splitlines()[0]) for s in undone)
        with psycopg.connect(canonical_url(url)) as conn:
            _require_owner(conn)
            for s in undone:
                query = getattr(s.module, "refuse_downgrade", None)
                if query is None:
                    continue
                row = conn.execute(query).fetchone()
                if row is not None:
                    below = s.down_revision or "base"
                    raise DowngradeRefusedError(
                        f"cannot go below {s.revision} (to {below}): {row[0]}; nothing was undone",
                        details={"revision": s.revision, "current": at},
                    )
    return DowngradePlan(current=at, target=target_id, steps=steps)


def _require_owner(conn: psycopg.Connection[Any]) -> None:
    """Refuse, before asking anything, a role that could not undo what its owner made."""
    row = conn.execute(
        "SELECT pg_has_role(current_user, relowner, 'USAGE') FROM pg_class"
        " WHERE oid = to_regclass('alembic_version')"
    ).fetchone()
    if row is not None and not row[0]:
        user = conn.execute("SELECT current_user").fetchone()
        raise _refused(PermissionError(f"{(user or ('?',))[0]} does not own the schema"))


def downgrade(url: str, revision: str = "base") -> None:
    """Migrate the database down to ``revision``, once ``plan_downgrade`` allows it.

    Raises what ``plan_downgrade`` raises, before anything is undone.
    """
    from alembic import command

    plan = plan_downgrade(url, revision)
    if not plan.steps:
        return
    with _as_owner():
        command.downgrade(alembic_config(url), plan.target or "base")
        _stamp(url)


def current(url: str) -> str | None:
    """Return the database's current revision, or ``None`` if it was never migrated."""
    import psycopg

    with _as_owner(), psycopg.connect(canonical_url(url)) as conn:
        has_table = conn.execute("SELECT to_regclass('alembic_version')").fetchone()
        if has_table is None or has_table[0] is None:
            return None
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])
