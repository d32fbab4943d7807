"""How ``/matches`` records over HTTP: the version a client saw, its Idempotency-Key, the answer.

Every match write goes through ``Writer.record`` (a match's creation through
``Writer.recording``): the match's fixed keys from this process's memory
(``MatchKeys``), the token's competition limit, the version from ``If-Match`` or
``expected_version`` (checked in the write, so a retry refused for want of one gets
its first answer), the recorder's transaction, and the answer sent once rendered.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any
from uuid import UUID, uuid4

from litestar import Request, Response
from litestar.params import HeaderParameter
from psycopg_pool import AsyncConnectionPool

from api.auth import KnownTokens, authenticate
from api.idempotency import (
    KEY_PATTERN,
    MAX_KEY_LENGTH,
    Answer,
    IdempotentRequest,
    Render,
    record_once,
)
from api.lru import Lru
from api.match_schemas import EventOut, MatchIn, MatchOut, RecordedOut, RoundOut
from api.problems import validation_failed
from api.schemas import sent_as
from domain.errors import (
    ConflictError,
    PreconditionFailedError,
    PreconditionRequiredError,
    UnauthenticatedError,
)
from domain.match import series_score
from domain.stream import Command, MatchState
from domain.stream.outcome import result_of, round_data, status_of
from service import matches
from service.access import Principal, readable_match, require_scope
from service.idempotency import StoredAnswer
from service.matches import MatchSetup, OnceKey, Recorded, Recorder, VersionConflictError, Write

IF_MATCH_PATTERN = r'^\s*(W/)?"?[0-9]+"?\s*$'
"""The ``If-Match`` forms ``parse_if_match`` reads: ``"12"``, ``W/"12"``, ``12``."""
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match",
        description='The version the client last saw, as the ETag GET returned (e.g. "12").',
        pattern=IF_MATCH_PATTERN,
        schema_extra=sent_as(IF_MATCH_PATTERN),
    ),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        description="Retrying with the same key returns the first answer and records nothing.",
        schema_extra=sent_as(KEY_PATTERN, max_length=MAX_KEY_LENGTH),
    ),
]


def etag(version: int) -> str:
    """Return the ETag of a match at ``version``."""
    return f'"{version}"'


def parse_if_match(value: str) -> int:
    """Read a version from an ``If-Match`` value (``"12"``, ``W/"12"`` or ``12``).

    Raises:
        MalformedError (VALIDATION_FAILED): not a version ETag.
    """
    text = value.strip().removeprefix("W/").strip('"')
    if not (text.isascii() and text.isdigit()):
        raise validation_failed(
            "If-Match", f'{value!r} is not a version ETag such as "12"', "header"
        )
    return int(text)


def match_out(match_id: UUID, state: MatchState, version: int, fixture_id: UUID | None) -> MatchOut:
    """Return the body of a match: its summary and the public view of the round in play.

    ``fixture_id``: the fixture's table the match was made for, if any (it is no part
    of the match's events: the fixture names the match, in the same transaction).
    """
    config = state.config
    assert config is not None and state.series is not None
    shown = round_data(state)
    round_out = None if shown is None else RoundOut(**shown)
    return MatchOut(
        id=match_id,
        game=config.game,
        variant=config.variant,
        rules_version=config.rules_version,
        format=config.format,
        options=dict(config.options),
        players=[UUID(p) for p in config.players],
        first_dealer=config.first_dealer,
        first_dealer_drawn=config.first_dealer_drawn,
        dealing=config.dealing,
        recording=config.recording,
        competition_id=None if config.competition_id is None else UUID(config.competition_id),
        fixture_id=fixture_id,
        status=status_of(state),  # type: ignore[arg-type]
        version=version,
        score=series_score(state.series),
        result=result_of(state),
        rounds_started=state.rounds_started,
        dealer=state.series.dealer,
        round=round_out,
    )


def recorded_out(match_id: UUID, recorded: Recorded, fixture_id: UUID | None) -> RecordedOut:
    """Return the answer to a write: the version, every event recorded, and the match."""
    return RecordedOut(
        version=recorded.version,
        events=[EventOut.from_recorded(e) for e in recorded.events],
        match=match_out(match_id, recorded.state, recorded.version, fixture_id),
    )


@dataclass(frozen=True, slots=True)
class MatchKey:
    """What a write needs of a match before it records: none of it ever changes."""

    stream: str
    game: str
    competition_id: UUID | None
    fixture_id: UUID | None
    """The fixture's table it was made for: linked when it was created, for good."""


class MatchKeys(Lru[UUID, MatchKey]):
    """This process's memory of matches' keys, so a write reads no ``matches`` row.

    A match's stream, game and competition are fixed when it is created; whatever
    else a write depends on (its status, its version) it checks against the stream
    itself, in the recorder's transaction.
    """

    def __init__(self, size: int = 4096) -> None:
        super().__init__(size)


Commands = Callable[[MatchKey], Sequence[Command]]
"""Makes a write's commands, given the match's keys (a move needs its game's seats)."""


@dataclass(frozen=True, slots=True)
class Writer:
    """A match write's request: who writes, the pool, the recorder."""

    request: Request[Any, Any, Any]
    principal: Principal
    pool: AsyncConnectionPool
    recorder: Recorder

    async def record(
        self,
        match_id: UUID,
        commands: Commands,
        expected_version: int | None,
        if_match: str | None,
        idempotency_key: str | None,
        *,
        status_code: int = 200,
    ) -> Response[Any]:
        """Record ``commands(key)`` on a match the caller may record; answer with the match.

        Raises:
            NotFoundError (MATCH_NOT_FOUND), UnauthenticatedError, ForbiddenError: the
                match is not there, or not the caller's to record.
            PreconditionRequiredError (PRECONDITION_REQUIRED): no version was sent.
            PreconditionFailedError: ``If-Match`` names a version the match has left.
            VersionConflictError: ``expected_version`` is one the match has left.
            DomainError: the rules engine refused a command.
        """
        key = await self._writable(match_id)
        batch = commands(key)
        idem = await self.idempotent(idempotency_key)
        answer = Answer(lambda r: recorded_out(match_id, r, key.fixture_id))
        principal = self.principal

        async def write(once: OnceKey | None) -> Recorded:
            # Checked in the write: a retry refused for want of a version gets its answer.
            expected = _expected_version(if_match, expected_version)
            write = Write(key.stream, expected, metadata(principal), once, principal.token_id)
            return await matches.record(self.recorder, write, batch)

        try:
            recorded = await self.recording(idem, status_code, answer.render, write)
        except VersionConflictError as e:
            if if_match is not None:
                raise PreconditionFailedError(e.message, details=e.details) from None
            raise
        if isinstance(recorded, StoredAnswer):
            return replayed(recorded)
        return Response(
            answer.content(recorded),
            status_code=status_code,
            headers={"ETag": etag(recorded.version)},
        )

    async def create(self, data: MatchIn, idempotency_key: str | None) -> Response[Any]:
        """Create the match ``data`` asks for; answer with it, its ETag and its Location.

        Raises:
            ForbiddenError (FORBIDDEN): the token may not act on the match's competition.
            ConflictError (ALREADY_EXISTS): a match has the id asked for.
            DomainError: the setup is refused (``service.matches.create_match``).
        """
        principal, pool = self.principal, self.pool
        competition_id = data.competition_id
        if data.fixture_id is not None:
            competition_id = await matches.fixture_competition(
                pool, data.fixture_id, data.competition_id
            )
        require_scope(principal, competition_id)
        idem = await self.idempotent(idempotency_key)
        match_id = data.id or uuid4()
        setup = MatchSetup(
            game=data.game,
            players=data.players,
            variant=data.variant,
            format=data.format,
            options=data.options,
            first_dealer=data.first_dealer,
            dealing=data.dealing,
            recording=data.recording,
            competition_id=competition_id,
            fixture_id=data.fixture_id,
        )

        answer = Answer(lambda r: match_out(match_id, r.state, r.version, data.fixture_id))

        async def create(once: OnceKey | None) -> Recorded:
            return await matches.create_match(
                pool,
                self.recorder,
                setup,
                match_id=match_id,
                metadata=metadata(principal),
                once=once,
                token_id=principal.token_id,
            )

        try:
            recorded = await self.recording(idem, 201, answer.render, create)
        except VersionConflictError:
            # The id is taken. Say no more: the match may be one the caller cannot read.
            raise ConflictError(
                f"a match with id {str(match_id)!r} already exists",
                code="ALREADY_EXISTS",
                details={"id": str(match_id)},
            ) from None
        if isinstance(recorded, StoredAnswer):
            return replayed(recorded)
        return Response(
            answer.content(recorded),
            status_code=201,
            headers={"ETag": etag(recorded.version), "Location": f"/matches/{match_id}"},
        )

    async def idempotent(self, key: str | None) -> IdempotentRequest | None:
        """Return the write's idempotent request (``None`` without a key).

        Raises:
            MalformedError (VALIDATION_FAILED): an empty or over-long key.
        """
        if key is None:
            return None
        request = self.request
        body = await request.body()
        return IdempotentRequest.from_request(
            self.principal, key, request.method, request.url.path, body
        )

    async def recording(
        self,
        idem: IdempotentRequest | None,
        status_code: int,
        render: Render,
        write: Callable[[OnceKey | None], Awaitable[Recorded]],
    ) -> Recorded | StoredAnswer:
        """``record_once``, forgetting the token if the write's transaction refused it."""
        try:
            return await record_once(idem, self.pool, status_code, render, write)
        except UnauthenticatedError:
            tokens: KnownTokens = self.request.app.state.tokens
            tokens.forget(self.principal.token_id)
            raise

    async def _writable(self, match_id: UUID) -> MatchKey:
        keys: MatchKeys = self.request.app.state.match_keys
        key = keys.get(match_id)
        if key is None:
            row = await readable_match(self.pool, self.principal, match_id)
            key = MatchKey(row["stream"], row["game"], row["competition_id"], row["fixture_id"])
            keys.put(match_id, key)
        # A writer passes require_read_of whenever it passes this.
        require_scope(self.principal, key.competition_id)
        return key


async def provide_writer(request: Request[Any, Any, Any]) -> Writer:
    """Dependency ``writer`` of the match writes (``authorize`` made sure of a principal).

    One dependency where three would do: Litestar resolves several dependencies of a
    handler in an anyio task group, a task each, which took 9% of a worker's CPU at
    32 live matches (py-spy; the figures with and without are in docs/benchmarks.md).
    """
    principal = await authenticate(request)
    assert principal is not None, "a write's guard requires a principal"
    state = request.app.state
    return Writer(request, principal, state.pool, state.recorder)


def _expected_version(if_match: str | None, field: int | None) -> int:
    if if_match is not None:
        return parse_if_match(if_match)
    if field is not None:
        return field
    raise PreconditionRequiredError(
        "say which version you last saw: send If-Match (the ETag) or expected_version",
        details={"field": "If-Match"},
    )


def metadata(principal: Principal) -> dict[str, Any]:
    """Return the metadata a write's events carry: the token and its role."""
    return {"token_id": str(principal.token_id), "role": principal.role.value}


def replayed(answer: StoredAnswer) -> Response[Any]:
    """Return a stored answer again, byte for byte, marked as replayed."""
    headers = {"Idempotent-Replayed": "true"}
    version = json.loads(answer.body).get("version")
    if version is not None:
        headers["ETag"] = etag(int(version))
    return Response(answer.body.encode(), status_code=answer.status_code, headers=headers)


__all__ = [
    "IF_MATCH_PATTERN",
    "Commands",
    "IdempotencyKey",
    "IfMatch",
    "MatchKey",
    "MatchKeys",
    "Writer",
    "etag",
    "match_out",
    "metadata",
    "parse_if_match",
    "provide_writer",
    "recorded_out",
    "replayed",
]
