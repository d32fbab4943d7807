"""A competition's entrants: one player (Cuttle) or a fixed pair (Kozel), in plain tables.

Like ``store.accounts``, every function works on the connection it is given and
leaves the transaction to the caller.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection, errors
from psycopg.rows import dict_row

from domain.errors import ConflictError, InvalidSetupError, MalformedError
from domain.games import rules_for
from store import records
from store.accounts import Competition
from store.records import Record


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant of a competition; ``players`` in seat order (a Kozel pair sits opposite).

    ``withdrawn``: the record of its withdrawal (who, when, why), if it has withdrawn.
    """

    id: UUID
    competition_id: UUID
    players: tuple[UUID, ...]
    withdrawn: Record | None = None


def _entrant(row: dict[str, Any], withdrawn: Record | None) -> Entrant:
    return Entrant(row["id"], row["competition_id"], tuple(row["players"]), withdrawn)


async def add_entrant(
    conn: AsyncConnection[Any], competition: Competition, players: Sequence[UUID]
) -> Entrant:
    """Enter ``players`` (one for Cuttle, a pair for Kozel) in ``competition``.

    Raises:
        MalformedError (WRONG_ENTRANT_SIZE): not as many players as the game's entrant has,
            or the same player twice.
        InvalidSetupError (UNKNOWN_PLAYER): a player does not exist.
        ConflictError (ALREADY_ENTERED): a player is already in an entrant of this competition.
        ConflictError (FIXTURES_EXIST): the competition's round robin is already made.
    """
    size = rules_for(competition.game).entrant_size
    if len(players) != size or len(set(players)) != len(players):
        what = "one player" if size == 1 else f"{size} different players"
        raise MalformedError(
            f"a {competition.game} entrant is {what}",
            code="WRONG_ENTRANT_SIZE",
            details={"players": [str(p) for p in players], "size": size},
        )
    cur = await conn.execute("SELECT id FROM players WHERE id = ANY(%s::uuid[])", (list(players),))
    known = {row[0] for row in await cur.fetchall()}
    for player in players:
        if player not in known:
            raise InvalidSetupError(
                f"player {str(player)!r} does not exist: create it first",
                code="UNKNOWN_PLAYER",
                details={"player_id": str(player)},
            )
    cur = await conn.execute(
        "SELECT 1 FROM fixture_rounds WHERE competition_id = %s AND system = 'round-robin'",
        (competition.id,),
    )
    if await cur.fetchone() is not None:
        # Its rounds are all made: a late entrant would never be paired.
        raise ConflictError(
            "the competition's round robin is already made: no entrant can join it",
            code="FIXTURES_EXIST",
            details={"system": "round-robin"},
        )
    entrant_id = uuid.uuid4()
    try:
        # A savepoint, so a refused entry leaves the caller's transaction usable.
        async with conn.transaction():
            await conn.execute(
                "INSERT INTO entrants (id, competition_id, players) VALUES (%s, %s, %s)",
                (entrant_id, competition.id, list(players)),
            )
            await conn.execute(
                "INSERT INTO entrant_players (competition_id, player_id, entrant_id)"
                " SELECT %s, unnest(%s::uuid[]), %s",
                (competition.id, list(players), entrant_id),
            )
    except errors.UniqueViolation:
        cur = await conn.execute(
            "SELECT player_id FROM entrant_players"
            " WHERE competition_id = %s AND player_id = ANY(%s::uuid[])",
            (competition.id, list(players)),
        )
        taken = sorted(str(row[0]) for row in await cur.fetchall())
        raise ConflictError(
            f"player {', '.join(taken)} is already entered in this competition",
            code="ALREADY_ENTERED",
            details={"player_ids": taken},
        ) from None
    return Entrant(entrant_id, competition.id, tuple(players))


async def list_entrants(conn: AsyncConnection[Any], competition_id: UUID) -> list[Entrant]:
    """Return the competition's entrants in the order they were entered, withdrawn ones too."""
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            "SELECT id, competition_id, players FROM entrants"
            " WHERE competition_id = %s ORDER BY position",
            (competition_id,),
        )
        rows = await cur.fetchall()
    withdrawn = await records.withdrawals(conn, competition_id)
    return [_entrant(r, withdrawn.get(r["id"])) for r in rows]
