"""Fixtures for HTTP tests: an app on a fresh database, and tokens of each role."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterator
from typing import Any
from uuid import UUID

import psycopg
import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.settings import Settings
from store import accounts
from store.accounts import Role

MakeToken = Callable[..., str]


@pytest.fixture(name="client")
def _client(database_url: str) -> Iterator[TestClient[Any]]:
    """A test client of the app on a fresh database."""
    with TestClient(create_app(Settings(database_url=database_url))) as client:
        yield client


@pytest.fixture(name="make_token")
def _make_token(database_url: str) -> MakeToken:
    """Create a token straight in the database and return its secret."""

    def make(role: Role, competitions: Collection[UUID] | None = None) -> str:
        async def create() -> str:
            async with await psycopg.AsyncConnection.connect(database_url) as conn:
                _, secret = await accounts.create_token(conn, role=role, competitions=competitions)
            return secret

        return asyncio.run(create())

    return make


@pytest.fixture(name="admin")
def _admin(make_token: MakeToken) -> dict[str, str]:
    """Headers carrying an admin token."""
    return {"Authorization": f"Bearer {make_token(Role.ADMIN)}"}


@pytest.fixture(name="scorer")
def _scorer(make_token: MakeToken) -> dict[str, str]:
    """Headers carrying a scorer token for every competition."""
    return {"Authorization": f"Bearer {make_token(Role.SCORER)}"}
