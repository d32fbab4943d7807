"""append_batch: several streams in one statement, as sequential appends would do."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final, TypeVar
from uuid import UUID, uuid4

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings

from domain.events import NewEvent
from store import migrate
from store.chain import verify
from store.events import (
    MAX_EVENTS_PER_TRANSACTION,
    AppendResult,
    EventIdConflictError,
    VersionConflictError,
    append,
    append_batch,
    read_stream,
)
from tests.database import fresh_database
from tests.strategies import append_batch_plans

T = TypeVar("T")
Conn = psycopg.AsyncConnection[Any]
Item = tuple[str, Sequence[NewEvent], int | None]

# Each row as the two ways of appending must agree on: everything but the
# transaction id in the position, the clock (NULL where the clock was taken) and
# the hashes, which cover both (chain v2); each database's chain must verify.
ROW_COLUMNS = (
    "stream, version, event_id, type, data, metadata, chain_version, "
    "global_position & 65535, nullif(recorded_at, now())"
)
ROW_SQL = f"SELECT {ROW_COLUMNS} FROM events ORDER BY global_position"
STREAM_ROWS_SQL = (
    f"SELECT {ROW_COLUMNS} FROM events WHERE stream = ANY(%s) ORDER BY global_position"
)

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def move(n: int = 0, event_id: UUID | None = None, at: datetime | None = None) -> NewEvent:
    return NewEvent(
        event_id or uuid4(),
        "CardPlayed",
        {"seat": n % 2, "card": "7H", "n": n},
        {"by": "test", "n": n},
        recorded_at=at,
    )


def moves(count: int, first: int = 0) -> list[NewEvent]:
    return [move(n) for n in range(first, first + count)]


def plan() -> list[Item]:
    """Items that touch every rule: heads, any-version, a repeat, a retry, given times."""
    a1, a2, b1 = moves(3), moves(2, 3), moves(2)
    timed = [move(n, at=START + timedelta(seconds=n)) for n in range(2)]
    mixed = [move(0, at=START), move(1)]
    return [
        ("cuttle-a", a1, 0),
        ("kozel-b", b1, None),
        ("cuttle-a", a2, 3),
        ("cuttle-a", a1, 0),
        ("kozel-c", timed, 0),
        ("kozel-b", mixed, 2),
    ]


def shape(result: AppendResult) -> tuple[Any, ...]:
    return (
        result.version,
        result.already_recorded,
        [(e.stream, e.version, e.event_id, dict(e.metadata)) for e in result.events],
    )


async def batch_rows(url: str, items: list[Item]) -> tuple[list[AppendResult], list[Any]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        results = await append_batch(conn, items)
        rows = await (await conn.execute(ROW_SQL)).fetchall()
        await conn.commit()
        return results, rows


async def sequential_rows(url: str, items: list[Item]) -> tuple[list[AppendResult], list[Any]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        results = [
            await append(conn, stream, events, expected, channel=None)
            for stream, events, expected in items
        ]
        rows = await (await conn.execute(ROW_SQL)).fetchall()
        await conn.commit()
        return results, rows


async def committed_batch(url: str, items: list[Item]) -> list[AppendResult]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        results = await append_batch(conn, items)
        await conn.commit()
        return results


async def failed_batch(url: str, items: list[Item]) -> tuple[Exception, list[list[int]]]:
    """Run a batch that fails, roll back, and return the error and every stream's versions."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        try:
            await append_batch(conn, items)
        except (VersionConflictError, EventIdConflictError) as e:
            error: Exception = e
        else:
            raise AssertionError("the batch did not fail")
        await conn.rollback()
        versions = [[e.version for e in await read_stream(conn, s)] for s, _, _ in items]
        return error, versions


async def committed_append(url: str, stream: str, events: list[NewEvent]) -> AppendResult:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        result = await append(conn, stream, events, None)
        await conn.commit()
        return result


async def verified(url: str) -> Any:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        return await verify(conn)


@pytest.fixture(name="other_database_url")
def _other_database_url(admin_url: str, template_database: str) -> Iterator[str]:
    """A second fresh database, to append the same items the other way."""
    with fresh_database(admin_url, template_database) as url:
        yield url


def concrete_items(plan: list[tuple[int, int, str, int | None]]) -> list[Item]:
    """Turn an abstract plan into items on fresh streams, tracking the heads."""
    suffix = uuid4()
    streams = [f"cuttle-{n}-{suffix}" for n in range(3)]
    heads = [0, 0, 0]
    items: list[Item] = []
    for n, (stream_index, count, expect, repeats) in enumerate(plan):
        if repeats is not None and repeats < n:
            stream, events, expected = items[repeats]
            items.append((stream, events, expected))
            continue
        head = heads[stream_index]
        expected = {"head": head, "any": None, "stale": head - 1 if head else 1}[expect]
        items.append((streams[stream_index], moves(count, head), expected))
        heads[stream_index] += count
    return items


async def outcome(url: str, items: list[Item], *, batch: bool) -> tuple[Any, ...]:
    """Append ``items`` either way; return the results (or error code) and the rows."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        results: Any
        try:
            if batch:
                results = [shape(r) for r in await append_batch(conn, items)]
            else:
                results = [
                    shape(await append(conn, stream, events, expected, channel=None))
                    for stream, events, expected in items
                ]
        except (VersionConflictError, EventIdConflictError) as e:
            results = e.code
            await conn.rollback()
        # Only this example's streams: earlier examples' clock times differ.
        streams = sorted({stream for stream, _, _ in items})
        rows = await (await conn.execute(STREAM_ROWS_SQL, (streams,))).fetchall()
        await conn.commit()
        return results, rows, (await verify(conn)).problems


class TestSameAsSequentialAppends:
    def test_rows_and_results_match(
        self, database_url: str, admin_url: str, template_database: str
    ) -> None:
        """The same items, batched in one database and appended one by one in another."""
        items = plan()
        with fresh_database(admin_url, template_database) as other_url:
            batched, batched_rows = run(batch_rows(database_url, items))
            sequential, sequential_rows_ = run(sequential_rows(other_url, items))
            assert [] == run(verified(database_url)).problems == run(verified(other_url)).problems
        assert [shape(r) for r in sequential] == [shape(r) for r in batched]
        assert sequential_rows_ == batched_rows

    # The fixtures are per test, not per example: each example appends to streams
    # of its own in the same two databases, which both see the same history.
    @settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(plan=append_batch_plans)
    def test_any_plan_matches(
        self,
        database_url: str,
        other_database_url: str,
        plan: list[tuple[int, int, str, int | None]],
    ) -> None:
        """Random items, conflicts and retries included, batched and appended one by one."""
        items = concrete_items(plan)
        batched = run(outcome(database_url, items, batch=True))
        sequential = run(outcome(other_database_url, items, batch=False))
        assert sequential == batched
        assert [] == batched[2]

    def test_distinct_streams_with_heads_match(
        self, database_url: str, admin_url: str, template_database: str
    ) -> None:
        """The set-based path (distinct streams, no recorded ids) after earlier appends,
        in a transaction that appended before, against events_append one by one; and a
        stale version in its third item refused as events_append refuses it."""
        first: list[Item] = [("cuttle-a", moves(3), 0), ("kozel-b", moves(2), 0)]
        timed = [move(n, at=START + timedelta(seconds=n)) for n in range(5, 7)]
        items: list[Item] = [
            ("kozel-b", moves(2, 2), 2),
            ("cuttle-a", timed, None),
            ("kozel-c", moves(1), 0),
        ]
        stale: list[Item] = [("cuttle-a", moves(1, 9), 5), ("kozel-b", moves(1, 9), 3)]
        earlier = moves(1)

        async def appended(url: str, batch: bool) -> tuple[list[Any], list[Any], Any]:
            async with await psycopg.AsyncConnection.connect(url) as conn:
                for stream, events, expected in first:
                    await append(conn, stream, events, expected, channel=None)
                await conn.commit()
                await append(conn, "kozel-d", earlier, 0, channel=None)  # wrote before
                if batch:
                    results = await append_batch(conn, items)
                else:
                    results = [await append(conn, *item, channel=None) for item in items]
                # This transaction's rows: the first one's took each database's clock.
                rows = await (
                    await conn.execute(
                        f"SELECT {ROW_COLUMNS} FROM events WHERE tx_id = pg_current_xact_id()"
                        " ORDER BY global_position"
                    )
                ).fetchall()
                await conn.commit()
                try:
                    if batch:
                        await append_batch(conn, stale)
                    else:
                        for item in stale:
                            await append(conn, *item, channel=None)
                except VersionConflictError as e:
                    refused: Any = (e.code, e.details["current_version"])
                else:
                    refused = None
                await conn.rollback()
                return [shape(r) for r in results], rows, refused

        with fresh_database(admin_url, template_database) as other_url:
            batched = run(appended(database_url, batch=True))
            sequential = run(appended(other_url, batch=False))
            assert [] == run(verified(database_url)).problems == run(verified(other_url)).problems
        assert sequential == batched
        assert ("VERSION_CONFLICT", 4) == batched[2]

    def test_results_are_what_is_read_back(self, database_url: str) -> None:
        items = plan()
        results = run(committed_batch(database_url, items))

        async def streams(conn: Conn) -> dict[str, list[Any]]:
            return {s: await read_stream(conn, s) for s in ("cuttle-a", "kozel-b", "kozel-c")}

        async def read() -> dict[str, list[Any]]:
            async with await psycopg.AsyncConnection.connect(database_url) as conn:
                return await streams(conn)

        stored = run(read())
        fresh = [r for r in results if not r.already_recorded]
        expected = {
            s: [e for r in fresh for e in r.events if e.stream == s] for s in sorted(stored)
        }
        assert expected == stored

    def test_verify_passes(self, database_url: str) -> None:
        run(committed_batch(database_url, plan()))
        run(committed_batch(database_url, [("cuttle-a", moves(2, 5), 5), ("kozel-d", moves(1), 0)]))
        assert [] == run(verified(database_url)).problems

    def test_positions_increase_in_item_order(self, database_url: str) -> None:
        results = run(
            committed_batch(
                database_url, [(s, moves(3), 0) for s in ("kozel-x", "cuttle-y", "kozel-z")]
            )
        )
        positions = [p for r in results for p in r.positions]
        assert sorted(set(positions)) == positions

    def test_follows_an_append_in_the_same_transaction(self, database_url: str) -> None:
        async def body() -> list[int]:
            async with await psycopg.AsyncConnection.connect(database_url) as conn:
                first = await append(conn, "cuttle-a", moves(2), 0)
                batch = await append_batch(
                    conn, [("cuttle-a", moves(1), 2), ("kozel-b", moves(2), 0)]
                )
                return [*first.positions, *(p for r in batch for p in r.positions)]

        positions = run(body())
        assert sorted(set(positions)) == positions


class TestRepeatedStreams:
    def test_later_item_sees_the_earlier_one(self, database_url: str) -> None:
        results = run(
            committed_batch(database_url, [("cuttle-a", moves(2), 0), ("cuttle-a", moves(1), 2)])
        )
        assert [[1, 2], [3]] == [[e.version for e in r.events] for r in results]

    def test_identical_item_twice_is_already_recorded(self, database_url: str) -> None:
        events = moves(3)
        first, second = run(
            committed_batch(database_url, [("cuttle-a", events, 0), ("cuttle-a", events, 0)])
        )
        assert (False, True) == (first.already_recorded, second.already_recorded)
        assert first.positions == second.positions
        assert [dict(e.metadata) for e in first.events] == [dict(e.metadata) for e in second.events]

    def test_retry_of_a_committed_batch_is_already_recorded(self, database_url: str) -> None:
        items = [("cuttle-a", moves(2), 0), ("kozel-b", moves(1), 0)]
        first = run(committed_batch(database_url, items))
        retry = run(committed_batch(database_url, items))
        assert [r.positions for r in first] == [r.positions for r in retry]
        assert [True, True] == [r.already_recorded for r in retry]


class TestRecordedAt:
    def test_given_times_are_stored_and_none_takes_the_clock(self, database_url: str) -> None:
        async def body() -> tuple[list[datetime], datetime]:
            async with await psycopg.AsyncConnection.connect(database_url) as conn:
                events = [move(0, at=START), move(1), move(2, at=START + timedelta(hours=1))]
                (result,) = await append_batch(conn, [("kozel-a", events, 0)])
                now = (await (await conn.execute("SELECT now()")).fetchall())[0][0]
                return [e.recorded_at for e in result.events], now

        stored, now = run(body())
        assert [START, now, START + timedelta(hours=1)] == stored

    def test_no_times_given_takes_the_clock(self, database_url: str) -> None:
        (result,) = run(committed_batch(database_url, [("kozel-a", moves(2), 0)]))
        assert 1 == len({e.recorded_at for e in result.events})


class TestErrors:
    def test_version_conflict_in_the_second_item_rolls_back_the_first(
        self, database_url: str
    ) -> None:
        run(committed_append(database_url, "kozel-b", moves(2)))
        items: list[Item] = [
            ("cuttle-a", moves(2), 0),
            ("kozel-b", moves(1), 1),
            ("cuttle-c", moves(1), 0),
        ]
        error, versions = run(failed_batch(database_url, items))
        assert isinstance(error, VersionConflictError)
        assert "VERSION_CONFLICT" == error.code
        assert (["cuttle-a", "kozel-b", "cuttle-c"], 2) == (
            error.details["streams"],
            error.details["current_version"],
        )
        assert [[], [1, 2], []] == versions

    def test_event_id_conflict_in_the_second_item_rolls_back_the_first(
        self, database_url: str
    ) -> None:
        taken = move(0)
        run(committed_append(database_url, "kozel-b", [taken]))
        items: list[Item] = [
            ("cuttle-a", moves(2), 0),
            ("cuttle-d", [move(1), taken], 0),
            ("cuttle-c", moves(1), 0),
        ]
        error, versions = run(failed_batch(database_url, items))
        assert isinstance(error, EventIdConflictError)
        assert "EVENT_ID_CONFLICT" == error.code
        assert [[], [], []] == versions

    def test_an_id_in_two_streams_of_one_batch_fails(self, database_url: str) -> None:
        shared = move(0)
        items: list[Item] = [("cuttle-a", [shared], 0), ("cuttle-b", [shared], 0)]
        error, versions = run(failed_batch(database_url, items))
        assert "EVENT_ID_CONFLICT" == getattr(error, "code", None)
        assert [[], []] == versions

    def test_repeated_id_within_an_item_fails_before_the_database(self, database_url: str) -> None:
        event = move(0)
        with pytest.raises(EventIdConflictError) as e:
            run(
                with_closed(
                    database_url, [("cuttle-b", moves(1), 0), ("cuttle-a", [event, event], 0)]
                )
            )
        assert "EVENT_ID_CONFLICT" == e.value.code

    def test_item_without_events_is_refused(self, database_url: str) -> None:
        with pytest.raises(ValueError):
            run(with_closed(database_url, [("cuttle-a", moves(1), 0), ("kozel-b", [], 0)]))

    def test_too_many_events_are_refused(self, database_url: str) -> None:
        events = [NewEvent(uuid4(), "T", {}) for _ in range(MAX_EVENTS_PER_TRANSACTION + 1)]
        items: list[Item] = [("cuttle-a", events[:10], 0), ("cuttle-b", events[10:], 0)]
        with pytest.raises(ValueError):
            run(with_closed(database_url, items))

    def test_empty_batch_sends_no_query(self, database_url: str) -> None:
        assert [] == run(with_closed(database_url, []))


async def with_closed(url: str, items: list[Item]) -> list[AppendResult]:
    """Call append_batch on a closed connection: it fails if the call sends a query."""
    conn = await psycopg.AsyncConnection.connect(url)
    await conn.close()
    return await append_batch(conn, items)


# The arguments of events_append_batch as array literals, but ids and hash prefixes.
VALID_ARGS: Final[Mapping[str, str | None]] = {
    "streams": "{cuttle-a,cuttle-b}",
    "expected": "{0,NULL}",
    "counts": "{1,2}",
    "types": "{T,T,T}",
    "data": '{"{}","{}","{}"}',
    "metadata": '{"{}","{}","{}"}',
    "recorded_at": None,
}


class TestSqlFunction:
    def test_accepts_arrays_that_add_up(self, database_url: str) -> None:
        rows = call_batch_function(database_url, VALID_ARGS)
        assert [(1, 1), (2, 1), (2, 2)] == [(row[0], row[2]) for row in rows]

    @pytest.mark.parametrize(
        "change",
        [
            {"streams": "{}", "expected": "{}", "counts": "{}"},
            {"expected": "{0}"},
            {"counts": "{1}"},
            {"counts": "{1,NULL}"},
            {"counts": "{0,3}"},
            {"counts": "{1,1}"},
            {"types": "{T,T}"},
            {"data": '{"{}","{}","{}","{}"}'},
            {"metadata": '{"{}","{}"}'},
            {"recorded_at": "{NULL,NULL}"},
        ],
    )
    def test_refuses_arrays_that_do_not_add_up(
        self, database_url: str, change: dict[str, str]
    ) -> None:
        with pytest.raises(psycopg.Error) as e:
            call_batch_function(database_url, {**VALID_ARGS, **change})
        assert "MLA01" == e.value.sqlstate

    def test_is_dropped_by_its_downgrade(self, owner_url: str) -> None:
        def exists() -> bool:
            with psycopg.connect(owner_url) as conn:
                row = conn.execute("SELECT to_regproc('events_append_batch')").fetchone()
            return row is not None and row[0] is not None

        migrate.downgrade(owner_url, "0006")
        dropped = not exists()
        migrate.upgrade(owner_url)
        assert (True, True) == (dropped, exists())


def call_batch_function(url: str, args: Mapping[str, str | None]) -> list[tuple[Any, ...]]:
    """Call events_append_batch with array literals and fresh ids."""
    ids = [str(uuid4()) for _ in range(3)]
    values = [
        args["streams"],
        args["expected"],
        args["counts"],
        "{" + ",".join(ids) + "}",
        args["types"],
        args["data"],
        args["metadata"],
        args["recorded_at"],
    ]
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT * FROM events_append_batch(%s::text[], %s::bigint[], %s::int[], "
            "%s::uuid[], %s::text[], %s::text[], %s::text[], %s::timestamptz[])",
            values,
        ).fetchall()
