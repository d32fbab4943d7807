"""Managing the API's bearer tokens from the command line: create, list and revoke them.

The token records themselves live in store/accounts.py; this opens the configured
database for one operation and reads ids as a user types them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar
from uuid import UUID

import psycopg

from domain.errors import DomainError, MalformedError
from service.settings import Settings
from service.wiring import configured_url
from store import accounts
from store.accounts import Role, Token

T = TypeVar("T")


def create_token(role: Role, competitions: Sequence[str] | None, name: str) -> tuple[Token, str]:
    """Create a token (limited to ``competitions``, given as typed); return it and its secret.

    Raises:
        MalformedError (MALFORMED): a competition id is not a UUID, or the limit is refused.
    """
    scope = [parse_id(c, "competition") for c in competitions] if competitions else None
    return _run(lambda conn: accounts.create_token(conn, role=role, competitions=scope, name=name))


def list_tokens(*, active: bool) -> list[Token]:
    """Return every token's record, newest first; ``active`` leaves out revoked ones."""
    return _run(lambda conn: accounts.list_tokens(conn, include_revoked=not active))


def revoke_token(token_id: str) -> Token:
    """Revoke the token with id ``token_id`` (as typed); revoking twice keeps the first time.

    Raises:
        MalformedError (MALFORMED): not a UUID.
        NotFoundError (TOKEN_NOT_FOUND): there is no such token.
    """
    target = parse_id(token_id, "token")
    return _run(lambda conn: accounts.revoke_token(conn, target))


def parse_id(text: str, what: str) -> UUID:
    """Read a ``what`` id typed by a user.

    Raises:
        MalformedError (MALFORMED): not a UUID.
    """
    try:
        return UUID(text)
    except ValueError:
        raise MalformedError(f"{text!r} is not a {what} id (a UUID)", code="MALFORMED") from None


def _run(work: Callable[[psycopg.AsyncConnection[Any]], Awaitable[T]]) -> T:
    """Run ``work`` on one connection to the configured database and commit."""
    url = configured_url(Settings())

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


__all__ = ["create_token", "list_tokens", "parse_id", "revoke_token"]
