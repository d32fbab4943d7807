"""Shared fixtures: a real PostgreSQL, and a fresh migrated database per test."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.database import (
    app_login,
    as_login,
    create_template,
    drop_database,
    fresh_database,
    server_url,
)
from tests.environment import matchlog_variables

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def pytest_configure(config: pytest.Config) -> None:
    settings.load_profile(
        os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
    )


@pytest.fixture(autouse=True, scope="session")
def _no_matchlog_settings_for_the_session() -> Iterator[None]:
    """Clear the shell's ``MATCHLOG_*`` variables for the whole run (session fixtures too).

    Run from a shell that exports the README's ``MATCHLOG_DATABASE_URL``, the suite
    would otherwise migrate, rebuild and revoke on that database (#35).
    """
    with pytest.MonkeyPatch.context() as patch:
        for name in matchlog_variables():
            patch.delenv(name)
        yield


@pytest.fixture(autouse=True)
def _no_matchlog_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clear every ``MATCHLOG_*`` variable before each test: a test sets the ones it uses."""
    for name in matchlog_variables():
        monkeypatch.delenv(name)


@pytest.fixture(name="admin_url", scope="session")
def _admin_url() -> Iterator[str]:
    """URL of the session's PostgreSQL server, connected to its admin database."""
    # Not pytest's tmp_path: concurrent pytest runs prune each other's numbered
    # directories, which would delete a running embedded server's files.
    root = Path(tempfile.mkdtemp(prefix="matchlog-tests-"))
    # atexit runs last-registered first: this removal runs after the embedded
    # server (registered later, when it starts) has stopped.
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    with server_url(root) as url:
        yield url


@pytest.fixture(name="template_database", scope="session")
def _template_database(admin_url: str) -> Iterator[str]:
    """Name of a database migrated to head, cloned for every test."""
    name = create_template(admin_url)
    yield name
    drop_database(admin_url, name)


@pytest.fixture(name="app_login", scope="session")
def _app_login(admin_url: str, template_database: str) -> Iterator[tuple[str, str]]:
    """Name and password of the session's login role, with the service's rights only."""
    with app_login(admin_url) as login:
        yield login


@pytest.fixture(name="owner_url")
def _owner_url(admin_url: str, template_database: str) -> Iterator[str]:
    """URL of a fresh database, migrated to head, for one test, as the schema's owner.

    For tests that change the schema or tamper with the log, which the service cannot.
    """
    with fresh_database(admin_url, template_database) as url:
        yield url


@pytest.fixture(name="database_url")
def _database_url(owner_url: str, app_login: tuple[str, str]) -> str:
    """URL of the test's fresh database as the service's role (``matchlog_app``)."""
    return as_login(owner_url, app_login)


@pytest.fixture(name="repo_root", scope="session")
def _repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


@pytest.fixture(name="embedded_dir")
def _embedded_dir() -> Iterator[Path]:
    """A fresh folder for one test's own embedded server, outside pytest's tmp_path.

    Under root the embedded server runs as its own user, which must reach its files.
    Every pytest run that starts on this machine sets pytest's temp root back to
    0700, so a server created under another run's tmp_path failed in initdb with
    "Permission denied". The test stops its server before the folder goes.
    """
    root = Path(tempfile.mkdtemp(prefix="matchlog-test-"))
    yield root
    shutil.rmtree(root, ignore_errors=True)
