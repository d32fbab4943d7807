"""Fixtures for HTTP tests: an app on a fresh database, and tokens of each role."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import UUID

import psycopg
import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.settings import Settings
from store import accounts
from store.accounts import Role
from tests.database import as_login, fresh_database

MakeToken = Callable[..., str]


@pytest.fixture(name="client")
def _client(database_url: str) -> Iterator[TestClient[Any]]:
    """A test client of the app on a fresh database."""
    with TestClient(create_app(Settings(database_url=database_url))) as client:
        yield client


@pytest.fixture(name="refusing_url", scope="package")
def _refusing_url(
    admin_url: str, template_database: str, app_login: tuple[str, str]
) -> Iterator[str]:
    """URL of one database shared by tests whose requests change nothing but tokens.

    Creating a database per test costs most of this package's run time; tests that
    only see refusals (and the tokens they use) can share one.
    """
    with fresh_database(admin_url, template_database) as url:
        yield as_login(url, app_login)


@pytest.fixture(name="refusing_client", scope="package")
def _refusing_client(refusing_url: str) -> Iterator[TestClient[Any]]:
    """A test client on the shared database: only for requests that write nothing."""
    with TestClient(create_app(Settings(database_url=refusing_url))) as client:
        yield client


def create_secret(url: str, role: Role, competitions: Collection[UUID] | None = None) -> str:
    """Create a token straight in the database at ``url`` and return its secret.

    In a thread of its own: once a browser test has started Playwright's sync API, an
    event loop keeps running in the test thread, and ``asyncio.run`` refuses to start there.
    """

    async def create() -> str:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            _, secret = await accounts.create_token(conn, role=role, competitions=competitions)
        return secret

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, create()).result()


def _token_headers(url: str, role: Role) -> dict[str, str]:
    return {"Authorization": f"Bearer {create_secret(url, role)}"}


@pytest.fixture(name="refusing_admin", scope="package")
def _refusing_admin(refusing_url: str) -> dict[str, str]:
    """Headers carrying an admin token valid on the shared database."""
    return _token_headers(refusing_url, Role.ADMIN)


@pytest.fixture(name="refusing_scorer", scope="package")
def _refusing_scorer(refusing_url: str) -> dict[str, str]:
    """Headers carrying a scorer token valid on the shared database."""
    return _token_headers(refusing_url, Role.SCORER)


@pytest.fixture(name="make_token")
def _make_token(database_url: str) -> MakeToken:
    """Create a token straight in the database and return its secret."""

    def make(role: Role, competitions: Collection[UUID] | None = None) -> str:
        return create_secret(database_url, role, competitions)

    return make


@pytest.fixture(name="admin")
def _admin(database_url: str) -> dict[str, str]:
    """Headers carrying an admin token."""
    return _token_headers(database_url, Role.ADMIN)


@pytest.fixture(name="scorer")
def _scorer(database_url: str) -> dict[str, str]:
    """Headers carrying a scorer token for every competition."""
    return _token_headers(database_url, Role.SCORER)


class SharedDatabase:
    """Base for test classes whose requests write nothing: they share one database.

    It overrides ``client``, ``admin`` and ``scorer`` with the package-wide ones.
    """

    @pytest.fixture(name="client")
    def _shared_client(self, refusing_client: TestClient[Any]) -> TestClient[Any]:
        return refusing_client

    @pytest.fixture(name="admin")
    def _shared_admin(self, refusing_admin: dict[str, str]) -> dict[str, str]:
        return refusing_admin

    @pytest.fixture(name="scorer")
    def _shared_scorer(self, refusing_scorer: dict[str, str]) -> dict[str, str]:
        return refusing_scorer
