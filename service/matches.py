"""Recording matches: create one (its rules from the request and its competition), and
record commands on it (moves, round starts, takebacks, voids, notes, resignations).

Every write goes through the recorder, in one transaction with the inline
projections and the idempotent answer when the write carries a key (``once``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from psycopg_pool import AsyncConnectionPool

from domain.errors import InvalidSetupError, MalformedError, NotFoundError
from domain.stream import Command, CreateMatch, Dealing, MatchConfig, Play, rules_for
from store import accounts
from store.idempotency import OnceKey
from store.recorder import Recorded, Recorder, draw_first_dealer, match_stream


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """What a new match asks for; ``None`` takes the competition's or the game's default."""

    game: str
    players: Sequence[UUID]
    variant: str | None = None
    format: str | None = None
    options: Mapping[str, Any] | None = None
    first_dealer: int | None = None
    dealing: Dealing = "server"
    competition_id: UUID | None = None


@dataclass(frozen=True, slots=True)
class Write:
    """Where and as whom a write records: the stream, the version the writer saw, metadata.

    ``once``: its idempotency key, whose answer is stored in the write's transaction;
    ``token_id``, the API token it is made with, is checked usable in that transaction.
    """

    stream: str
    expected_version: int
    metadata: Mapping[str, Any]
    once: OnceKey | None = None
    token_id: UUID | None = None


async def create_match(
    pool: AsyncConnectionPool[Any],
    recorder: Recorder,
    setup: MatchSetup,
    *,
    match_id: UUID,
    metadata: Mapping[str, Any],
    once: OnceKey | None = None,
    token_id: UUID | None = None,
) -> Recorded:
    """Record ``MatchCreated`` (and, when the server deals, the first round's deal).

    ``token_id``: the API token it is made with, checked usable in the write's transaction.

    Raises:
        InvalidSetupError (UNKNOWN_PLAYER, INVALID_FORMAT, ...): the setup is refused.
        NotFoundError (COMPETITION_NOT_FOUND): there is no such competition.
    """
    config = await match_config(pool, setup)
    write = Write(match_stream(config.game, match_id), 0, metadata, once, token_id)
    return await record(recorder, write, [CreateMatch(config)])


async def record(recorder: Recorder, write: Write, commands: Sequence[Command]) -> Recorded:
    """Record ``commands`` on a match, all or nothing, with their derived events.

    Raises:
        UnauthenticatedError: ``write.token_id`` is revoked or expired.
        VersionConflictError: the match is no longer at ``write.expected_version``.
        DomainError: the rules engine refused a command.
    """
    return await recorder.record(
        write.stream,
        commands,
        expected_version=write.expected_version,
        metadata=dict(write.metadata),
        once=write.once,
        token_id=write.token_id,
    )


def move_commands(game: str, seat: int | None, moves: Sequence[str]) -> list[Command]:
    """Return the commands that play ``moves`` (written for ``seat``, if given).

    Raises:
        MalformedError (SEAT_MISMATCH): a move names another seat.
    """
    return [Play(seated(game, seat, move)) for move in moves]


def seated(game: str, seat: int | None, move: str) -> str:
    """Prefix ``seat`` to a move written without one; refuse a move for another seat.

    Raises:
        MalformedError (SEAT_MISMATCH): the move names a different seat.
    """
    text = move.strip()
    if seat is None:
        return text
    token = rules_for(game).seat_token(seat)
    first = text.split(maxsplit=1)[0] if text else ""
    if first.lower() == "cards":
        return text
    if first[:1].upper() in ("P", "S") and first[1:].isdigit():
        if first.upper() != token:
            raise MalformedError(
                f"{move!r} is a move for {first.upper()}, but the request is for {token}",
                code="SEAT_MISMATCH",
                details={"move": move, "seat": seat},
            )
        return text
    return f"{token} {text}"


async def match_config(pool: AsyncConnectionPool[Any], data: MatchSetup) -> MatchConfig:
    """Build the match's rules from the setup and its competition's defaults."""
    async with pool.connection() as conn:
        competition = None
        if data.competition_id is not None:
            competition = await accounts.get_competition(conn, data.competition_id)
        for player_id in data.players:
            try:
                await accounts.get_player(conn, player_id)
            except NotFoundError:
                raise InvalidSetupError(
                    f"player {str(player_id)!r} does not exist: create it first",
                    code="UNKNOWN_PLAYER",
                    details={"player_id": str(player_id)},
                ) from None
    rules = rules_for(data.game)
    variant = data.variant
    fmt, options = data.format, data.options
    if competition is not None:
        if competition.game != data.game or (variant not in (None, competition.variant)):
            raise InvalidSetupError(
                f"competition {competition.name!r} plays {competition.game} {competition.variant}",
                code="INVALID_FORMAT",
                details={"competition_id": str(competition.id)},
            )
        variant = competition.variant
        fmt, options = rules.match_settings(competition.match_format, fmt, options)
    if variant is None:
        variant = rules.default_variant
    draft = MatchConfig(
        game=data.game,
        variant=variant,
        players=tuple(str(p) for p in data.players),
        first_dealer=0,
        dealing=data.dealing,
        format=fmt,
        options=options or {},
        competition_id=None if data.competition_id is None else str(data.competition_id),
    )
    draft = rules.validate(draft)
    if data.first_dealer is None:
        return _with_dealer(draft, draw_first_dealer(rules.seats(draft)), drawn=True)
    return _with_dealer(draft, data.first_dealer, drawn=False)


def _with_dealer(config: MatchConfig, dealer: int, *, drawn: bool) -> MatchConfig:
    return replace(config, first_dealer=dealer, first_dealer_drawn=drawn)


__all__ = [
    "MatchSetup",
    "Write",
    "create_match",
    "match_config",
    "move_commands",
    "record",
    "seated",
]
