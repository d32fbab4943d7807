"""The service's role: it reads and appends events, and cannot change, remove or unguard them."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from cli.main import app
from store import migrate
from store.database import resolve_database
from store.embedded import APP_ROLE
from store.events import NewEvent, append


def append_one(url: str) -> None:
    """Append one event through the store, as the role of ``url``, and commit."""

    async def main() -> None:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            await append(conn, f"cuttle-{uuid.uuid4()}", [NewEvent(uuid.uuid4(), "Noted", {})], 0)
            await conn.commit()

    asyncio.run(main())


def db(database_url: str, *args: str, migration_url: str | None = None) -> tuple[int, str]:
    env = {"MATCHLOG_DATABASE_URL": database_url, "COLUMNS": "80"}
    if migration_url:
        env["MATCHLOG_MIGRATION_DATABASE_URL"] = migration_url
    result = CliRunner().invoke(app, ["db", *args], env=env)
    return result.exit_code, result.stdout + result.stderr


@pytest.fixture(name="appended")
def _appended(database_url: str) -> str:
    append_one(database_url)
    return database_url


@pytest.mark.parametrize(
    "sql", ["UPDATE events SET type = 'X'", "DELETE FROM events", "TRUNCATE events"]
)
def test_app_role_may_not_change_or_remove_events(appended: str, sql: str) -> None:
    with psycopg.connect(appended) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
            conn.execute(sql)
        conn.rollback()
        assert (1,) == conn.execute("SELECT count(*) FROM events").fetchone()


@pytest.mark.parametrize(
    "sql",
    [
        "ALTER TABLE events DISABLE TRIGGER events_append_only",
        "ALTER TABLE events DISABLE TRIGGER ALL",
        "DROP TRIGGER events_no_truncate ON events",
        "SET session_replication_role = replica",
        "SET LOCAL session_replication_role = replica",
        "ALTER TABLE events OWNER TO CURRENT_USER",
    ],
)
def test_app_role_may_not_unguard_events(database_url: str, sql: str) -> None:
    with (
        psycopg.connect(database_url) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute(sql)


def test_app_role_owns_nothing_and_has_no_powers(database_url: str) -> None:
    with psycopg.connect(database_url) as conn:
        owned = conn.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner"
            " WHERE pg_has_role(current_user, r.oid, 'MEMBER')"
        ).fetchone()
        powers = conn.execute(
            "SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolreplication"
            " FROM pg_roles WHERE rolname IN (current_user, %s)",
            (APP_ROLE,),
        ).fetchall()
        member = conn.execute("SELECT pg_has_role(current_user, %s, 'MEMBER')", (APP_ROLE,))
        assert (True,) == member.fetchone()
    assert (0,) == owned
    assert [(False,) * 5] * 2 == powers


def test_app_role_appends_reads_and_rebuilds(appended: str) -> None:
    with psycopg.connect(appended) as conn:
        assert (1,) == conn.execute("SELECT max(version) FROM events").fetchone()
        conn.execute("LISTEN matchlog_events")
        conn.execute("LOCK TABLE competition_standings, match_series, matches")
        conn.execute("TRUNCATE competition_standings, match_series, matches")
        conn.execute("INSERT INTO players (id, display_name) VALUES (%s, 'Ada')", (uuid.uuid4(),))


def test_app_role_cannot_migrate_and_says_who_can(database_url: str, owner_url: str) -> None:
    code, out = db(database_url, "downgrade")
    assert (1, 1) == (code, out.count("\n")), out
    assert out.startswith("error: MIGRATION_REFUSED: the schema cannot be migrated as this role")
    assert "MATCHLOG_MIGRATION_DATABASE_URL" in out
    assert migrate.head() == migrate.current(owner_url)


def test_migrations_run_as_the_migration_url_role(database_url: str, owner_url: str) -> None:
    code, out = db(database_url, "downgrade", "--yes", migration_url=owner_url)
    assert 0 == code, out
    assert out.startswith("database at revision ")
    assert migrate.current(owner_url) not in (None, migrate.head())
    assert (0, f"database at revision {migrate.head()}\n") == db(
        database_url, "upgrade", migration_url=owner_url
    )
    append_one(database_url)


def test_external_server_migrates_as_its_own_role_unless_told() -> None:
    alone = resolve_database("postgres://app@h/db", None, Path("unused"))
    told = resolve_database("postgresql://app@h/db", "postgresql://owner@h/db", Path("unused"))
    assert ("postgresql://app@h/db",) * 2 == (alone.app, alone.owner)
    assert ("postgresql://app@h/db", "postgresql://owner@h/db") == (told.app, told.owner)
