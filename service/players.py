"""Players: create, read and list them (what both faces do).

Every function works on the connection it is given; the store leaves the transaction
to the caller.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

from store import accounts
from store.accounts import Page, Player


async def create_player(
    conn: AsyncConnection[Any], display_name: str, *, player_id: UUID | None = None
) -> tuple[Player, bool]:
    """Create a player; return it and whether it was created now.

    Raises:
        ConflictError (ALREADY_EXISTS): ``player_id`` exists with another display name.
    """
    return await accounts.create_player(conn, display_name, player_id=player_id)


async def get_player(conn: AsyncConnection[Any], player_id: UUID) -> Player:
    """Return the player with this id.

    Raises:
        NotFoundError (PLAYER_NOT_FOUND): no such player.
    """
    return await accounts.get_player(conn, player_id)


async def list_players(
    conn: AsyncConnection[Any], *, limit: int, before: int | None = None
) -> Page[Player]:
    """Return up to ``limit`` players, newest first, created before position ``before``."""
    return await accounts.list_players(conn, limit=limit, before=before)


async def players_named(conn: AsyncConnection[Any], name: str) -> list[Player]:
    """Return the players (up to 11) whose display name is ``name``, letter case aside."""
    return await accounts.players_named(conn, name)


__all__ = ["Page", "Player", "create_player", "get_player", "list_players", "players_named"]
