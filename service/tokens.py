"""Bearer tokens: create, read, list and revoke them, and a token's lifetime rule.

The async functions work on the connection they are given (the API's, from its pool);
the ``*_typed`` and ``*_at`` ones open the configured database for one operation and
read ids and durations as a user types them (``matchlog tokens``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Collection, Sequence
from datetime import timedelta
from typing import Any, TypeVar
from uuid import UUID

import psycopg
from psycopg import AsyncConnection

from domain.errors import DomainError, MalformedError, invalid_field
from domain.roles import Role
from domain.text import clean_text
from store import accounts
from store.accounts import Token
from store.ids import labels

T = TypeVar("T")


_DURATION = re.compile(r"(\d{1,6})([dhm])")
_UNITS = {"d": "days", "h": "hours", "m": "minutes"}
MAX_LIFETIME = timedelta(days=36500)
"""The longest a token may be given to live (about a hundred years)."""
MIN_LIFETIME = timedelta(seconds=1)
"""The shortest: a token that never worked is no token."""


def is_lifetime(lifetime: timedelta) -> bool:
    """Whether a token may be given to live this long: a second to ``MAX_LIFETIME``.

    >>> is_lifetime(timedelta(days=36500)), is_lifetime(timedelta(0))
    (True, False)
    """
    return MIN_LIFETIME <= lifetime <= MAX_LIFETIME


def check_lifetime(lifetime: timedelta | None) -> timedelta | None:
    """Return a token's lifetime once it checks out (``None``: it never expires).

    Raises:
        MalformedError (VALIDATION_FAILED): shorter than a second or longer than 36500 days
            (field ``expires_in``).
    """
    if lifetime is not None and not is_lifetime(lifetime):
        raise invalid_field(
            "expires_in",
            f"a token lives from 1 second to {MAX_LIFETIME.days} days,"
            f" not {lifetime.total_seconds():g} seconds",
        )
    return lifetime


async def create_token(
    conn: AsyncConnection[Any],
    *,
    role: Role,
    competitions: Collection[UUID] | None = None,
    name: str = "",
    expires_in: timedelta | None = None,
) -> tuple[Token, str]:
    """Create a token; return its record and the secret, shown this once.

    Raises:
        MalformedError (VALIDATION_FAILED): ``expires_in`` is not a lifetime (``check_lifetime``).
        MalformedError (MALFORMED): an admin token limited to competitions, or an empty limit.
        NotFoundError (COMPETITION_NOT_FOUND): a listed competition does not exist.
    """
    return await accounts.create_token(
        conn,
        role=role,
        competitions=competitions,
        name=name,
        expires_in=check_lifetime(expires_in),
    )


async def list_tokens(conn: AsyncConnection[Any], *, active: bool = False) -> list[Token]:
    """Return every token's record, newest first; ``active``: neither revoked nor expired."""
    return await accounts.list_tokens(conn, include_revoked=not active)


async def get_token(conn: AsyncConnection[Any], token_id: UUID) -> Token:
    """Return the token record with this id.

    Raises:
        NotFoundError (TOKEN_NOT_FOUND): no such token.
    """
    return await accounts.get_token(conn, token_id)


async def revoke_token(conn: AsyncConnection[Any], token_id: UUID) -> Token:
    """Revoke a token (it stops working at once); revoking twice keeps the first time.

    Raises:
        NotFoundError (TOKEN_NOT_FOUND): no such token.
    """
    return await accounts.revoke_token(conn, token_id)


def create_typed(
    url: str,
    role: Role,
    competitions: Sequence[str] | None,
    name: str,
    expires_in: str | None = None,
) -> tuple[Token, str]:
    """Create a token (limited to ``competitions``, expiring after ``expires_in``, both as typed).

    Returns the token's record and its secret.

    Raises:
        MalformedError (MALFORMED): a competition id is not a UUID, the limit is
            refused, or ``expires_in`` is not a duration such as ``30d``, ``12h`` or ``90m``.
        MalformedError (VALIDATION_FAILED): ``name`` breaks the text rule (domain.text).
    """
    name = clean_text(name, required=False)
    scope = [parse_id(c, "competition") for c in competitions] if competitions else None
    lifetime = None if expires_in is None else parse_duration(expires_in)
    return _run(
        url,
        lambda conn: create_token(
            conn, role=role, competitions=scope, name=name, expires_in=lifetime
        ),
    )


def parse_duration(text: str) -> timedelta:
    """Read a token's lifetime as typed: a whole number of days, hours or minutes.

    >>> parse_duration('30d')
    datetime.timedelta(days=30)
    >>> parse_duration('12h') == timedelta(hours=12), parse_duration(' 90M ').seconds
    (True, 5400)

    Raises:
        MalformedError (MALFORMED): not such a duration, zero, or over a hundred years.
    """
    found = _DURATION.fullmatch(text.strip().lower())
    lifetime = None if found is None else timedelta(**{_UNITS[found[2]]: int(found[1])})
    if lifetime is None or not is_lifetime(lifetime):
        raise MalformedError(
            f"{text!r} is not a token lifetime: give a whole number of days, hours or "
            f"minutes, such as 30d, 12h or 90m (at most {MAX_LIFETIME.days}d)",
            code="MALFORMED",
            details={"expires_in": text},
        )
    return lifetime


def list_at(url: str, *, active: bool) -> list[Token]:
    """Return every token's record, newest first; ``active`` leaves out revoked ones."""
    return _run(url, lambda conn: list_tokens(conn, active=active))


def competition_names(url: str, ids: Sequence[UUID]) -> dict[UUID, str]:
    """Return the names of the competitions ``ids`` (a scorer's limit), by id."""
    return _run(url, lambda conn: labels(conn, "competition", ids))


def revoke_typed(url: str, token_id: str) -> Token:
    """Revoke the token with id ``token_id`` (as typed); revoking twice keeps the first time.

    Raises:
        MalformedError (MALFORMED): not a UUID.
        NotFoundError (TOKEN_NOT_FOUND): there is no such token.
    """
    target = parse_id(token_id, "token")
    return _run(url, lambda conn: revoke_token(conn, target))


def parse_id(text: str, what: str) -> UUID:
    """Read a ``what`` id typed by a user.

    Raises:
        MalformedError (MALFORMED): not a UUID.
    """
    try:
        return UUID(text)
    except ValueError:
        raise MalformedError(f"{text!r} is not a {what} id (a UUID)", code="MALFORMED") from None


def _run(url: str, work: Callable[[psycopg.AsyncConnection[Any]], Awaitable[T]]) -> T:
    """Run ``work`` on one connection to ``url``'s database and commit."""

    async def main() -> T:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            return await work(conn)

    try:
        return asyncio.run(main())
    except psycopg.errors.UndefinedTable:
        raise DomainError(
            "the database has no token table yet: run `matchlog db upgrade`",
            code="SCHEMA_OUTDATED",
        ) from None


__all__ = [
    "MAX_LIFETIME",
    "MIN_LIFETIME",
    "Role",
    "Token",
    "check_lifetime",
    "competition_names",
    "create_token",
    "create_typed",
    "get_token",
    "is_lifetime",
    "list_at",
    "list_tokens",
    "parse_duration",
    "parse_id",
    "revoke_token",
    "revoke_typed",
]
