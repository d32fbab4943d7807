"""Recording matches: create one (its rules from the request and its competition),
record commands on it (moves, round starts, takebacks, voids, notes, resignations), and
read its state and its events back.

Every write goes through the recorder, in one transaction with the inline
projections and the idempotent answer when the write carries a key (``once``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from domain.errors import ConflictError, InvalidSetupError, MalformedError, NotFoundError
from domain.events import Event, RecordedEvent
from domain.stream import (
    Command,
    CreateMatch,
    Dealing,
    MatchConfig,
    MatchState,
    Play,
    Recording,
    public_event_data,
    rules_for,
)
from service.access import Principal, can_see_hidden, readable_match
from service.formats import competition_settings
from service.idempotency import OnceKey
from service.organising import keep_correction
from store import accounts, fixtures
from store.events import VersionConflictError, read_stream
from store.recorder import AfterAppend, Recorded, Recorder, draw_first_dealer, match_stream


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
    recording: Recording = "moves"
    competition_id: UUID | None = None
    fixture_id: UUID | None = None


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
    after_append: AfterAppend | None = None
    """Runs in the write's transaction after its append (the write then goes alone,
    outside any group commit)."""


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
    At a fixture whose match was voided, the new match replaces it (a corrected result),
    kept as a ``correction`` record (``service.organising.keep_correction``) by the token,
    or by ``matchlog`` without one.

    Raises:
        InvalidSetupError (UNKNOWN_PLAYER, INVALID_FORMAT, FORMAT_MISMATCH, ...): the setup
            is refused (FORMAT_MISMATCH: another format than its competition's).
        NotFoundError (COMPETITION_NOT_FOUND): there is no such competition.
        ConflictError (FIXTURE_TAKEN, FIXTURE_FORFEITED, FIXTURE_CHANGED): the fixture's
            table has a match that is not void, was forfeited, or was reseated meanwhile.
    """
    config = await match_config(pool, setup)
    fixture_id = setup.fixture_id
    after_append: AfterAppend | None = None
    if fixture_id is not None:

        async def linked(conn: AsyncConnection[Any], recorded: Recorded) -> None:
            # In the write's transaction: the match and its table's link commit together.
            replaced = await fixtures.link_match(conn, fixture_id, match_id)
            # The table's row is now locked: a swap (service.organising) that reseated it
            # after the setup was checked has committed, and the match is not its players'.
            table = await fixtures.get_table(conn, fixture_id)
            if tuple(str(p) for p in table.players) != tuple(config.players):
                raise ConflictError(
                    "the table was reseated (a swap) while the match was created: "
                    "read the fixtures again",
                    code="FIXTURE_CHANGED",
                    details={"fixture_id": str(fixture_id)},
                )
            if replaced is not None:
                void_stream = match_stream(config.game, replaced)
                author = token_id if token_id is not None else "matchlog"
                await keep_correction(conn, table, void_stream, replaced, author)

        after_append = linked
    write = Write(match_stream(config.game, match_id), 0, metadata, once, token_id, after_append)
    return await record(recorder, write, [CreateMatch(config)])


async def fixture_competition(
    pool: AsyncConnectionPool[Any], fixture_id: UUID, competition_id: UUID | None
) -> UUID:
    """Return the competition of the fixture a new match is to be played at.

    Raises:
        NotFoundError (FIXTURE_NOT_FOUND): no such fixture.
        InvalidSetupError (FIXTURE_MISMATCH): ``competition_id`` names another competition.
    """
    async with pool.connection() as conn:
        table = await fixtures.get_table(conn, fixture_id)
    if competition_id not in (None, table.competition_id):
        raise InvalidSetupError(
            "the fixture belongs to another competition",
            code="FIXTURE_MISMATCH",
            details={"fixture_id": str(fixture_id), "competition_id": str(competition_id)},
        )
    return table.competition_id


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
        after_append=write.after_append,
    )


async def match_state(
    pool: AsyncConnectionPool[Any], recorder: Recorder, stream: str
) -> tuple[MatchState, int]:
    """Return a match's state and version (folded by the recorder, from its cache on)."""
    async with pool.connection() as conn:
        return await recorder.load(conn, stream)


async def match_events(
    pool: AsyncConnectionPool[Any], stream: str, *, after: int = 0, limit: int | None = None
) -> list[RecordedEvent]:
    """Return up to ``limit`` of a match's recorded events after version ``after``."""
    async with pool.connection() as conn:
        return await read_stream(conn, stream, after_version=after, limit=limit)


async def recorded_config(pool: AsyncConnectionPool[Any], stream: str) -> MatchConfig:
    """Return the rules a recorded match was created with (its first event's)."""
    first = await match_events(pool, stream, limit=1)
    return MatchConfig.from_data(first[0].data)


@dataclass(frozen=True, slots=True)
class ShownEvent:
    """A recorded event as a reader is shown it: ``data``, when set, stands for its own."""

    event: RecordedEvent
    data: dict[str, Any] | None = None


async def readable_events(
    pool: AsyncConnectionPool[Any],
    principal: Principal | None,
    match_id: UUID,
    *,
    after: int,
    limit: int,
) -> list[ShownEvent]:
    """Return up to ``limit`` of a match's events after version ``after``, as the caller sees them.

    While the match is live, a reader who may not record it sees the public data of
    each event (``public_event_data``) and no metadata; which token recorded an event
    is shown only to those who may record the match.

    Raises:
        NotFoundError (MATCH_NOT_FOUND): there is no such match.
        UnauthenticatedError, ForbiddenError: its competition's reads are private.
    """
    row = await readable_match(pool, principal, match_id)
    events = await match_events(pool, row["stream"], after=after, limit=limit)
    rights = can_see_hidden(principal, row["competition_id"])
    if row["status"] == "live" and not rights:
        config = await recorded_config(pool, row["stream"])
        return [
            ShownEvent(replace(e, metadata={}), public_event_data(config, Event(e.type, e.data)))
            for e in events
        ]
    if rights:
        return [ShownEvent(e) for e in events]
    # Which token recorded an event is not a card, but a reader without rights on
    # the match has no need of it.
    return [
        ShownEvent(
            e
            if "token_id" not in e.metadata
            else replace(e, metadata={k: v for k, v in e.metadata.items() if k != "token_id"})
        )
        for e in events
    ]


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
    rules = rules_for(game)
    token = rules.seat_token(seat)
    first = text.split(maxsplit=1)[0] if text else ""
    if first.lower() == "cards":
        return text
    if first[:1].upper() == rules.seat_letter and first[1:].isdigit():
        if first.upper() != token:
            raise MalformedError(
                f"{move!r} is a move for {first.upper()}, but the request is for {token}",
                code="SEAT_MISMATCH",
                details={"move": move, "seat": seat},
            )
        return text
    return f"{token} {text}"


async def match_config(pool: AsyncConnectionPool[Any], data: MatchSetup) -> MatchConfig:
    """Build the match's rules from the setup and its competition's (``service.formats``).

    Raises:
        InvalidSetupError (UNKNOWN_PLAYER, INVALID_FORMAT, FORMAT_MISMATCH, ...): refused.
    """
    async with pool.connection() as conn:
        competition = None
        if data.competition_id is not None:
            competition = await accounts.get_competition(conn, data.competition_id)
        fixture_dealer = None
        if data.fixture_id is not None:
            fixture_dealer = (await _check_fixture(conn, data)).first_dealer
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
        variant, fmt, options = competition_settings(competition, data.game, variant, fmt, options)
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
        recording=data.recording,
    )
    draft = rules.validate(draft)
    if fixture_dealer is not None:
        # The fixture chose it so first deals are shared out over the competition.
        return _with_dealer(draft, fixture_dealer, drawn=False)
    if data.first_dealer is None:
        return _with_dealer(draft, draw_first_dealer(rules.seats(draft)), drawn=True)
    return _with_dealer(draft, data.first_dealer, drawn=False)


async def _check_fixture(conn: AsyncConnection[Any], data: MatchSetup) -> fixtures.Table:
    """Return the fixture's table; refuse a match that is not the one it is to play.

    A ``first_dealer`` given must be the table's, when the table has one.

    Raises:
        NotFoundError (FIXTURE_NOT_FOUND): no such fixture.
        InvalidSetupError (FIXTURE_MISMATCH): another competition, other players or seats,
            or another first dealer.
        ConflictError (FIXTURE_TAKEN, FIXTURE_FORFEITED): the table already has a match
            that is not void, or was forfeited.
    """
    assert data.fixture_id is not None
    table = await fixtures.get_table(conn, data.fixture_id)
    details = {"fixture_id": str(table.id), "players": [str(p) for p in table.players]}
    if data.competition_id != table.competition_id:
        raise InvalidSetupError(
            "the fixture belongs to another competition", code="FIXTURE_MISMATCH", details=details
        )
    if tuple(data.players) != table.players:
        raise InvalidSetupError(
            "the players must be the fixture's, seated as it says (details.players)",
            code="FIXTURE_MISMATCH",
            details=details,
        )
    if table.match_id is not None and not table.voided:
        raise ConflictError(
            "this fixture's table already has a match",
            code="FIXTURE_TAKEN",
            details={"fixture_id": str(table.id), "match_id": str(table.match_id)},
        )
    if table.forfeited_by:
        raise ConflictError(
            "this fixture's table was forfeited: its result is the forfeit",
            code="FIXTURE_FORFEITED",
            details={"fixture_id": str(table.id)},
        )
    if table.first_dealer is not None and data.first_dealer not in (None, table.first_dealer):
        raise InvalidSetupError(
            f"the fixture's first dealer is seat {table.first_dealer}: leave first_dealer out",
            code="FIXTURE_MISMATCH",
            details={**details, "first_dealer": table.first_dealer},
        )
    return table


def _with_dealer(config: MatchConfig, dealer: int, *, drawn: bool) -> MatchConfig:
    return replace(config, first_dealer=dealer, first_dealer_drawn=drawn)


__all__ = [
    "MatchSetup",
    "OnceKey",
    "Recorded",
    "Recorder",
    "ShownEvent",
    "VersionConflictError",
    "Write",
    "create_match",
    "fixture_competition",
    "match_config",
    "match_events",
    "match_state",
    "move_commands",
    "readable_events",
    "record",
    "recorded_config",
    "seated",
]
