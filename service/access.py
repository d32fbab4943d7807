"""Who may read and do what: a caller's principal, and the rules on what it may see.

A token's record (``store.accounts``) gives a role (``admin`` may do everything,
``scorer`` may record matches and create players) and, for a scorer, optionally the
competitions it is limited to. A competition's data is readable by all when its reads
are public, else by a token that may act on it; a live match's hidden cards only by a
scorer who may record it. The API reads the caller from the request (``api.auth``);
these rules are the same for every face.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg_pool import AsyncConnectionPool

from domain.errors import ForbiddenError, NotFoundError, UnauthenticatedError
from projections.matches import find_match
from store.accounts import (
    Competition,
    Role,
    Token,
    find_active_token,
    get_competition,
    get_player,
    hash_token,
    token_refused,
)

MatchRow = dict[str, Any]
"""A match's ``matches`` row, with ``public_reads`` (whether its competition's reads are)."""


@dataclass(frozen=True, slots=True)
class Principal:
    """The caller behind a valid token: its id, role and competition limit (``None``: all)."""

    token_id: UUID
    role: Role
    competitions: frozenset[UUID] | None

    @classmethod
    def from_token(cls, token: Token) -> Principal:
        """Return the principal a stored token stands for."""
        return cls(token.id, token.role, token.competitions)

    @property
    def is_admin(self) -> bool:
        """Whether the caller may do everything."""
        return self.role is Role.ADMIN

    def has_role(self, role: Role) -> bool:
        """Whether the caller has ``role`` (an admin has every role)."""
        return self.is_admin or self.role is role

    def may_act_on(self, competition_id: UUID | None) -> bool:
        """Whether the caller may act on this competition (``None``: outside any competition).

        A scorer limited to competitions may act on those only.
        """
        if self.competitions is None:
            return True
        return competition_id is not None and competition_id in self.competitions


async def active_token(pool: AsyncConnectionPool[Any], secret: str) -> Token | None:
    """Return the unrevoked, unexpired token whose secret this is, or ``None``."""
    async with pool.connection() as conn:
        return await find_active_token(conn, secret)


async def principal_of(pool: AsyncConnectionPool[Any], secret: str) -> Principal | None:
    """Return the principal of a token's secret now, or ``None`` (unknown, revoked, expired)."""
    async with pool.connection() as conn:
        token = await find_active_token(conn, secret)
    return None if token is None else Principal.from_token(token)


def require_role(principal: Principal | None, role: Role) -> Principal:
    """Return the principal if it has ``role``.

    Raises:
        UnauthenticatedError (UNAUTHENTICATED): no token was sent.
        ForbiddenError (FORBIDDEN): the token's role is not enough.
    """
    if principal is None:
        raise UnauthenticatedError("this needs a bearer token", details={"reason": "missing_token"})
    if not principal.has_role(role):
        raise ForbiddenError(
            f"this needs the {role.value!r} role; the token has {principal.role.value!r}",
            code="FORBIDDEN",
            details={"required_role": role.value},
        )
    return principal


def require_scope(principal: Principal, competition_id: UUID | None) -> None:
    """Refuse a scorer acting outside the competitions its token is limited to.

    Raises:
        ForbiddenError (FORBIDDEN): the token may not act on this competition.
    """
    if not principal.may_act_on(competition_id):
        target = "outside any competition" if competition_id is None else "on this competition"
        raise ForbiddenError(
            f"the token may not act {target}",
            code="FORBIDDEN",
            details={"competition_id": None if competition_id is None else str(competition_id)},
        )


def require_read(principal: Principal | None, competition: Competition) -> None:
    """Refuse reading a competition's data unless its reads are public or the token may act on it.

    Raises:
        UnauthenticatedError (UNAUTHENTICATED): private reads and no token.
        ForbiddenError (FORBIDDEN): the token is limited to other competitions.
    """
    require_read_of(principal, competition.id, public_reads=competition.public_reads)


def require_read_of(
    principal: Principal | None, competition_id: UUID, *, public_reads: bool
) -> None:
    """Refuse reading a competition's data, given its id and whether its reads are public.

    Raises:
        UnauthenticatedError (UNAUTHENTICATED): private reads and no token.
        ForbiddenError (FORBIDDEN): the token is limited to other competitions.
    """
    if public_reads:
        return
    if principal is None:
        raise UnauthenticatedError(
            "this competition's reads are not public: send a bearer token",
            details={"reason": "missing_token"},
        )
    require_scope(principal, competition_id)


def readable_private(principal: Principal | None) -> frozenset[UUID] | None:
    """Return the private competitions the caller may read besides public ones; ``None``: all."""
    if principal is None:
        return frozenset()
    return principal.competitions


def can_see_hidden(principal: Principal | None, competition_id: UUID | None) -> bool:
    """Whether the caller may see hidden cards of a live match (a scorer who may record it)."""
    return (
        principal is not None
        and principal.has_role(Role.SCORER)
        and principal.may_act_on(competition_id)
    )


async def existing_match(pool: AsyncConnectionPool[Any], match_id: UUID) -> MatchRow:
    """Return a match's ``matches`` row, whoever asks.

    Raises:
        NotFoundError (MATCH_NOT_FOUND): there is no such match.
    """
    async with pool.connection() as conn:
        row = await find_match(conn, match_id)
    if row is None:
        raise NotFoundError(
            f"there is no match {str(match_id)!r}",
            code="MATCH_NOT_FOUND",
            details={"match_id": str(match_id)},
        )
    return row


async def readable_match(
    pool: AsyncConnectionPool[Any], principal: Principal | None, match_id: UUID
) -> MatchRow:
    """Return a match's ``matches`` row if the caller may read it.

    Raises:
        NotFoundError (MATCH_NOT_FOUND): there is no such match.
        UnauthenticatedError, ForbiddenError: its competition's reads are private.
    """
    row = await existing_match(pool, match_id)
    if row["competition_id"] is not None:
        require_read_of(principal, row["competition_id"], public_reads=row["public_reads"])
    return row


async def readable_competition(
    pool: AsyncConnectionPool[Any], principal: Principal | None, competition_id: UUID
) -> Competition:
    """Return a competition if the caller may read its data.

    Raises:
        NotFoundError (COMPETITION_NOT_FOUND): there is no such competition.
        UnauthenticatedError, ForbiddenError: its reads are private.
    """
    async with pool.connection() as conn:
        competition = await get_competition(conn, competition_id)
    require_read(principal, competition)
    return competition


async def require_player(pool: AsyncConnectionPool[Any], player_id: UUID) -> None:
    """Refuse a player that does not exist (players are readable by all).

    Raises:
        NotFoundError (PLAYER_NOT_FOUND): there is no such player.
    """
    async with pool.connection() as conn:
        await get_player(conn, player_id)


__all__ = [
    "Competition",
    "MatchRow",
    "Principal",
    "Role",
    "Token",
    "active_token",
    "can_see_hidden",
    "existing_match",
    "hash_token",
    "principal_of",
    "readable_competition",
    "readable_match",
    "readable_private",
    "require_player",
    "require_read",
    "require_read_of",
    "require_role",
    "require_scope",
    "token_refused",
]
