"""Managing the API's bearer tokens from the command line: create, list and revoke them.

The token records themselves live in store/accounts.py; this opens the configured
database for one operation and reads ids as a user types them.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any, TypeVar
from uuid import UUID

import psycopg

from domain.errors import DomainError, MalformedError
from domain.text import clean_text
from store import accounts
from store.accounts import Role, Token

T = TypeVar("T")


_DURATION = re.compile(r"(\d{1,6})([dhm])")
_UNITS = {"d": "days", "h": "hours", "m": "minutes"}
MAX_LIFETIME = timedelta(days=36500)
"""The longest a token may be given to live (about a hundred years)."""


def create_token(
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
        lambda conn: accounts.create_token(
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
    if lifetime is None or not timedelta(0) < lifetime <= MAX_LIFETIME:
        raise MalformedError(
            f"{text!r} is not a token lifetime: give a whole number of days, hours or "
            "minutes, such as 30d, 12h or 90m (at most 36500d)",
            code="MALFORMED",
            details={"expires_in": text},
        )
    return lifetime


def list_tokens(url: str, *, active: bool) -> list[Token]:
    """Return every token's record, newest first; ``active`` leaves out revoked ones."""
    return _run(url, lambda conn: accounts.list_tokens(conn, include_revoked=not active))


def revoke_token(url: str, token_id: str) -> Token:
    """Revoke the token with id ``token_id`` (as typed); revoking twice keeps the first time.

    Raises:
        MalformedError (MALFORMED): not a UUID.
        NotFoundError (TOKEN_NOT_FOUND): there is no such token.
    """
    target = parse_id(token_id, "token")
    return _run(url, lambda conn: accounts.revoke_token(conn, target))


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


__all__ = ["create_token", "list_tokens", "parse_duration", "parse_id", "revoke_token"]
