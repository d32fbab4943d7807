"""Recorder.record_batch: several requests in one transaction, each all or none."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg_pool import AsyncConnectionPool

from domain.errors import DomainError
from domain.events import RecordedEvent
from domain.stream import CreateMatch, MatchConfig, Play
from store.events import VersionConflictError, read_stream
from store.recorder import (
    EventIdentity,
    Projection,
    Recorded,
    Recorder,
    Request,
    StartRound,
    shuffled_deal,
)
from store.turns import LocalLine

T = TypeVar("T")

CONFIG = MatchConfig("cuttle", "standard", ("a", "b"), 0, dealing="scorer", format="quick")


def with_recorder(
    url: str, body: Callable[[Recorder], Awaitable[T]], projectors: Sequence[Any] = ()
) -> T:
    async def main() -> T:
        async with AsyncConnectionPool(url, min_size=1, max_size=2, open=False) as pool:
            return await body(Recorder(pool, projectors))

    return asyncio.run(main())


def recorded(url: str, stream: str) -> list[RecordedEvent]:
    async def main() -> list[RecordedEvent]:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            return await read_stream(conn, stream)

    return asyncio.run(main())


def versions(url: str, stream: str) -> list[int]:
    return [e.version for e in recorded(url, stream)]


def create(stream: str) -> Request:
    return Request(stream, [CreateMatch(CONFIG)], expected_version=0)


class TestOutcomes:
    def test_a_refused_request_leaves_the_others_recorded(self, database_url: str) -> None:
        requests = [
            create("cuttle-a"),
            Request("cuttle-b", [Play("P0 draw")], 0),
            create("cuttle-c"),
        ]
        outcomes = with_recorder(database_url, lambda r: r.record_batch(requests))
        assert isinstance(outcomes[0], Recorded) and isinstance(outcomes[2], Recorded)
        assert isinstance(outcomes[1], DomainError)
        assert ([1], [], [1]) == tuple(
            versions(database_url, s) for s in ("cuttle-a", "cuttle-b", "cuttle-c")
        )

    def test_a_refused_append_is_recorded_request_by_request(self, database_url: str) -> None:
        """The second request's stream exists: the batch rolls back, then each goes alone."""
        with_recorder(database_url, lambda r: r.record_batch([create("cuttle-x")]))
        requests = [create("cuttle-a"), create("cuttle-x"), create("cuttle-c")]
        # A new recorder has not seen cuttle-x, so it decides it as new.
        outcomes = with_recorder(database_url, lambda r: r.record_batch(requests))
        assert isinstance(outcomes[1], VersionConflictError)
        assert 1 == outcomes[1].details["current_version"]
        assert isinstance(outcomes[0], Recorded) and isinstance(outcomes[2], Recorded)
        assert ([1], [1], [1]) == tuple(
            versions(database_url, s) for s in ("cuttle-a", "cuttle-x", "cuttle-c")
        )

    def test_requests_of_one_stream_are_recorded_in_turn(self, database_url: str) -> None:
        """The second is decided against the first's events, as two ``record`` calls."""
        deal = StartRound(shuffled_deal(CONFIG, random.Random(1)))
        requests = [create("cuttle-m"), Request("cuttle-m", [deal], 1)]
        outcomes = with_recorder(database_url, lambda r: r.record_batch(requests))
        assert all(isinstance(o, Recorded) for o in outcomes), outcomes
        assert [1, 2] == versions(database_url, "cuttle-m")

    def test_a_repeated_request_conflicts_with_the_first(self, database_url: str) -> None:
        identity = [EventIdentity(uuid.uuid4())]
        once = Request("cuttle-t", [CreateMatch(CONFIG)], 0, identities=identity)
        first, second = with_recorder(database_url, lambda r: r.record_batch([once, once]))
        assert isinstance(first, Recorded) and isinstance(second, VersionConflictError)
        assert [1] == versions(database_url, "cuttle-t")

    def test_record_raises_what_a_batch_returns(self, database_url: str) -> None:
        with_recorder(database_url, lambda r: r.record_batch([create("cuttle-r")]))

        async def again(recorder: Recorder) -> str:
            try:
                await recorder.record("cuttle-r", [CreateMatch(CONFIG)], expected_version=0)
            except VersionConflictError as e:
                return e.code
            return "recorded"

        assert "VERSION_CONFLICT" == with_recorder(database_url, again)


class TestOncePerTransaction:
    def test_projectors_and_the_hook_run_once_with_every_fresh_stream(
        self, database_url: str
    ) -> None:
        projected: list[list[str]] = []
        hooked: list[list[str]] = []

        async def spy(_: psycopg.AsyncConnection[Any], batch: Sequence[Projection]) -> None:
            projected.append([p.stream for p in batch])

        async def hook(_: psycopg.AsyncConnection[Any], done: Sequence[Recorded]) -> None:
            hooked.append([r.stream for r in done])

        requests = [
            create("cuttle-p"),
            Request("cuttle-q", [Play("P0 draw")], 0),
            create("cuttle-s"),
        ]
        with_recorder(
            database_url, lambda r: r.record_batch(requests, after_append=hook), projectors=[spy]
        )
        assert [["cuttle-p", "cuttle-s"]] == projected
        assert [["cuttle-p", "cuttle-s"]] == hooked


class TestTurns:
    def test_batches_append_in_their_turns_order(self, database_url: str) -> None:
        """The batch holding turn 1 starts first, yet appends after turn 0's."""

        async def both(recorder: Recorder) -> None:
            line = LocalLine()
            second = [create("cuttle-t1a"), create("cuttle-t1b")]
            later = asyncio.ensure_future(
                recorder.record_batch(second, on_transaction_start=line.turn(1).claim)
            )
            await asyncio.sleep(0.2)  # time enough to append, were it not waiting
            assert not later.done()
            await recorder.record_batch(
                [create("cuttle-t0")], on_transaction_start=line.turn(0).claim
            )
            await later

        with_recorder(database_url, both)
        first = {s: recorded(database_url, f"cuttle-{s}")[0] for s in ("t0", "t1a", "t1b")}
        assert first["t0"].global_position < first["t1a"].global_position
        assert first["t1a"].global_position < first["t1b"].global_position
