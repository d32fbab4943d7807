"""A token's lifetime has one home, ``service.tokens`` (``is_lifetime``, ``MAX_LIFETIME``):
the API's bounds on ``expires_in``, ``matchlog tokens create --expires-in`` and the
service's own check are that rule (issue #30)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import psycopg
import pytest
from pydantic import ValidationError

from api.schemas import TokenIn
from domain.errors import DomainError
from domain.roles import Role
from service import tokens

EDGES = [timedelta(0), timedelta(seconds=1), tokens.MAX_LIFETIME, tokens.MAX_LIFETIME * 2]


def api_accepts(lifetime: timedelta) -> bool:
    try:
        TokenIn.model_validate({"role": "scorer", "expires_in": int(lifetime.total_seconds())})
    except ValidationError:
        return False
    return True


def cli_accepts(lifetime: timedelta) -> bool:
    try:
        tokens.parse_duration(f"{lifetime.days}d")
    except DomainError:
        return False
    return True


@pytest.mark.parametrize("lifetime", EDGES)
def test_the_api_takes_what_the_rule_takes(lifetime: timedelta) -> None:
    assert tokens.is_lifetime(lifetime) == api_accepts(lifetime)


@pytest.mark.parametrize("days", [0, 1, tokens.MAX_LIFETIME.days, tokens.MAX_LIFETIME.days + 1])
def test_the_command_line_takes_what_the_rule_takes(days: int) -> None:
    lifetime = timedelta(days=days)
    assert tokens.is_lifetime(lifetime) == cli_accepts(lifetime)


@pytest.mark.parametrize("lifetime", [timedelta(0), tokens.MAX_LIFETIME + timedelta(seconds=1)])
def test_the_service_refuses_a_lifetime_out_of_bounds(
    database_url: str, lifetime: timedelta
) -> None:
    """Whoever calls it: the check is not the API's schema alone."""

    async def create() -> None:
        async with await psycopg.AsyncConnection.connect(database_url) as conn:
            await tokens.create_token(conn, role=Role.SCORER, expires_in=lifetime)

    with pytest.raises(DomainError) as e:
        asyncio.run(create())
    assert "VALIDATION_FAILED" == e.value.code
    assert ["expires_in"] == [error["field"] for error in e.value.details["errors"]]
