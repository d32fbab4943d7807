"""Competitions and their entrants: create, read and list them (what both faces do).

A competition's settings pass through the one rule, ``domain.competitions.checked_settings``
(the game's defaults, the canonical format), before anything is stored. Every function
works on the connection it is given; the store leaves the transaction to the caller.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

from domain.competitions import ByeScore, checked_settings
from store import accounts, entrants
from store.accounts import Competition, Page
from store.entrants import Entrant


@dataclass(frozen=True, slots=True)
class NewCompetition:
    """A competition to create; ``None`` takes the game's default (``checked_settings``)."""

    name: str
    game: str
    variant: str | None = None
    match_format: Any = None
    tiebreaks: Sequence[str] = ()
    public_reads: bool = True
    bye: ByeScore = "win"
    id: UUID | None = None


async def create_competition(
    conn: AsyncConnection[Any], new: NewCompetition
) -> tuple[Competition, bool]:
    """Create a competition with its settings checked; return it and whether it is new.

    The same ``id`` with the same settings again (defaults filled in, format canonical)
    returns the stored competition.

    Raises:
        MalformedError (VALIDATION_FAILED): a setting does not check out; the error
            names its field (``game``, ``variant``, ``format``, ``tiebreaks``, ``bye``).
        ConflictError (ALREADY_EXISTS): ``new.id`` exists with other content.
    """
    settings = checked_settings(new.game, new.variant, new.match_format, new.tiebreaks, new.bye)
    return await accounts.create_competition(
        conn,
        name=new.name,
        game=settings.game,
        variant=settings.variant,
        match_format=settings.match_format,
        tiebreaks=settings.tiebreaks,
        public_reads=new.public_reads,
        competition_id=new.id,
        bye=settings.bye,
    )


async def get_competition(conn: AsyncConnection[Any], competition_id: UUID) -> Competition:
    """Return the competition with this id, as stored.

    Raises:
        NotFoundError (COMPETITION_NOT_FOUND): no such competition.
    """
    return await accounts.get_competition(conn, competition_id)


def readable(competition: Competition) -> Competition:
    """Return ``competition`` if its stored row checks out.

    Raises:
        ConflictError (COMPETITION_UNREADABLE): the stored row does not check out.
    """
    return accounts.readable(competition)


async def list_competitions(
    conn: AsyncConnection[Any],
    *,
    limit: int,
    before: int | None = None,
    public_or: Collection[UUID] | None = None,
    writable: Collection[UUID] | None = None,
) -> Page[Competition]:
    """Return up to ``limit`` competitions, newest first (``store.accounts.list_competitions``)."""
    return await accounts.list_competitions(
        conn, limit=limit, before=before, public_or=public_or, writable=writable
    )


async def add_entrant(
    conn: AsyncConnection[Any], competition: Competition, players: Sequence[UUID]
) -> Entrant:
    """Enter ``players`` in ``competition`` (as read, ``readable``): as many as its game's
    entrant has (its rules' ``entrant_size``).

    Raises:
        ConflictError (COMPETITION_UNREADABLE): its stored row does not check out.
        MalformedError (WRONG_ENTRANT_SIZE), InvalidSetupError (UNKNOWN_PLAYER),
            ConflictError (ALREADY_ENTERED, FIXTURES_EXIST): see ``store.entrants``.
    """
    return await entrants.add_entrant(conn, readable(competition), players)


async def list_entrants(conn: AsyncConnection[Any], competition_id: UUID) -> list[Entrant]:
    """Return the competition's entrants in the order they were entered."""
    return await entrants.list_entrants(conn, competition_id)


__all__ = [
    "Competition",
    "Entrant",
    "NewCompetition",
    "Page",
    "add_entrant",
    "create_competition",
    "get_competition",
    "list_competitions",
    "list_entrants",
    "readable",
]
