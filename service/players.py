"""Players: create, read and list them (what both faces do).

Every function works on the connection it is given; the store leaves the transaction
to the caller.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

from domain.games import rules_for
from projections.standings import player_rating_histories
from store import accounts
from store.accounts import Competition, Page, Player


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


async def rating_histories(
    conn: AsyncConnection[Any], player_id: UUID, readable: Collection[UUID] | None
) -> list[dict[str, Any]]:
    """Return the player's openskill rating after each finished match, per competition.

    ``readable``: private competitions the caller may read besides public ones
    (``None``: all).

    Raises:
        NotFoundError (PLAYER_NOT_FOUND): no such player.
    """
    await accounts.get_player(conn, player_id)
    return await player_rating_histories(conn, player_id, readable)


async def competitions_entered(
    conn: AsyncConnection[Any], player_id: UUID, readable: Collection[UUID] | None
) -> list[Competition]:
    """Return the competitions the player entered or played in that the caller may read."""
    return await accounts.list_player_competitions(conn, player_id, public_or=readable)


def head_to_head(rows: Sequence[Mapping[str, Any]], player_id: UUID) -> list[dict[str, Any]]:
    """Return the player's finished matches against each opponent: played, won, lost, drawn.

    An opponent is a player on another side (``GameRules.rating_teams``: a Kozel
    partner is not one). Against an opponent a match is won when the player is among
    its winners and the opponent is not, lost the other way round, else drawn.
    Opponents come in order of matches played, most first.
    """
    me = str(player_id)
    table: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["status"] != "finished":
            continue
        players = [str(p) for p in row["players"]]
        seat = players.index(me)
        sides = rules_for(row["game"]).rating_teams(len(players))
        mine = next(side for side in sides if seat in side)
        winners = set((row["result"] or {}).get("winners", []))
        for other, opponent in enumerate(players):
            if other in mine or opponent == me:
                continue
            line = table.setdefault(
                opponent,
                {"player_id": opponent, "played": 0, "won": 0, "lost": 0, "drawn": 0},
            )
            line["played"] += 1
            won, lost = (
                seat in winners and other not in winners,
                other in winners and seat not in winners,
            )
            line["won" if won else "lost" if lost else "drawn"] += 1
    return sorted(table.values(), key=lambda line: (-line["played"], line["player_id"]))


__all__ = [
    "Page",
    "Player",
    "competitions_entered",
    "create_player",
    "get_player",
    "head_to_head",
    "list_players",
    "players_named",
    "rating_histories",
]
