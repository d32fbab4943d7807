"""The recorder and store changes a lossless import needs: ids, times, metadata, a check."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, TypeVar

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from domain.errors import ConflictError, IllegalMoveError
from domain.events import Event, NewEvent
from domain.stream import CreateMatch, MatchConfig
from projections.matches import project_match_summary
from store.events import append, read_stream
from store.recorder import EventIdentity, Recorder

T = TypeVar("T")

CONFIG = MatchConfig("cuttle", "standard", ("a", "b"), 0, dealing="scorer", format="quick")
PLAYERS = (str(uuid.uuid4()), str(uuid.uuid4()))
WHEN = datetime(2025, 6, 1, 12, 30, 15, 123456, tzinfo=UTC)


def with_recorder(url: str, body: Callable[[Recorder], Awaitable[T]]) -> T:
    async def main() -> T:
        async with AsyncConnectionPool(url, min_size=1, max_size=1, open=False) as pool:
            return await body(Recorder(pool))

    return asyncio.run(main())


def stored(url: str, stream: str) -> list[Any]:
    async def main() -> list[Any]:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            return list(await read_stream(conn, stream))

    return asyncio.run(main())


class TestIdentities:
    def test_ids_times_and_metadata_are_kept(self, database_url: str) -> None:
        event_id = uuid.uuid4()
        identity = EventIdentity(event_id, WHEN, {"by": "log"})
        with_recorder(
            database_url,
            lambda r: r.record(
                "cuttle-1", [CreateMatch(CONFIG)], expected_version=0, identities=[identity]
            ),
        )
        [event] = stored(database_url, "cuttle-1")
        assert (event_id, WHEN, {"by": "log"}) == (
            event.event_id,
            event.recorded_at,
            event.metadata,
        )

    def test_identity_count_must_match(self, database_url: str) -> None:
        with pytest.raises(ConflictError) as e:
            with_recorder(
                database_url,
                lambda r: r.record(
                    "cuttle-2", [CreateMatch(CONFIG)], expected_version=0, identities=[]
                ),
            )
        assert "EVENT_COUNT_MISMATCH" == e.value.code
        assert [] == stored(database_url, "cuttle-2")

    def test_check_refuses_before_anything_is_written(self, database_url: str) -> None:
        def check(events: Sequence[Event]) -> None:
            raise IllegalMoveError("not these", code="EVENT_MISMATCH")

        with pytest.raises(IllegalMoveError) as e:
            with_recorder(
                database_url,
                lambda r: r.record(
                    "cuttle-3", [CreateMatch(CONFIG)], expected_version=0, check=check
                ),
            )
        assert "EVENT_MISMATCH" == e.value.code
        assert [] == stored(database_url, "cuttle-3")


class TestAppendRecordedAt:
    def test_given_and_missing_times_mix(self, database_url: str) -> None:
        async def main() -> Any:
            async with await psycopg.AsyncConnection.connect(database_url) as conn:
                return await append(
                    conn,
                    "kozel-9",
                    [
                        NewEvent(uuid.uuid4(), "A", {}, recorded_at=WHEN),
                        NewEvent(uuid.uuid4(), "B", {}),
                    ],
                    0,
                )

        result = asyncio.run(main())
        first, second = result.events
        assert WHEN == first.recorded_at
        assert second.recorded_at > WHEN


class TestRacingImports:
    def test_the_second_of_two_racing_imports_projects_nothing(self, database_url: str) -> None:
        """Two imports of one log race: the loser's append is an idempotent retry."""
        identities = [EventIdentity(uuid.uuid4(), WHEN)]
        stream = "cuttle-" + str(uuid.uuid4())

        async def hold(conn: Any, recorded: Any) -> None:
            await asyncio.sleep(0.5)  # keep the first transaction open across the second

        async def one(delay: float, after_append: Any) -> Any:
            await asyncio.sleep(delay)
            async with AsyncConnectionPool(
                database_url, min_size=1, max_size=1, open=False
            ) as pool:
                recorder = Recorder(pool, [project_match_summary])
                return await recorder.record(
                    stream,
                    [CreateMatch(replace(CONFIG, players=PLAYERS))],
                    expected_version=0,
                    identities=identities,
                    after_append=after_append,
                )

        async def race() -> list[Any]:
            return list(await asyncio.gather(one(0, hold), one(0.2, None)))

        first, second = asyncio.run(race())
        assert (False, True) == (first.already_recorded, second.already_recorded)
        with psycopg.connect(database_url) as conn:
            row = conn.execute(
                "SELECT count(*) FROM matches WHERE stream = %s", (stream,)
            ).fetchone()
        assert (1,) == row
