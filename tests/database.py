"""Where the tests' PostgreSQL comes from, and fresh databases cloned from a template.

Order: ``TEST_DATABASE_URL``; else a testcontainers PostgreSQL when a Docker
engine answers; else the embedded server in a temporary directory.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg

from store import migrate
from store.database import canonical_url, with_database
from store.embedded import APP_ROLE, start_embedded, with_user


def docker_answers() -> bool:
    """Probe for a Docker engine without letting testcontainers raise in its constructor.

    A local engine's socket that is not there is answer enough: the docker SDK's
    client would fail to connect to it and leave its socket unclosed (a
    ResourceWarning in the test run).
    """
    host = os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    if host.startswith("unix://") and not Path(host.removeprefix("unix://")).exists():
        return False
    try:
        import docker

        client = docker.from_env(timeout=3)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


@contextlib.contextmanager
def server_url(tmp_root: Path) -> Iterator[str]:
    """Yield an admin URL of a PostgreSQL server for the test session."""
    configured = os.environ.get("TEST_DATABASE_URL")
    if configured:
        yield canonical_url(configured)
        return
    if docker_answers():
        from testcontainers.postgres import PostgresContainer

        with PostgresContainer("postgres:17-alpine", driver=None) as container:
            yield canonical_url(container.get_connection_url())
        return
    admin_url = start_embedded(tmp_root / "embedded").admin_url
    no_flushes(admin_url)
    yield admin_url


def no_flushes(admin_url: str) -> None:
    """Turn ``fsync`` off on the session's own embedded server.

    Its files go when the session ends, so flushing them to disk protects nothing;
    with ``fsync`` on, every test's fresh database waited on flushes (CREATE DATABASE
    writes the copy, DROP DATABASE forces a checkpoint): about 0.2 s a test. Commits
    are as before otherwise (``synchronous_commit`` stays on); the tests that kill
    PostgreSQL run servers of their own. A server the shell names is left as it is.
    """
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET fsync = off")
        conn.execute("SELECT pg_reload_conf()")


def create_template(admin_url: str) -> str:
    """Create a migrated template database and return its name."""
    name = f"matchlog_template_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    migrate.upgrade(with_database(admin_url, name))
    return name


def drop_database(admin_url: str, name: str) -> None:
    """Drop a database, disconnecting whoever still uses it."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def fresh_database(admin_url: str, template: str) -> Iterator[str]:
    """Yield the URL of a new database cloned from ``template``; drop it afterwards."""
    name = f"matchlog_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    try:
        yield with_database(admin_url, name)
    finally:
        drop_database(admin_url, name)


@contextlib.contextmanager
def app_login(admin_url: str) -> Iterator[tuple[str, str]]:
    """Yield a new login role's name and password, a member of the service's role.

    Tests connect as it, so they run with the service's rights. A role of its own
    (dropped afterwards) with a password works on a server that checks passwords,
    and leaves ``matchlog_app``, which the migrated template created, as it is.
    """
    name = f"matchlog_test_{uuid.uuid4().hex[:8]}"
    password = uuid.uuid4().hex
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(
            f"CREATE ROLE {name} LOGIN NOSUPERUSER PASSWORD '{password}' IN ROLE {APP_ROLE}"
        )
    try:
        yield name, password
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f"DROP ROLE IF EXISTS {name}")


def as_login(url: str, login: tuple[str, str]) -> str:
    """Return ``url`` connecting as ``login`` (a name and a password)."""
    return with_user(url, *login)
